/* report_html.c — see report_html.h.  Everything the page shows comes from
 * the model (report_data.c), the same one report.md is written from. */
#define _POSIX_C_SOURCE 200809L
#include "report_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_json.h"
#include "report_esc.h"
#include "report_fndiff.h"
#include "report_prochist.h"

#define HIST_MAX 32

static const char css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;"
    "color:#1f2328;background:#fff}"
    "main{max-width:1280px;margin:0 auto;padding:0 24px 48px}"
    "header{padding:18px 24px;color:#fff}header.pass{background:#1a7f37}header.fail{background:#cf222e}"
    "header h1{margin:0 0 4px;font-size:26px}header p{margin:2px 0}"
    "h2{margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de;font-size:20px}"
    "h3{margin:18px 0 6px;font-size:16px}"
    "code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    "pre{background:#f6f8fa;padding:6px 8px;margin:2px 0;white-space:pre-wrap;word-break:break-word}"
    "table{border-collapse:collapse;margin:6px 0 12px}"
    "th,td{border:1px solid #d0d7de;padding:3px 7px;text-align:left;vertical-align:top}"
    "th{background:#f6f8fa;font-weight:600}td.n{text-align:right}"
    ".scroll{overflow-x:auto;max-width:100%}"
    ".mx td{font-size:11px;text-align:center;max-width:120px;overflow-wrap:normal}"
    ".mx td:first-child{text-align:left;white-space:nowrap;max-width:none}"
    ".mx th{font-size:11px;max-width:90px;overflow-wrap:normal}"
    ".mx td.none{color:#57606a;font-style:italic}"
    "svg.chart{max-width:100%;height:auto}"
    ".v-pass{background:#dafbe1}.v-fail{background:#ffebe9;color:#a40e26;font-weight:600}"
    ".v-xfail{background:#fff8c5}.v-xpass{background:#ffd8b5;font-weight:600}"
    ".v-inconclusive{background:#eaeef2}.v-skip{background:#f6f8fa;color:#57606a}"
    ".v-limited{background:repeating-linear-gradient(135deg,#ddf4ff 0 6px,#eaeef2 6px 12px);color:#0550ae}"
    ".card{border:1px solid #d0d7de;border-left:6px solid #cf222e;border-radius:6px;padding:6px 12px;"
    "margin:8px 0}.card h3{margin:0 0 4px;font-size:15px}"
    ".card .k{color:#57606a;min-width:80px;display:inline-block}.card>div{margin:1px 0}"
    ".note{background:#ddf4ff;border:1px solid #54aeff;border-radius:6px;padding:6px 10px}"
    ".muted{color:#57606a}details{margin:6px 0}summary{cursor:pointer;font-weight:600}"
    "svg text{font:11px system-ui,sans-serif;fill:#1f2328}"
    ".hist{display:inline-block;margin:4px 12px 4px 0;vertical-align:top}";

static void esc(FILE *f, const char *s)
{
    bg_html_text(f, s, 100000);
}

static const char *vclass(const char *v)
{
    static const char *const known[] = {"pass", "fail", "xfail", "xpass", "inconclusive", "skip"};
    for (int i = 0; i < 6; i++)
        if (v && strcmp(v, known[i]) == 0)
            return known[i];
    return "fail";
}

/* "label value" on one line, or the value as a block when it is long or
 * spans lines (JSON objects are printed formatted). */
static void value_kv(FILE *f, const cJSON *c, const char *part)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, part);
    char *s = cJSON_IsString(v) ? NULL : cJSON_PrintUnformatted(v);
    const char *t = s ? s : (cJSON_IsString(v) ? v->valuestring : "null");
    fprintf(f, "<div><span class=\"k\">%s</span>", part);
    if (strlen(t) <= 160 && !strchr(t, '\n')) {
        fprintf(f, "<code>");
        bg_html_text(f, t, 160);
        fprintf(f, "</code></div>");
    } else {
        fprintf(f, "</div><pre>");
        bg_html_text(f, t, 4000);
        fprintf(f, "</pre>");
    }
    free(s);
}

static void value_pre(FILE *f, const cJSON *c, const char *part)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, part);
    char *s = cJSON_IsString(v) ? NULL : cJSON_Print(v);
    fprintf(f, "<pre>");
    bg_html_text(f, s ? s : (cJSON_IsString(v) ? v->valuestring : "null"), 4000);
    fprintf(f, "</pre>");
    free(s);
}

