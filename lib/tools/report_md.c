/* report_md.c — see report_md.h.  The layout is for a reviewer's first
 * minute: what failed and what to do first, then what this host could not
 * decide (once per cause), what changed against the base, perf ratios, one
 * compact table per suite; the evidence (full matrices, fragments, every
 * check) stays inside <details>. */
#define _POSIX_C_SOURCE 200809L
#include "report_md.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_json.h"
#include "report_esc.h"

/* Failures shown in full before the <details>; the rest are listed inside. */
#define SHOWN_FAILURES 12
/* Rows of a change list (new / vanished / changed checks) before <details>. */
#define SHOWN_CHANGES 10
/* A compact matrix with more rows than this lists its all-pass rows in one
 * line instead of drawing them (the full table is in <details>). */
#define FOLD_ROWS 10
/* Test names listed per inconclusive cause before "… and N more". */
#define SHOWN_TESTS 8
/* report.md is also GitHub's job summary (ci/gate appends it to
 * $GITHUB_STEP_SUMMARY), which holds at most 1 MiB: the report stays under
 * half of it.  Detail sections that would pass this are left out, with one
 * line saying so; the names of every fail and xpass check always stay
 * (bg_report_markdown). */
#define MD_MAX_BYTES (512 * 1024)

const char *bg_report_symbol(const char *v)
{
    if (!v)
        return "";
    if (strcmp(v, "pass") == 0)
        return "✅";
    if (strcmp(v, "xfail") == 0)
        return "🟡";
    if (strcmp(v, "xpass") == 0)
        return "⚠️";
    if (strcmp(v, "inconclusive") == 0)
        return "❔";
    if (strcmp(v, "skip") == 0)
        return "➖";
    return "❌";
}

static const char legend[] = "✅ pass · ❌ fail · ⚠️ xpass (a known deviation is gone) · 🟡 xfail "
                             "(known deviation) · ❔ inconclusive · ➖ skip; cells: the worst "
                             "verdict there";

static const char *shown(const char *v)
{
    if (!v)
        return "?";
    if (strcmp(v, "fail") == 0)
        return "**FAIL**";
    if (strcmp(v, "xpass") == 0)
        return "**XPASS**";
    return v;
}

static int total_of(const cJSON *counts)
{
    int t = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, counts) t += (int)c->valuedouble;
    return t;
}

static int bad_of(const cJSON *counts)
{
    return (int)bg_json_num(counts, "fail", 0) + (int)bg_json_num(counts, "xpass", 0);
}

/* The run's verdict: FAIL when a check is fail/xpass, or when none was
 * recorded (nothing was tested: bg-report then exits 1 too). */
static const char *gate_verdict(const cJSON *summary)
{
    return bad_of(summary) || total_of(summary) == 0 ? "FAIL" : "PASS";
}

/* "N checks: F fail/xpass, I inconclusive, S skip" (what the verdict rests on). */
static void counts_line(FILE *f, const cJSON *summary)
{
    int n = total_of(summary);
    fprintf(f, "%d check%s: %d fail/xpass, %d inconclusive, %d skip", n, n == 1 ? "" : "s",
            bad_of(summary), (int)bg_json_num(summary, "inconclusive", 0),
            (int)bg_json_num(summary, "skip", 0));
}

/* A repository path (docs/<page>.md#anchor): a link to the commit's file when
 * GitHub Actions' variables say where it lives, otherwise the bare path
 * (relative to the repository root). */
static void doc_link(FILE *f, const char *path)
{
    const char *srv = getenv("GITHUB_SERVER_URL"), *repo = getenv("GITHUB_REPOSITORY");
    const char *sha = getenv("GITHUB_SHA");
    if (srv && repo && sha && *srv && *repo && *sha)
        fprintf(f, "[%s](%s/%s/blob/%s/%s)", path, srv, repo, sha, path);
    else
        fprintf(f, "`%s`", path);
}

static void header(FILE *f, const bg_report_model *m)
{
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(m->doc, "host");
    fprintf(f, "# buildgate report: %s %s\n\n", m->verdict, strcmp(m->verdict, "PASS") ? "❌" : "✅");
    fprintf(f, "**%s**: ", m->verdict);
    counts_line(f, m->summary);
    if (m->ntotal == 0)
        fprintf(f, " (nothing was tested)");
    else if (m->nhost_inconclusive)
        fprintf(f, " (%d of the inconclusive from this host, below)", m->nhost_inconclusive);
    fprintf(f, ".\n\n");
    const cJSON *x;
    int first = 1;
    char cov[2048];
    bg_report_coverage(m, cov, sizeof cov);
    if (*cov) {
        fprintf(f, "**Coverage**: ");
        bg_md_text(f, cov, sizeof cov);
        fprintf(f, "\n\n");
    }
    cJSON_ArrayForEach(x, m->run) {
        if (!cJSON_IsString(x) || !bg_report_run_key_shown(x->string))
            continue;
        fprintf(f, "%s%s ", first ? "Run: " : " · ", x->string);
        bg_md_code(f, x->valuestring, 120);
        first = 0;
    }
    if (!first)
        fprintf(f, "  \n");
    fprintf(f, "Host ");
    bg_md_code(f, bg_json_str(host, "key"), 120);
    fprintf(f, ": ");
    bg_md_text(f, bg_json_str(host, "cpu_model"), 120);
    fprintf(f, ", %d CPUs, %.1f GiB, ", (int)bg_json_num(host, "ncpu", 0),
            bg_json_num(host, "mem_total", 0) / (1024.0 * 1024 * 1024));
    bg_md_text(f, bg_json_str(host, "compiler"), 120);
    fprintf(f, ". Generated %s.\n\n", bg_json_str(m->doc, "generated") ? bg_json_str(m->doc, "generated") : "?");
}

