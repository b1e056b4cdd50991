/* nan-check — runs the NaN probe under one runner in one context and checks
 * every record against the golden fixture and the OS's context rule.
 * Usage, options, checks, exit codes: usage_text below (`nan-check --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_proc.h"
#include "buildgate/bg_runner.h"
#include "nan_classify.h"
#include "nan_context_rules.h"
#include "nan_fault_check.h"
#include "nan_fixture.h"
#include "nan_fixture_check.h"
#include "nan_known.h"
#include "nan_known_ops.h"
#include "nan_report.h"
#include "nan_x87.h"

typedef struct opts {
    const char *runner, *context, *probe, *modes, *fixtures, *reason, *validate;
    const char *name; /* --name: the check-name prefix (CMake passes the test's name) */
    double timeout;
    int write_fixture, replace, regen, migrate, check_fixture, require_observed;
    char **files;   /* --regen-known-ops: the check files */
    int n_files;
} opts;

static const char usage_text[] =
    "Usage: nan-check --runner R --context C --probe PATH [--modes base|all]\n"
    "                 [--fixtures DIR] [--timeout SECONDS] [--name NAME]\n"
    "       nan-check --write-fixture --reason TEXT [--replace] [--probe PATH]\n"
    "                 [--fixtures DIR]\n"
    "       nan-check --check-fixture [--fixtures DIR] [--probe PATH]\n"
    "       nan-check --validate-known FILE [--require-observed]\n"
    "\n"
    "Runs the NaN probe under one runner in one context and checks every record\n"
    "against the golden fixture and the OS's context rule.\n"
    "  --runner R         a runner of x86-64 programs in the runner registry\n"
    "                     (`bg-runner --list`, or a BG_X86_RUNNERS name)\n"
    "  --context C        a context of docs/nan_semantics.md, as listed by\n"
    "                     nan-probe --help\n"
    "  --probe PATH       the x86-64 guest nan-probe (default: the nan-probe beside\n"
    "                     this nan-check); \"none:<why>\" means it could not be\n"
    "                     built here: skip\n"
    "  --modes base|all   MXCSR modes of the main_thread context (default base)\n"
    "  --fixtures DIR     fixtures root (default $BG_FIXTURES_DIR, else fixtures/ of\n"
    "                     the working directory: the repository root); the fixture is\n"
    "                     DIR/nan_semantics/golden-x86_64.json, known deviations\n"
    "                     DIR/nan_semantics/known/<the runner's known file>\n"
    "                     (bg-runner --resolve R: usually <runner>.tsv; rows of\n"
    "                     one tool share its file, version-ranged lines, e.g.\n"
    "                     qemu-x86_64-trixie reads qemu-x86_64.tsv)\n"
    "  --timeout SECONDS  wall-clock limit of the probe run (default 120 s)\n"
    "  --name NAME        the prefix of the check names, e.g. nan.native.main_thread\n"
    "                     (default $BG_TEST_NAME, else nan-check: CMake passes the\n"
    "                     test's name; the runner and context never make it)\n"
    "  --write-fixture    record the golden fixture from a native run of the probe\n"
    "                     (main_thread, all modes) instead of checking\n"
    "  --reason TEXT      with --write-fixture: why the stored truth is written\n"
    "  --replace          with --write-fixture: overwrite an existing fixture\n"
    "  --check-fixture    only load the golden fixture: one check (test nan.fixture),\n"
    "                     fail naming what to do next; a runner/context test that\n"
    "                     cannot load it records a skip pointing there (77)\n"
    "  --validate-known FILE  parse a known-deviation list (exit 5 and one line on a\n"
    "                     malformed line); prints its measured versions\n"
    "  --require-observed with --validate-known: every line must have its observed\n"
    "                     column (the versions it was measured on; nan_known.h)\n"
    "  -h, --help         this text\n"
    "\n"
    "Checks (suite nan_semantics): one per deviation group (fail / xfail), one\n"
    "xpass per known deviation no longer seen, one summary named after the test.\n"
    "A version no line's range holds, between two measured ones (the lines'\n"
    "observed columns), is judged by that bracket: inferred xfail, a pass note\n"
    "for a bracketed deviation it does not show, a `cause:` line.\n"
    "A fail no known line covers also proposes a line in\n"
    "<checks-dir>/proposed-known/nan_semantics/TOOL.tsv, to adopt after review\n"
    "with ci/adopt-known --approve \"<reason>\" <dir>.\n"
    "Exit: 0 pass; 1 a check failed; 77 skip (runner missing, no guest, the\n"
    "      golden fixture unreadable: see nan.fixture); 2 usage (unknown\n"
    "      runner/context); 5 fixture (--check-fixture) or known-deviation file\n"
    "      missing or corrupt, or the fixtures root holds no nan_semantics/;\n"
    "      6 fixture exists (--write-fixture without --replace);\n"
    "      7 the probe failed while writing a fixture.\n"
    "Doc: docs/nan_semantics.md.\n";

static int usage(const char *why)
{
    bg_errorf("nan-check", "%s (see nan-check --help)", why);
    return BG_EXIT_USAGE;
}

