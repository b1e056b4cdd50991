/* nan_mutate_doc.c — nan-mutate's document kinds (nan_mutate.h): those that
 * change a phase, a field or a fact rather than op records. */
#include "nan_mutate.h"

#include "nan_x87.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *phase_named(cJSON *doc, const char *name)
{
    cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ph, "phase"));
        if (p && strcmp(p, name) == 0)
            return ph;
    }
    return NULL;
}

int nan_mut_doc_none(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    (void)doc, (void)s, (void)why, (void)n;
    return 0;
}

/* rc-ignored: in every phase whose mode rounds in a direction (RC not
 * nearest) the SSE/AVX ops' results become those of the mode with the same
 * FTZ/DAZ and round-to-nearest (nan_mode_base): a translator that computes
 * them in round-to-nearest whatever MXCSR.RC says (box64 #4408), its MXCSR
 * reading back as written; the x87 rows (their own control word) keep theirs. */
int nan_mut_doc_rc_ignored(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    (void)s;
    int changed = 0, directed = 0;
    for (int m = 0; m < NAN_MODE_COUNT; m++) {
        cJSON *ph = phase_named(doc, nan_modes[m].name);
        cJSON *base = phase_named(doc, nan_modes[nan_mode_base(m)].name);
        if (!ph || !(nan_modes[m].mxcsr & (3u << NAN_MXCSR_RC_SHIFT)))
            continue;
        const cJSON *base_res = cJSON_GetObjectItemCaseSensitive(base, "results");
        cJSON *res = cJSON_GetObjectItemCaseSensitive(ph, "results");
        if (!base_res || !res) {
            snprintf(why, n, "phase \"%s\" has no round-to-nearest phase \"%s\" with results", nan_modes[m].name,
                     nan_modes[nan_mode_base(m)].name);
            return -1;
        }
        directed++;
        for (int k = 0; k < nan_op_count; k++) { /* MXCSR.RC: the SSE/AVX ops, not the x87 rows */
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(base_res, nan_ops[k].name);
            const cJSON *o = cJSON_GetObjectItemCaseSensitive(res, nan_ops[k].name);
            if (nan_ops[k].x87 || !cJSON_IsString(b) || !cJSON_IsString(o))
                continue;
            changed += strcmp(b->valuestring, o->valuestring) != 0;
            cJSON_ReplaceItemInObjectCaseSensitive(res, nan_ops[k].name, cJSON_CreateString(b->valuestring));
        }
    }
    if (!directed) {
        snprintf(why, n, "the document has no phase with a directed rounding mode");
        return -1;
    }
    return changed;
}

/* lig-died:OP: the document's "lig" object (main_thread: the VEX.L = 1
 * encodings, nan_lig.h) lists OP as the op whose forked child died by
 * SIGILL, as under an emulator that does not decode VEX.L = 1 for it. */
int nan_mut_doc_lig_died(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    cJSON *devs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "lig"), "deviations");
    cJSON *d = cJSON_CreateObject();
    if (!cJSON_IsArray(devs) || !d) {
        cJSON_Delete(d);
        snprintf(why, n, "the document has no \"lig\" object with \"deviations\" (a main_thread document)");
        return -1;
    }
    cJSON_AddStringToObject(d, "op", nan_ops[s->op].name);
    cJSON_AddStringToObject(d, "died", "SIGILL");
    cJSON_AddItemToArray(devs, d);
    return 1;
}

/* daz-ignored: the "daz" phase's results become the "default" phase's. */
int nan_mut_doc_daz_ignored(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    (void)s;
    cJSON *daz = phase_named(doc, "daz"), *def = phase_named(doc, "default");
    const cJSON *def_res = cJSON_GetObjectItemCaseSensitive(def, "results");
    int same = cJSON_Compare(cJSON_GetObjectItemCaseSensitive(daz, "results"), def_res, 1);
    cJSON *res = cJSON_Duplicate(def_res, 1);
    if (!daz || !res || !cJSON_ReplaceItemInObjectCaseSensitive(daz, "results", res)) {
        cJSON_Delete(res);
        snprintf(why, n, "the document has no \"daz\" and \"default\" phases with results");
        return -1;
    }
    return !same;
}

/* x87-cw:PHASE:HEX: the phase's x87_cw (HEX "none": the field removed). */
int nan_mut_doc_x87_cw(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    char phase[64];
    const char *colon = strchr(s->text, ':');
    char *end = NULL;
    snprintf(why, n, "no such phase with an x87_cw, or not PHASE:HEX");
    if (!colon || (size_t)(colon - s->text) >= sizeof phase)
        return -1;
    memcpy(phase, s->text, (size_t)(colon - s->text));
    phase[colon - s->text] = '\0';
    int drop = strcmp(colon + 1, "none") == 0; /* a runner that drops the field */
    unsigned long cw = drop ? 0 : strtoul(colon + 1, &end, 16);
    if (!drop && (*end || end == colon + 1 || cw > 0xffff))
        return -1;
    cJSON *ph = phase_named(doc, phase);
    cJSON *item = cJSON_GetObjectItemCaseSensitive(ph, "x87_cw");
    if (!cJSON_IsString(item))
        return -1;
    if (drop) {
        cJSON_DeleteItemFromObjectCaseSensitive(ph, "x87_cw");
        return 1;
    }
    char text[16];
    snprintf(text, sizeof text, "0x%04lx", cw);
    int changed = strtoul(item->valuestring, NULL, 16) != cw;
    cJSON_SetValuestring(item, text);
    return changed;
}