/* expected/observed of a check on one line, escaped. */
static void value(FILE *f, const cJSON *c, const char *part, size_t max)
{
    char *s = bg_json_line(cJSON_GetObjectItemCaseSensitive(c, part));
    bg_md_code(f, s ? s : "null", max);
    free(s);
}

/* A failure's expected/observed are shown whole up to this many bytes (an
 * error line with its next step must not be cut: "near byte 8…"). */
#define FAILURE_VALUE_MAX 1500

/* A check's details.reproducer (the steps that reproduce the failure, e.g.
 * nan-seq's shrunk block), up to 4000 bytes, as a code block inside the
 * failure's list entry (indented 3 spaces). */
static void reproducer(FILE *f, const cJSON *c)
{
    const char *r = bg_json_str(cJSON_GetObjectItemCaseSensitive(c, "details"), "reproducer");
    if (!r || !*r)
        return;
    fputs("  \n   reproducer:\n\n", f);
    bg_md_code_block(f, r, 4000, "   ");
}

/* One failure: name, expected, observed, then where to look and the next
 * step, or "as above" when they repeat the previous failure's (18 alike
 * failures read at a glance); the rerun command always. */
static void failure_entry(FILE *f, const cJSON *c, int i, const cJSON *prev)
{
    char next[1200], prev_next[1200] = "", rerun[700];
    fprintf(f, "%d. %s ", i, shown(bg_json_str(c, "verdict")));
    bg_md_code(f, bg_json_str(c, "name"), 200);
    fprintf(f, "  \n   expected ");
    value(f, c, "expected", FAILURE_VALUE_MAX);
    fprintf(f, "  \n   observed ");
    value(f, c, "observed", FAILURE_VALUE_MAX);
    bg_report_next_step(c, next, sizeof next);
    if (prev)
        bg_report_next_step(prev, prev_next, sizeof prev_next);
    if (prev && strcmp(next, prev_next) == 0 &&
        strcmp(bg_report_doc_for(c), bg_report_doc_for(prev)) == 0)
        fprintf(f, "  \n   where, next: as above");
    else {
        fprintf(f, "  \n   where: ");
        doc_link(f, bg_report_doc_for(c));
        fprintf(f, ". Next: %s", next);
    }
    bg_report_rerun(c, rerun, sizeof rerun);
    if (*rerun) {
        fprintf(f, ". Rerun: ");
        bg_md_code(f, rerun, 600);
    }
    reproducer(f, c);
    fprintf(f, "\n");
}

static void failures(FILE *f, const bg_report_model *m)
{
    if (!m->nbad)
        return;
    fprintf(f, "## Failures (%d)\n\n", m->nbad);
    for (int i = 0; i < m->nbad && i < SHOWN_FAILURES; i++)
        failure_entry(f, m->bad[i], i + 1, i ? m->bad[i - 1] : NULL);
    fprintf(f, "\n");
    if (m->nbad > SHOWN_FAILURES) {
        fprintf(f, "<details><summary>%d more failures</summary>\n\n", m->nbad - SHOWN_FAILURES);
        for (int i = SHOWN_FAILURES; i < m->nbad; i++)
            failure_entry(f, m->bad[i], i + 1, i > SHOWN_FAILURES ? m->bad[i - 1] : NULL);
        fprintf(f, "\n</details>\n\n");
    }
}

static const char *test_of(const cJSON *c)
{
    const char *t = bg_json_str(c, "test");
    return t ? t : bg_json_str(c, "name");
}

/* The distinct tests (or check names) of a cause: SHOWN_TESTS, then "… and N more". */
static void cause_tests(FILE *f, const bg_rep_cause *cs)
{
    int shown_n = 0, more = 0;
    for (int i = 0; i < cs->n; i++) {
        const char *t = test_of(cs->checks[i]);
        int dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = strcmp(test_of(cs->checks[j]), t) == 0;
        if (dup)
            continue;
        if (shown_n == SHOWN_TESTS) {
            more++;
            continue;
        }
        fprintf(f, "%s", shown_n++ ? ", " : "");
        bg_md_code(f, t, 120);
    }
    if (more)
        fprintf(f, " … and %d more test%s", more, more == 1 ? "" : "s");
}

