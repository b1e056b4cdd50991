/* nan_fault_check.h — the checks of context `faults` (nan_faults.def,
 * docs/nan_semantics.md "Faults"). */
#ifndef NAN_FAULT_CHECK_H
#define NAN_FAULT_CHECK_H

#include <cjson/cJSON.h>

#include "nan_report.h"

/* Judges the probe document's "faults" array row by row against the fault
 * table for the document's OS ("os"), adding one group per cause (rule +
 * detail; items: the rows' names):
 *   fault-not-raised  detail the row's cause text: a row that must fault
 *                     ran on (observed: "no signal", with the MXCSR and
 *                     destination it left); nothing else of the row is judged
 *   fault-spurious    a row that must not fault got a signal
 *   fault-signal      another signal than the table's (or the child died
 *                     without its handler running)
 *   fault-si-code     the si_code (Linux: SI_KERNEL, 0x80)
 *   fault-state       detail "MXCSR at the fault", "xmm0 at the fault" or
 *                     "memory at the fault" (one group per part): the state
 *                     saved at the fault (Linux: the signal frame's FXSAVE
 *                     area; memory: read after it) is not what it was before
 *   fault-result      detail "MXCSR", "xmm0" or "memory": a row that must not
 *                     fault left another MXCSR or destination than the table's
 *   probe-failed      a row missing or malformed (stale probe)
 * A row the guest skipped (no AVX) or whose state was not read (macOS) is
 * a note; a skipped row is a case not compared.  Counts: one case per row
 * compared (gs->checked), and its parts judged one by one as sub-checks
 * (gs->subchecks: the signal, the si_code where judged, the MXCSR and the
 * destination where a signal matched). */
void nan_fault_check(const cJSON *doc, nan_groups *gs);

#endif