static void header(FILE *f, const bg_report_model *m)
{
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(m->doc, "host");
    int pass = strcmp(m->verdict, "PASS") == 0;
    fprintf(f, "<header class=\"%s\"><h1>buildgate: %s</h1><p>%d check%s: %d fail/xpass, %d "
               "inconclusive (%d from this host), %d skip</p><p>",
            pass ? "pass" : "fail", m->verdict, m->ntotal, m->ntotal == 1 ? "" : "s", m->nbad,
            (int)bg_json_num(m->summary, "inconclusive", 0), m->nhost_inconclusive,
            (int)bg_json_num(m->summary, "skip", 0));
    char cov[2048];
    bg_report_coverage(m, cov, sizeof cov);
    if (*cov) {
        fprintf(f, "<strong>Coverage</strong>: ");
        esc(f, cov);
        fprintf(f, "</p><p>");
    }
    const cJSON *x;
    int first = 1;
    cJSON_ArrayForEach(x, m->run) {
        if (!cJSON_IsString(x) || !bg_report_run_key_shown(x->string))
            continue;
        fprintf(f, "%s", first ? "Run: " : " · ");
        esc(f, x->string);
        fprintf(f, " <code>");
        esc(f, x->valuestring);
        fprintf(f, "</code>");
        first = 0;
    }
    fprintf(f, "</p><p>Host <code>");
    esc(f, bg_json_str(host, "key"));
    fprintf(f, "</code>: ");
    esc(f, bg_json_str(host, "cpu_model"));
    fprintf(f, ", %d CPUs, ", (int)bg_json_num(host, "ncpu", 0));
    esc(f, bg_json_str(host, "compiler"));
    fprintf(f, ". Generated ");
    esc(f, bg_json_str(m->doc, "generated"));
    fprintf(f, ".</p></header><main>\n");
}

static void failures(FILE *f, const bg_report_model *m)
{
    if (!m->nbad)
        return;
    fprintf(f, "<section id=\"failures\"><h2>Failures (%d)</h2>\n", m->nbad);
    for (int i = 0; i < m->nbad; i++) {
        const cJSON *c = m->bad[i];
        char next[1200], rerun[700];
        bg_report_next_step(c, next, sizeof next);
        bg_report_rerun(c, rerun, sizeof rerun);
        fprintf(f, "<div class=\"card\"><h3>%d. %s <code>", i + 1,
                strcmp(bg_json_str(c, "verdict"), "xpass") ? "FAIL" : "XPASS");
        esc(f, bg_json_str(c, "name"));
        fprintf(f, "</code></h3>");
        value_kv(f, c, "expected");
        value_kv(f, c, "observed");
        fprintf(f, "<div><span class=\"k\">where</span><code>");
        esc(f, bg_report_doc_for(c));
        fprintf(f, "</code><br><span class=\"k\">next</span>");
        bg_html_code_spans(f, next);
        if (*rerun) {
            fprintf(f, ".<br><span class=\"k\">rerun</span><code>");
            esc(f, rerun);
            fprintf(f, "</code>");
        }
        fprintf(f, "</div>");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
        if (d && !cJSON_IsNull(d)) {
            fprintf(f, "<details><summary>details</summary>");
            value_pre(f, c, "details");
            fprintf(f, "</details>");
        }
        fprintf(f, "</div>\n");
    }
    fprintf(f, "</section>\n");
}

static void causes(FILE *f, const bg_report_model *m)
{
    for (int host = 1; host >= 0; host--) {
        int n = 0;
        for (int i = 0; i < m->ncauses; i++)
            n += m->causes[i].host == host ? m->causes[i].n : 0;
        if (!n)
            continue;
        fprintf(f, "<section><h2>%s (%d inconclusive)</h2>\n%s<table><tr><th>#</th><th>cause</th>"
                   "<th>checks</th><th>checks covered</th></tr>\n",
                host ? "What this host cannot decide" : "Inconclusive for other reasons", n,
                host ? "<p class=\"muted\">These checks lack the power to decide on this host "
                       "whatever the change; each cause is stated once. The matrices below colour "
                       "what the host could decide and mark the rest <b>†n</b> (cause n).</p>"
                     : "");
        for (int i = 0; i < m->ncauses; i++) {
            const bg_rep_cause *cs = &m->causes[i];
            if (cs->host != host)
                continue;
            fprintf(f, "<tr><td>%d</td><td>", i + 1);
            esc(f, cs->text);
            fprintf(f, "</td><td class=\"n\">%d</td><td><details><summary>%d check%s</summary>", cs->n,
                    cs->n, cs->n == 1 ? "" : "s");
            for (int k = 0; k < cs->n; k++) {
                fprintf(f, "%s<code>", k ? "<br>" : "");
                esc(f, bg_json_str(cs->checks[k], "name"));
                fprintf(f, "</code>");
            }
            fprintf(f, "</details></td></tr>\n");
        }
        fprintf(f, "</table></section>\n");
    }
}

