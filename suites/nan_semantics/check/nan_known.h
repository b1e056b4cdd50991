/* nan_known.h — known deviations: fixtures/nan_semantics/known/<file>.tsv (the
 * runner's known-deviation file in the runner registry, bg_runners.def).
 *
 * One deviation per line, 7 tab-separated columns and an 8th, observed (every
 * committed line has it: nan-check --validate-known --require-observed),
 * '#' starts a comment line:
 *   runner  versions  contexts  ops  rule  detail  reference  observed
 *   runner    the file's name without .tsv (the tool: rows of the runner
 *             registry sharing the file tell their lines apart by versions)
 *   versions  "*" or constraints on the runner's version, e.g. ">=7.2,<7.3"
 *             (bg_version_in_range; every bound is digits and dots only)
 *   contexts  comma-separated fnmatch(3) patterns on the context name
 *             ("*", "signal_*,sigaltstack"); "main_thread_all_modes" names
 *             main_thread run with all 16 MXCSR modes (the long test), for a
 *             deviation only modes outside the base set show; a main_thread
 *             line applies to that run too
 *   ops       comma-separated items the deviation was measured on: op names
 *             of nan_ops.def, op families (nan_family.h, e.g. "minmax-ps"),
 *             or, for the per-context rules, the phase / mode / fact / trap
 *             names the checker reports ("handler", "ftz", "IE"); no
 *             patterns.  Regenerated from a run with
 *             `nan-check --regen-known-ops` (docs/nan_semantics.md)
 *   rule      a rule id of nan_classify.h (exact)
 *   detail    fnmatch(3) pattern on the finding's detail ("*" any, "-" none)
 *   reference upstream bug/docs URL, or "observed here <date>" when none exists
 *   observed  the runner versions this line was measured on, comma-separated
 *             full versions ("7.2.22,10.0.13"; bg_version_parse, each inside
 *             the line's versions range): the file's measured history.  A
 *             line without it (7 columns) is measured nowhere: it applies by
 *             its range only and brackets nothing
 * Brackets (docs/nan_semantics.md "Runner versions"): the measured versions
 * of a context are every version the observed columns of the file's lines of
 * that context name (a version measured in other contexts only, e.g. without
 * nan-seq's sequences, neither brackets nor breaks a bracket there).  A runner
 * version V that is not measured and that no line's range holds lies between
 * the nearest measured versions lo < V < hi (when both exist).  Then the
 * lines of context C observed at lo or hi apply *inferred*: a deviation group
 * is covered when, for every item it showed, a line observed at lo and a line
 * observed at hi (same rule and detail) list it: xfail with the bracket named
 * ("between measured lo and hi; not measured").  A lo or hi line with no
 * partner on the other side (same rule, detail and a shared op) is no
 * bracket and is dropped.  A bracketed line that covers no group is no xpass
 * (V differs from its bracket: information, a pass).  Outside every bracket
 * no line applies: every group fails with a proposed line, as before.
 * The file is read by the one reader of known lists, bg_known_read
 * (buildgate/bg_known.h: text lines, comments, the runner, versions,
 * reference and observed columns, column lengths, duplicates); nan_known.c
 * checks the suite's columns: a rule no checker reports, a context pattern
 * that matches no context, an ops item that is no op, family, mode, phase,
 * fact, trap or fault row is refused (such a line could never match).
 * A deviation group is covered when the applicable lines with its rule and
 * detail list every op (item) it showed: xfail.  A group one of them matches
 * by rule and detail but with an op none lists is a fail naming the new ops;
 * a line that applies to the runner/version/context and covers no group is
 * xpass (remove the line).
 */
#ifndef NAN_KNOWN_H
#define NAN_KNOWN_H

#include <stddef.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_runner.h"

#define NAN_KNOWN_COLUMNS 7 /* the required ones; the 8th (observed) follows */

/* The context name lines use for main_thread with --modes all. */
#define NAN_CONTEXT_ALL_MODES "main_thread_all_modes"

