/* nan_faults.c — the fault table (nan_faults.def) and its OS rules; see nan_faults.h. */
#include "nan_faults.h"

#include <string.h>

const nan_fault nan_faults[] = {
#define NAN_FAULT(id, name, insn, form, cause, sig, si_code, dest, feat, olo, ohi, xlo, xhi, alo, ahi, sdm, \
                  text)                                                                                  \
    {name, insn, form, cause, sig, si_code, dest, feat, {olo, ohi}, {xlo, xhi}, {alo, ahi}, sdm},
#include "nan_faults.def"
#undef NAN_FAULT
};
const int nan_fault_count = (int)(sizeof nan_faults / sizeof nan_faults[0]);

const char *const nan_fault_rules[] = {"fault-not-raised", "fault-spurious", "fault-signal", "fault-si-code",
                                       "fault-state", "fault-result", NULL};

int nan_fault_find(const char *name)
{
    for (int i = 0; i < nan_fault_count; i++)
        if (strcmp(nan_faults[i].name, name) == 0)
            return i;
    return -1;
}

const char *nan_fault_cause_text(nan_fault_cause c)
{
    switch (c) {
    case FC_RESERVED: return "reserved MXCSR bit set";
    case FC_MISALIGNED: return "m128 operand not 16-byte aligned";
    case FC_ALIGN_FREE: return "alignment-free form";
    }
    return "?";
}

int nan_fault_expected(const nan_fault *f) { return strcmp(f->sig, "none") != 0; }

int nan_fault_signal_ok(const nan_fault *f, const char *os, const char *sig)
{
    if (!nan_fault_expected(f) || !os || strcmp(os, "macos") != 0)
        return strcmp(sig, f->sig) == 0;
    return strcmp(sig, "SIGSEGV") == 0 || strcmp(sig, "SIGBUS") == 0;
}

int nan_fault_si_code_judged(const char *os) { return !os || strcmp(os, "macos") != 0; }