/* Runner versions judged by their bracket of measured versions (report.md's
 * "Verdicts inferred, not measured"): one row per runner version. */
static void inferred(FILE *f, const bg_report_model *m)
{
    if (!m->ninferred)
        return;
    fprintf(f, "<section><h2>Verdicts inferred, not measured (%d runner version%s)</h2>\n"
               "<p class=\"muted\">Never measured here: their known deviations were inferred from the "
               "measured versions around them; measuring one records it.</p><table><tr><th>#</th>"
               "<th>cause</th><th>checks</th><th>measure and adopt</th></tr>\n",
            m->ninferred, m->ninferred == 1 ? "" : "s");
    for (int i = 0; i < m->ninferred; i++) {
        const bg_rep_cause *cs = &m->inferred[i];
        const cJSON *inf = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(cs->checks[0], "details"), "inferred");
        fprintf(f, "<tr><td>%d</td><td>", i + 1);
        esc(f, cs->text);
        fprintf(f, "</td><td class=\"n\">%d</td><td>", cs->n);
        esc(f, bg_json_str(inf, "action") ? bg_json_str(inf, "action") : "");
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table></section>\n");
}

static void change_table(FILE *f, const char *title, const bg_rep_change *c, int n)
{
    if (!n)
        return;
    fprintf(f, "<details%s><summary>%s (%d)</summary><table><tr><th>check</th><th>base</th>"
               "<th>head</th></tr>\n",
            n <= 20 ? " open" : "", title, n);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<tr><td><code>");
        esc(f, c[i].name);
        fprintf(f, "</code></td><td class=\"v-%s\">%s</td><td class=\"v-%s\">%s</td></tr>\n",
                c[i].was ? vclass(c[i].was) : "skip", c[i].was ? c[i].was : "—",
                c[i].now ? vclass(c[i].now) : "skip", c[i].now ? c[i].now : "—");
    }
    fprintf(f, "</table></details>\n");
}

static void against_base(FILE *f, const bg_report_model *m)
{
    if (!m->base_path)
        return;
    fprintf(f, "<section><h2>Against the base</h2><p>Base results <code>");
    esc(f, m->base_path);
    fprintf(f, "</code>: %d new, %d vanished, %d changed verdict.</p>\n", m->nadded, m->nvanished,
            m->nchanged);
    change_table(f, "Changed verdict", m->changed, m->nchanged);
    change_table(f, "Vanished", m->vanished, m->nvanished);
    change_table(f, "New", m->added, m->nadded);
    fprintf(f, "</section>\n");
}

static const char *vcolor(const char *v)
{
    const char *c = vclass(v);
    if (strcmp(c, "pass") == 0)
        return "#1a7f37";
    if (strcmp(c, "inconclusive") == 0 || strcmp(c, "skip") == 0)
        return "#6e7781";
    if (strcmp(c, "xfail") == 0)
        return "#9a6700";
    return "#cf222e";
}

/* One row per benchmark: the band 1 ± band shaded, a line at 1, the
 * interval as a bar with caps, the median ratio as a dot. */
