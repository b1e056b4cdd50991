/* report_fndiff.c — see report_fndiff.h. */
#include "report_fndiff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"
#include "report_esc.h"

/* The function_diff of check c when it failed or is inconclusive, else NULL. */
static const cJSON *diff_of(const cJSON *c)
{
    const char *v = bg_json_str(c, "verdict");
    if (!v || (strcmp(v, "fail") && strcmp(v, "inconclusive")))
        return NULL;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "details"),
                                                      "function_diff");
    return cJSON_IsObject(d) ? d : NULL;
}

static int any_diff(const bg_report_model *m)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) if (diff_of(c)) return 1;
    return 0;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *unit_of(const cJSON *d)
{
    const char *m = bg_json_str(d, "metric");
    return m && !strcmp(m, "estimated_cycles") ? "estimated cycles" : "Ir";
}

/* "<name>: +X <unit> (S % of the change)" of the top self row, Markdown. */
static void md_top(FILE *f, const cJSON *d)
{
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "self"), 0);
    const char *fn = bg_json_str(t, "function");
    if (!fn) {
        fprintf(f, "No function changed beyond the rounding of the N − N/2 difference.\n\n");
        return;
    }
    fprintf(f, "Top function: **");
    bg_md_code(f, fn, 160);
    fprintf(f, "** %+.6g %s per iteration, **%.1f %% of the change**.\n\n", num(t, "change"), unit_of(d),
            100 * num(t, "share"));
}

static void md_rows(FILE *f, const cJSON *d, const char *key, const char *title)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(d, key), *r;
    if (!cJSON_GetArraySize(a))
        return;
    fprintf(f, "| %s | base | head | change | share |\n|---|---:|---:|---:|---:|\n", title);
    cJSON_ArrayForEach(r, a) {
        fprintf(f, "| ");
        bg_md_code(f, bg_json_str(r, "function") ? bg_json_str(r, "function") : "?", 160);
        fprintf(f, " | %.6g | %.6g | %+.6g | %.1f %% |\n", num(r, "base"), num(r, "head"), num(r, "change"),
                100 * num(r, "share"));
    }
    fprintf(f, "\n");
}

void bg_report_md_fndiff(FILE *f, const bg_report_model *m)
{
    if (!any_diff(m))
        return;
    fprintf(f, "### Which function got slower\n\nPer failing or unresolved instruction-count "
               "(`perf.callgrind.*`) and estimated-cycles (`perf.callgrind_cycles.*`) judgement: "
               "head − base per iteration by function, self and inclusive, with the share of the "
               "total change (docs/perf_budgets.md \"Which function got slower\"; report.html draws "
               "the differential flame graph).\n\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        const cJSON *d = diff_of(c);
        if (!d)
            continue;
        double bt = num(d, "base_total"), ht = num(d, "head_total");
        fprintf(f, "#### ");
        bg_md_code(f, bg_json_str(c, "name") ? bg_json_str(c, "name") : "?", 200);
        fprintf(f, " — %s: %s per iteration %.6g → %.6g (%+.3f %%)\n\n", bg_json_str(c, "verdict"),
                unit_of(d), bt, ht, bt != 0 ? 100 * (ht - bt) / bt : 0.0);
        md_top(f, d);
        md_rows(f, d, "self", "by self change");
        md_rows(f, d, "inclusive", "by inclusive change");
    }
}

/* ---- the differential flame graph ----------------------------------------- */

typedef struct fnode {
    const char *name; /* points into the folded stack copy */
    size_t nlen;
    double base, head;           /* inclusive */
    double self_base, self_head; /* the stack ending here */
    int child, next;             /* first child, next sibling: indexes, -1 none */
} fnode;

typedef struct ftree {
    fnode *n;
    int len, cap;
    double maxd; /* largest |self change| */
} ftree;

static int node_new(ftree *t, const char *name, size_t len)
{
    if (t->len == t->cap) {
        int nc = t->cap ? 2 * t->cap : 256;
        fnode *nn = realloc(t->n, (size_t)nc * sizeof *nn);
        if (!nn)
            return -1;
        t->n = nn;
        t->cap = nc;
    }
    t->n[t->len] = (fnode){name, len, 0, 0, 0, 0, -1, -1};
    return t->len++;
}

/* The child of parent named name[0..len), created when absent. */
static int child_of(ftree *t, int parent, const char *name, size_t len)
{
    int last = -1;
    for (int k = t->n[parent].child; k >= 0; last = k, k = t->n[k].next)
        if (t->n[k].nlen == len && !memcmp(t->n[k].name, name, len))
            return k;
    int k = node_new(t, name, len);
    if (k < 0)
        return -1;
    if (last < 0)
        t->n[parent].child = k;
    else
        t->n[last].next = k;
    return k;
}

static int build(ftree *t, const cJSON *folded)
{
    if (node_new(t, "all", 3) < 0)
        return -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, folded) {
        const cJSON *s = cJSON_GetArrayItem(e, 0), *b = cJSON_GetArrayItem(e, 1), *h = cJSON_GetArrayItem(e, 2);
        if (!cJSON_IsString(s) || !cJSON_IsNumber(b) || !cJSON_IsNumber(h))
            continue;
        int at = 0;
        t->n[0].base += b->valuedouble;
        t->n[0].head += h->valuedouble;
        for (const char *p = s->valuestring; at >= 0;) {
            const char *q = strchr(p, ';');
            size_t len = q ? (size_t)(q - p) : strlen(p);
            at = child_of(t, at, p, len);
            if (at < 0)
                return -1;
            t->n[at].base += b->valuedouble;
            t->n[at].head += h->valuedouble;
            if (!q) {
                t->n[at].self_base += b->valuedouble;
                t->n[at].self_head += h->valuedouble;
                double dd = fabs(t->n[at].self_head - t->n[at].self_base);
                t->maxd = dd > t->maxd ? dd : t->maxd;
                break;
            }
            p = q + 1;
        }
    }
    return 0;
}