static void causes_table(FILE *f, const bg_report_model *m, int host)
{
    fprintf(f, "| # | cause | checks | tests |\n|---|---|---:|---|\n");
    for (int i = 0; i < m->ncauses; i++) {
        const bg_rep_cause *cs = &m->causes[i];
        if (cs->host != host)
            continue;
        fprintf(f, "| %d | ", i + 1);
        bg_md_text(f, cs->text, 300);
        fprintf(f, " | %d | ", cs->n);
        cause_tests(f, cs);
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
}

static void inconclusive(FILE *f, const bg_report_model *m)
{
    int other = 0;
    for (int i = 0; i < m->ncauses; i++)
        other += m->causes[i].host ? 0 : m->causes[i].n;
    if (m->nhost_inconclusive) {
        fprintf(f, "## What this host cannot decide (%d inconclusive)\n\n"
                   "These checks lack the power to decide on this host whatever the change: each "
                   "cause is stated once (the tables below show the verdicts the host could "
                   "decide and name the cause by its number on the row). They do not fail the "
                   "gate; a host without the cause decides them.\n\n",
                m->nhost_inconclusive);
        causes_table(f, m, 1);
    }
    if (other) {
        fprintf(f, "## Inconclusive for other reasons (%d)\n\n", other);
        causes_table(f, m, 0);
    }
}

/* Runner versions nobody measured, judged by their bracket (nan_known.h
 * "Brackets", docs/nan_semantics.md "Runner versions"): one row per runner
 * version, with what measures and adopts it. */
static void inferred(FILE *f, const bg_report_model *m)
{
    if (!m->ninferred)
        return;
    fprintf(f, "## Verdicts inferred, not measured (%d runner version%s)\n\n"
               "These runner versions were never measured here: their known deviations were inferred "
               "from the measured versions around them (xfail), and a bracketed deviation they did not "
               "show is a note, not an xpass. Measuring one records it.\n\n"
               "| # | cause | checks | tests | measure and adopt |\n|---|---|---:|---|---|\n",
            m->ninferred, m->ninferred == 1 ? "" : "s");
    for (int i = 0; i < m->ninferred; i++) {
        const bg_rep_cause *cs = &m->inferred[i];
        const cJSON *inf = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(cs->checks[0], "details"), "inferred");
        fprintf(f, "| %d | ", i + 1);
        bg_md_text(f, cs->text, 300);
        fprintf(f, " | %d | ", cs->n);
        cause_tests(f, cs);
        fprintf(f, " | ");
        bg_md_text(f, bg_json_str(inf, "action") ? bg_json_str(inf, "action") : "", 400);
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
}

static void change_rows(FILE *f, const bg_rep_change *c, int n, int from, int to)
{
    for (int i = from; i < n && i < to; i++) {
        fprintf(f, "| ");
        bg_md_code(f, c[i].name, 200);
        fprintf(f, " | %s | %s |\n", c[i].was ? shown(c[i].was) : "—", c[i].now ? shown(c[i].now) : "—");
    }
}

static void change_list(FILE *f, const char *title, const bg_rep_change *c, int n)
{
    if (!n)
        return;
    fprintf(f, "**%s (%d)**\n\n| check | base | head |\n|---|---|---|\n", title, n);
    change_rows(f, c, n, 0, SHOWN_CHANGES);
    fprintf(f, "\n");
    if (n > SHOWN_CHANGES) {
        fprintf(f, "<details><summary>%d more</summary>\n\n| check | base | head |\n|---|---|---|\n",
                n - SHOWN_CHANGES);
        change_rows(f, c, n, SHOWN_CHANGES, n);
        fprintf(f, "\n</details>\n\n");
    }
}

static void against_base(FILE *f, const bg_report_model *m)
{
    if (!m->base_path)
        return;
    fprintf(f, "## Against the base\n\nBase results ");
    bg_md_code(f, m->base_path, 200);
    fprintf(f, ": %d new, %d vanished, %d changed verdict.\n\n", m->nadded, m->nvanished,
            m->nchanged);
    change_list(f, "Changed verdict", m->changed, m->nchanged);
    change_list(f, "Vanished", m->vanished, m->nvanished);
    change_list(f, "New", m->added, m->nadded);
}

/* Mermaid bars of the perf ratios against a line at 1.0 (y from just below
 * the lowest to just above the highest interval end). */
static void perf_chart(FILE *f, const bg_report_model *m)
{
    double lo = 0.98, hi = 1.02;
    for (int i = 0; i < m->nperf; i++) {
        lo = m->perf[i].lo < lo ? m->perf[i].lo : lo;
        hi = m->perf[i].hi > hi ? m->perf[i].hi : hi;
        lo = m->perf[i].ratio < lo ? m->perf[i].ratio : lo;
        hi = m->perf[i].ratio > hi ? m->perf[i].ratio : hi;
    }
    fprintf(f, "```mermaid\nxychart-beta\n    title \"head/base median ratio (bars) against 1.0 (line); >1 is slower\"\n"
               "    x-axis [");
    for (int i = 0; i < m->nperf; i++) {
        fprintf(f, "%s\"%s ", i ? ", " : "", m->perf[i].mode);
        bg_mermaid_str(f, m->perf[i].bench, 40);
        fprintf(f, "\"");
    }
    fprintf(f, "]\n    y-axis \"ratio\" %.3f --> %.3f\n    bar [", lo - 0.005, hi + 0.005);
    for (int i = 0; i < m->nperf; i++)
        fprintf(f, "%s%.4f", i ? ", " : "", m->perf[i].ratio);
    fprintf(f, "]\n    line [");
    for (int i = 0; i < m->nperf; i++)
        fprintf(f, "%s1", i ? ", " : "");
    fprintf(f, "]\n```\n\n");
}

/* The perf rows m->perf[from .. to-1] as one table. */
static void perf_rows(FILE *f, const bg_report_model *m, int from, int to)
{
    fprintf(f, "| benchmark | source | mode | ratio | interval | band | verdict |\n"
               "|---|---|---|---:|---|---:|---|\n");
    for (int i = from; i < to; i++) {
        const bg_rep_perf *p = &m->perf[i];
        fprintf(f, "| ");
        bg_md_code(f, p->bench, 80);
        fprintf(f, " | %s | ", p->source);
        bg_md_text(f, p->mode, 32);
        fprintf(f, " | %.4f | [%.4f, %.4f] | ±%.1f%% | %s %s |\n", p->ratio, p->lo,
                p->hi, 100 * p->band, bg_report_symbol(p->verdict), shown(p->verdict));
    }
    fprintf(f, "\n");
}

/* "N benchmarks: P pass, F fail/xpass, I inconclusive[, S other]" over
 * m->perf[from .. to-1]. */
static void perf_counts(FILE *f, const bg_report_model *m, int from, int to)
{
    int pass = 0, bad = 0, inc = 0;
    for (int i = from; i < to; i++) {
        const char *v = m->perf[i].verdict ? m->perf[i].verdict : "";
        pass += !strcmp(v, "pass");
        bad += !strcmp(v, "fail") || !strcmp(v, "xpass");
        inc += !strcmp(v, "inconclusive");
    }
    int n = to - from, other = n - pass - bad - inc;
    fprintf(f, "%d benchmark%s: %d pass, %d fail/xpass, %d inconclusive", n, n == 1 ? "" : "s",
            pass, bad, inc);
    if (other)
        fprintf(f, ", %d other", other);
}

/* The merge-base judgement first and apart (m->perf[0 .. nperf_mb-1], the
 * verdict on this change), then the A/A and other self-checks (the gate's
 * own noise floor, not this change). */
static void perf(FILE *f, const bg_report_model *m)
{
    if (!m->nperf)
        return;
    fprintf(f, "## Performance (head/base; >1 is slower)\n\n");
    if (!m->perf_base)
        fprintf(f, "A/A self-check only: this run has no base; the PR judge is `ci/gate --base <ref>`.\n\n");
    else {
        fprintf(f, "### This change vs its merge-base\n\nAgainst base ");
        bg_md_code(f, m->perf_base, 60);
        fprintf(f, " (same-job A/B, test `perf.ab.merge_base`): ");
        if (m->nperf_mb) {
            fprintf(f, "**");
            perf_counts(f, m, 0, m->nperf_mb);
            fprintf(f, "**.\n\n");
            perf_rows(f, m, 0, m->nperf_mb);
        } else
            fprintf(f, "no ratio recorded (see `perf.ab.merge_base` in the checks).\n\n");
    }
    if (m->nperf > m->nperf_mb) {
        fprintf(f, "### A/A self-checks and other perf checks (not this change)\n\n"
                   "The gate measuring itself (a build against itself, instruction counts, "
                   "stored baselines): ");
        perf_counts(f, m, m->nperf_mb, m->nperf);
        fprintf(f, ".\n\n");
        perf_rows(f, m, m->nperf_mb, m->nperf);
    }
    perf_chart(f, m);
}

static int suite_checks(const bg_report_model *m, const char *suite)
{
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        const char *s = bg_json_str(c, "suite");
        n += s && strcmp(s, suite) == 0;
    }
    return n;
}