static void perf_svg(FILE *f, const bg_report_model *m)
{
    double lo = 1, hi = 1;
    for (int i = 0; i < m->nperf; i++) {
        const bg_rep_perf *p = &m->perf[i];
        lo = fmin(lo, fmin(p->lo, 1 - p->band));
        hi = fmax(hi, fmax(p->hi, 1 + p->band));
    }
    double span = fmax(hi - 1, 1 - lo) * 1.1 + 0.002; /* symmetric around 1 */
    if (!isfinite(span))
        span = 1;
    /* ticks at 1 ± k·step, step the round value giving at most 3 per side; the
     * axis ends on the outermost ticks, beyond every band and interval drawn */
    static const double steps[] = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5};
    double step = steps[0];
    for (size_t k = 0; k < sizeof steps / sizeof steps[0] && span / steps[k] > 3; k++)
        step = k + 1 < sizeof steps / sizeof steps[0] ? steps[k + 1] : steps[k];
    int nticks = (int)ceil(span / step - 1e-9);
    span = nticks * step;
    lo = 1 - span;
    hi = 1 + span;
    const int W = 1000, L = 340, R = 80, rowh = 20, top = 28;
    int H = top + rowh * m->nperf + 8;
    double pw = W - L - R;
#define X(v) (L + ((v) - lo) / (hi - lo) * pw)
    fprintf(f, "<svg class=\"chart\" role=\"img\" aria-label=\"perf ratios with intervals\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
            W, H, W, H);
    for (int t = -nticks; t <= nticks; t++) {
        double v = 1 + step * t;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#d0d7de\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                X(v), X(v), top - 6, H - 4, X(v), top - 10, v);
    }
    for (int i = 0; i < m->nperf; i++) {
        const bg_rep_perf *p = &m->perf[i];
        double y = top + rowh * i + rowh / 2.0;
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
                L - 8, y);
        bg_html_text(f, p->name + 5, 56); /* without "perf." */
        fprintf(f, "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
                   "fill=\"#dafbe1\"/>\n",
                X(1 - p->band), y - rowh / 2.0 + 2, X(1 + p->band) - X(1 - p->band), rowh - 4);
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"3\"/>",
                X(fmax(p->lo, lo)), X(fmin(p->hi, hi)), y, y, vcolor(p->verdict));
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                   "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
                X(fmax(p->lo, lo)), X(fmax(p->lo, lo)), y - 5, y + 5, vcolor(p->verdict),
                X(fmin(p->hi, hi)), X(fmin(p->hi, hi)), y - 5, y + 5, vcolor(p->verdict));
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>", X(p->ratio), y,
                vcolor(p->verdict));
        esc(f, p->name);
        fprintf(f, ": ratio %.4f [%.4f, %.4f], band ±%.1f%%, %s</title></circle>"
                   "<text x=\"%d\" y=\"%.1f\" dominant-baseline=\"middle\">%.4f</text>\n",
                p->ratio, p->lo, p->hi, 100 * p->band, p->verdict ? p->verdict : "?", W - R + 6, y,
                p->ratio);
    }
    fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#1f2328\" "
               "stroke-width=\"1.5\"/>\n</svg>\n",
            X(1.0), X(1.0), top - 6, H - 4);
#undef X
}

/* The perf rows m->perf[from .. to-1] as one table under summary. */
static void perf_table(FILE *f, const bg_report_model *m, int from, int to, const char *summary,
                       int open)
{
    fprintf(f, "<details%s><summary>%s (%d benchmark%s)</summary><table><tr><th>check</th>"
               "<th>source</th><th>base</th><th>head</th><th>ratio</th><th>interval</th><th>band</th>"
               "<th>verdict</th></tr>\n",
            open ? " open" : "", summary, to - from, to - from == 1 ? "" : "s");
    for (int i = from; i < to; i++) {
        const bg_rep_perf *p = &m->perf[i];
        fprintf(f, "<tr><td><code>");
        esc(f, p->name);
        fprintf(f, "</code></td><td>%s</td><td class=\"n\">%.4g</td><td class=\"n\">%.4g</td><td class=\"n\">"
                   "%.4f</td><td>[%.4f, %.4f]</td><td class=\"n\">±%.1f%%</td><td class=\"v-%s\">%s"
                   "</td></tr>\n",
                p->source, p->med_base, p->med_head, p->ratio, p->lo, p->hi, 100 * p->band, vclass(p->verdict),
                p->verdict ? p->verdict : "?");
    }
    fprintf(f, "</table></details>\n");
}

/* A sparkline of one benchmark's baseline medians (oldest left), with this
 * run's head median (perf.baseline.<bench>, when present) as the last dot. */
