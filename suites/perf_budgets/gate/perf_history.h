/* perf_history.h — main's perf history and its change points
 * (docs/perf_budgets.md "Change points over main's history").
 *
 * The history is one JSON document the nightly workflow alone writes (an
 * artifact chain: each night downloads the previous one, appends, uploads):
 *   {"schema": 1, "runs": [{"commit": "<sha>", "date": "<UTC ISO 8601>",
 *     "host": "<host key>", "values": {"<check name>": {"metric": "real_time",
 *     "value": <median of the head side, the metric's unit>, "n": <samples>}}}]}
 * Runs are kept in the order they were appended (main's order: one nightly
 * run after another).  A value is a perf check's details.median_head
 * (bg-perf's checks in results.json: perf.baseline.*, perf.callgrind.*, ...).
 */
#ifndef PERF_HISTORY_H
#define PERF_HISTORY_H

#include <stdint.h>
#include <stdio.h>

#include "buildgate/bg_error.h"
#include <cjson/cJSON.h>

/* Loads the history at path; a missing file is an empty history when
 * missing_ok.  BG_E_FIXTURE when it is not a history (schema, runs), with one
 * line naming what; BG_E_IO. */
bg_status perf_history_load(const char *path, int missing_ok, cJSON **doc);

/* Appends one run: results (a results.json document), commit and date (NULL:
 * the results' run.commit / generated).  *added = the number of values; 0
 * and a note on stdout when the history already holds that commit and host
 * (the same run appended twice, a re-run job, a night without a new commit).  BG_E_USAGE when the results have no
 * commit and none is given, or no perf value. */
bg_status perf_history_append(cJSON *hist, const cJSON *results, const char *commit,
                              const char *date, int *added);

typedef struct perf_changes_opts {
    const char *check_re; /* POSIX extended regex on check names (NULL: all) */
    const char *host;     /* one host key (NULL: every host) */
    size_t min_size;      /* fewest runs on each side of a change */
    double sig;           /* permutation p at most this */
    unsigned permutations;
    uint64_t seed;
    double min_step;      /* a slowdown smaller than this fraction is reported, not failed */
    const cJSON *acks;    /* perf_history_acks_load's "acknowledged" array (NULL: none) */
    const char *acks_path;
} perf_changes_opts;

/* Acknowledged steps (a committed file, docs/perf_budgets.md "Change points
 * over main's history"): {"schema": 1, "acknowledged": [{"check": "<check
 * name>", "good": "<commit>", "bad": "<commit>", "reason": "<why it stays>",
 * "host": "<host key>" (optional: every host), "by": "<who>" (optional)}]}.
 * good/bad: a commit of the history or a prefix naming one (the range
 * `changes` printed).  A slowdown of that check (and host) whose last run
 * before and first run after lie within the range widened by 2 commits on
 * each side (the study's hit distance: the detector may move a step by a
 * run as nights are added) is reported as acknowledged and does not fail.
 * BG_E_PARSE (one line) for a file that is not that: unknown keys, a blank
 * reason; BG_E_IO. */
bg_status perf_history_acks_load(const char *path, cJSON **doc);

/* Finds the change points of every (host, check) series of the history
 * (bg_edivisive) and writes one line per change to out and, when md is not
 * NULL, a Markdown table.  A slowdown of at least min_step (the metric's bad
 * direction: larger for times, Ir and costs, smaller for *_per_second) names
 * its commit range and the ci/bisect command.  *slowdowns = their count,
 * those o->acks covers not counted.  BG_E_PARSE when an acknowledgement's
 * commit prefix names more than one commit of the history. */
bg_status perf_history_changes(const cJSON *hist, const perf_changes_opts *o, FILE *out, FILE *md,
                               int *slowdowns);

#endif
