/* nan_report.h — deviation groups, their checks and the report fragment.
 *
 * A group is one root cause: rule + detail (nan_classify.h).  It counts the
 * deviating cases, lists the ops it touched and keeps the first case as its
 * example (op, phase, mode, case index, operands, expected vs observed bits).
 * Emitting turns each group into one check (fail, or xfail when the known
 * deviation lines with its rule and detail list every op it showed,
 * nan_known_cover; a fail also proposes a line for the ops no line lists,
 * nan_propose.h), each unused applicable known line into an xpass
 * (inconclusive when the probe did not run to the end), plus one summary
 * check carrying details.matrix {table "runner × context"} and the runner's
 * version.  Every one of these checks carries the table's identity as
 * details fields runner, runner_version, context and modes (what bg-report
 * --merge keys on; never parsed from the test name), and emitting writes the grouped list as a Markdown fragment
 * $(dirname $BG_CHECKS_FILE)/nan_semantics--<test>.md.
 */
#ifndef NAN_REPORT_H
#define NAN_REPORT_H

#include <cjson/cJSON.h>

#include "buildgate/bg_check.h"
#include "nan_known.h"

typedef struct nan_group {
    char rule[48];
    char detail[96];
    long count;
    char ops[200];        /* for the eye: the first ops, "..." when more */
    char **items;         /* every op (or phase/fact/trap name) it showed, once each */
    int n_items;
    int base;             /* 1: seen outside the non-base MXCSR modes (nan_modes .base) */
    char expected[256];   /* example, bits */
    char observed[256];
    cJSON *example;       /* owned */
} nan_group;

typedef struct nan_groups {
    nan_group *g;
    int n;
    long checked;         /* cases compared (a case: one op x operands x mode, one row of a
                             context's table such as nan_faults.def) */
    long skipped;         /* cases not compared (op unsupported by guest or fixture, row skipped) */
    long subchecks;       /* the parts of the compared cases judged one by one, when a
                             context counts them (faults: signal, si_code, MXCSR,
                             destination); 0: not counted */
    const char *subchecks_what; /* what one sub-check is, e.g. "signal, si_code, MXCSR, destination" */
    cJSON *notes;         /* array of strings (skips, runner facts) */
} nan_groups;

/* Adds one deviating case to the group rule+detail (created on first use).
 * Returns the group and sets *fresh when it was just created, so the caller
 * fills expected/observed/example once. */
nan_group *nan_groups_add(nan_groups *gs, const char *rule, const char *detail, const char *op,
                          int *fresh);

void nan_groups_free(nan_groups *gs);

typedef struct nan_run_info {
    const char *test;      /* BG_TEST_NAME or a fallback */
    const char *runner;
    const char *known_list; /* the tool whose list applies (bg_runner_known_tool) */
    const char *version;
    const char *context;
    const char *modes;     /* "base" or "all": the MXCSR modes run (--modes; "base" outside main_thread) */
    const char *known_context; /* context of known lines: context, or NAN_CONTEXT_ALL_MODES */
    int probe_ok;          /* 0: the probe crashed/hung/printed garbage */
    const char *known_unjudged; /* non-NULL: why unused known lines are not judged (the
                                   run did not cover what they were measured on): no
                                   xpass, a note instead */
    double probe_wall_s;
    const char *fixture, *fixture_rel; /* the stored results compared against, and its place
                                          in fixtures/ (a fail's action names `git diff` of
                                          it: a hand edit reads as a deviation); NULL: none */
} nan_run_info;

/* Emits the checks and the fragment; returns BG_OK or BG_E_IO. */
bg_status nan_report_emit(bg_checks *c, const nan_run_info *ri, nan_groups *gs, nan_known *kd);

#endif