static void history_svg(FILE *f, const bg_report_model *m, const char *bench, const double *v,
                        const char **dates, int n)
{
    double head = NAN;
    for (int i = 0; i < m->nperf; i++)
        if (strcmp(m->perf[i].mode, "baseline") == 0 && strcmp(m->perf[i].bench, bench) == 0)
            head = m->perf[i].med_head;
    double lo = v[0], hi = v[0];
    for (int i = 0; i < n; i++) {
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    if (!isnan(head)) {
        lo = fmin(lo, head);
        hi = fmax(hi, head);
    }
    if (hi - lo < 1e-12 * fabs(hi) + 1e-300) {
        lo -= fabs(lo) * 0.01 + 1e-9;
        hi += fabs(hi) * 0.01 + 1e-9;
    }
    const int W = 260, H = 90, pad = 14;
    int npts = n + !isnan(head);
    double dx = npts > 1 ? (W - 2.0 * pad) / (npts - 1) : 0;
#define HX(i) (pad + dx * (i))
#define HY(y) (H - 22 - ((y) - lo) / (hi - lo) * (H - 40))
    fprintf(f, "<div class=\"hist\"><svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\"><text x=\"2\" y=\"11\">",
            W, H, W, H);
    bg_html_text(f, bench, 44);
    fprintf(f, "</text><polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"1.5\" points=\"");
    for (int i = 0; i < n; i++)
        fprintf(f, "%.1f,%.1f ", HX(i), HY(v[i]));
    fprintf(f, "\"/>");
    for (int i = 0; i < n; i++) {
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#0969da\"><title>", HX(i), HY(v[i]));
        esc(f, dates[i]);
        fprintf(f, ": %.6g</title></circle>", v[i]);
    }
    if (!isnan(head))
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" "
                   "stroke-dasharray=\"3 3\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
                   "fill=\"#cf222e\"><title>this run: %.6g</title></circle>",
                HX(n - 1), HY(v[n - 1]), HX(n), HY(head), HX(n), HY(head), head);
    fprintf(f, "<text x=\"2\" y=\"%d\">%.4g … %.4g%s</text></svg></div>\n", H - 4, lo, hi,
            isnan(head) ? "" : " (red: this run)");
#undef HX
#undef HY
}

static void history(FILE *f, const bg_report_model *m)
{
    fprintf(f, "<h3>Baseline history</h3>\n");
    if (!m->baseline) {
        fprintf(f, "<p class=\"muted\">No baseline for this host (<code>");
        esc(f, m->baseline_path[0] ? m->baseline_path : "baselines/<host-key>.json");
        fprintf(f, "</code>): no history to draw. Record one with <code>ci/update-baselines "
                   "--approve \"&lt;why&gt;\"</code> (docs/perf_budgets.md#baselines).</p>\n");
        return;
    }
    fprintf(f, "<p class=\"muted\">Medians of each approval in <code>");
    esc(f, m->baseline_path);
    fprintf(f, "</code> (oldest left)");
    const cJSON *metric = cJSON_GetObjectItemCaseSensitive(m->baseline, "metric");
    if (cJSON_IsString(metric)) {
        fprintf(f, ", in ");
        esc(f, metric->valuestring);
    }
    fprintf(f, ".</p>\n");
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(m->baseline, "benchmarks")) {
        double v[HIST_MAX];
        const char *dates[HIST_MAX];
        int n = bg_report_history(m, b->string, v, dates, HIST_MAX);
        if (n > 0)
            history_svg(f, m, b->string, v, dates, n);
    }
}

static void perf(FILE *f, const bg_report_model *m)
{
    if (!m->nperf && !m->baseline)
        return;
    fprintf(f, "<section id=\"perf\"><h2>Performance (head/base; &gt;1 is slower)</h2>\n");
    if (!m->perf_base)
        fprintf(f, "<p class=\"note\">A/A self-check only: this run has no base; the PR judge is "
                   "<code>ci/gate --base &lt;ref&gt;</code>.</p>\n");
    else {
        fprintf(f, "<p>Against base <code>");
        esc(f, m->perf_base);
        fprintf(f, "</code> (same-job A/B).</p>\n");
    }
    if (m->nperf) {
        fprintf(f, "<p class=\"muted\">Green band: 1 ± the benchmark's budget; bar: the interval "
                   "of the ratio; dot: the median ratio; black line: 1.0.</p>\n");
        perf_svg(f, m);
        /* the merge-base judgement first and apart, then the self-checks */
        if (m->perf_base)
            perf_table(f, m, 0, m->nperf_mb, "This change vs its merge-base", 1);
        if (m->nperf > m->nperf_mb)
            perf_table(f, m, m->nperf_mb, m->nperf,
                       "A/A self-checks and other perf checks (not this change)", 0);
        bg_report_html_prochist(f, m); /* the spread between processes (report_prochist.h) */
    }
    history(f, m);
    fprintf(f, "</section>\n");
    bg_report_html_fndiff(f, m); /* which function got slower (report_fndiff.h) */
}