/* A record as text; YMM records (NAN_VOP ops) lead with u= (ymm0 bits 255:128). */
static void rec_text(int k, const nan_rec *r, char *buf, size_t n)
{
    char fl[32], up[48] = "";
    nan_flag_names(r->flags, fl, sizeof fl);
    if (nan_ops[k].ymm)
        snprintf(up, sizeof up, "u=%016llx%016llx ", (unsigned long long)r->u[1], (unsigned long long)r->u[0]);
    snprintf(buf, n, "%sd=%016llx%016llx s=%016llx%016llx flags=%s eflags=%02x", up,
             (unsigned long long)r->d[1], (unsigned long long)r->d[0], (unsigned long long)r->s[1],
             (unsigned long long)r->s[0], *fl ? fl : "-", r->eflags);
}

static void hex128(cJSON *o, const char *k, const uint64_t v[2])
{
    char b[40];
    snprintf(b, sizeof b, "%016llx%016llx", (unsigned long long)v[1], (unsigned long long)v[0]);
    cJSON_AddStringToObject(o, k, b);
}

/* A whole-run deviation (probe failure, MXCSR, trap, fact) as one group. */
static void add_simple(nan_groups *gs, const char *rule, const char *detail, const char *where,
                       const char *exp, const char *obs)
{
    int fresh, m = nan_mode_find(where);
    nan_group *g = nan_groups_add(gs, rule, detail, where, &fresh);
    if (g)
        g->base |= m < 0 || nan_modes[m].base;
    if (g && fresh) {
        snprintf(g->expected, sizeof g->expected, "%s", exp);
        snprintf(g->observed, sizeof g->observed, "%s", obs);
        g->example = cJSON_CreateObject();
        cJSON_AddStringToObject(g->example, "where", where);
    }
}

static void note(nan_groups *gs, const char *text)
{
    if (!gs->notes)
        gs->notes = cJSON_CreateArray();
    cJSON_AddItemToArray(gs->notes, cJSON_CreateString(text));
}

/* Control fields in which two MXCSR values differ: "RC FTZ DAZ masks flags". */
static void mxcsr_diff(uint32_t e, uint32_t o, char *buf, size_t n)
{
    uint32_t x = e ^ o;
    snprintf(buf, n, "%s differs in%s%s%s%s%s", "MXCSR", (x & 0x6000) ? " RC" : "",
             (x & NAN_MXCSR_FTZ) ? " FTZ" : "", (x & NAN_MXCSR_DAZ) ? " DAZ" : "",
             (x & 0x1f80) ? " exception-masks" : "", (x & 0x3f) ? " status-flags" : "");
}

/* Compares one phase's records with the fixture's mode m. */
static void compare_phase(const cJSON *ph, const char *phase, int m, const nan_fixture *fx,
                          nan_groups *gs)
{
    size_t total = nan_case_total();
    nan_rec *obs = calloc(total, sizeof *obs);
    int present[NAN_OP_MAX];
    if (!obs) {
        add_simple(gs, "probe-failed", "checker out of memory", phase, "-", "-");
        return;
    }
    int badk = nan_results_decode(cJSON_GetObjectItemCaseSensitive(ph, "results"), obs, present);
    if (badk >= 0) {
        char d[96];
        snprintf(d, sizeof d, "malformed records for %s", nan_ops[badk].name);
        add_simple(gs, "probe-failed", d, phase, "68 hex digits per case", "wrong length or digit");
    }
    const char *skipped = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(ph, "skipped_ops"));
    for (int k = 0; k < nan_op_count; k++) {
        int n = nan_case_count(k);
        if (!fx->has_op[k]) {
            gs->skipped += n;
            continue;
        }
        if (!present[k]) {
            if (skipped && strstr(skipped, nan_ops[k].name)) {
                gs->skipped += n;
                continue;
            }
            if (badk != k)
                add_simple(gs, "op-missing", "", nan_ops[k].name, "records present", "absent");
            continue;
        }
        const nan_rec *e = fx->exp[m] + nan_case_offset(k), *o = obs + nan_case_offset(k);
        for (int i = 0; i < n; i++) {
            gs->checked++;
            if (nan_rec_equal(&e[i], &o[i]))
                continue;
            nan_finding f[NAN_MAX_FINDINGS];
            nan_alts alt;
            for (int mm = 0; mm < NAN_MODE_COUNT; mm++)
                alt.r[mm] = fx->exp[mm] ? fx->exp[mm] + nan_case_offset(k) + i : NULL;
            int nf = nan_classify(k, i, m, &e[i], &o[i], &alt, f);
            for (int j = 0; j < nf; j++) {
                int fresh;
                nan_group *g = nan_groups_add(gs, f[j].rule, f[j].detail, nan_ops[k].name, &fresh);
                if (g)
                    g->base |= nan_modes[m].base;
                if (!g || !fresh)
                    continue;
                rec_text(k, &e[i], g->expected, sizeof g->expected);
                rec_text(k, &o[i], g->observed, sizeof g->observed);
                nan_case c;
                nan_case_get(k, i, &c);
                g->example = cJSON_CreateObject();
                cJSON_AddStringToObject(g->example, "op", nan_ops[k].name);
                cJSON_AddStringToObject(g->example, "phase", phase);
                cJSON_AddStringToObject(g->example, "mode", nan_modes[m].name);
                cJSON_AddNumberToObject(g->example, "case", i);
                if (nan_ops[k].ymm) { /* the registers as loaded: nan_vex_images */
                    uint64_t img[4][4];
                    nan_vex_images(nan_ops[k].kind, &c, img);
                    static const char *const names[4] = {"ymm0_in", "ymm1_in", "ymm2_in", "ymm3_in"};
                    for (int r = 0; r < 4; r++) {
                        char b[72];
                        snprintf(b, sizeof b, "%016llx%016llx%016llx%016llx", (unsigned long long)img[r][3],
                                 (unsigned long long)img[r][2], (unsigned long long)img[r][1],
                                 (unsigned long long)img[r][0]);
                        cJSON_AddStringToObject(g->example, names[r], b);
                    }
                    if (nan_kind_int_source(nan_ops[k].kind) && nan_ops[k].lanes == 1) { /* vcvtsi2ss/sd */
                        char b[24];
                        snprintf(b, sizeof b, "%016llx", (unsigned long long)c.b[0]);
                        cJSON_AddStringToObject(g->example, "rcx_in", b);
                    }
                } else {
                    hex128(g->example, "xmm0_in", c.a);
                    hex128(g->example, "xmm1_in", c.b);
                    if (nan_ops[k].kind == K_FMA_P32 || nan_ops[k].kind == K_FMA_P64)
                        hex128(g->example, "xmm2_in", c.c);
                }
            }
        }
    }
    free((void *)skipped);
    free(obs);
}

