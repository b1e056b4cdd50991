/* nan_known_ops.h — the ops column of the known-deviation lists (nan_known.h)
 * regenerated from a run, so it always says what was measured
 * (`nan-check --regen-known-ops`, docs/nan_semantics.md "Known deviations").
 *
 * Input: the check files (JSON lines, bg_check.h) of nan-check runs against
 * the known lists as they are now.  Every deviation group check names the
 * known lines with its rule and detail (details.known_lines, "<path>:<line>")
 * and every op it showed (details.op_list).  Each op goes to the first of
 * those lines that lists it already (by name or family), else to the first
 * of them; each line that got ops gets the ops column
 * nan_family_compress(its ops), so a run over all contexts and modes of a
 * runner regenerates the column mechanically.  Lines no check named keep
 * their column (listed on stdout as not measured).
 *
 * migrate: first turns lines of the 6-column format (runner versions
 * contexts rule detail reference) into 7 columns with the ops column "-"
 * (measured nothing: every group it matches fails until the column is
 * regenerated), and the "# Columns" comment to the 7-column wording.
 */
#ifndef NAN_KNOWN_OPS_H
#define NAN_KNOWN_OPS_H

#include "buildgate/bg_error.h"

/* Rewrites the *.tsv files of known_dir (temporary + rename, only files
 * that change).  reason: non-empty, printed with the summary.  Errors: one
 * line "buildgate: nan-check: ..." and BG_E_USAGE (no reason), BG_E_IO
 * (unreadable/unwritable file), BG_E_PARSE (a check line that is not JSON),
 * BG_E_FIXTURE (a check names a line that now holds another rule: the checks
 * are from another version of the list; nothing written). */
bg_status nan_known_ops_regen(const char *known_dir, int migrate, const char *reason,
                              char *const *checks_files, int n_checks);

#endif