static void matrix(FILE *f, const bg_rep_matrix *x)
{
    fprintf(f, "<h3>");
    esc(f, x->table);
    fprintf(f, "</h3><div class=\"scroll\"><table class=\"mx\"><tr><th></th>");
    for (int j = 0; j < x->nc; j++) {
        fprintf(f, "<th>");
        bg_html_text_wbr(f, x->cols[j], 100000);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (int i = 0; i < x->nr; i++) {
        fprintf(f, "<tr><td><code>");
        esc(f, x->rows[i]);
        fprintf(f, "</code></td>");
        for (int j = 0; j < x->nc; j++) {
            const bg_rep_cell *c = &x->cells[i * x->nc + j];
            if (!c->verdict) { /* no check of this row and column: say so, never a blank */
                fprintf(f, "<td class=\"none\" title=\"no check of ");
                esc(f, x->rows[i]);
                fprintf(f, " &#215; ");
                esc(f, x->cols[j]);
                fprintf(f, " in this run: no such test on this host, or it was left out "
                           "(--label, -R) or did not run (see the CTest log)\">no check</td>");
                continue;
            }
            const char *shown_v = c->decided ? c->decided : c->verdict;
            /* what passed here is not all of it: a host-limited check could
             * not be decided (never drawn as a plain green pass) */
            const char *cls = c->cause && strcmp(vclass(shown_v), "pass") == 0 ? "limited" : vclass(shown_v);
            fprintf(f, "<td class=\"v-%s\" title=\"%s\">", cls, c->verdict);
            bg_html_text_wbr(f, c->text ? c->text : c->verdict, 60);
            if (c->cause)
                fprintf(f, " <b>†%d</b>", c->cause);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table></div>\n");
}

/* The variant table (bg-perf variants; report_md.c's variant_table): the
 * variant's properties as columns. */
static void variant_table(FILE *f, const bg_report_model *m)
{
    const cJSON *props0 = cJSON_GetObjectItemCaseSensitive(bg_report_variant_of(m->vt[0]), "properties"), *p;
    fprintf(f, "<h3 id=\"variant-table\">RandomX build variants: light-mode JIT H/s against the shipped "
               "build</h3>\n<p class=\"muted\">");
    esc(f, bg_report_variant_caption());
    fprintf(f, "</p><div class=\"scroll\"><table><tr><th>version</th><th>variant</th><th>against</th>");
    cJSON_ArrayForEach(p, props0) {
        fprintf(f, "<th>");
        esc(f, p->string);
        fprintf(f, "</th>");
    }
    fprintf(f, "<th>H/s ratio [interval] verdict</th><th>pairs</th><th>check</th></tr>\n");
    for (int i = 0; i < m->nvt; i++) {
        const cJSON *vt = bg_report_variant_of(m->vt[i]), *props = cJSON_GetObjectItemCaseSensitive(vt, "properties");
        const char *v = bg_json_str(m->vt[i], "verdict");
        char cell[600];
        bg_report_variant_cell(m->vt[i], cell, sizeof cell);
        fprintf(f, "<tr><td>");
        esc(f, bg_json_str(vt, "version"));
        fprintf(f, "</td><td><code>");
        esc(f, bg_json_str(vt, "variant"));
        fprintf(f, "</code></td><td>");
        esc(f, bg_json_str(vt, "reference"));
        fprintf(f, "</td>");
        cJSON_ArrayForEach(p, props0) {
            const char *pv = bg_json_str(props, p->string);
            fprintf(f, "<td>");
            esc(f, pv && *pv ? pv : "—");
            fprintf(f, "</td>");
        }
        fprintf(f, "<td class=\"v-%s\">", vclass(v));
        esc(f, cell);
        fprintf(f, "</td><td class=\"n\">%.0f</td><td class=\"v-%s\">", bg_json_num(vt, "pairs", 0), vclass(v));
        esc(f, v);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table></div>\n");
}

static void suites(FILE *f, const bg_report_model *m)
{
    fprintf(f, "<section id=\"suites\"><h2>Suites</h2><table><tr><th>suite</th><th>verdict</th>");
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(f, "<th>%s</th>", bg_verdict_name((bg_verdict)v));
    fprintf(f, "<th>doc</th></tr>\n");
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->doc, "suites")) {
        int bad = (int)bg_json_num(s, "fail", 0) + (int)bg_json_num(s, "xpass", 0);
        fprintf(f, "<tr><td>");
        esc(f, s->string);
        fprintf(f, "</td><td class=\"v-%s\">%s</td>", bad ? "fail" : "pass", bad ? "FAIL" : "pass");
        for (int v = 0; v < BG_VERDICT_COUNT; v++)
            fprintf(f, "<td class=\"n\">%d</td>", (int)bg_json_num(s, bg_verdict_name((bg_verdict)v), 0));
        fprintf(f, "<td><code>");
        esc(f, bg_report_suite_doc(m, s->string));
        fprintf(f, "</code></td></tr>\n");
    }
    fprintf(f, "</table>\n<p class=\"muted\">Cells: the worst verdict of the checks there "
               "(<span class=\"v-pass\">pass</span> <span class=\"v-xfail\">xfail: known "
               "deviation</span> <span class=\"v-inconclusive\">inconclusive</span> <span "
               "class=\"v-xpass\">xpass</span> <span class=\"v-fail\">fail</span> <span "
               "class=\"v-skip\">skip</span> <span class=\"v-limited\">host-limited: what was "
               "decided passed, a check marked † could not be decided on this host</span>) and its "
               "value; hover for the verdict.</p>\n");
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->doc, "suites")) {
        for (int i = 0; i < m->nmx; i++)
            if (strcmp(m->mx[i].suite, s->string) == 0)
                matrix(f, &m->mx[i]);
        const char *home = bg_report_variant_home(m);
        if (home && !strcmp(home, s->string))
            variant_table(f, m);
    }
    fprintf(f, "</section>\n");
}