/* 1 when every check of row i is a skip (a runner or feature this host lacks). */
static int row_all_skip(const bg_rep_matrix *x, int i)
{
    for (int j = 0; j < x->nc; j++) {
        const char *v = x->cells[i * x->nc + j].verdict;
        if (v && strcmp(v, "skip"))
            return 0;
    }
    return 1;
}

/* 1 when every check of row i that the host could decide passed, and there is one. */
static int row_all_pass(const bg_rep_matrix *x, int i)
{
    int any = 0;
    for (int j = 0; j < x->nc; j++) {
        const bg_rep_cell *c = &x->cells[i * x->nc + j];
        const char *v = c->decided ? c->decided : c->verdict;
        if (v && strcmp(v, "pass"))
            return 0;
        any |= v != NULL;
    }
    return any;
}

/* A one-column matrix, compact and transposed: its rows as columns. */
static void matrix_row(FILE *f, const bg_rep_matrix *x)
{
    fprintf(f, "| |");
    for (int i = 0; i < x->nr; i++) {
        fprintf(f, " ");
        bg_md_text(f, x->rows[i], 24);
        fprintf(f, " |");
    }
    fprintf(f, "\n|---|");
    for (int i = 0; i < x->nr; i++)
        fprintf(f, ":-:|");
    fprintf(f, "\n| ");
    bg_md_code(f, x->cols[0], 80);
    fprintf(f, " |");
    for (int i = 0; i < x->nr; i++) {
        const bg_rep_cell *cell = &x->cells[i];
        fprintf(f, " %s |", bg_report_symbol(cell->decided ? cell->decided : cell->verdict));
    }
    fprintf(f, "\n\n");
}

