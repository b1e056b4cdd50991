/* nan_fault_check.c — context `faults`; see nan_fault_check.h. */
#include "nan_fault_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"
#include "nan_faults.h"

static void add(nan_groups *gs, const char *rule, const char *detail, const nan_fault *f, const char *exp,
                const char *obs)
{
    int fresh;
    nan_group *g = nan_groups_add(gs, rule, detail, f->name, &fresh);
    if (!g)
        return;
    g->base = 1;
    if (fresh) {
        snprintf(g->expected, sizeof g->expected, "%s", exp);
        snprintf(g->observed, sizeof g->observed, "%s", obs);
        g->example = cJSON_CreateObject();
        cJSON_AddStringToObject(g->example, "case", f->name);
        cJSON_AddStringToObject(g->example, "instruction", f->insn);
        cJSON_AddStringToObject(g->example, "rule", f->sdm);
    }
}

static void note(nan_groups *gs, const char *text)
{
    if (!gs->notes)
        gs->notes = cJSON_CreateArray();
    cJSON_AddItemToArray(gs->notes, cJSON_CreateString(text));
}

static const cJSON *find_row(const cJSON *doc, const char *name)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(doc, "faults")) {
        const char *c = bg_json_str(x, "case");
        if (c && strcmp(c, name) == 0)
            return x;
    }
    return NULL;
}

static const char *dest_name(const nan_fault *f) { return f->dest == FD_MEM ? "memory" : "xmm0"; }

/* The state a row left: "MXCSR 0x.. xmm0 <hex>" into buf. */
static void state_text(const nan_fault *f, const char *mx, const char *dest, char *buf, size_t n)
{
    snprintf(buf, n, "MXCSR %s %s %s", mx && *mx ? mx : "(not read)", dest_name(f),
             dest && *dest ? dest : "(not read)");
}

/* The MXCSR and the destination of row f against what they must hold
 * (MXCSR unchanged, the destination = the table's after), each part that
 * differs one group: rule fault-state (a fault was raised: detail "<part> at
 * the fault") or fault-result (detail "<part>"); a part not read is not
 * judged. */
static void judge_state(nan_groups *gs, const nan_fault *f, int faulted, const char *mx, const char *dest,
                        const char *st)
{
    char want[40], e[200], detail[64];
    snprintf(want, sizeof want, "%016llx%016llx", (unsigned long long)f->after[1], (unsigned long long)f->after[0]);
    const char *rule = faulted ? "fault-state" : "fault-result", *at = faulted ? " at the fault" : "";
    gs->subchecks += 2;
    if (mx && *mx && strtoul(mx, NULL, 16) != NAN_FAULT_MXCSR_BEFORE) {
        snprintf(e, sizeof e, "MXCSR 0x%04x (as before the instruction)", NAN_FAULT_MXCSR_BEFORE);
        snprintf(detail, sizeof detail, "MXCSR%s", at);
        add(gs, rule, detail, f, e, st);
    }
    if (dest && *dest && strcmp(dest, want) != 0) {
        snprintf(e, sizeof e, "%s %s%s", dest_name(f), want, faulted ? " (as before the instruction)" : "");
        snprintf(detail, sizeof detail, "%s%s", dest_name(f), at);
        add(gs, rule, detail, f, e, st);
    }
}

void nan_fault_check(const cJSON *doc, nan_groups *gs)
{
    gs->subchecks_what = "signal, si_code, MXCSR, destination per case";
    const char *os = bg_json_str(doc, "os");
    int unread = 0;
    for (int k = 0; k < nan_fault_count; k++) {
        const nan_fault *f = &nan_faults[k];
        const cJSON *r = find_row(doc, f->name);
        const char *sig = r ? bg_json_str(r, "signal") : NULL;
        if (sig && strcmp(sig, "skipped") == 0) {
            char t[200];
            snprintf(t, sizeof t, "%s not run: %s", f->name, bg_json_str(r, "why") ? bg_json_str(r, "why") : "skipped");
            note(gs, t);
            gs->skipped++;
            continue;
        }
        gs->checked++;    /* one case: one row of the table */
        gs->subchecks++;  /* its signal */
        if (!sig) {
            add(gs, "probe-failed", "fault case missing", f, "a record of every row of nan_faults.def",
                r ? "no signal field" : "absent");
            continue;
        }
        const char *mx = bg_json_str(r, "mxcsr_after"), *dest = bg_json_str(r, "dest");
        const char *cause = nan_fault_cause_text(f->cause);
        int want = nan_fault_expected(f), got = strcmp(sig, "none") != 0;
        int handled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "handled"));
        char e[256], o[256], st[160];
        state_text(f, mx, dest, st, sizeof st);
        if (want && !got) {
            snprintf(e, sizeof e, "%s (#GP(0)), si_code %d", f->sig, f->si_code);
            snprintf(o, sizeof o, "no signal; after it: %s", st);
            add(gs, "fault-not-raised", cause, f, e, o);
            continue;
        }
        if (!want && got) {
            snprintf(o, sizeof o, "%s si_code %d%s", sig, (int)bg_json_num(r, "si_code", -1),
                     handled ? "" : " (the child died: its handler never ran)");
            add(gs, "fault-spurious", cause, f, "no signal", o);
            continue;
        }
        if (got && (!handled || !nan_fault_signal_ok(f, os, sig))) {
            snprintf(e, sizeof e, "%s%s", f->sig, os && strcmp(os, "macos") == 0 ? " or SIGBUS" : "");
            snprintf(o, sizeof o, "%s%s", sig, handled ? "" : " (the child died: its handler never ran)");
            add(gs, "fault-signal", cause, f, e, o);
            continue;
        }
        if (got && nan_fault_si_code_judged(os)) {
            int code = (int)bg_json_num(r, "si_code", -1);
            gs->subchecks++;
            if (code != f->si_code) {
                snprintf(e, sizeof e, "si_code %d (SI_KERNEL)", f->si_code);
                snprintf(o, sizeof o, "si_code %d", code);
                add(gs, "fault-si-code", cause, f, e, o);
            }
        }
        unread += !(mx && *mx) || !(dest && *dest);
        judge_state(gs, f, got, mx, dest, st);
    }
    if (unread) {
        char t[200];
        snprintf(t, sizeof t, "faults: the state at the fault was not read in %d case(s) (%s: the signal "
                 "frame's FP state is read on Linux only)", unread, os ? os : "?");
        note(gs, t);
    }
}
