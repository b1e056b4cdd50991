/* report_prochist.c — see report_prochist.h. */
#define _POSIX_C_SOURCE 200809L
#include "report_prochist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"
#include "buildgate/bg_stats.h"
#include "report_esc.h"

#define BINS 12

/* The numbers of details[key] into v (at most max); their count, -1 when
 * absent or holding a non-number. */
static int values(const cJSON *d, const char *key, double *v, int max)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(d, key), *e;
    int n = 0;
    if (!cJSON_IsArray(a))
        return -1;
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return -1;
        if (n < max)
            v[n++] = e->valuedouble;
    }
    return n;
}

/* the longest per-process array of any check of m (the buffers' size) */
static int longest(const bg_report_model *m)
{
    int most = 0;
    for (int i = 0; i < m->nperf; i++) {
        const cJSON *d = m->perf[i].check ? cJSON_GetObjectItemCaseSensitive(m->perf[i].check, "details") : NULL;
        static const char *const key[] = {"process_medians_base", "process_medians_head"};
        for (int k = 0; d && k < 2; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(d, key[k]);
            int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
            most = n > most ? n : most;
        }
    }
    return most;
}

/* v in the metric's unit into buf: times (cpu_time, real_time: ns, as bg-perf
 * writes them) scaled to ns / us / ms / s, anything else as a number */
static const char *fmt(char *buf, size_t n, double v, const char *metric)
{
    if (metric && (!strcmp(metric, "cpu_time") || !strcmp(metric, "real_time"))) {
        static const char *const unit[] = {"ns", "\u00b5s", "ms", "s"};
        int u = 0;
        while (u < 3 && fabs(v) >= 1000)
            v /= 1000, u++;
        snprintf(buf, n, "%.4g %s", v, unit[u]);
    } else {
        snprintf(buf, n, "%.4g", v);
    }
    return buf;
}

/* 1 when p's check carries enough per-process medians on both sides */
static int drawable(const bg_rep_perf *p, double *b, int *nb, double *h, int *nh, int maxp)
{
    const cJSON *d = p->check ? cJSON_GetObjectItemCaseSensitive(p->check, "details") : NULL;
    if (!d)
        return 0;
    *nb = values(d, "process_medians_base", b, maxp);
    *nh = values(d, "process_medians_head", h, maxp);
    return *nb >= PROCHIST_MIN && *nh >= PROCHIST_MIN;
}

static void one(FILE *f, const bg_rep_perf *p, double *b, int nb, double *h, int nh)
{
    double lo = b[0], hi = b[0];
    for (int i = 0; i < nb; i++)
        lo = fmin(lo, b[i]), hi = fmax(hi, b[i]);
    for (int i = 0; i < nh; i++)
        lo = fmin(lo, h[i]), hi = fmax(hi, h[i]);
    double w = (hi - lo) / BINS;
    if (!(w > 0)) /* every process equal: one visible bin around the value */
        w = fabs(lo) * 0.01 + 1e-12, lo -= w * BINS / 2.0;
    int cb[BINS] = {0}, ch[BINS] = {0}, top = 1;
    for (int i = 0; i < nb; i++)
        cb[(int)fmin(BINS - 1, floor((b[i] - lo) / w))]++;
    for (int i = 0; i < nh; i++)
        ch[(int)fmin(BINS - 1, floor((h[i] - lo) / w))]++;
    for (int k = 0; k < BINS; k++)
        top = cb[k] > top ? cb[k] : top, top = ch[k] > top ? ch[k] : top;
    const int W = 440, L = 8, bw = (W - 2 * L) / BINS, half = 44, mid = 30 + half, H = mid + half + 44;
    double mb = bg_median(b, (size_t)nb), mh = bg_median(h, (size_t)nh);
#define X(v) (L + ((v) - lo) / (w * BINS) * (bw * BINS))
    fprintf(f, "<figure class=\"hist\"><svg class=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" aria-label=\"per-process medians, base above, head below\">\n",
            W, H, W, H);
    char t0[48], t1[48];
    fprintf(f, "<text x=\"%d\" y=\"11\">", L);
    bg_html_text(f, p->bench ? p->bench : p->name, 72);
    fprintf(f, "</text>\n<text x=\"%d\" y=\"24\" class=\"muted\">", L);
    bg_html_text(f, p->source ? p->source : p->mode, 40);
    fprintf(f, ", %s</text>\n", p->metric ? p->metric : "value");
    for (int k = 0; k < BINS; k++) {
        int x = L + k * bw;
        for (int s = 0; s < 2; s++) {
            int c = s ? ch[k] : cb[k];
            if (!c)
                continue;
            int len = (int)lround((double)c / top * half);
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s: %d "
                       "process%s in [%s, %s)</title></rect>\n",
                    x + 1, s ? mid : mid - len, bw - 2, len, s ? "#bc4c00" : "#0969da",
                    s ? "head" : "base", c, c == 1 ? "" : "es", fmt(t0, sizeof t0, lo + k * w, p->metric),
                    fmt(t1, sizeof t1, lo + (k + 1) * w, p->metric));
        }
    }
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#1f2328\"/>\n", L,
            L + bw * BINS, mid, mid);
    fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#0969da\" stroke-width=\"2\"/>"
               "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#bc4c00\" stroke-width=\"2\"/>\n",
            X(mb), X(mb), mid - half - 2, mid, X(mh), X(mh), mid, mid + half + 2);
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s"
               "</text>\n",
            L, mid + half + 14, fmt(t0, sizeof t0, lo, p->metric), L + bw * BINS, mid + half + 14,
            fmt(t1, sizeof t1, lo + w * BINS, p->metric));
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"muted\">base n=%d median %s</text>\n", L,
            mid + half + 28, nb, fmt(t0, sizeof t0, mb, p->metric));
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"muted\">head n=%d median %s", L, mid + half + 42, nh,
            fmt(t1, sizeof t1, mh, p->metric));
    fprintf(f, "</text>\n</svg></figure>\n");
#undef X
}

void bg_report_html_prochist(FILE *f, const bg_report_model *m)
{
    int maxp = longest(m); /* every process drawn and counted, however many */
    if (maxp < PROCHIST_MIN)
        return;
    double *b = malloc(2 * (size_t)maxp * sizeof *b), *h = b ? b + maxp : NULL;
    int nb, nh, any = 0;
    for (int i = 0; b && i < m->nperf; i++)
        any += drawable(&m->perf[i], b, &nb, h, &nh, maxp);
    if (any) {
        fprintf(f, "<details><summary>Between processes: per-process medians (%d check%s)</summary>\n"
                   "<p class=\"muted\">Each process's median of the benchmark's metric, base "
                   "(blue) above the line, head (orange) below, the same bins; the ticks are the "
                   "medians. Separated clusters on one side are a bimodal host, not the change "
                   "(docs/performance.md \"Why light-mode processes were bimodal\").</p>\n",
                any, any == 1 ? "" : "s");
        for (int i = 0; i < m->nperf; i++)
            if (drawable(&m->perf[i], b, &nb, h, &nh, maxp))
                one(f, &m->perf[i], b, nb, h, nh);
        fprintf(f, "</details>\n");
    }
    free(b);
}