/* A matrix with verdict symbols only (compact: = 1; rows that are all skip
 * are named in one line under it; one column: transposed) or symbols and
 * cell text. */
static void matrix_table(FILE *f, const bg_rep_matrix *x, int compact)
{
    if (compact && x->nc == 1 && x->nr > 1) {
        matrix_row(f, x);
        return;
    }
    int skipped = 0, folded = 0, fold = compact && x->nr > FOLD_ROWS;
    for (int i = 0; i < x->nr; i++) {
        skipped += compact && row_all_skip(x, i);
        folded += fold && !(compact && row_all_skip(x, i)) && row_all_pass(x, i);
    }
    if (skipped + folded < x->nr) {
        fprintf(f, "| |");
        for (int j = 0; j < x->nc; j++) {
            fprintf(f, " ");
            bg_md_text(f, x->cols[j], compact ? 24 : 80);
            fprintf(f, " |");
        }
        fprintf(f, "\n|---|");
        for (int j = 0; j < x->nc; j++)
            fprintf(f, compact ? ":-:|" : "---|");
        fprintf(f, "\n");
    }
    for (int i = 0; i < x->nr; i++) {
        if ((compact && row_all_skip(x, i)) || (fold && row_all_pass(x, i)))
            continue;
        fprintf(f, "| ");
        bg_md_code(f, x->rows[i], 80);
        if (compact && x->row_cause[i])
            fprintf(f, " (cannot decide: %d)", x->row_cause[i]);
        fprintf(f, " |");
        for (int j = 0; j < x->nc; j++) {
            const bg_rep_cell *cell = &x->cells[i * x->nc + j];
            /* compact: what the host could decide; host-limited checks are on the row */
            fprintf(f, " %s", bg_report_symbol(compact && cell->decided ? cell->decided : cell->verdict));
            if (!compact && cell->text) {
                fprintf(f, " ");
                bg_md_text(f, cell->text, 120);
            }
            fprintf(f, " |");
        }
        fprintf(f, "\n");
    }
    if (skipped + folded < x->nr)
        fprintf(f, "\n");
    if (folded) {
        fprintf(f, "✅ in every column (%d rows, not drawn): ", folded);
        for (int i = 0, k = 0; i < x->nr; i++) {
            if (row_all_skip(x, i) || !row_all_pass(x, i))
                continue;
            fprintf(f, "%s", k++ ? ", " : "");
            bg_md_code(f, x->rows[i], 80);
        }
        fprintf(f, ".\n\n");
    }
    if (skipped) {
        fprintf(f, "All skip on this host (why: the Coverage line at the top; each check's reason in results.json): ");
        for (int i = 0, k = 0; i < x->nr; i++) {
            if (!row_all_skip(x, i))
                continue;
            fprintf(f, "%s", k++ ? ", " : "");
            bg_md_code(f, x->rows[i], 80);
        }
        fprintf(f, ".\n\n");
    }
}

/* One Mermaid bar chart: the allowed relaxed outcome of each litmus test
 * per million iterations, per runner.model (the power of each run). */
static void rates_chart(FILE *f, const bg_report_model *m, const char *suite)
{
    if (strcmp(suite, "memory_order") || !m->nrates)
        return;
    double top = 1;
    for (int i = 0; i < m->nrates; i++)
        top = m->rates[i].per_million > top ? m->rates[i].per_million : top;
    fprintf(f, "Allowed relaxed outcomes per million iterations, per runner.model and test (the "
               "power of each run; 0 where the runner cannot make threads race):\n\n"
               "```mermaid\nxychart-beta\n    title \"litmus: allowed relaxed outcomes per "
               "million\"\n    x-axis [");
    for (int i = 0; i < m->nrates; i++) {
        fprintf(f, "%s\"", i ? ", " : "");
        bg_mermaid_str(f, m->rates[i].row, 40);
        fprintf(f, " ");
        bg_mermaid_str(f, m->rates[i].test, 30);
        fprintf(f, "\"");
    }
    fprintf(f, "]\n    y-axis \"per million\" 0 --> %.0f\n    bar [", top * 1.1 + 1);
    for (int i = 0; i < m->nrates; i++)
        fprintf(f, "%s%.1f", i ? ", " : "", m->rates[i].per_million);
    fprintf(f, "]\n```\n\n");
}

/* The variant table (bg-perf variants): one row per version and variant, the
 * variant's properties as columns (the first row's property names). */
