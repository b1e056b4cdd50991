#include "nan_probe_out.h"

#include <signal.h>

#include "nan_table.h"

void nan_out_fact(nan_out *o, const char *key, int value)
{
    for (int i = 0; i < o->nfacts; i++) {
        if (o->facts[i].key == key) {
            o->facts[i].value = value;
            return;
        }
    }
    if (o->nfacts < NAN_OUT_MAX_FACTS) {
        o->facts[o->nfacts].key = key;
        o->facts[o->nfacts++].value = value;
    }
}

void nan_out_trap(nan_out *o, const char *exception, int delivered, int si_code,
                  uint32_t handler_mxcsr, int saved_status)
{
    if (o->ntraps >= NAN_OUT_MAX_TRAPS)
        return;
    o->traps[o->ntraps].exception = exception;
    o->traps[o->ntraps].delivered = delivered;
    o->traps[o->ntraps].si_code = delivered ? si_code : -1;
    o->traps[o->ntraps].handler_mxcsr = handler_mxcsr;
    o->traps[o->ntraps++].saved_status = saved_status;
}

void nan_out_phase_x87(nan_out *o, uint16_t cw)
{
    if (o->nphases > 0)
        o->phases[o->nphases - 1].x87_cw = cw;
}

void nan_out_phase(nan_out *o, const char *name, int mode, uint32_t mxcsr, const nan_rec *recs)
{
    if (o->nphases >= NAN_OUT_MAX_PHASES)
        return;
    o->phases[o->nphases].name = name;
    o->phases[o->nphases].mode = mode;
    o->phases[o->nphases].mxcsr = mxcsr;
    o->phases[o->nphases++].recs = recs;
}

/* A JSON string (RFC 8259 section 7): quote, backslash and controls escaped. */
static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_key(FILE *f, int first, const char *key)
{
    if (!first)
        fputc(',', f);
    put_str(f, key);
    fputc(':', f);
}

static const char *bool_text(int v) { return v ? "true" : "false"; }

static void put_phase_results(FILE *f, const nan_rec *recs)
{
    char rec[NAN_REC_HEX_YMM + 1];
    fputs(",\"results\":{", f);
    int first = 1;
    for (int k = 0; k < nan_op_count; k++) {
        if (!nan_table_op_supported(k))
            continue;
        put_key(f, first, nan_ops[k].name);
        first = 0;
        fputc('"', f);
        const nan_rec *r = recs + nan_case_offset(k);
        for (int i = 0; i < nan_case_count(k); i++) {
            nan_rec_encode(k, &r[i], rec);
            fwrite(rec, 1, (size_t)nan_rec_hex(k), f);
        }
        fputc('"', f);
    }
    fputs("},\"skipped_ops\":[", f);
    first = 1;
    for (int k = 0; k < nan_op_count; k++) {
        if (nan_table_op_supported(k))
            continue;
        char why[128];
        snprintf(why, sizeof why, "%s: the guest CPU lacks %s", nan_ops[k].name,
                 nan_ops[k].feat == F_FMA   ? "FMA (CPUID.1:ECX.FMA with OS YMM state)"
                 : nan_ops[k].feat == F_AVX ? "AVX (CPUID.1:ECX.AVX with OS YMM state)"
                 : nan_ops[k].feat == F_F16C ? "F16C (CPUID.1:ECX.F16C with OS YMM state)"
                                             : "SSE4.1 (CPUID.1:ECX.SSE4_1)");
        if (!first)
            fputc(',', f);
        first = 0;
        put_str(f, why);
    }
    fputc(']', f);
}

/* 1 / 0 when the guest CPU has (lacks) the feature of the table's ops that need it; -1 none. */
static int feature_seen(nan_feat feat)
{
    int v = -1;
    for (int k = 0; k < nan_op_count; k++) {
        if (nan_ops[k].feat == feat)
            v = nan_table_op_supported(k);
    }
    return v;
}

static const char *signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGILL, "SIGILL"}, {SIGABRT, "SIGABRT"}, {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},
        {SIGFPE, "SIGFPE"}, {SIGTRAP, "SIGTRAP"}, {SIGKILL, "SIGKILL"}, {SIGSYS, "SIGSYS"}};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return NULL;
}

