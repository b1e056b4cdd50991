/* nan_fault_probe.h — context `faults` of the guest (nan_faults.def): runs
 * every row alone and prints the document's "faults" member. */
#ifndef NAN_FAULT_PROBE_H
#define NAN_FAULT_PROBE_H

#include <stdio.h>

/* Runs every row of the fault table, each in a forked child of its own with
 * a SIGSEGV/SIGBUS handler (SA_SIGINFO) that reads the saved state and
 * siglongjmps out, so a fault, a runner that dies on one row or one that
 * lets the fault through costs that row only.  Returns 0, or -1 when the
 * shared results or a child could not be made (errno). */
int nan_fault_probe_run(void);

/* Prints ,"faults":[{"case":NAME,"signal":"SIGSEGV"|"none"|"skipped"|...,
 * "handled":true|false,"si_code":N,"mxcsr_after":"0x3f80"|"","dest":"<32 hex>"|"",
 * "why":"..."},...] (the results of nan_fault_probe_run). */
void nan_fault_probe_print(FILE *f);

#endif