static void variant_table(FILE *f, const bg_report_model *m)
{
    const cJSON *props0 = cJSON_GetObjectItemCaseSensitive(bg_report_variant_of(m->vt[0]), "properties"), *p;
    fprintf(f, "**RandomX build variants: light-mode JIT H/s against the shipped build**\n\n");
    bg_md_text(f, bg_report_variant_caption(), 2000);
    fprintf(f, "\n\n| version | variant | against |");
    cJSON_ArrayForEach(p, props0) {
        fprintf(f, " ");
        bg_md_text(f, p->string, 60);
        fprintf(f, " |");
    }
    fprintf(f, " H/s ratio [interval] verdict | pairs | check |\n|---|---|---|");
    cJSON_ArrayForEach(p, props0) fprintf(f, "---|");
    fprintf(f, "---|---:|---|\n");
    for (int i = 0; i < m->nvt; i++) {
        const cJSON *vt = bg_report_variant_of(m->vt[i]), *props = cJSON_GetObjectItemCaseSensitive(vt, "properties");
        char cell[600];
        bg_report_variant_cell(m->vt[i], cell, sizeof cell);
        fprintf(f, "| %s | ", bg_json_str(vt, "version"));
        bg_md_code(f, bg_json_str(vt, "variant"), 60);
        fprintf(f, " | %s |", bg_json_str(vt, "reference") ? bg_json_str(vt, "reference") : "");
        cJSON_ArrayForEach(p, props0) {
            const char *v = bg_json_str(props, p->string);
            fprintf(f, " ");
            bg_md_text(f, v && *v ? v : "—", 200);
            fprintf(f, " |");
        }
        fprintf(f, " ");
        bg_md_text(f, cell, 400);
        fprintf(f, " | %.0f | %s %s |\n", bg_json_num(vt, "pairs", 0), bg_report_symbol(bg_json_str(m->vt[i], "verdict")),
                shown(bg_json_str(m->vt[i], "verdict")));
    }
    fprintf(f, "\n");
}

