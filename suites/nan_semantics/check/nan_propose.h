/* nan_propose.h — a proposed known-deviation line for a deviation group that
 * no line of known/<tool>.tsv covers (lib bg_proposed.h, docs/nan_semantics.md
 * "Runner versions").
 *
 * The line has the known-list format (nan_known.h): tool, the runner
 * version's minor series (">=X.Y,<X.Y+1"), the one context of this run
 * (main_thread_all_modes for a group of the all-modes run that no base mode
 * showed), the
 * ops it covers (those of the group no known line lists, families joined,
 * nan_family_compress), the group's rule, its detail (fnmatch(3)
 * metacharacters escaped; "-" when none) and the reference "proposed, not
 * reviewed; observed <date> on <host key> with <version>; <n> cases; test
 * <test>", then the observed column: the runner's version "X.Y.Z" (the
 * measurement this line records; none when no number can be read).  An
 * inferred xfail (nan_known.h "Brackets") is proposed too: the run measured
 * that version, and adopting its lines records it.
 */
#ifndef NAN_PROPOSE_H
#define NAN_PROPOSE_H

#include "nan_report.h"

/* Appends the proposed line of group g to
 * <checks-dir>/proposed-known/nan_semantics/<ri->known_list>.tsv (ops: the
 * ops column, comma-separated); path[n]
 * receives that file relative to the checks directory ("" when not under bg-run or when the group is not
 * adoptable: a probe failure is never proposed); line[line_n] receives the
 * proposed line itself ("" when none).  BG_E_IO on a write error. */
bg_status nan_propose(const nan_run_info *ri, const nan_group *g, const char *ops, char *path,
                      unsigned n, char *line, unsigned line_n);

#endif