static uint32_t hexu(const char *s) { return s ? (uint32_t)strtoul(s, NULL, 16) : 0xffffffffu; }

static const cJSON *find_phase(const cJSON *doc, const char *name)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const char *p = bg_json_str(ph, "phase");
        if (p && strcmp(p, name) == 0)
            return ph;
    }
    return NULL;
}

/* One phase against its expected MXCSR, then its records. */
static void check_phase(const cJSON *ph, const char *phase, uint32_t want, const char *rule,
                        int fixed_mode, const nan_fixture *fx, nan_groups *gs)
{
    uint32_t got = hexu(bg_json_str(ph, "mxcsr"));
    gs->checked++;
    int m = fixed_mode;
    if (got != want) {
        char d[96], e[48], o[48];
        mxcsr_diff(want, got, d, sizeof d);
        snprintf(e, sizeof e, "mxcsr=0x%04x", (unsigned)want);
        snprintf(o, sizeof o, "mxcsr=0x%04x", (unsigned)got);
        add_simple(gs, rule, d, phase, e, o);
    }
    const char *x87 = bg_json_str(ph, "x87_cw"); /* the context's x87 control word (nan_x87.h) */
    uint16_t xw = nan_x87_cw_want(want, fixed_mode), xg = (uint16_t)hexu(x87);
    gs->checked++;
    if (!x87) { /* every phase of nan-probe reports it: a runner that drops it hides the rule */
        char e[48];
        snprintf(e, sizeof e, "x87_cw=0x%04x", (unsigned)xw);
        add_simple(gs, nan_x87_cw_rule(rule), "x87 control word not reported", phase, e,
                   "no x87_cw in the phase");
    } else if (xg != xw) {
        char d[96], e[48], o[48];
        nan_x87_cw_diff(xw, xg, d, sizeof d);
        snprintf(e, sizeof e, "x87_cw=0x%04x", (unsigned)xw);
        snprintf(o, sizeof o, "x87_cw=0x%04x", (unsigned)xg);
        add_simple(gs, nan_x87_cw_rule(rule), d, phase, e, o);
    }
    if (m < 0) {
        /* compare the arithmetic with the mode the runner really had, so a wrong
           MXCSR is one finding, not thousands */
        int mo = nan_mode_by_mxcsr(got);
        m = (mo >= 0 && fx->exp[mo]) ? mo : nan_mode_by_mxcsr(want);
        if (got != want) {
            char t[160];
            snprintf(t, sizeof t, "phase %s compared with fixture mode %s", phase, nan_modes[m].name);
            note(gs, t);
        }
    }
    if (m < 0 || !fx->exp[m]) {
        char t[160];
        snprintf(t, sizeof t, "phase %s: the fixture has no mode for mxcsr 0x%04x", phase, (unsigned)want);
        note(gs, t);
        return;
    }
    compare_phase(ph, phase, m, fx, gs);
}

/* Facts named ymm_* are the YMM upper-half checks (nan_ymm.h): rule
 * ymm-upper; measured only when the guest saw AVX (features.avx), otherwise
 * a note says they were not (a document claiming no AVX yet holding VEX
 * records fails in check_features instead). */