/* The context name lines use for generated sequences (nan-seq, rule
 * sequence-state, detail = the part of the state, ops = the ops of the
 * shrunk reproducers: nan_seq_diff.h). */
#define NAN_CONTEXT_SEQUENCES "sequences"

/* The longest ops column a known line may have, with its terminating NUL:
 * every reader of the column holds this much (nan_known_load refuses longer). */
#define NAN_KNOWN_OPS_MAX 8192

typedef struct nan_known_line {
    int lineno;
    /* a column longer than its field is refused by nan_known_load, never cut */
    char versions[64], contexts[256], ops[NAN_KNOWN_OPS_MAX], rule[48], detail[96], reference[2048];
    char observed[256]; /* "" when the line has no observed column */
    int side;   /* inferred lists only: 1 observed at the bracket's lo, 2 at its hi, 3 both */
    int used;   /* set when a group matched it */
} nan_known_line;

typedef struct nan_known {
    char path[1024];
    nan_known_line *lines;
    int n;
    /* set by nan_known_load for a version given: */
    char measured[512]; /* every observed version of the context's lines (all lines:
                           nan_known_load_all), ascending, comma-separated */
    int inferred;       /* 1: the version is not measured, no range holds it, and the lines
                           kept are those of its bracket lo..hi */
    char lo[32], hi[32]; /* the nearest measured versions below / above it ("" none) */
} nan_known;

/* The text an inferred verdict carries: "<version> is between measured <lo>
 * and <hi>; not measured" into out[n]. */
void nan_known_bracket_text(const nan_known *kd, const char *version, char *out, size_t n);

/* Reads <dir>/<file> (the runner's known-deviation file, bg_runner.known:
 * <runner>.tsv, or one shared by rows of the same tool) keeping the lines
 * that apply to runner version `version` and context `context`
 * (NAN_CONTEXT_ALL_MODES for main_thread with all modes).  A missing
 * file is an empty list (see nan_known_load_runner).  A malformed line (a
 * line repeating an earlier one, all columns before the reference equal,
 * too): one error line "buildgate: <tool>: <path>:<line>: <why>" (bg_known.h)
 * and BG_E_FIXTURE. */
bg_status nan_known_load(const char *dir, const char *file, const char *version,
                         const char *context, nan_known *kd);

/* nan_known_load of runner rn's file (rn->known, rn->version) in the
 * fixtures root's nan_semantics/known/.  The file of a built-in runner
 * (bg_runners.def) is stored truth: missing, it is BG_E_FIXTURE after one
 * line naming it and how to restore it (bg_fixture_hint), not an empty list
 * that would turn every known deviation into a fail.  A user runner's
 * (BG_X86_RUNNERS) may be absent. */
bg_status nan_known_load_runner(const char *root, const bg_runner *rn, const char *context, nan_known *kd);

/* Reads every line of the file at path, whatever its version and context
 * (the runner column must equal the file's name without .tsv): the same
 * checks and the same error line as nan_known_load; a missing file is
 * BG_E_FIXTURE here.  For `nan-check --validate-known` and ci/adopt-known. */
bg_status nan_known_load_all(const char *path, nan_known *kd);

/* 0 when every line of kd (nan_known_load_all) has an observed column, else
 * the number of the first line without one. */
int nan_known_unobserved(const nan_known *kd);

/* How the applicable lines cover one deviation group (rule, detail, and the
 * items it showed: op names, or phase/fact/trap names for context rules).
 * Returns the number of lines matching rule + detail (0: none) and points
 * matched[0..max-1] at the first of them.  missing[n] receives the group's items
 * none of those lines lists, comma-separated ("" when covered).  Lines that
 * list at least one of the items are marked used. */
int nan_known_cover(nan_known *kd, const char *rule, const char *detail, const char *const *items,
                    int n_items, nan_known_line **matched, int max, char *missing, size_t n);

/* 1 when the ops column `ops` lists item (by name or through its family). */
int nan_known_ops_cover(const char *ops, const char *item);

void nan_known_free(nan_known *kd);

#endif
