/* runner_known.h — known digest deviations of runners (docs/digest_agreement.md
 * "Under runners").
 *
 * One list per tool, fixtures/randomx/known/<tool>.tsv (<tool>: the registry
 * row's known file without .tsv, bg_runner_known_tool(): qemu-x86_64 for
 * qemu-x86_64 and qemu-x86_64-trixie).  A missing file is an empty list: a
 * runner is expected to compute every digest exactly.
 * Read by the one reader of known lists, bg_known_read (bg_known.h: file
 * rules, common column checks, duplicates, error lines); the columns,
 * tab-separated, '#' comments:
 *   runner  versions  algorithm  variants  check  reference  observed
 *   runner     the tool (= the file's name)
 *   versions   a range (bg_version_range_valid: "*", ">=7.2,<7.3", ...)
 *   algorithm  randomx-v1, randomx-v2 or *
 *   variants   runtime-variant slugs, comma-separated (rx_flags_slug: each one
 *              rx_slug_valid accepts for the algorithm, +v2 exactly for
 *              randomx-v2), or *
 *   check      the checks after the test name, comma-separated: kat.<id>,
 *              kat.<id>.commitment (an id of the algorithm's known answers,
 *              randomx/kat.json or kat-v2.json of the same fixtures root; a
 *              commitment only where the vector has one), chain, run (the
 *              probe failed under the runner), or *; a line holds every
 *              (variant, check) pair of its two lists (ci/adopt-known joins
 *              the proposals of one version range and algorithm so)
 *   reference  why it is known: an upstream report (URL) or "observed here ...";
 *              a proposed line says BG_PROPOSED_MARK until ci/adopt-known
 *   observed   the runner versions it was measured on ("7.2.22,7.2.23")
 * A line that breaks these rules, names a slug or check that can never
 * match, names one twice, or repeats an earlier line's columns before the
 * reference is BG_E_FIXTURE: "buildgate: <tool>: <file>:<line>: <why>".
 *
 * Judging (one rule with the nan and memory_order suites, bg_runner.h
 * "bracket"): a failing check that a line lists for the runner's version is
 * xfail with the line's reference; a version no line's range holds, between
 * two measured versions (the observed columns of the tool's lines) that both
 * show this deviation, is xfail *inferred*; anything else fails and proposes
 * a line with the run's version (bg_proposed.h).  A listed deviation that does
 * not happen is xpass (the line is stale), an inferred one is information.
 */
#ifndef RUNNER_KNOWN_H
#define RUNNER_KNOWN_H

#include "buildgate/bg_error.h"

typedef struct rk_line {
    char versions[64], algorithm[16], variants[512], check[512], reference[1024], observed[256];
    int lineno;
} rk_line;

typedef struct rk_list {
    rk_line *lines;
    int n;
    char path[4096];
} rk_list;

/* Loads <root>/randomx/known/<tool>.tsv into out (missing: empty, BG_OK).
 * BG_E_FIXTURE (one line "<path>:<line>: <why>") on a malformed line or when
 * it cannot be read; the known answers' fixture (root's randomx/kat.json)
 * unreadable: its own BG_E_FIXTURE line. */
bg_status rk_load(const char *root, const char *tool, rk_list *out);
/* The same for the list at path (its runner column: the file's name without
 * .tsv), its kat ids checked against root's known answers. */
bg_status rk_load_path(const char *path, const char *root, rk_list *out);
void rk_free(rk_list *l);

enum { RK_NONE = 0, RK_LISTED = 1, RK_INFERRED = 2 };

/* Is the deviation (algorithm, slug, check) of the runner at version known?
 * RK_LISTED: *line is the line whose range holds version; RK_INFERRED: version
 * is bracketed by measured versions that both list it (note[n]: "V is between
 * measured LO and HI; not measured"); RK_NONE otherwise. */
int rk_find(const rk_list *l, const char *version, const char *algorithm, const char *slug,
            const char *check, const rk_line **line, char *note, unsigned n);

/* Appends the proposed line for a deviation no line explains to
 * proposed-known/digest_agreement/<tool>.tsv beside $BG_CHECKS_FILE
 * (bg_proposed_append); path[n] gets its place ("" outside bg-run). */
bg_status rk_propose(const char *tool, const char *version, const char *algorithm,
                     const char *slug, const char *check, const char *extra, char *path,
                     unsigned n);

#endif