static void check_facts(const cJSON *doc, const char *facts, nan_groups *gs)
{
    char copy[160];
    snprintf(copy, sizeof copy, "%s", facts);
    const cJSON *fo = cJSON_GetObjectItemCaseSensitive(doc, "facts");
    int avx = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "features"), "avx"));
    char *save = NULL;
    for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        int ymm = strncmp(f, "ymm_", 4) == 0;
        if (ymm && !avx) {
            char t[120];
            snprintf(t, sizeof t, "%s not measured: the guest has no usable AVX", f);
            note(gs, t);
            continue;
        }
        gs->checked++;
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fo, f))) {
            char d[64];
            snprintf(d, sizeof d, "%s false", f);
            add_simple(gs, ymm ? "ymm-upper" : "context-fact", d, f, "true", "false");
        }
    }
}

/* Intel SDM Vol.1 11.5.1 / Linux arch/x86/kernel/traps.c: an unmasked SIMD
 * exception raises #XM, delivered as SIGFPE with si_code from the MXCSR flag:
 * IE -> FPE_FLTINV (7), ZE -> FPE_FLTDIV (3). */
static void check_traps(const cJSON *doc, nan_groups *gs)
{
    static const struct { const char *exc; int code; unsigned bit; } want[] = {
        {"IE", 7, 0x01}, {"ZE", 3, 0x04}};
    for (unsigned i = 0; i < 2; i++) {
        const cJSON *t = NULL, *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(doc, "traps")) {
            const char *e = bg_json_str(x, "exception");
            if (e && strcmp(e, want[i].exc) == 0)
                t = x;
        }
        gs->checked++;
        char e[64], o[64];
        if (!t || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "delivered"))) {
            snprintf(e, sizeof e, "SIGFPE si_code=%d", want[i].code);
            add_simple(gs, "trap-not-delivered", want[i].exc, want[i].exc, e, "no signal");
            continue;
        }
        int code = (int)bg_json_num(t, "si_code", -1);
        gs->checked += 3;
        if (code != want[i].code) {
            snprintf(e, sizeof e, "si_code=%d", want[i].code);
            snprintf(o, sizeof o, "si_code=%d", code);
            add_simple(gs, "trap-si-code", want[i].exc, want[i].exc, e, o);
        }
        uint32_t hm = hexu(bg_json_str(t, "handler_mxcsr"));
        if (hm != NAN_MXCSR_DEFAULT) {
            snprintf(o, sizeof o, "mxcsr=0x%04x", (unsigned)hm);
            add_simple(gs, "trap-handler-mxcsr", want[i].exc, want[i].exc, "mxcsr=0x1f80", o);
        }
        const char *ss = bg_json_str(t, "saved_status");
        if (ss && *ss && !(hexu(ss) & want[i].bit)) {
            snprintf(e, sizeof e, "saved MXCSR has %s", want[i].exc);
            snprintf(o, sizeof o, "saved status 0x%02x", (unsigned)hexu(ss));
            add_simple(gs, "trap-saved-status", want[i].exc, want[i].exc, e, o);
        }
    }
}

/* A document that says a feature is absent yet holds records of an op that
 * needs it (or of any VEX op, NAN_VOP/NAN_YOP, with "avx": false) contradicts
 * itself: the YMM facts would be skipped as not measured while YMM records
 * were measured.  One probe-failed group naming the first such op. */
static void check_features(const cJSON *doc, nan_groups *gs)
{
    /* a check of the document, not a case: not counted in "cases compared" */
    const cJSON *feats = cJSON_GetObjectItemCaseSensitive(doc, "features"), *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *res = cJSON_GetObjectItemCaseSensitive(ph, "results");
        for (int k = 0; k < nan_op_count; k++) {
            if (!cJSON_GetObjectItemCaseSensitive(res, nan_ops[k].name))
                continue;
            const char *key = nan_ops[k].ymm && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(feats, "avx"))
                                  ? "avx" : nan_feat_name(nan_ops[k].feat);
            if (!key || !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(feats, key)))
                continue;
            char d[96], e[96];
            snprintf(d, sizeof d, "contradiction: features.%s false yet records of %s", key, nan_ops[k].name);
            snprintf(e, sizeof e, "%s in skipped_ops, or features.%s true", nan_ops[k].name, key);
            add_simple(gs, "probe-failed", d, "features", e, "records present");
            return;
        }
    }
}

/* The VEX.L = 1 encodings of the P_LIG ops (nan_lig.h, issue 23 item 3):
 * the probe compared them with the same phase's VEX.L = 0 records itself, so
 * every deviation it lists is a group of rule vex-lig naming the op, one
 * detail per cause (the forked child died by a signal, exited, or the result
 * differs). */