/* Rows drawn from node k up (frames narrower than 0.4 px are not drawn). */
static int depth_of(const ftree *t, int k, double scale)
{
    if (t->n[k].head * scale < 0.4)
        return 0;
    int d = 0;
    for (int c = t->n[k].child; c >= 0; c = t->n[c].next) {
        int x = depth_of(t, c, scale);
        d = x > d ? x : d;
    }
    return d + 1;
}

#define FG_W 960.0
#define FG_ROW 17

/* The first len bytes of name, escaped (names point into their folded stack). */
static void put_name(FILE *f, const char *name, size_t len)
{
    char *tmp = malloc(len + 1);
    if (!tmp)
        return;
    memcpy(tmp, name, len);
    tmp[len] = 0;
    bg_html_text(f, tmp, len);
    free(tmp);
}

static void frame(FILE *f, const ftree *t, int k, double x, double scale, int level, int height)
{
    const fnode *n = &t->n[k];
    double w = n->head * scale;
    if (w < 0.4)
        return;
    double d = n->self_head - n->self_base, a = t->maxd > 0 ? fabs(d) / t->maxd : 0;
    int r = 230, g = 230, b = 230; /* no change of its own: grey */
    if (d > 0 && a > 0.001) { r = 255; g = b = (int)(230 - 200 * a); }
    else if (d < 0 && a > 0.001) { b = 255; r = g = (int)(230 - 200 * a); }
    double y = height - (level + 1) * FG_ROW;
    fprintf(f, "<g><title>");
    put_name(f, n->name, n->nlen < 400 ? n->nlen : 400);
    fprintf(f, " — base %.6g, head %.6g (inclusive); self change %+.6g</title>"
               "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" "
               "stroke=\"#fff\" stroke-width=\"0.5\"/>", n->base, n->head, d, x, y, w, FG_ROW - 1, r, g, b);
    size_t chars = (size_t)(w / 6.5);
    if (chars >= 3) {
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\">", x + 3, y + FG_ROW - 5);
        size_t len = n->nlen < chars - 1 ? n->nlen : chars - 1;
        put_name(f, n->name, len);
        fprintf(f, "%s</text>", len < n->nlen ? "…" : "");
    }
    fprintf(f, "</g>\n");
    for (int c = n->child; c >= 0; c = t->n[c].next) {
        frame(f, t, c, x, scale, level + 1, height);
        x += t->n[c].head * scale;
    }
}

static void flame(FILE *f, const cJSON *d)
{
    ftree t = {0};
    if (build(&t, cJSON_GetObjectItemCaseSensitive(d, "folded")) == 0 && t.n[0].head > 0) {
        int depth = depth_of(&t, 0, FG_W / t.n[0].head), height = depth * FG_ROW + 4;
        fprintf(f, "<p class=\"muted\">Differential flame graph (%s per iteration): width = the head's "
                   "inclusive cost, red = the frame's own cost grew, blue = it shrank, grey = unchanged; "
                   "hover for values. Stacks approximated from callgrind's caller–callee pairs.</p>\n"
                   "<svg class=\"flame\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
                   "xmlns=\"http://www.w3.org/2000/svg\">\n",
                unit_of(d), FG_W, height, FG_W, height);
        frame(f, &t, 0, 0, FG_W / t.n[0].head, 0, height);
        fprintf(f, "</svg>\n");
    }
    free(t.n);
}

static void html_rows(FILE *f, const cJSON *d, const char *key, const char *title)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(d, key), *r;
    if (!cJSON_GetArraySize(a))
        return;
    fprintf(f, "<table><tr><th>%s</th><th>base</th><th>head</th><th>change</th><th>share</th></tr>\n", title);
    cJSON_ArrayForEach(r, a) {
        fprintf(f, "<tr><td><code>");
        bg_html_text(f, bg_json_str(r, "function") ? bg_json_str(r, "function") : "?", 300);
        fprintf(f, "</code></td><td>%.6g</td><td>%.6g</td><td>%+.6g</td><td>%.1f %%</td></tr>\n", num(r, "base"),
                num(r, "head"), num(r, "change"), 100 * num(r, "share"));
    }
    fprintf(f, "</table>\n");
}

void bg_report_html_fndiff(FILE *f, const bg_report_model *m)
{
    if (!any_diff(m))
        return;
    fprintf(f, "<section id=\"fndiff\"><h2>Which function got slower</h2>\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        const cJSON *d = diff_of(c);
        if (!d)
            continue;
        const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "self"), 0);
        fprintf(f, "<h3><code>");
        bg_html_text(f, bg_json_str(c, "name") ? bg_json_str(c, "name") : "?", 300);
        fprintf(f, "</code> — %s</h3>\n", bg_json_str(c, "verdict"));
        if (bg_json_str(t, "function")) {
            fprintf(f, "<p>Top function: <b><code>");
            bg_html_text(f, bg_json_str(t, "function"), 300);
            fprintf(f, "</code></b> %+.6g %s per iteration, <b>%.1f %% of the change</b>.</p>\n",
                    num(t, "change"), unit_of(d), 100 * num(t, "share"));
        }
        flame(f, d);
        html_rows(f, d, "self", "by self change");
        html_rows(f, d, "inclusive", "by inclusive change");
    }
    fprintf(f, "</section>\n");
}
