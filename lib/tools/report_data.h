/* report_data.h — what report.md and report.html show, extracted once from
 * results.json (as cJSON) so that the two writers agree (report_md.c,
 * report_html.c).  Part of bg-report.
 *
 * The model points into the documents it was built from (doc, base): keep
 * them alive until bg_report_model_free.  Nothing here prints or writes.
 */
#ifndef BG_REPORT_DATA_H
#define BG_REPORT_DATA_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* One cause of inconclusive checks, stated once with the checks it covers. */
typedef struct bg_rep_cause {
    char key[200];        /* grouping key (internal) */
    char text[400];       /* the cause in one sentence */
    int host;             /* 1: the host (runner, CPU count) cannot decide; the change is
                             not involved */
    int n, cap;
    const cJSON **checks; /* the n inconclusive checks */
} bg_rep_cause;

/* One perf check with a ratio (head/base: >1 slower) and its interval. */
typedef struct bg_rep_perf {
    const cJSON *check;
    const char *name;     /* the check's name, perf.<mode>.<benchmark> */
    const char *bench;    /* <benchmark> (points into name) */
    char mode[32];        /* ab, baseline, callgrind, ... */
    const char *source;   /* what the ratio compares (static storage): "merge-base A/B"
                             (test perf.ab.merge_base, ci/gate --base), "A/A self-check"
                             (an ab test: the build against itself), "stored baseline",
                             else the mode (bg_report_perf_source) */
    int merge_base;       /* 1: the judgement of this change against its merge-base
                             (source "merge-base A/B"); the report puts these rows
                             first and apart from the A/A and other self-checks */
    const char *verdict;
    double ratio, lo, hi, band; /* band: the budget, a fraction (0.01 = 1 %) */
    double med_base, med_head;  /* medians in the benchmark's metric */
    const char *metric;
} bg_rep_perf;

/* A matrix cell: the worst verdict of the checks landing there, its text. */
typedef struct bg_rep_cell {
    const char *verdict; /* NULL: no check */
    const char *text;    /* details.matrix.cell of that check, or NULL */
    const char *decided; /* the worst verdict of the checks the host could decide
                            (NULL: none could) */
    int cause;           /* 1 + index in causes of a host-limited inconclusive check
                            here, 0 when none */
} bg_rep_cell;

/* One table of checks whose details carry {"matrix":{"table","row","col"[,"cell"]}}. */
typedef struct bg_rep_matrix {
    const char *suite, *table;
    int nr, nc;
    const char **rows, **cols;
    bg_rep_cell *cells; /* nr * nc, row-major */
    int *row_cause;     /* per row: 1 + the cause index of its first host-limited cell, or 0 */
} bg_rep_matrix;

/* The rate of a litmus test's allowed relaxed outcome on one runner.model. */
typedef struct bg_rep_rate {
    const char *row, *test, *verdict;
    double per_million;
} bg_rep_rate;

/* A check that is new, vanished or changed its verdict against the base run. */
typedef struct bg_rep_change {
    const char *name, *was, *now; /* was/now: verdicts, NULL when absent */
} bg_rep_change;

typedef struct bg_report_model {
    const cJSON *doc, *checks, *run, *summary;
    const char *verdict;    /* "PASS" or "FAIL" (FAIL also when nothing was recorded) */
    int ntotal;             /* checks recorded */
    int nbad;               /* fail + xpass */
    const cJSON **bad;      /* the nbad fail/xpass checks, in results order */
    bg_rep_cause *causes;   /* inconclusive checks grouped by cause */
    int ncauses, nhost_inconclusive;
    bg_rep_cause *inferred; /* checks whose verdicts a bracket of measured runner versions
                               inferred (details.inferred.cause), one cause per runner version */
    int ninferred;
    bg_rep_perf *perf;    /* the merge-base rows first (perf[0 .. nperf_mb - 1]), then the
                             others, each in check order */
    int nperf, nperf_mb;
    const char *perf_base;  /* run.perf_base (the base commit), NULL: A/A self-check only */
    bg_rep_matrix *mx;
    int nmx;
    bg_rep_rate *rates;
    int nrates;
    const char *base_path;  /* --base-results, NULL when none */
    bg_rep_change *added, *vanished, *changed;
    int nadded, nvanished, nchanged;
    const cJSON **vt;       /* the variant table's checks (details.variant_table: bg-perf
                               variants, docs/perf_budgets.md "The variant table"), in order */
    int nvt;
    cJSON *baseline;        /* <baselines-dir>/<host-key>.json when readable, else NULL */
    char baseline_path[1024];
} bg_report_model;