static void check_lig(const cJSON *doc, nan_groups *gs)
{
    const cJSON *lig = cJSON_GetObjectItemCaseSensitive(doc, "lig");
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(lig, "deviations");
    if (!cJSON_IsObject(lig) || !cJSON_IsArray(devs)) {
        add_simple(gs, "probe-failed", "no \"lig\" object (the VEX.L=1 check)", "lig", "lig object", "absent");
        return;
    }
    const char *skipped = bg_json_str(lig, "skipped");
    if (skipped) {
        char t[300];
        snprintf(t, sizeof t, "VEX.L=1 (LIG) encodings not run: %s", skipped);
        note(gs, t);
    }
    const cJSON *d;
    cJSON_ArrayForEach(d, devs) {
        const char *op = bg_json_str(d, "op"), *died = bg_json_str(d, "died"), *raised = bg_json_str(d, "raised");
        const cJSON *ex = cJSON_GetObjectItemCaseSensitive(d, "exit");
        int k = op ? nan_op_find(op) : -1;
        char detail[120], exp[sizeof gs->g[0].expected] = "the VEX.L=0 result", obs[sizeof gs->g[0].observed];
        if (k < 0) {
            add_simple(gs, "probe-failed", "lig deviation of an unknown op", op ? op : "lig", "an op of nan_ops.def",
                       op ? op : "(none)");
            continue;
        }
        gs->checked++;
        if (died || raised || cJSON_IsNumber(ex)) {
            if (raised)
                snprintf(obs, sizeof obs, "the instruction raised %s", raised);
            else if (died)
                snprintf(obs, sizeof obs, "the process died (%s)", died);
            else
                snprintf(obs, sizeof obs, "the process exited (status %d)", ex->valueint);
            snprintf(detail, sizeof detail, "VEX.L=1 (LIG) encoding: %.80s", obs);
            add_simple(gs, "vex-lig", detail, op, exp, obs);
            continue;
        }
        const char *l0s = bg_json_str(d, "l0"), *l1s = bg_json_str(d, "l1");
        nan_rec l0, l1;
        if (!l0s || !l1s || strlen(l0s) != (size_t)nan_rec_hex(k) || strlen(l1s) != (size_t)nan_rec_hex(k) ||
            nan_rec_decode(k, l0s, &l0) != 0 || nan_rec_decode(k, l1s, &l1) != 0) {
            add_simple(gs, "probe-failed", "malformed lig records", op, "l0 and l1 records", "wrong length or digit");
            continue;
        }
        int upper_only = l0.d[0] == l1.d[0] && l0.d[1] == l1.d[1] && l0.s[0] == l1.s[0] && l0.s[1] == l1.s[1] &&
                         l0.flags == l1.flags && l0.eflags == l1.eflags;
        snprintf(detail, sizeof detail, "%s", upper_only ? "VEX.L=1 (LIG) encoding: ymm0 bits 255:128 not as VEX.L=0"
                                                         : "VEX.L=1 (LIG) encoding: result differs from VEX.L=0");
        rec_text(k, &l0, exp, sizeof exp);
        rec_text(k, &l1, obs, sizeof obs);
        int fresh;
        nan_group *g = nan_groups_add(gs, "vex-lig", detail, op, &fresh);
        if (g)
            g->base = 1;
        if (g && fresh) {
            snprintf(g->expected, sizeof g->expected, "%s", exp);
            snprintf(g->observed, sizeof g->observed, "%s", obs);
            g->example = cJSON_CreateObject();
            cJSON_AddStringToObject(g->example, "op", op);
            cJSON_AddStringToObject(g->example, "encoding", "VEX.L=1");
            const char *ph = bg_json_str(d, "phase");
            cJSON_AddStringToObject(g->example, "phase", ph ? ph : "");
            const cJSON *cs = cJSON_GetObjectItemCaseSensitive(d, "case");
            cJSON_AddNumberToObject(g->example, "case", cJSON_IsNumber(cs) ? cs->valueint : -1);
            const cJSON *df = cJSON_GetObjectItemCaseSensitive(d, "differ");
            cJSON_AddNumberToObject(g->example, "cases_differing", cJSON_IsNumber(df) ? df->valueint : -1);
        }
    }
}

static void check_doc(const cJSON *doc, const opts *o, const nan_fixture *fx, nan_groups *gs)
{
    char mine[20];
    snprintf(mine, sizeof mine, "%016llx", (unsigned long long)nan_case_table_digest());
    const char *dg = bg_json_str(doc, "case_table");
    if (!dg || strcmp(dg, mine) != 0) {
        add_simple(gs, "probe-failed", "case table differs from the checker's (stale probe binary)",
                   "case_table", mine, dg ? dg : "(none)");
        return;
    }
    check_features(doc, gs);
    if (strcmp(o->context, "main_thread") == 0) {
        for (int m = 0; m < NAN_MODE_COUNT; m++) {
            int wanted = strcmp(o->modes, "all") == 0 || nan_modes[m].base;
            const cJSON *ph = find_phase(doc, nan_modes[m].name);
            if (!wanted)
                continue;
            if (!ph) {
                add_simple(gs, "probe-failed", "phase missing", nan_modes[m].name, "phase", "absent");
                continue;
            }
            check_phase(ph, nan_modes[m].name, nan_modes[m].mxcsr, "mxcsr-readback", m, fx, gs);
        }
        check_lig(doc, gs);
        return;
    }
    if (strcmp(o->context, "trap") == 0) {
        check_traps(doc, gs);
        return;
    }
    if (strcmp(o->context, "faults") == 0) { /* nan_faults.def */
        nan_fault_check(doc, gs);
        return;
    }
    const nan_context_rule *r;
    int n = nan_context_rules(o->context, &r);
    for (int i = 0; i < n; i++) {
        if (!r[i].phase) { /* a context of facts only (vzeroupper) */
            check_facts(doc, r[i].facts, gs);
            continue;
        }
        const cJSON *ph = find_phase(doc, r[i].phase);
        if (!ph) {
            add_simple(gs, "probe-failed", "phase missing", r[i].phase, "phase", "absent");
            continue;
        }
        check_phase(ph, r[i].phase, r[i].mxcsr, r[i].rule, -1, fx, gs);
        if (i == 0 && *r[i].facts)
            check_facts(doc, r[i].facts, gs);
    }
}

