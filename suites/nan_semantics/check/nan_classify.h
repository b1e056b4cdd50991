/* nan_classify.h — which x86 rule a deviating case breaks.
 *
 * Rules (ids are stable; they key known deviations, fixtures/nan_semantics/known/):
 *   nan-operand-priority  the first source operand's NaN wins when both are NaN
 *                         (Intel SDM Vol.1 4.8.3.5, Table 4-7)
 *   default-nan           an invalid operation with no NaN input returns the QNaN
 *                         floating-point indefinite 0xFFC00000 / 0xFFF8000000000000
 *                         (Vol.1 4.8.3.7, Table 4-3)
 *   snan-quieting         an SNaN operand is returned quieted (fraction MSB set)
 *                         (Vol.1 4.8.3.4, Table 4-7)
 *   nan-propagation       another NaN than any operand's (payload/sign lost)
 *   daz-ftz               DAZ (denormal inputs -> signed 0) or FTZ (denormal results
 *                         -> signed 0, with UE+PE) ignored or misapplied (Vol.1 10.2.3.3-4):
 *                         only when the observed value (or flags, or EFLAGS) is what
 *                         x86 gives under the same rounding with the other FTZ/DAZ
 *                         setting(s) (the fixture's records of the other modes)
 *   rounding              the MXCSR rounding control not honoured (Vol.1 4.8.4): only
 *                         when the observed value is what x86 gives under another
 *                         rounding direction (same FTZ/DAZ)
 *   value                 any other wrong numeric result
 * One cause, one group: a wrong value is daz-ftz or rounding only by that
 * comparison, else the root rule (snan-quieting, minmax, default-nan, value...).
 *   minmax                MIN/MAX return the second operand when either is NaN or both
 *                         are zero of either sign (Vol.2B MINSS/MAXSS "Operation")
 *   integer-indefinite    out-of-range/NaN conversion gives 0x80000000 /
 *                         0x8000000000000000 with IE (Vol.1 4.2.2, 11.5.2.1)
 *   compare-mask          CMPPS/CMPPD predicate result (Vol.2A CMPPS Table 3-1)
 *   comis-eflags          COMISS/UCOMISS ZF/PF/CF (Vol.2A COMISS "Operation")
 *   eflags-clobbered      an SSE arithmetic instruction changed EFLAGS
 *   status-flag           an MXCSR status flag missing or spurious (Vol.1 10.2.3.1)
 *   upper-lanes           destination elements the instruction does not write were
 *                         changed (scalar ops keep bits 127:32 / 127:64; a 32-bit GPR
 *                         write zero-extends to 64 bits, Vol.1 3.4.1.1)
 *                         VEX.128 ops (NAN_VOP): bits 127:32 / 127:64 come from the
 *                         first source (FMA: kept from the destination), and bits
 *                         255:128 of the YMM destination are zeroed (Vol.1 14.1.2)
 *                         VEX.256 ops (NAN_YOP): all 256 bits written; details
 *                         "VEX.L ignored" (bits 255:128 zero) and "upper lane
 *                         computed from the lower lane's sources"; vcvtps2ph to
 *                         memory: "store wrote beyond its memory operand"
 *   source-modified       a source register changed
 *   bitwise               ANDPS/ANDNPS/ORPS/XORPS (and PD) changed a bit: they are
 *                         bitwise, NaN payloads and signs pass unchanged, no flags
 *                         (Vol.2A ANDPS "Operation")
 *   sign-mask             MOVMSKPS/MOVMSKPD mask is not the sign bits, NaNs and -0
 *                         included (Vol.2B MOVMSKPS "Operation")
 *   (rounding, detail "imm RC=..."): ROUNDxx with an immediate rounding
 *                         direction, which overrides MXCSR.RC (Vol.2B ROUNDPS)
 * Context rules (checked by the checker, not per case): mxcsr-initial (the
 * MXCSR a process starts with is not 0x1F80; context `initial`), mxcsr-readback,
 * handler-mxcsr, mxcsr-inheritance, context-fact, trap-not-delivered,
 * trap-si-code, trap-handler-mxcsr, trap-saved-status, probe-failed, op-missing,
 * ymm-upper (a YMM fact of nan_ymm.h false: upper halves lost, stale or not
 * zeroed across a signal, a thread, fork or VZEROUPPER/VZEROALL).
 */
#ifndef NAN_CLASSIFY_H
#define NAN_CLASSIFY_H

#include <stdint.h>

#include "nan_cases.h"

typedef struct nan_finding {
    const char *rule;
    char detail[64];    /* sub-cause, part of the group key ("" when none) */
} nan_finding;

#define NAN_MAX_FINDINGS 16

/* The x86 records of the same case under every MXCSR mode (nan_modes index;
 * NULL where the fixture has none): what x86 gives under another rounding
 * direction or FTZ/DAZ setting, to tell those causes from the others. */
typedef struct nan_alts {
    const nan_rec *r[NAN_MODE_COUNT];
} nan_alts;

/* Compares expected vs observed record of case i of op k under MXCSR mode
 * m (nan_modes index), with alt the fixture's records of that case in every
 * mode (NULL: none, then no value is called daz-ftz or rounding).  Writes up
 * to NAN_MAX_FINDINGS findings (one per broken aspect: destination value,
 * untouched lanes, source, flags, EFLAGS) and returns their number (0:
 * identical). */
int nan_classify(int k, int i, int m, const nan_rec *exp, const nan_rec *obs, const nan_alts *alt,
                 nan_finding *out);

/* The status-flag part of nan_classify (also the x87 status word's IE..PE):
 * one status-flag finding per missing / spurious flag, or daz-ftz when x86
 * raises the observed flags under the other FTZ/DAZ setting.  Appends to
 * out[0..n-1]; returns the new count. */
int nan_classify_status(int m, const nan_rec *exp, const nan_rec *obs, const nan_alts *alt,
                        nan_finding *out, int n);

/* Appends the finding (rule, detail) unless present or out is full. */
void nan_classify_add(nan_finding *out, int *n, const char *rule, const char *detail);

/* "IE DE" style names of MXCSR status bits (Vol.1 Figure 10-3) into buf. */
void nan_flag_names(unsigned bits, char *buf, unsigned n);

#endif