/* ,"lig":{"ops":N,"deviations":[...]} or ,"lig":{"ops":0,"skipped":"why"} */
static void put_lig(FILE *f, const nan_out *o)
{
    const nan_lig_run *l = o->lig;
    fprintf(f, ",\"lig\":{\"ops\":%d", l->ops);
    if (l->skipped[0]) {
        fputs(",\"skipped\":", f);
        put_str(f, l->skipped);
    }
    fputs(",\"deviations\":[", f);
    for (int i = 0; i < l->nres; i++) {
        const nan_lig_result *r = &l->res[i];
        fputs(i ? ",{\"op\":" : "{\"op\":", f);
        put_str(f, nan_ops[r->op].name);
        if (r->signal) {
            const char *name = signal_name(r->signal);
            fputs(r->caught ? ",\"raised\":" : ",\"died\":", f);
            if (name)
                put_str(f, name);
            else
                fprintf(f, "\"signal %d\"", r->signal);
        } else if (r->status >= 0) {
            fprintf(f, ",\"exit\":%d", r->status);
        } else {
            char hex[NAN_REC_HEX_YMM + 1];
            fputs(",\"phase\":", f);
            put_str(f, o->phases[r->phase].name);
            fprintf(f, ",\"case\":%d,\"differ\":%d,\"l0\":\"", r->kase, r->differ);
            nan_rec_encode(r->op, &r->l0, hex);
            fwrite(hex, 1, (size_t)nan_rec_hex(r->op), f);
            fputs("\",\"l1\":\"", f);
            nan_rec_encode(r->op, &r->l1, hex);
            fwrite(hex, 1, (size_t)nan_rec_hex(r->op), f);
            fputc('"', f);
        }
        fputc('}', f);
    }
    fputs("]}", f);
}

int nan_out_print(const nan_out *o, FILE *f, const char *context)
{
    fputs("{\"probe\":\"nan_semantics\",\"schema\":1,\"context\":", f);
    put_str(f, context);
#if defined(__APPLE__)
    fputs(",\"os\":\"macos\"", f);
#else
    fputs(",\"os\":\"linux\"", f);
#endif
    fprintf(f, ",\"case_table\":\"%016llx\"", (unsigned long long)nan_case_table_digest());
    for (nan_feat ft = F_NONE + 1; ft < F_COUNT; ft++)
        fprintf(f, "%s\"%s\":%s", ft == F_NONE + 1 ? ",\"features\":{" : ",", nan_feat_name(ft),
                bool_text(feature_seen(ft) == 1));
    fputs("}", f);
    fputs(",\"phases\":[", f);
    for (int i = 0; i < o->nphases; i++) {
        fputs(i ? ",{\"phase\":" : "{\"phase\":", f);
        put_str(f, o->phases[i].name);
        fputs(",\"mode\":", f);
        if (o->phases[i].mode >= 0)
            put_str(f, nan_modes[o->phases[i].mode].name);
        else
            fputs("null", f);
        fprintf(f, ",\"mxcsr\":\"0x%04x\"", (unsigned)o->phases[i].mxcsr);
        fprintf(f, ",\"x87_cw\":\"0x%04x\"", (unsigned)o->phases[i].x87_cw);
        put_phase_results(f, o->phases[i].recs);
        fputc('}', f);
    }
    fputs("],\"facts\":{", f);
    for (int i = 0; i < o->nfacts; i++) {
        put_key(f, i == 0, o->facts[i].key);
        fputs(bool_text(o->facts[i].value), f);
    }
    fputs("},\"traps\":[", f);
    for (int i = 0; i < o->ntraps; i++) {
        fputs(i ? ",{\"exception\":" : "{\"exception\":", f);
        put_str(f, o->traps[i].exception);
        fprintf(f, ",\"delivered\":%s,\"si_code\":%d", bool_text(o->traps[i].delivered),
                o->traps[i].si_code);
        if (o->traps[i].delivered)
            fprintf(f, ",\"handler_mxcsr\":\"0x%04x\"", (unsigned)o->traps[i].handler_mxcsr);
        else
            fputs(",\"handler_mxcsr\":\"\"", f);
        if (o->traps[i].delivered && o->traps[i].saved_status >= 0)
            fprintf(f, ",\"saved_status\":\"0x%02x\"", (unsigned)o->traps[i].saved_status);
        else
            fputs(",\"saved_status\":\"\"", f);
        fputc('}', f);
    }
    fputc(']', f);
    if (o->extra)
        o->extra(f);
    if (o->lig)
        put_lig(f, o);
    fputs("}\n", f);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