/* Runs the probe under the runner; returns the parsed document or NULL
 * (then a probe-failed group says why). */
static cJSON *run_probe(const bg_runner *rn, const opts *o, const char *context, const char *modes,
                        nan_groups *gs, double *wall)
{
    char *guest[] = {(char *)o->probe, "--context", (char *)context, "--modes", (char *)modes, NULL};
    char *argv[BG_RUNNER_MAX_ARGS + 8];
    bg_runner_argv(rn, guest, argv, sizeof argv / sizeof argv[0]);
    bg_proc_result pr;
    bg_status st = bg_proc_run(argv, rn->env, o->timeout, (size_t)256 << 20, &pr);
    if (st != BG_OK) {
        add_simple(gs, "probe-failed", st == BG_E_TARGET ? "output over 256 MiB" : "cannot start",
                   rn->name, "JSON document", bg_status_name(st));
        return NULL;
    }
    *wall = pr.wall_s;
    char how[300];
    const char *group = how; /* the group's detail: how it ended, or what is wrong with its output */
    bg_proc_describe(&pr, o->timeout, how, sizeof how);
    cJSON *doc = NULL;
    if (!pr.spawn_failed && !pr.timed_out && pr.exited && pr.code == 0) {
        doc = cJSON_ParseWithLength(pr.out, pr.out_len);
        if (!doc) { /* quotes a stray first line (a runner that logs to stdout) */
            bg_json_explain_invalid(pr.out, pr.out_len, how, sizeof how);
            group = strstr(how, "before the JSON document") ? "output: a stray line before the JSON document"
                                                            : "output is not JSON";
        }
    }
    if (!doc) {
        /* how it ended, and the last lines of its stderr as bg-run quotes them */
        char tail[600], observed[1000];
        bg_proc_stderr_tail(&pr, BG_PROC_TAIL_LINES, tail, sizeof tail);
        snprintf(observed, sizeof observed, "%s%s%s", how, *tail ? "; stderr: " : "", tail);
        add_simple(gs, "probe-failed", group, context, "exit status 0 and a JSON document", observed);
        fprintf(stderr, "buildgate: nan-check: runner %s, context %s: the probe %s\n", rn->name,
                context, how);
    }
    bg_proc_result_free(&pr);
    return doc;
}

static int write_fixture(const opts *o, const char *path, int argc, char **argv)
{
    char why[300];
    bg_runner rn;
    bg_status st = nan_fixture_precheck(path, o->reason, o->replace); /* before the probe run */
    if (st != BG_OK)
        return bg_exit_code(st);
    st = bg_runner_resolve("native", "x86_64", &rn, why, sizeof why);
    if (st != BG_OK)
        return bg_exit_code(bg_fail(st, "nan-check", "--write-fixture: %s", why));
    nan_groups gs = {0};
    double wall = 0;
    cJSON *doc = run_probe(&rn, o, "main_thread", "all", &gs, &wall);
    bg_runner_free(&rn);
    nan_groups_free(&gs);
    if (!doc)
        return BG_EXIT_TARGET;
    char cmd[2048];
    nan_fixture_command(argc, argv, cmd, sizeof cmd);
    st = nan_fixture_write(path, doc, cmd, o->reason, o->replace);
    cJSON_Delete(doc);
    if (st == BG_OK)
        printf("nan-check: wrote %s\n", path);
    return bg_exit_code(st);
}

/* "" when the guest program exists; else one line why: the first line of
 * probe.FAILED beside it (cmake/BuildgateStep.cmake, a failed cross build of
 * guest/) or "no such program". */
static void guest_build_failure(const char *probe, char *why, size_t n)
{
    *why = '\0';
    if (access(probe, X_OK) == 0)
        return;
    int err = errno;
    char failed[1100];
    const char *slash = strrchr(probe, '/');
    int dir = slash ? (int)(slash - probe) : 1;
    snprintf(failed, sizeof failed, "%.*s/probe.FAILED", dir, slash ? probe : ".");
    FILE *f = fopen(failed, "r");
    char line[500] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
        line[strcspn(line, "\n")] = '\0';
    }
    if (*line)
        snprintf(why, n, "the x86-64 guest %s was not built: %s", probe, line);
    else
        snprintf(why, n, "the x86-64 guest %s: %s", probe, strerror(err));
}

/* The one check of a run that cannot happen: skip (runner not available) or
 * fail (the guest was not built).  Returns the exit code. */