static void all_checks(FILE *f, const bg_report_model *m)
{
    fprintf(f, "<section><h2>Every check</h2>\n");
    const cJSON *s, *c;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->doc, "suites")) {
        fprintf(f, "<details><summary>");
        esc(f, s->string);
        fprintf(f, " (%d)</summary><table><tr><th>check</th><th>verdict</th><th>observed</th></tr>\n",
                (int)(bg_json_num(s, "pass", 0) + bg_json_num(s, "fail", 0) + bg_json_num(s, "xfail", 0) +
                      bg_json_num(s, "xpass", 0) + bg_json_num(s, "skip", 0) +
                      bg_json_num(s, "inconclusive", 0)));
        cJSON_ArrayForEach(c, m->checks) {
            const char *cs = bg_json_str(c, "suite");
            if (!cs || strcmp(cs, s->string))
                continue;
            const char *v = bg_json_str(c, "verdict");
            char *obs = bg_json_line(cJSON_GetObjectItemCaseSensitive(c, "observed"));
            fprintf(f, "<tr><td><code>");
            esc(f, bg_json_str(c, "name"));
            fprintf(f, "</code></td><td class=\"v-%s\">%s</td><td>", vclass(v), v ? v : "?");
            bg_html_text(f, obs, 400);
            fprintf(f, "</td></tr>\n");
            free(obs);
        }
        fprintf(f, "</table></details>\n");
    }
    fprintf(f, "</section>\n");
}

bg_status bg_report_html(const bg_report_model *m, const char *path)
{
    char tmp[4200];
    FILE *f = bg_report_create(path, tmp, sizeof tmp);
    if (!f)
        return BG_E_IO;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
               "<title>buildgate: %s</title><style>%s</style></head><body>\n",
            m->verdict, css);
    header(f, m);
    failures(f, m);
    causes(f, m);
    inferred(f, m);
    against_base(f, m);
    perf(f, m);
    suites(f, m);
    all_checks(f, m);
    fprintf(f, "<p class=\"muted\">Written by bg-report from results.json; the same report as "
               "report.md (docs/writing-a-suite.md, \"The report\").</p></main></body></html>\n");
    return bg_report_commit(f, tmp, path);
}