/* ## Suites: one counts table, then per suite its matrices as symbols. */
static void suites(FILE *f, const bg_report_model *m)
{
    fprintf(f, "## Suites\n\n%s\n\n| suite | verdict |", legend);
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(f, " %s |", bg_verdict_name((bg_verdict)v));
    fprintf(f, " doc |\n|---|---|");
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(f, "---:|");
    fprintf(f, "---|\n");
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->doc, "suites")) {
        fprintf(f, "| %s | %s |", s->string, bad_of(s) ? "❌ **FAIL**" : "✅ pass");
        for (int v = 0; v < BG_VERDICT_COUNT; v++)
            fprintf(f, " %d |", (int)bg_json_num(s, bg_verdict_name((bg_verdict)v), 0));
        fprintf(f, " ");
        doc_link(f, bg_report_suite_doc(m, s->string));
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->doc, "suites")) {
        int shown_any = 0;
        for (int i = 0; i < m->nmx; i++) {
            if (strcmp(m->mx[i].suite, s->string))
                continue;
            if (!shown_any)
                fprintf(f, "### %s\n\n", s->string);
            shown_any = 1;
            /* the title up to its parenthesis; the full title is in <details> */
            char title[120];
            snprintf(title, sizeof title, "%s", m->mx[i].table);
            char *paren = strstr(title, " (");
            if (paren)
                *paren = '\0';
            fprintf(f, "**");
            bg_md_text(f, title, 100);
            fprintf(f, "**\n\n");
            matrix_table(f, &m->mx[i], 1);
        }
        if (shown_any)
            rates_chart(f, m, s->string);
        const char *home = bg_report_variant_home(m);
        if (home && !strcmp(home, s->string)) {
            if (!shown_any)
                fprintf(f, "### %s\n\n", s->string);
            variant_table(f, m);
        }
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending with suffix (caller frees). */
char **bg_report_list_dir(const char *dir, const char *suffix, int *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int cap = 0;
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger)
                break;
            names = bigger;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

void bg_report_list_free(char **l, int n)
{
    for (int i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

/* The suite's fragments <suite>--*.md, in name order, so the same run always
 * renders the same report. */
static void fragments(FILE *f, const char *checks_dir, const char *suite)
{
    int n;
    char **names = bg_report_list_dir(checks_dir, ".md", &n);
    size_t sl = strlen(suite);
    for (int i = 0; i < n; i++) {
        if (strncmp(names[i], suite, sl) || strncmp(names[i] + sl, "--", 2))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", checks_dir, names[i]);
        FILE *in = fopen(path, "r");
        if (!in)
            continue;
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, got, f);
        fclose(in);
        fprintf(f, "\n");
    }
    bg_report_list_free(names, n);
}

/* Everything else of a suite, folded: matrices with their cell text, the
 * fragments, every check. */
static void suite_details(FILE *f, const bg_report_model *m, const char *checks_dir,
                          const char *suite)
{
    int n = suite_checks(m, suite);
    fprintf(f, "<details><summary>%s: matrices with values, fragments and the %d check%s (the "
               "passing ones counted per test)</summary>\n\n",
            suite, n, n == 1 ? "" : "s");
    for (int i = 0; i < m->nmx; i++) {
        if (strcmp(m->mx[i].suite, suite))
            continue;
        fprintf(f, "#### ");
        bg_md_text(f, m->mx[i].table, 400);
        fprintf(f, "\n\n");
        matrix_table(f, &m->mx[i], 0);
    }
    fragments(f, checks_dir, suite);
    /* every check that did not pass in full; the passing ones summed per test
     * (a full run has thousands: listed one by one they filled most of the
     * 1 MiB job summary) */
    fprintf(f, "\n| check | verdict | observed |\n|---|---|---|\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        const char *s = bg_json_str(c, "suite"), *v = bg_json_str(c, "verdict");
        if (!s || strcmp(s, suite) || (v && strcmp(v, "pass") == 0))
            continue;
        fprintf(f, "| ");
        bg_md_code(f, bg_json_str(c, "name"), 200);
        fprintf(f, " | %s | ", shown(v));
        value(f, c, "observed", 400);
        fprintf(f, " |\n");
    }
    struct {
        const char *test;
        int n;
    } *tests = NULL; /* the tests with passing checks, in order of their first one */
    int nt = 0, cap = 0;
    cJSON_ArrayForEach(c, m->checks) {
        const char *s = bg_json_str(c, "suite"), *v = bg_json_str(c, "verdict"), *t = test_of(c);
        if (!s || strcmp(s, suite) || !v || strcmp(v, "pass") || !t)
            continue;
        int k = nt - 1; /* a test's checks are mostly together: look from the last one */
        while (k >= 0 && strcmp(tests[k].test, t))
            k--;
        if (k < 0) {
            if (nt == cap) {
                cap = cap ? 2 * cap : 64;
                void *grown = realloc(tests, (size_t)cap * sizeof *tests);
                if (!grown)
                    break;
                tests = grown;
            }
            tests[nt].test = t;
            tests[nt].n = 0;
            k = nt++;
        }
        tests[k].n++;
    }
    for (int k = 0; k < nt; k++) {
        fprintf(f, "| ");
        bg_md_code(f, tests[k].test, 200);
        fprintf(f, " | %s × %d | %d passing check%s of this test |\n", shown("pass"), tests[k].n,
                tests[k].n, tests[k].n == 1 ? "" : "s");
    }
    free(tests);
    fprintf(f, "\n</details>\n\n");
}

/* Each failure with its details, folded. */
static void failure_details(FILE *f, const bg_report_model *m)
{
    if (!m->nbad)
        return;
    fprintf(f, "<details><summary>Each failure in full (%d), with details</summary>\n\n", m->nbad);
    for (int i = 0; i < m->nbad; i++) {
        const cJSON *c = m->bad[i];
        fprintf(f, "#### %s ", shown(bg_json_str(c, "verdict")));
        bg_md_code(f, bg_json_str(c, "name"), 400);
        fprintf(f, "\n\n");
        static const char *const parts[] = {"expected", "observed", "details"};
        for (int k = 0; k < 3; k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, parts[k]);
            if (!v || cJSON_IsNull(v))
                continue;
            char *s = cJSON_IsString(v) ? NULL : cJSON_Print(v);
            /* a fence longer than any backtick run the text could hold */
            fprintf(f, "%s:\n\n~~~~~~~~\n%s\n~~~~~~~~\n\n", parts[k], s ? s : v->valuestring);
            free(s);
        }
    }
    fprintf(f, "</details>\n\n");
}

static void host_details(FILE *f, const bg_report_model *m)
{
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(m->doc, "host"), *x;
    fprintf(f, "<details><summary>Host facts</summary>\n\n| fact | value |\n|---|---|\n");
    cJSON_ArrayForEach(x, host) {
        char *s = NULL;
        if (cJSON_IsObject(x)) {
            /* features: the names that are true */
            size_t cap = 1, len = 0;
            const cJSON *y;
            cJSON_ArrayForEach(y, x) cap += strlen(y->string) + 2;
            s = calloc(cap, 1);
            cJSON_ArrayForEach(y, x) if (s && cJSON_IsTrue(y)) len +=
                (size_t)sprintf(s + len, "%s%s", len ? ", " : "", y->string);
        } else
            s = bg_json_line(x);
        fprintf(f, "| %s | ", x->string);
        bg_md_text(f, s, 2000);
        fprintf(f, " |\n");
        free(s);
    }
    fprintf(f, "\n</details>\n\n");
}

/* One part of report.md rendered in memory (open_memstream), so that its
 * size is known before it is written. */
typedef struct md_part {
    char *text;
    size_t len;
    char what[200]; /* named in the cut line when left out */
} md_part;

static FILE *part_open(md_part *p, const char *what)
{
    p->text = NULL;
    p->len = 0;
    snprintf(p->what, sizeof p->what, "%s", what);
    return open_memstream(&p->text, &p->len);
}

/* Ends the part's stream: its text and len are then final (NULL when the
 * stream could not be opened). */
static void part_close(md_part *p, FILE *f)
{
    if (f)
        fclose(f);
    else
        p->len = 0;
}

static void causes_details(FILE *f, const bg_report_model *m)
{
    for (int i = 0; i < m->ncauses; i++) {
        fprintf(f, "<details><summary>Inconclusive: ");
        bg_html_text(f, m->causes[i].text, 160);
        fprintf(f, " (%d)</summary>\n\n", m->causes[i].n);
        for (int k = 0; k < m->causes[i].n; k++) {
            fprintf(f, "- ");
            bg_md_code(f, bg_json_str(m->causes[i].checks[k], "name"), 200);
            fprintf(f, ": ");
            bg_md_text(f, bg_json_str(m->causes[i].checks[k], "observed"), 300);
            fprintf(f, "\n");
        }
        fprintf(f, "\n</details>\n\n");
    }
}

/* The line that says report.md was cut, where the rest is. */
static void cut_line(FILE *f, const char *left_out)
{
    fprintf(f, "**report.md cut** to stay under %d KiB (GitHub's job summary holds 1 MiB): left out: "
               "%s. Every check, in full, is in results.json beside this file (on GitHub: the "
               "job's artifact `gate-<runner>`).\n\n",
            MD_MAX_BYTES / 1024, left_out);
}

/* The report when even its first part (verdict, failures, tables) passes the
 * cap: the header and the name of every fail and xpass check. */
static void names_only(FILE *f, const bg_report_model *m)
{
    header(f, m);
    cut_line(f, "the failures' expected/observed and next steps, the tables and the evidence");
    fprintf(f, "## Failures (%d): names\n\n", m->nbad);
    for (int i = 0; i < m->nbad; i++) {
        fprintf(f, "%d. %s ", i + 1, shown(bg_json_str(m->bad[i], "verdict")));
        bg_md_code(f, bg_json_str(m->bad[i], "name"), 200);
        fprintf(f, "\n");
    }
}

bg_status bg_report_markdown(const bg_report_model *m, const char *checks_dir, const char *path)
{
    char tmp[4200];
    FILE *f = bg_report_create(path, tmp, sizeof tmp);
    if (!f)
        return BG_E_IO;
    /* the first part, always whole (it names every fail and xpass check), then
     * the evidence sections in order, each only when it still fits */
    const cJSON *s, *suites_obj = cJSON_GetObjectItemCaseSensitive(m->doc, "suites");
    int nparts = 4 + cJSON_GetArraySize(suites_obj);
    md_part *parts = calloc((size_t)nparts, sizeof *parts);
    if (!parts) {
        fclose(f);
        remove(tmp);
        return bg_fail(BG_E_NOMEM, "report", "out of memory");
    }
    int np = 0;
    FILE *o = part_open(&parts[np], "the report");
    if (o) {
        header(o, m);
        failures(o, m);
        inconclusive(o, m);
        inferred(o, m);
        against_base(o, m);
        perf(o, m);
        suites(o, m);
        fprintf(o, "## Evidence\n\nreport.html beside this file has the same report with charts "
                   "(perf intervals, baseline history); results.json has every check.\n\n");
    }
    part_close(&parts[np++], o);
    o = part_open(&parts[np], "each failure in full");
    if (o)
        failure_details(o, m);
    part_close(&parts[np++], o);
    o = part_open(&parts[np], "the inconclusive checks by cause");
    if (o)
        causes_details(o, m);
    part_close(&parts[np++], o);
    cJSON_ArrayForEach(s, suites_obj) {
        char what[160];
        snprintf(what, sizeof what, "the %.100s details", s->string);
        o = part_open(&parts[np], what);
        if (o)
            suite_details(o, m, checks_dir, s->string);
        part_close(&parts[np++], o);
    }
    o = part_open(&parts[np], "the host facts");
    if (o) {
        host_details(o, m);
        if (bg_json_str(m->doc, "junit")) {
            fprintf(o, "JUnit: ");
            bg_md_code(o, bg_json_str(m->doc, "junit"), 400);
            fprintf(o, "\n");
        }
    }
    part_close(&parts[np++], o);
    /* room for the cut line, which names what was left out */
    size_t room = MD_MAX_BYTES - 4096, used = parts[0].len;
    char left_out[3000] = "";
    size_t lo = 0;
    if (!parts[0].text || used > room) {
        names_only(f, m);
    } else {
        for (int i = 1; i < np; i++) {
            if (!parts[i].text || used + parts[i].len > room) {
                if (lo < sizeof left_out - 200)
                    lo += (size_t)snprintf(left_out + lo, sizeof left_out - lo, "%s%s", lo ? ", " : "",
                                           parts[i].what);
                free(parts[i].text);
                parts[i].text = NULL;
                continue;
            }
            used += parts[i].len;
        }
        fwrite(parts[0].text, 1, parts[0].len, f);
        if (*left_out)
            cut_line(f, left_out);
        for (int i = 1; i < np; i++)
            if (parts[i].text)
                fwrite(parts[i].text, 1, parts[i].len, f);
    }
    for (int i = 0; i < np; i++)
        free(parts[i].text);
    free(parts);
    return bg_report_commit(f, tmp, path);
}

void bg_report_print_summary(const cJSON *doc, FILE *out)
{
    fprintf(out, "%-20s %7s", "suite", "verdict");
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(out, " %6.6s", bg_verdict_name((bg_verdict)v));
    fprintf(out, "\n");
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(doc, "suites")) {
        fprintf(out, "%-20s %7s", s->string, bad_of(s) ? "FAIL" : "pass");
        for (int v = 0; v < BG_VERDICT_COUNT; v++)
            fprintf(out, " %6d", (int)bg_json_num(s, bg_verdict_name((bg_verdict)v), 0));
        fprintf(out, "\n");
    }
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    fprintf(out, "gate: %s (", gate_verdict(sum));
    counts_line(out, sum);
    fprintf(out, ")\n");
}