/* What a perf check's ratio compares, from the check's "test" column (the
 * CTest test that recorded it, a whole value, never parsed) and mode (the
 * <mode> of perf.<mode>.<benchmark>): "merge-base A/B" for test
 * perf.ab.merge_base (ci/gate --base: *merge_base = 1), "A/A self-check" for
 * another ab test, "stored baseline" for mode baseline, else mode itself. */
const char *bg_report_perf_source(const cJSON *check, const char *mode, int *merge_base);

/* Builds the model of doc (a results.json document).  base: the base run's
 * results.json (NULL: no comparison); base_path names it in the report.
 * baselines_dir: folder of <host-key>.json perf baselines (NULL or missing:
 * no history).  BG_E_NOMEM on allocation failure (one error line). */
bg_status bg_report_model_build(bg_report_model *m, const cJSON *doc, const cJSON *base,
                                const char *base_path, const char *baselines_dir);
void bg_report_model_free(bg_report_model *m);

/* The repository-relative doc section of a check's suite, e.g.
 * "docs/nan_semantics.md#known-deviations" (static storage). */
const char *bg_report_doc_for(const cJSON *check);

/* The doc page of a suite, e.g. "docs/nan_semantics.md" (static storage;
 * docs/writing-a-suite.md for a suite without checks here). */
const char *bg_report_suite_doc(const bg_report_model *m, const char *suite);

/* The next step for a fail/xpass check, one sentence (no final period)
 * into buf: details.action/fix when the check gives one, else by the kind of
 * check (no checks file, timeout or crash, probe, known deviation gone, NaN
 * deviation, forbidden litmus outcome, perf regression, digest mismatch). */
void bg_report_next_step(const cJSON *check, char *buf, size_t n);

/* The command that reruns the check's test (ci/gate's build tree), or ""
 * when the check names no test. */
void bg_report_rerun(const cJSON *check, char *buf, size_t n);

/* What this run did not check, for the top of every report: run.not_checked
 * (the runners this host lacks, each cause once with its fix, as ci/gate
 * passes it with --meta not_checked=...), then the share of each suite that
 * ran ("nan_semantics 17 of 137 checks ran (120 skip)"), into buf as one
 * plain-text line ("" when nothing was recorded).  The Run: line leaves
 * not_checked out (bg_report_run_key_shown). */
void bg_report_coverage(const bg_report_model *m, char *buf, size_t n);
/* 0 for the run keys shown elsewhere than the Run: line (not_checked). */
int bg_report_run_key_shown(const char *key);

/* The variant table of a check (details.variant_table, written by bg-perf
 * variants), or NULL. */
const cJSON *bg_report_variant_of(const cJSON *check);

/* A variant-table cell as plain text into buf: "0.9981 [0.9852, 1.0113] no
 * useful gain", with " (gated: FAIL)" when budgets.json gated it and the
 * check failed; a row that was not measured: "not measured: <why>".  The
 * table's caption (what is compared, the margin, upstream's v2 figure):
 * bg_report_variant_caption (static storage, plain text). */
void bg_report_variant_cell(const cJSON *check, char *buf, size_t n);
const char *bg_report_variant_caption(void);
/* The suite under whose tables report.md and report.html put the variant
 * table: digest_agreement when it ran (beside its build variants' chain H/s,
 * which carry no verdict, and its phase profile), else perf_budgets; NULL
 * when there is no row. */
const char *bg_report_variant_home(const bg_report_model *m);

/* Severity order of verdicts for a cell holding several checks (worst wins):
 * skip < pass < xfail < inconclusive < xpass < fail; unknown = fail. */
int bg_report_severity(const char *verdict);

/* Per-benchmark medians of the baseline's history (newest last), for the
 * benchmark bench: fills up to max values and their dates (points into the
 * baseline), returns how many. */
int bg_report_history(const bg_report_model *m, const char *bench, double *vals,
                      const char **dates, int max);

#endif