static int not_run(bg_checks *c, const opts *o, const char *test, const char *reason, int unbuilt)
{
    cJSON *d = cJSON_CreateObject();
    cJSON *m = cJSON_AddObjectToObject(d, "matrix");
    cJSON_AddStringToObject(m, "table", "runner × context");
    cJSON_AddStringToObject(m, "row", o->runner);
    cJSON_AddStringToObject(m, "col", o->context);
    cJSON_AddStringToObject(m, "cell", unbuilt ? "guest not built" : "not available");
    if (unbuilt)
        bg_check_emit_str(c, test, BG_FAIL, "the x86-64 guest built", reason, d);
    else
        bg_check_emit_str(c, test, BG_SKIP, "runner available", reason, d);
    return bg_checks_close(c);
}

/* The nan-probe built beside this nan-check (same build folder), or NULL. */
static const char *probe_beside(const char *argv0, char *buf, size_t n)
{
    const char *slash = strrchr(argv0, '/');
    if (!slash)
        return NULL;
    snprintf(buf, n, "%.*s/nan-probe", (int)(slash - argv0), argv0);
    return access(buf, X_OK) == 0 ? buf : NULL;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    opts o = {.modes = "base", .timeout = 120, .fixtures = getenv("BG_FIXTURES_DIR")};
    static const char *const value_options[] = {"--runner", "--context", "--probe", "--modes",
                                                "--fixtures", "--reason", "--timeout",
                                                "--validate-known", "--name", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--runner") == 0 && more) o.runner = argv[++i];
        else if (strcmp(a, "--context") == 0 && more) o.context = argv[++i];
        else if (strcmp(a, "--probe") == 0 && more) o.probe = argv[++i];
        else if (strcmp(a, "--modes") == 0 && more) o.modes = argv[++i];
        else if (strcmp(a, "--fixtures") == 0 && more) o.fixtures = argv[++i];
        else if (strcmp(a, "--reason") == 0 && more) o.reason = argv[++i];
        else if (strcmp(a, "--timeout") == 0 && more) o.timeout = atof(argv[++i]);
        else if (strcmp(a, "--name") == 0 && more) o.name = argv[++i];
        else if (strcmp(a, "--write-fixture") == 0) o.write_fixture = 1;
        else if (strcmp(a, "--replace") == 0) o.replace = 1;
        else if (strcmp(a, "--validate-known") == 0 && more) o.validate = argv[++i];
        else if (strcmp(a, "--regen-known-ops") == 0) o.regen = 1;
        else if (strcmp(a, "--migrate") == 0) o.migrate = 1;
        else if (strcmp(a, "--require-observed") == 0) o.require_observed = 1;
        else if (strcmp(a, "--check-fixture") == 0) o.check_fixture = 1;
        else if (o.regen && a[0] != '-') {
            o.files = &argv[i];
            o.n_files = argc - i;
            break;
        } else if (more || !bg_option_in(a, value_options))
            return bg_help_unknown_option(a);
        else
            return bg_help_missing_value(a);
    }
    if (o.validate) {
        nan_known kd;
        bg_status vs = nan_known_load_all(o.validate, &kd);
        int unobserved = vs == BG_OK && o.require_observed ? nan_known_unobserved(&kd) : 0;
        if (unobserved) { /* a committed line carries its measured history (nan_known.h) */
            char where[1200];
            snprintf(where, sizeof where, "%s:%d", o.validate, unobserved);
            vs = bg_fail(BG_E_FIXTURE, where, "no observed column (the versions the line was measured "
                         "on, e.g. 7.2.22,10.0.13)");
        }
        if (vs == BG_OK)
            printf("nan-check: %s: %d known-deviation line(s) valid; measured versions: %s\n", o.validate,
                   kd.n, *kd.measured ? kd.measured : "none");
        nan_known_free(&kd);
        return bg_exit_code(vs);
    }
    if (o.regen) {
        if (!o.fixtures || !*o.fixtures)
            return usage("no fixtures root: pass --fixtures DIR or set BG_FIXTURES_DIR");
        if (!o.reason || !*o.reason)
            return usage("--regen-known-ops rewrites the known lists: --reason TEXT is required");
        char kdir[1200];
        snprintf(kdir, sizeof kdir, "%s/nan_semantics/known", o.fixtures);
        return bg_exit_code(nan_known_ops_regen(kdir, o.migrate, o.reason, o.files, o.n_files));
    }
    char beside[400];
    if (!o.probe)
        o.probe = probe_beside(argv[0], beside, sizeof beside);
    if (!o.fixtures || !*o.fixtures)
        o.fixtures = bg_fixtures_root();
    if (o.check_fixture)
        return nan_fixture_check(o.fixtures, o.probe);
    if (!o.probe)
        return usage("--probe is required (no nan-probe beside nan-check)");
    bg_status fst = o.write_fixture ? BG_OK : bg_fixtures_check_root(o.fixtures, "nan_semantics");
    if (fst != BG_OK)
        return bg_exit_code(fst);
    if (o.timeout <= 0)
        return usage("--timeout must be a positive number of seconds");
    if (strcmp(o.modes, "base") != 0 && strcmp(o.modes, "all") != 0)
        return usage("--modes must be base or all");
    char fixture[1200];
    snprintf(fixture, sizeof fixture, "%s/nan_semantics/golden-x86_64.json", o.fixtures);
    if (strncmp(o.probe, "none:", 5) == 0 && o.write_fixture)
        return bg_exit_code(bg_fail(BG_E_UNSUPPORTED, "nan-check", "%s", o.probe + 5));
    if (o.write_fixture)
        return write_fixture(&o, fixture, argc, argv);
    if (!o.runner || !o.context)
        return usage("--runner and --context are required");
    if (!nan_context_known(o.context)) {
        char why[200];
        snprintf(why, sizeof why, "unknown context '%s'", o.context);
        return usage(why);
    }
    char why[300];
    bg_runner rn;
    bg_status st = bg_runner_resolve(o.runner, "x86_64", &rn, why, sizeof why);
    if (st == BG_E_USAGE || st == BG_E_NOMEM || st == BG_E_PARSE) /* PARSE: no version (bg_runner.h) */
        return bg_exit_code(bg_fail(st, "nan-check", "%s", why));
    bg_checks *c = bg_checks_open("nan_semantics");
    if (!c)
        return BG_EXIT_IO;
    char tool[64];
    bg_runner_known_tool(&rn, tool, sizeof tool);
    nan_run_info ri = {.test = o.name && *o.name ? o.name : bg_test_name("nan-check"), .runner = o.runner, .known_list = tool,
                       .version = rn.version, .context = o.context, .probe_ok = 1,
                       .modes = strcmp(o.context, "main_thread") == 0 ? o.modes : "base",
                       .fixture = fixture, .fixture_rel = "nan_semantics/golden-x86_64.json"};
    char unbuilt[600] = "";
    if (st == BG_OK && strncmp(o.probe, "none:", 5) != 0)
        guest_build_failure(o.probe, unbuilt, sizeof unbuilt);
#if !defined(__APPLE__)
    if (st == BG_OK && strcmp(o.context, "dispatch_worker") == 0) { /* nan_probe.c ctx_dispatch_worker */
        st = BG_E_UNSUPPORTED;
        snprintf(why, sizeof why, "context dispatch_worker is macOS's libdispatch worker threads "
                                  "(dispatch_async to a global queue): no libdispatch on this OS");
    }
#endif
    if (st != BG_OK || strncmp(o.probe, "none:", 5) == 0 || *unbuilt) {
        const char *reason = st != BG_OK ? why : *unbuilt ? unbuilt : o.probe + 5;
        bg_runner_free(&rn);
        return not_run(c, &o, ri.test, reason, *unbuilt != '\0');
    }
    nan_fixture fx = {.cpu_model = ""};
    char stored[300];
    /* context faults compares no table: its truth is nan_faults.def, not the fixture */
    int table = strcmp(o.context, "faults") != 0;
    if (!table)
        ri.fixture = ri.fixture_rel = NULL;
    if (table && (st = nan_fixture_load(fixture, &fx)) != BG_OK) { /* one cause, one failure: nan.fixture */
        bg_runner_free(&rn);
        return nan_fixture_skip(c, ri.test);
    }
    nan_known kd;
    /* main_thread with every mode also has lines of its own (nan_known.h) */
    const char *kctx = strcmp(o.context, "main_thread") == 0 && strcmp(o.modes, "all") == 0
                           ? NAN_CONTEXT_ALL_MODES : o.context;
    ri.known_context = kctx;
    if ((st = nan_known_load_runner(o.fixtures, &rn, kctx, &kd)) != BG_OK) {
        nan_fixture_free(&fx);
        char kfile[300];
        snprintf(kfile, sizeof kfile, "nan_semantics/known/%s", rn.known);
        bg_runner_free(&rn);
        snprintf(stored, sizeof stored, "%s.known", ri.test);
        return bg_checks_fail_fixture(c, stored, "a valid known-deviation list (docs/nan_semantics.md)",
                                      st, o.fixtures, kfile);
    }
    nan_groups gs = {0};
    cJSON *doc = run_probe(&rn, &o, o.context, ri.modes, &gs, &ri.probe_wall_s);
    ri.probe_ok = doc != NULL;
    if (doc)
        check_doc(doc, &o, &fx, &gs);
    if (doc) {
        const cJSON *sk = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "phases"), 0), "skipped_ops");
        const cJSON *s;
        cJSON_ArrayForEach(s, sk) {
            if (cJSON_IsString(s))
                note(&gs, s->valuestring);
        }
    }
    char t[200];
    snprintf(t, sizeof t, "fixture from %s, %s", fx.cpu_model, fx.date);
    if (table)
        note(&gs, t);
    cJSON_Delete(doc);
    nan_report_emit(c, &ri, &gs, &kd);
    nan_groups_free(&gs);
    nan_known_free(&kd);
    nan_fixture_free(&fx);
    bg_runner_free(&rn);
    return bg_checks_close(c);
}
