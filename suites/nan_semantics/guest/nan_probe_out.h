/* nan_probe_out.h — the guest's output document (nan_probe.c's header has
 * the shape), collected while the probe runs and printed once at the end.
 *
 * libc-only on purpose (see nan_probe.c): the guest is built for x86-64 on
 * hosts that have no x86-64 cJSON.  Every string printed comes from the
 * probe's own tables (op, mode, phase, context, fact and exception names),
 * and is escaped as JSON requires all the same.
 */
#ifndef NAN_PROBE_OUT_H
#define NAN_PROBE_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "nan_cases.h"
#include "nan_lig.h"

#define NAN_OUT_MAX_FACTS 8
#define NAN_OUT_MAX_TRAPS 4
#define NAN_OUT_MAX_PHASES NAN_MODE_COUNT

typedef struct nan_out {
    int nfacts, ntraps, nphases;
    struct { const char *key; int value; } facts[NAN_OUT_MAX_FACTS];
    struct {
        const char *exception;
        int delivered, si_code;   /* si_code: -1 when not delivered */
        uint32_t handler_mxcsr;   /* MXCSR read inside the SIGFPE handler */
        int saved_status;         /* status bits of the saved context, -1 unknown */
    } traps[NAN_OUT_MAX_TRAPS];
    struct {
        const char *name;
        int mode;                 /* nan_modes index, -1: inherited control bits */
        uint32_t mxcsr;
        uint16_t x87_cw;          /* x87 control word at the phase's start */
        const nan_rec *recs;      /* nan_case_total() records */
    } phases[NAN_OUT_MAX_PHASES];
    void (*extra)(FILE *f);       /* prints more members (",\"faults\":[...]"), or NULL */
    const nan_lig_run *lig;       /* main_thread: the VEX.L = 1 check (nan_lig.h); else NULL */
} nan_out;

/* Record a boolean fact / a trap / a phase (extra ones beyond the MAX are
 * dropped; the probe's contexts use at most 5 facts, 2 traps, 16 phases).
 * nan_out_fact is async-signal-safe (plain stores). */
void nan_out_fact(nan_out *o, const char *key, int value);
void nan_out_trap(nan_out *o, const char *exception, int delivered, int si_code,
                  uint32_t handler_mxcsr, int saved_status);
void nan_out_phase(nan_out *o, const char *name, int mode, uint32_t mxcsr, const nan_rec *recs);

/* Sets the x87 control word of the phase added last. */
void nan_out_phase_x87(nan_out *o, uint16_t cw);

/* Prints the whole document for context `context` as one line on f.
 * Returns 0, or -1 when a write failed. */
int nan_out_print(const nan_out *o, FILE *f, const char *context);

#endif