/* fact-false:FACT: the fact must be in the document (a YMM fact of a guest
 * without AVX is not). */
int nan_mut_doc_fact_false(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    cJSON *facts = cJSON_GetObjectItemCaseSensitive(doc, "facts");
    int changed = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(facts, s->text));
    if (!cJSON_GetObjectItemCaseSensitive(facts, s->text) ||
        !cJSON_ReplaceItemInObjectCaseSensitive(facts, s->text, cJSON_CreateFalse())) {
        snprintf(why, n, "the document has no fact %s", s->text);
        return -1;
    }
    return changed;
}

/* feature-false:F[,F...]: the first listed feature the document says is
 * present ("features": {"avx": true}) is said absent, its records kept: the
 * contradiction nan-check must fail.  0 changes when none is present. */
int nan_mut_doc_feature_false(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    cJSON *feats = cJSON_GetObjectItemCaseSensitive(doc, "features");
    const char *p = s->text;
    while (*p) {
        size_t len = strcspn(p, ",");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        nan_feat f = F_NONE + 1;
        while (f < F_COUNT && strcmp(nan_feat_name(f), name) != 0)
            f++;
        if (f == F_COUNT) {
            snprintf(why, n, "'%s' is no feature of the probe document (sse41, fma, avx, f16c)", name);
            return -1;
        }
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(feats, name))) {
            cJSON_ReplaceItemInObjectCaseSensitive(feats, name, cJSON_CreateFalse());
            return 1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* x87-rc-mxcsr: every x87 op of a phase computed under the MXCSR RC in
 * effect while it runs (nan_x87_mxcsr_during), not its control word's: its
 * records become those of a phase whose mode has that RC (one host rounding
 * mode for both units, FEX #1665).  Phases without such a partner stay. */
int nan_mut_doc_x87_rc_mxcsr(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    (void)s;
    cJSON *phases = cJSON_GetObjectItemCaseSensitive(doc, "phases"), *ph;
    cJSON *orig = cJSON_Duplicate(phases, 1);
    const uint32_t rcm = 3u << NAN_MXCSR_RC_SHIFT;
    int changed = 0;
    if (!orig) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    cJSON_ArrayForEach(ph, phases) {
        const char *mx = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ph, "mxcsr"));
        cJSON *res = cJSON_GetObjectItemCaseSensitive(ph, "results"), *other, *partner = NULL;
        if (!mx || !res)
            continue;
        uint32_t want = nan_x87_mxcsr_during((uint32_t)strtoul(mx, NULL, 16)) & rcm;
        cJSON_ArrayForEach(other, orig) {
            const char *omx = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(other, "mxcsr"));
            if (omx && cJSON_GetObjectItemCaseSensitive(other, "results") && (strtoul(omx, NULL, 16) & rcm) == want) {
                partner = cJSON_GetObjectItemCaseSensitive(other, "results");
                break;
            }
        }
        for (int k = 0; partner && k < nan_op_count; k++) {
            cJSON *mine = cJSON_GetObjectItemCaseSensitive(res, nan_ops[k].name);
            const char *theirs = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(partner, nan_ops[k].name));
            if (!nan_x87_op_of(k) || !cJSON_IsString(mine) || !theirs || strcmp(mine->valuestring, theirs) == 0)
                continue;
            cJSON_SetValuestring(mine, theirs);
            changed++;
        }
    }
    cJSON_Delete(orig);
    return changed;
}

/* fault-field:CASE:FIELD:VALUE: field FIELD of the record of row CASE in the
 * document's "faults" (context faults, nan_faults.def) becomes VALUE, a
 * number where the field holds one (si_code), else the text. */
int nan_mut_doc_fault_field(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    char name[96], field[32];
    const char *c1 = strchr(s->text, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    snprintf(why, n, "not CASE:FIELD:VALUE naming a row of the document's \"faults\" and one of its fields");
    if (!c2 || (size_t)(c1 - s->text) >= sizeof name || (size_t)(c2 - c1 - 1) >= sizeof field)
        return -1;
    snprintf(name, sizeof name, "%.*s", (int)(c1 - s->text), s->text);
    snprintf(field, sizeof field, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    const char *value = c2 + 1;
    cJSON *row = NULL, *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "faults")) {
        const char *cs = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "case"));
        if (cs && strcmp(cs, name) == 0)
            row = r;
    }
    cJSON *item = cJSON_GetObjectItemCaseSensitive(row, field);
    if (!item)
        return -1;
    cJSON *now;
    if (cJSON_IsNumber(item)) {
        char *end = NULL;
        double v = strtod(value, &end);
        if (end == value || *end)
            return -1;
        now = cJSON_CreateNumber(v);
    } else {
        now = cJSON_CreateString(value);
    }
    int changed = !cJSON_Compare(item, now, 1);
    cJSON_ReplaceItemInObjectCaseSensitive(row, field, now);
    return changed;
}
