/* nan-selftest — proves that each nan-check check can fail and says why.
 *
 * Usage: nan-selftest SCENARIO NAN_CHECK PROBE FIXTURES_ROOT WORK_DIR RUNNERS_DIR
 *
 * Each scenario runs nan-check on purpose-broken input in WORK_DIR (its own
 * BG_CHECKS_FILE, fixtures root and known-deviation files; the real ones are
 * never written) and asserts the exit status, the one stderr line and the
 * checks it records.  Records one check "nan.selftest.<scenario>": pass when
 * the failure was detected with the right message, else fail with expected
 * vs observed.  Scenarios:
 *   known_removed      a known-deviation line of qemu-x86_64 removed -> that
 *                      deviation is a fail check (skip without qemu)
 *   known_not_observed a known line the runner does not show -> xpass
 *   mutant_runner      runner flipping the default NaN's sign -> default-nan fail,
 *                      whose action also names the diff against the stored fixture
 *   corrupt_fixture    fixture truncated -> --check-fixture: exit 5, one "fixture"
 *                      line, one fail check naming `git checkout -- <file>`; a
 *                      runner/context test: one skip "see nan.fixture" (77)
 *   bad_record         fixture with a non-hex digit in a record -> the same
 *   fixtures_dir_wrong BG_FIXTURES_DIR without nan_semantics/ -> exit 5, "holds
 *                      no fixtures"
 *   unknown_runner     --runner nosuch -> exit 2, one line
 *   missing_runner     BG_X86_RUNNERS command that does not exist -> skip (77)
 *   hanging_runner     runner that sleeps -> probe-failed "timed out after 2 s"
 *   crashing_runner    runner killed by SIGSEGV -> probe-failed "killed by signal 11"
 *   fixture_no_replace --write-fixture on an existing fixture -> exit 6
 *   known_typo         a known-deviation line naming no real rule -> exit 5, one line
 *   known_long_not_duplicate two lines whose ops columns differ only after
 *                      4,200 characters: valid (exit 0), not duplicates
 *   known_ops_too_long a line whose ops column is longer than the parser's
 *                      field (8191 characters) -> exit 5, one line naming it
 *                      (nan-check --validate-known), not a silently cut column
 *   known_bad_range    a line with the version range ">=7.x" (not silently read as
 *                      ">=7") and one with an op that does not exist -> exit 5,
 *                      one line naming <file>:<line> each (also nan-check
 *                      --validate-known)
 *   guest_not_built    no guest program, its cross build's probe.FAILED beside it
 *                      -> a fail check quoting that line
 *   mutant_snan        a translator returning SNaN operands unquieted
 *                      (filter-runner.sh + nan-mutate snan-unquieted) -> exactly
 *                      one fail group: snan-quieting
 *   mutant_minmax      MIN/MAX returning the number -> exactly minmax "NaN operand"
 *   mutant_daz         DAZ ignored in the daz phase -> exactly the daz-ftz "DAZ"
 *                      groups (value and status flags), no rounding/value/minmax
 *   mutant_rc_ignored  MXCSR.RC ignored by the SSE/AVX ops (box64 #4408,
 *                      nan-mutate rc-ignored) -> exactly one group, rounding
 *                      "MXCSR.RC ignored: the round-to-nearest result" (main
 *                      had 11: a rounding group per direction, seven
 *                      status-flag groups, a false upper-lanes VEX.L group)
 *   known_new_op       real valgrind under its real known lines (those of its
 *                      version), with one more op (subss) computing a wrong
 *                      value -> fail for rule value naming subss, while the
 *                      unmutated run passes (skip without valgrind)
 *   known_new_context  the same with a line listing subss's wrong value for
 *                      main_thread only: main_thread xfail (exit 0), pthread fail
 *   regen_ops          nan-check --regen-known-ops: a 6-column line gets ops "-"
 *                      with --migrate; a check naming it with ops minps, maxps,
 *                      addss makes the column "addss,minmax-ps"; a check naming
 *                      a line that now holds another rule -> exit 5, file
 *                      unchanged; no --reason -> exit 2
 *   proposed_lines     qemu-x86_64 of an unlisted version (RUNNERS_DIR/version-99
 *                      first in PATH: "99.1.0"; its list covers 7.2 only)
 *                      -> still a fail, and a proposed line scoped >=99.1,<99.2 in
 *                      WORK_DIR/proposed-known/nan_semantics/qemu-x86_64.tsv
 *                      with the adoption command in the check
 *   mutant_<family>    runners/filter-runner.sh with one nan-mutate mutation
 *                      (op_mutants below: cvt source clobbered, cvtpd2ps upper
 *                      half not zeroed, bitwise op quieting SNaNs, roundps
 *                      immediate ignored, movmskps as 'x < 0', addsubps as
 *                      addps, hsubpd as haddpd, dpps imm 0xf1 as 0xff; VEX.128
 *                      vaddss / vfmadd231sd leaving ymm0 bits 255:128, vaddss
 *                      merging the old destination's bits 127:32; vex128: one
 *                      per VEX.128 family, e.g. vcvtps2dq leaving bits 255:128,
 *                      vroundsd / vcmpunordsd taking bits 127:64 from xmm2,
 *                      vcomiss as vucomiss, cmpltss as cmpless; vroundss.1's
 *                      VEX.L=1 encoding killing the process: vex-lig) -> a fail
 *                      check of the rule that names that bug, listing the op;
 *                      x87: fadd returning SNaNs unquieted (snan-quieting),
 *                      fadd_pc24 computed in 64-bit precision
 *                      (precision-control), a handler phase reporting the
 *                      interrupted x87 control word (handler-x87-cw, context
 *                      signal_raise); issue 23: fld_m64_pc24 rounded to 24
 *                      bits, x87 ops under the MXCSR RC, fsin in double
 *                      (precision-control, rounding)
 *                      signal_raise)
 *   mutant_fault_swallowed  runner dropping every #GP (LD_PRELOAD: the
 *                      faulting instruction skipped) -> context faults fails
 *                      fault-not-raised (reserved MXCSR bit, misaligned m128)
 *   mutant_fault_state  the #GP's signal frame with another MXCSR and xmm0
 *                      -> fault-state MXCSR / xmm0 at the fault
 *   mutant_fault_sigbus the #GP delivered as SIGBUS -> fault-signal
 *   mutant_fault_spurious / _si_code / _result  one field of one row
 *                      rewritten (nan-mutate fault-field) -> fault-spurious /
 *                      fault-si-code / fault-result
 *   mutant_initial     runner starting the guest with MXCSR FTZ|DAZ and x87
 *                      53-bit precision (LD_PRELOAD) -> context initial fails
 *                      mxcsr-initial and context-fact x87_cw_default
 *   mutant_ymm_*       YMM upper halves lost / leaked / stale across a signal
 *                      (LD_PRELOAD SA_SIGINFO wrapper), or a YMM fact of
 *                      thread, fork, vzeroupper false -> ymm-upper "<fact> false"
 * Exit: as bg_checks_close (0 pass, 1 fail, 77 skip); 2 usage.
 */
#define _DEFAULT_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_cpu.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_proc.h"
#include "buildgate/bg_runner.h"

typedef struct ctx {
    const char *check, *probe, *fixtures, *work, *runners;
    char checks_file[1200], root[1200];
} ctx;

typedef struct outcome {
    int code;        /* exit status, or -signal */
    char err[4096];  /* stderr */
    int err_lines;
    cJSON *checks;   /* array of the checks nan-check recorded */
} outcome;

static int write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* The whole file, NUL-terminated (caller frees); NULL when unreadable. */
static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = NULL;
    long size = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)size + 1)) != NULL) {
        *n = fread(b, 1, (size_t)size, f);
        b[*n] = '\0';
    }
    fclose(f);
    return b;
}

/* A fixtures root in WORK_DIR/<name>: golden fixture linked from the real
 * one (or written from data), known/ empty. */
static int make_root(ctx *c, const char *name, const char *golden_data, size_t golden_len)
{
    char p[1400];
    snprintf(c->root, sizeof c->root, "%s/%s", c->work, name);
    mkdir(c->work, 0755);
    mkdir(c->root, 0755);
    snprintf(p, sizeof p, "%s/nan_semantics", c->root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/nan_semantics/known", c->root);
    mkdir(p, 0755);
    char cmd[3000];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/nan_semantics/known/*.tsv '%s'/nan_semantics/golden-x86_64.json",
             c->root, c->root);
    if (system(cmd) != 0)
        return -1;
    snprintf(p, sizeof p, "%s/nan_semantics/golden-x86_64.json", c->root);
    if (golden_data)
        return write_file(p, golden_data, golden_len);
    char real[1400];
    snprintf(real, sizeof real, "%s/nan_semantics/golden-x86_64.json", c->fixtures);
    return symlink(real, p);
}

/* make_root(name), and dst[n] = the native runner's known list there. */
static int native_list_root(ctx *c, const char *name, char *dst, size_t n)
{
    if (make_root(c, name, NULL, 0) != 0)
        return -1;
    snprintf(dst, n, "%s/nan_semantics/known/native.tsv", c->root);
    return 0;
}

static outcome run_check(ctx *c, char **args, const char *extra_env)
{
    outcome o = {0};
    snprintf(c->checks_file, sizeof c->checks_file, "%s/checks.jsonl", c->work);
    unlink(c->checks_file);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)c->check;
    for (int i = 0; args[i] && n < 30; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    char e1[1300], e2[1300], e3[4200];
    snprintf(e1, sizeof e1, "BG_CHECKS_FILE=%s", c->checks_file);
    snprintf(e2, sizeof e2, "BG_FIXTURES_DIR=%s", c->root);
    snprintf(e3, sizeof e3, "%s", extra_env ? extra_env : "BG_SELFTEST=1");
    char *env[] = {e1, e2, "BG_TEST_NAME=nan.selftest.inner", e3, NULL};
    bg_proc_result r;
    if (bg_proc_run(argv, env, 120, (size_t)64 << 20, &r) != BG_OK) {
        o.code = -1000;
        return o;
    }
    o.code = r.exited ? r.code : -r.sig;
    snprintf(o.err, sizeof o.err, "%s", r.err);
    for (const char *p = r.err; *p; p++)
        o.err_lines += *p == '\n';
    bg_proc_result_free(&r);
    o.checks = cJSON_CreateArray();
    size_t len;
    char *text = read_file(c->checks_file, &len);
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        cJSON *j = cJSON_Parse(line);
        if (j)
            cJSON_AddItemToArray(o.checks, j);
    }
    free(text);
    return o;
}

/* First recorded check with this verdict whose details.rule (and detail
 * prefix, if given) match; NULL if none. */
static const cJSON *find(const outcome *o, const char *verdict, const char *rule, const char *detail)
{
    const cJSON *ch;
    cJSON_ArrayForEach(ch, o->checks) {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(ch, "details");
        const char *v = bg_json_str(ch, "verdict"), *r = bg_json_str(d, "rule"),
                   *dt = bg_json_str(d, "detail");
        if (v && strcmp(v, verdict) == 0 && (!rule || (r && strcmp(r, rule) == 0)) &&
            (!detail || (dt && strncmp(dt, detail, strlen(detail)) == 0)))
            return ch;
    }
    return NULL;
}

static int has_verdict(const outcome *o, const char *verdict)
{
    const cJSON *ch;
    cJSON_ArrayForEach(ch, o->checks) {
        const char *v = bg_json_str(ch, "verdict");
        if (v && strcmp(v, verdict) == 0)
            return 1;
    }
    return 0;
}

/* Verdict of a scenario: exp/obs describe what was asserted. */
typedef struct result {
    bg_verdict v;
    char exp[2048], obs[2048];
} result;

static void expect_exit_line(result *res, const outcome *o, int code, const char *prefix)
{
    int ok = o->code == code && o->err_lines == 1 && strncmp(o->err, prefix, strlen(prefix)) == 0;
    res->v = ok ? BG_PASS : BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "exit %d and one stderr line starting '%s'", code, prefix);
    snprintf(res->obs, sizeof res->obs, "exit %d, %d stderr line(s): %.600s", o->code, o->err_lines, o->err);
}

/* Also: stderr contains needle, else the scenario fails naming what it wanted. */
static void expect_stderr_has(result *res, const outcome *o, const char *needle, const char *what)
{
    if (strstr(o->err, needle))
        return;
    res->v = BG_FAIL;
    snprintf(res->exp + strlen(res->exp), sizeof res->exp - strlen(res->exp), " %s", what);
}

static void expect_group(result *res, const outcome *o, int code, const char *verdict, const char *rule,
                         const char *detail)
{
    const cJSON *ch = find(o, verdict, rule, detail);
    res->v = (o->code == code && ch) ? BG_PASS : BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "exit %d and a %s check for rule %s%s%s", code, verdict, rule,
             detail ? " detail " : "", detail ? detail : "");
    char *names = cJSON_PrintUnformatted(o->checks);
    snprintf(res->obs, sizeof res->obs, "exit %d, checks: %.900s", o->code, names ? names : "?");
    free(names);
}

/* One cause, one failure: the broken fixture in c->root is one fail of
 * `nan-check --check-fixture` (exit 5, one stderr line starting err_prefix,
 * observed naming the next step next_step), and a runner/context test over it
 * records only a skip pointing at nan.fixture (77, no fail). */
static int fixture_one_cause(ctx *c, result *res, char *probe_arg, const char *err_prefix,
                             const char *next_step)
{
    char *fargs[] = {"--check-fixture", "--probe", probe_arg, NULL};
    outcome o = run_check(c, fargs, NULL);
    expect_exit_line(res, &o, 5, err_prefix);
    const cJSON *fail = cJSON_GetArrayItem(o.checks, 0);
    const char *obs = bg_json_str(cJSON_GetObjectItemCaseSensitive(fail, "details"), "action");
    int ok = res->v == BG_PASS && cJSON_GetArraySize(o.checks) == 1 && has_verdict(&o, "fail") && obs &&
             strstr(obs, next_step);
    snprintf(res->exp + strlen(res->exp), sizeof res->exp - strlen(res->exp),
             ", one fail check whose next step (details.action) names '%s'; then nan.native.main_thread: "
             "exit 77, skip 'see nan.fixture' only",
             next_step);
    snprintf(res->obs + strlen(res->obs), sizeof res->obs - strlen(res->obs), "; next step: %.500s",
             obs ? obs : "none");
    cJSON_Delete(o.checks);
    char *args[] = {"--runner", "native", "--context", "main_thread", "--probe", probe_arg, NULL};
    o = run_check(c, args, NULL);
    const cJSON *skip = cJSON_GetArrayItem(o.checks, 0);
    const char *sobs = bg_json_str(skip, "observed");
    ok = ok && o.code == 77 && !has_verdict(&o, "fail") && has_verdict(&o, "skip") && sobs &&
         strstr(sobs, "see nan.fixture");
    snprintf(res->obs + strlen(res->obs), sizeof res->obs - strlen(res->obs), "; then exit %d, %.300s",
             o.code, sobs ? sobs : "no check");
    res->v = ok ? BG_PASS : BG_FAIL;
    cJSON_Delete(o.checks);
    return 0;
}

/* The guest's cross build failed (suites/nan_semantics/CMakeLists.txt, nan-guest):
 * every test must fail with probe.FAILED's line, not skip or crash. */
static void guest_not_built(ctx *c, result *res)
{
    static const char line[] = "probe-build failed (exit 1): nan_table.c:1: error: self-test (log: x)";
    char dir[1300], failed[1400], probe[1400], env[1400];
    outcome o = {0};
    snprintf(dir, sizeof dir, "%s/guest", c->work);
    snprintf(failed, sizeof failed, "%s/probe.FAILED", dir);
    snprintf(probe, sizeof probe, "%s/nan-probe", dir);
    res->v = BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "exit 1 and a fail check quoting '%s'", line);
    if (make_root(c, "guest_not_built", NULL, 0) != 0 || (mkdir(dir, 0755) != 0 && errno != EEXIST) ||
        write_file(failed, line, sizeof line - 1) != 0) {
        snprintf(res->obs, sizeof res->obs, "cannot set up %s: %s", dir, strerror(errno));
        return;
    }
    snprintf(env, sizeof env, "BG_X86_RUNNERS=mutant=%s/mutant-runner.sh", c->runners);
    char *args[] = {"--runner", "mutant", "--context", "main_thread", "--probe", probe, NULL};
    o = run_check(c, args, env);
    const cJSON *ch;
    cJSON_ArrayForEach(ch, o.checks) {
        const char *v = bg_json_str(ch, "verdict"), *ob = bg_json_str(ch, "observed");
        if (o.code == 1 && v && strcmp(v, "fail") == 0 && ob && strstr(ob, line))
            res->v = BG_PASS;
    }
    char *all = cJSON_PrintUnformatted(o.checks);
    snprintf(res->obs, sizeof res->obs, "exit %d, checks: %.900s", o.code, all ? all : "?");
    free(all);
    cJSON_Delete(o.checks);
}

/* nan-check --regen-known-ops on a list and synthetic check lines. */
static void regen_ops(ctx *c, result *res)
{
    char list[1400], checks[1400], stale[1400], fx[1300];
    size_t n;
    res->v = BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "--migrate: ops '-'; regenerated: 'addss,minmax-ps'; a stale "
             "check: exit 5, file unchanged; no --reason: exit 2");
    if (native_list_root(c, "regen_ops", list, sizeof list) != 0)
        return;
    snprintf(fx, sizeof fx, "%s", c->root);
    snprintf(checks, sizeof checks, "%s/regen.jsonl", c->work);
    snprintf(stale, sizeof stale, "%s/stale.jsonl", c->work);
    static const char old[] = "# old format\nnative\t*\tmain_thread\tvalue\t-\tself-test\n";
    char ck[2000], st[2000];
    snprintf(ck, sizeof ck, "{\"details\":{\"rule\":\"value\",\"known_lines\":[\"%s:2\"],"
             "\"op_list\":[\"minps\",\"maxps\",\"vminps\",\"vmaxps\",\"addss\"]}}\n", list);
    snprintf(st, sizeof st, "{\"details\":{\"rule\":\"minmax\",\"known_lines\":[\"%s:2\"],"
             "\"op_list\":[\"subss\"]}}\n", list);
    if (write_file(list, old, sizeof old - 1) || write_file(checks, ck, strlen(ck)) ||
        write_file(stale, st, strlen(st)))
        return;
    char *mig[] = {"--regen-known-ops", "--migrate", "--reason", "self-test", "--fixtures", fx, NULL};
    outcome o1 = run_check(c, mig, NULL);
    char *t1 = read_file(list, &n);
    char *gen[] = {"--regen-known-ops", "--reason", "self-test", "--fixtures", fx, checks, NULL};
    outcome o2 = run_check(c, gen, NULL);
    char *t2 = read_file(list, &n);
    char *bad[] = {"--regen-known-ops", "--reason", "self-test", "--fixtures", fx, stale, NULL};
    outcome o3 = run_check(c, bad, NULL);
    char *t3 = read_file(list, &n);
    char *nor[] = {"--regen-known-ops", "--fixtures", fx, checks, NULL};
    outcome o4 = run_check(c, nor, NULL);
    int ok = o1.code == 0 && t1 && strstr(t1, "native\t*\tmain_thread\t-\tvalue\t-\tself-test\n") &&
             o2.code == 0 && t2 && strstr(t2, "native\t*\tmain_thread\taddss,minmax-ps\tvalue\t-\tself-test\n") &&
             o3.code == 5 && o3.err_lines == 1 && t3 && strcmp(t2, t3) == 0 && o4.code == 2;
    res->v = ok ? BG_PASS : BG_FAIL;
    snprintf(res->obs, sizeof res->obs, "exits %d %d %d %d; migrated: %.200s; regenerated: %.200s; stale: %.300s",
             o1.code, o2.code, o3.code, o4.code, t1 ? t1 : "?", t2 ? t2 : "?", o3.err);
    free(t1);
    free(t2);
    free(t3);
    cJSON_Delete(o1.checks);
    cJSON_Delete(o2.checks);
    cJSON_Delete(o3.checks);
    cJSON_Delete(o4.checks);
}

/* Op-family mutants: mutation (nan-mutate), expected rule, detail prefix or
 * NULL, and the op the failing group must list. */
static const struct {
    const char *scenario, *mutation, *rule, *detail, *op, *known;
} op_mutants[] = {
    {"mutant_cvt_source", "source-clobber:cvttpd2dq", "source-modified", NULL, "cvttpd2dq", NULL},
    {"mutant_lig_died", "lig-died:vroundss.1", "vex-lig", "VEX.L=1 (LIG) encoding: the process died (SIGILL)",
     "vroundss.1", NULL},
    {"mutant_cvt_upper", "dirty-upper:cvtpd2ps", "upper-lanes", "zeroed destination elements not zero",
     "cvtpd2ps", NULL},
    {"mutant_bitwise", "quiet-snan:andnps", "bitwise", "NaN payload or sign changed", "andnps", NULL},
    {"mutant_round_imm", "copy:roundps.4:roundps.1", "rounding", "imm RC=down", "roundps.1", NULL},
    {"mutant_signmask", "signmask-float:movmskps", "sign-mask", NULL, "movmskps", NULL},
    {"mutant_addsub", "copy:addps:addsubps", "value", NULL, "addsubps", NULL},
    {"mutant_hsub", "copy:haddpd:hsubpd", "value", NULL, "hsubpd", NULL},
    {"mutant_dpps", "copy:dpps.ff:dpps.f1", "value", NULL, "dpps.f1", NULL},
    {"mutant_vex_upper", "vex-upper-dirty:vaddss", "upper-lanes", "VEX.128 write did not zero bits 255:128",
     "vaddss", NULL},
    {"mutant_vex_merge", "vex-merge-dest:vaddss", "upper-lanes", "VEX: bits above the scalar not from the first",
     "vaddss", NULL},
    {"mutant_vex_fma_upper", "vex-upper-dirty:vfmadd231sd", "upper-lanes", "VEX.128 write did not zero",
     "vfmadd231sd", NULL},
    /* VEX.256 and F16C (vex256): one mutant per new op family */
#define Y_VEX_L "VEX.256 result only in bits 127:0"
#define Y_DFLT "default NaN instead of operand NaN"
#define Y_FROM_LOW "VEX.256 upper lane computed from the lower lane's sources"
    {"mutant_y_arith_ps", "vex-l-ignored:vaddps.256", "upper-lanes", Y_VEX_L, "vaddps.256", NULL},
    {"mutant_y_arith_pd", "default-nan:vdivpd.256", "nan-propagation", Y_DFLT, "vdivpd.256", NULL},
    {"mutant_y_sqrt_ps", "default-nan:vsqrtps.256", "nan-propagation", Y_DFLT, "vsqrtps.256", NULL},
    {"mutant_y_sqrt_pd", "vex-l-ignored:vsqrtpd.256", "upper-lanes", Y_VEX_L, "vsqrtpd.256", NULL},
    {"mutant_y_minmax_ps", "copy:vmaxps.256:vminps.256", "value", NULL, "vminps.256", NULL},
    {"mutant_y_minmax_pd", "default-nan:vmaxpd.256", "nan-propagation", Y_DFLT, "vmaxpd.256", NULL},
    {"mutant_y_cmp_ps", "copy:vcmpeq_oqps.256:vcmpeq_osps.256", "status-flag", "missing IE", "vcmpeq_osps.256",
     NULL},
    {"mutant_y_cmp_pd", "copy:vcmplt_oqpd.256:vcmplt_ospd.256", "status-flag", "missing IE", "vcmplt_ospd.256",
     NULL},
    {"mutant_y_cvt_ps", "source-clobber:vcvttps2dq.256", "source-modified", NULL, "vcvttps2dq.256", NULL},
    {"mutant_y_cvt_pd", "vex-upper-dirty:vcvtpd2ps.256", "upper-lanes", "zeroed destination elements not zero",
     "vcvtpd2ps.256", NULL},
    {"mutant_y_fma_ps", "vex-l-ignored:vfmadd231ps.256", "upper-lanes", Y_VEX_L, "vfmadd231ps.256", NULL},
    {"mutant_y_fma_pd", "default-nan:vfnmadd231pd.256", "nan-propagation", Y_DFLT, "vfnmadd231pd.256", NULL},
    {"mutant_f16c_ph2ps", "default-nan:vcvtph2ps", "nan-propagation", Y_DFLT, "vcvtph2ps", NULL},
    {"mutant_f16c_ph2ps256", "vex-l-ignored:vcvtph2ps.256", "upper-lanes", Y_VEX_L, "vcvtph2ps.256", NULL},
    {"mutant_f16c_ps2ph", "copy:vcvtps2ph.4:vcvtps2ph.1", "rounding", "imm RC=down", "vcvtps2ph.1", NULL},
    {"mutant_f16c_ps2ph256", "default-nan:vcvtps2ph.256.0", "nan-propagation", Y_DFLT, "vcvtps2ph.256.0",
     NULL},
    /* vex256 block 2: the other compare predicates (a signalling predicate
     * computed as its quiet twin: no IE on a QNaN), VEX.256 round / dp / hadd /
     * addsub / bitwise / movmsk, vcvtps2ph to memory, and the upper 128-bit
     * lane computed from the lower lane's sources */
    {"mutant_y_cmp_pred_ps", "copy:vcmpnge_uqps.256:vcmpnge_usps.256", "status-flag", "missing IE",
     "vcmpnge_usps.256", NULL},
    {"mutant_y_cmp_pred_pd", "copy:vcmpngt_uqpd.256:vcmpngt_uspd.256", "status-flag", "missing IE",
     "vcmpngt_uspd.256", NULL},
    {"mutant_v_cmp_pred_ps", "copy:vcmpeq_oqps:vcmpeq_osps", "status-flag", "missing IE", "vcmpeq_osps", NULL},
    {"mutant_v_cmp_pred_pd", "copy:vcmpord_qpd:vcmpord_spd", "status-flag", "missing IE", "vcmpord_spd", NULL},
    {"mutant_v_cmp_ss", "copy:vcmptrue_uqss:vcmpfalse_oqss", "compare-mask", NULL, "vcmpfalse_oqss", NULL},
    {"mutant_v_cmp_sd", "copy:vcmpge_oqsd:vcmpge_ossd", "status-flag", "missing IE", "vcmpge_ossd", NULL},
    {"mutant_y_round", "copy:vroundps.256.4:vroundps.256.1", "rounding", "imm RC=down", "vroundps.256.1", NULL},
    {"mutant_y_dpps", "vex-l-ignored:vdpps.256.ff", "upper-lanes", Y_VEX_L, "vdpps.256.ff", NULL},
    {"mutant_y_hadd_ps", "vex-upper-from-lower:vhaddps.256", "upper-lanes", Y_FROM_LOW, "vhaddps.256", NULL},
    {"mutant_y_hsub_pd", "copy:vhaddpd.256:vhsubpd.256", "value", NULL, "vhsubpd.256", NULL},
    {"mutant_y_addsub", "copy:vaddps.256:vaddsubps.256", "value", NULL, "vaddsubps.256", NULL},
    {"mutant_y_bitwise", "quiet-snan:vandnps.256", "bitwise", "NaN payload or sign changed", "vandnps.256", NULL},
    {"mutant_y_signmask", "vex-l-ignored:vmovmskps.256", "sign-mask", NULL, "vmovmskps.256", NULL},
    {"mutant_f16c_ps2ph_m64", "store-wide:vcvtps2ph.m64.0", "upper-lanes", "store wrote beyond its memory operand",
     "vcvtps2ph.m64.0", NULL},
    {"mutant_f16c_ps2ph_m128", "store-wide:vcvtps2ph.m128.4", "upper-lanes",
     "store wrote beyond its memory operand", "vcvtps2ph.m128.4", NULL},
    {"mutant_y_upper_from_lower", "vex-upper-from-lower:vaddps.256", "upper-lanes", Y_FROM_LOW, "vaddps.256",
     NULL},
    {"mutant_y_upper_from_lower_pd", "vex-upper-from-lower:vfmadd231pd.256", "upper-lanes", Y_FROM_LOW,
     "vfmadd231pd.256", NULL},
#undef Y_VEX_L
#undef Y_DFLT
    /* VEX.128 forms and scalar compares (vex128): one mutant per new op family */
#define V_UPPER "VEX.128 write did not zero bits 255:128"
#define V_SRC1 "VEX: bits above the scalar not from the first"
    {"mutant_v_cvt", "vex-upper-dirty:vcvtps2dq", "upper-lanes", V_UPPER, "vcvtps2dq", NULL},
    {"mutant_v_cvtsi", "vex-merge-dest:vcvtsi2ss32", "upper-lanes", V_SRC1, "vcvtsi2ss32", NULL},
    {"mutant_v_sqrt", "vex-upper-dirty:vsqrtpd", "upper-lanes", V_UPPER, "vsqrtpd", NULL},
    {"mutant_v_round", "copy:vroundps.4:vroundps.1", "rounding", "imm RC=down", "vroundps.1", NULL},
    {"mutant_v_round_src2", "vex-src2-upper:vroundsd.1", "upper-lanes", V_SRC1, "vroundsd.1", NULL},
    {"mutant_v_dp", "default-nan:vdpps.ff", "nan-propagation", "default NaN instead of operand NaN", "vdpps.ff",
     NULL},
    {"mutant_v_bitwise", "quiet-snan:vxorps", "bitwise", "NaN payload or sign changed", "vxorps", NULL},
    {"mutant_v_hsub", "copy:vhaddps:vhsubps", "value", NULL, "vhsubps", NULL},
    {"mutant_v_addsub", "vex-upper-dirty:vaddsubpd", "upper-lanes", V_UPPER, "vaddsubpd", NULL},
    {"mutant_v_movmsk", "signmask-float:vmovmskpd", "sign-mask", NULL, "vmovmskpd", NULL},
    {"mutant_v_comi", "copy:vucomiss:vcomiss", "status-flag", "missing IE", "vcomiss", NULL},
    {"mutant_cmpss", "copy:cmpless:cmpltss", "compare-mask", NULL, "cmpltss", NULL},
    {"mutant_v_cmpss", "vex-src2-upper:vcmpunordsd", "upper-lanes", V_SRC1, "vcmpunordsd", NULL},
#undef V_UPPER
#undef V_SRC1
#undef Y_FROM_LOW
    /* minps returning the max, under a known line for QEMU's min/max-under-DAZ
     * deviation (same family, same context): must fail as a new `value`
     * group, not be absorbed (fresh-user trial, issue 12 §2) */
    {"mutant_minmax_beside_known", "copy:maxps:minps", "value", NULL, "minps",
     "opmutant\t*\tmain_thread\tminmax-ps\tdaz-ftz\tDAZ: min/max returned an operand unflushed\t"
     "self-test: QEMU 7.2's line\n"},
    /* x87 (issue 13 item 4): FADD returning an SNaN unquieted; FADD with
     * PC=24 computing in 64-bit precision (valgrind's documented limitation);
     * a handler that keeps the interrupted x87 control word (context
     * signal_raise, see op_mutant) */
    {"mutant_x87_snan", "x87-snan-unquiet:fadd", "snan-quieting", "x87", "fadd", NULL},
    {"mutant_x87_pc", "copy:fadd:fadd_pc24", "precision-control", "PC=24 ignored", "fadd_pc24", NULL},
    /* issue 23 items 1 and 2: FLD m64 rounded under PC=24 (QEMU gitlab #984);
     * one host rounding mode for both units (FEX #1665: x87 ops under the
     * MXCSR RC, which differs while they run); FSIN computed in double (QEMU
     * helper_fsin, FEX #5899).  On main's table (no PC=24 load, no FSIN, the
     * two RCs always equal) each mutation is refused or changes nothing. */
    {"mutant_x87_pc_load", "x87-narrow:fld_m64_pc24", "precision-control", "PC=24 applied to an op it does not",
     "fld_m64_pc24", NULL},
    {"mutant_x87_rc_shared", "x87-rc-mxcsr", "rounding", "x87 rounded under the MXCSR RC", "fadd", NULL},
    {"mutant_x87_fsin_double", "x87-narrow:fsin", "precision-control", "64-bit precision computed in 53 bits",
     "fsin", NULL},
    {"mutant_x87_handler_cw", "x87-cw:handler:0x0c7f", "handler-x87-cw", "x87 control word differs in PC RC",
     "handler", NULL},
    /* a runner whose probe document lacks the x87 control word: the rule must
     * fail, not drop out of the count (fresh-user trial) */
    {"mutant_x87_cw_dropped", "x87-cw:handler:none", "handler-x87-cw", "x87 control word not reported",
     "handler", NULL},
};

/* 1 when check ch's details list op among the ops its group touched. */
static int check_names_op(const cJSON *ch, const char *op)
{
    char *text = ch ? cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(ch, "details")) : NULL;
    char quoted[80];
    snprintf(quoted, sizeof quoted, "\"%s\"", op);
    int found = text && strstr(text, quoted) != NULL;
    free(text);
    return found;
}

/* The path of file `name` beside nan-check, into buf[n]. */
static void beside_check(const ctx *c, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", c->check);
    char *slash = strrchr(buf, '/');
    snprintf(slash ? slash + 1 : buf, n - (size_t)(slash ? slash + 1 - buf : 0), "%s", name);
}

/* env[n] = "BG_X86_RUNNERS=<runner>=<RUNNERS_DIR>/filter-runner.sh <nan-mutate>
 * <kind> <command>": runner `runner` runs command (a real runner's, or ""
 * for the guest alone) and passes the probe's document through nan-mutate
 * kind, the one mutant mechanism (nan_mutate.h); its length. */
static size_t mutant_env(const ctx *c, const char *runner, const char *kind, const char *command, char *env,
                         size_t n)
{
    char mutate[1300];
    beside_check(c, "nan-mutate", mutate, sizeof mutate);
    return (size_t)snprintf(env, n, "BG_X86_RUNNERS=%s=%s/filter-runner.sh %s %s%s%s", runner, c->runners,
                            mutate, kind, *command ? " " : "", command);
}

/* Index of the row of a scenario table (rows of `size` bytes whose first
 * member is the const char *scenario) named name; n when none is. */
static size_t row_named(const void *rows, size_t n, size_t size, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const char *scenario;
        memcpy(&scenario, (const char *)rows + i * size, sizeof scenario);
        if (strcmp(scenario, name) == 0)
            return i;
    }
    return n;
}
#define ROW_NAMED(table, name) row_named(table, sizeof table / sizeof table[0], sizeof table[0], name)

/* One op-family mutant: its rule must fail, naming the mutated op. */
static int op_mutant(ctx *c, const char *name, result *res, const char *probe)
{
    size_t i = ROW_NAMED(op_mutants, name);
    if (i == sizeof op_mutants / sizeof op_mutants[0])
        return -2;
    char env[4200];
    mutant_env(c, "opmutant", op_mutants[i].mutation, "", env, sizeof env);
    if (make_root(c, name, NULL, 0) != 0)
        return -1;
    if (op_mutants[i].known) {
        char list[1400];
        snprintf(list, sizeof list, "%s/nan_semantics/known/opmutant.tsv", c->root);
        if (write_file(list, op_mutants[i].known, strlen(op_mutants[i].known)) != 0)
            return -1;
    }
    /* the x87 control word mutation rewrites a handler phase: signal_raise */
    char *context = strncmp(op_mutants[i].mutation, "x87-cw:", 7) == 0 ? "signal_raise" : "main_thread";
    char *args[] = {"--runner", "opmutant", "--context", context, "--probe", (char *)probe, NULL};
    outcome o = run_check(c, args, env);
    expect_group(res, &o, 1, "fail", op_mutants[i].rule, op_mutants[i].detail);
    if (res->v == BG_PASS && !check_names_op(find(&o, "fail", op_mutants[i].rule, op_mutants[i].detail),
                                             op_mutants[i].op)) {
        res->v = BG_FAIL;
        snprintf(res->exp + strlen(res->exp), sizeof res->exp - strlen(res->exp), " listing op %s",
                 op_mutants[i].op);
    }
    cJSON_Delete(o.checks);
    return 0;
}

/* A runner that starts the guest with FTZ|DAZ and 53-bit x87 precision
 * (runners/initial-mutant-runner.sh + libnan-ftzdaz.so beside nan-check):
 * context initial must fail mxcsr-initial and the x87_cw_default fact. */
/* env[n] = "BG_X86_RUNNERS=<runner>=<RUNNERS_DIR>/initial-mutant-runner.sh
 * <lib beside nan-check>": a runner that LD_PRELOADs lib.  -1 with a skip
 * in res when lib was not built (x86-64 Linux only). */
static int preload_env(ctx *c, const char *runner, const char *lib_name, result *res, char *env, size_t n)
{
    char lib[1300];
    beside_check(c, lib_name, lib, sizeof lib);
    if (access(lib, R_OK) != 0) {
        res->v = BG_SKIP;
        snprintf(res->obs, sizeof res->obs, "no %s (built on x86-64 Linux only)", lib);
        return -1;
    }
    snprintf(env, n, "BG_X86_RUNNERS=%s=%s/initial-mutant-runner.sh %s", runner, c->runners, lib);
    return 0;
}

static void initial_mutant(ctx *c, result *res, const char *probe)
{
    char env[4200];
    if (preload_env(c, "ftzdaz", "libnan-ftzdaz.so", res, env, sizeof env) != 0)
        return;
    if (make_root(c, "mutant_initial", NULL, 0) != 0) {
        snprintf(res->obs, sizeof res->obs, "cannot set up %s", c->work);
        return;
    }
    char *args[] = {"--runner", "ftzdaz", "--context", "initial", "--probe", (char *)probe, NULL};
    outcome o = run_check(c, args, env);
    expect_group(res, &o, 1, "fail", "mxcsr-initial", "MXCSR differs in FTZ DAZ");
    if (res->v == BG_PASS && !find(&o, "fail", "context-fact", "x87_cw_default")) {
        res->v = BG_FAIL;
        snprintf(res->exp + strlen(res->exp), sizeof res->exp - strlen(res->exp),
                 ", and a fail check for context-fact x87_cw_default");
    }
    cJSON_Delete(o.checks);
}

/* The fault mutants (context faults, docs/nan_semantics.md "Faults").  A
 * preload mutant runs the real guest with runners/nan_fault_preload.c
 * (libnan-fault.so, mode NAN_FAULT_MUTANT): a runner that swallows every
 * #GP (the faulting instruction skipped, no signal), one whose signal frame
 * holds another MXCSR and xmm0 at the fault, one that delivers the #GP as
 * SIGBUS.  A document mutant rewrites one field of one row through nan-mutate
 * fault-field:CASE:FIELD:VALUE (filter-runner.sh) for what no wrapper of a
 * correct CPU can make: a fault where none is due, another si_code, another
 * result.  Context faults must fail exactly the groups listed. */
static void fail_groups(const outcome *o, char *out, size_t n);

static const struct {
    const char *scenario, *preload_mode, *doc_kind, *groups;
} fault_mutants[] = {
    {"mutant_fault_swallowed", "swallow", NULL,
     "fault-not-raised:m128 operand not 16-byte aligned;fault-not-raised:reserved MXCSR bit set"},
    {"mutant_fault_state", "state", NULL, "fault-state:MXCSR at the fault;fault-state:xmm0 at the fault"},
    {"mutant_fault_sigbus", "sigbus", NULL,
     "fault-signal:m128 operand not 16-byte aligned;fault-signal:reserved MXCSR bit set"},
    {"mutant_fault_spurious", NULL, "fault-field:vaddps.m128.misaligned:signal:SIGSEGV",
     "fault-spurious:alignment-free form"},
    {"mutant_fault_si_code", NULL, "fault-field:addps.m128.misaligned:si_code:1",
     "fault-si-code:m128 operand not 16-byte aligned"},
    {"mutant_fault_result", NULL, "fault-field:movups.load.m128.misaligned:dest:00000000000000000000000000000000",
     "fault-result:xmm0"},
};

static int fault_mutant(ctx *c, const char *name, result *res, const char *probe)
{
    size_t i = ROW_NAMED(fault_mutants, name);
    if (i == sizeof fault_mutants / sizeof fault_mutants[0])
        return -2;
    char env[4300], got[1800];
    if (fault_mutants[i].preload_mode) {
        char lib_env[4200];
        if (preload_env(c, "gp", "libnan-fault.so", res, lib_env, sizeof lib_env) != 0)
            return 0;
        /* BG_X86_RUNNERS=gp=env NAN_FAULT_MUTANT=<mode> <initial-mutant-runner.sh> <lib> */
        snprintf(env, sizeof env, "BG_X86_RUNNERS=gp=env NAN_FAULT_MUTANT=%s %s", fault_mutants[i].preload_mode,
                 lib_env + strlen("BG_X86_RUNNERS=gp="));
    } else {
        mutant_env(c, "gp", fault_mutants[i].doc_kind, "", env, sizeof env);
    }
    if (make_root(c, name, NULL, 0) != 0)
        return -1;
    char *args[] = {"--runner", "gp", "--context", "faults", "--probe", (char *)probe, NULL};
    outcome o = run_check(c, args, env);
    fail_groups(&o, got, sizeof got);
    res->v = o.code == 1 && strcmp(got, fault_mutants[i].groups) == 0 ? BG_PASS : BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "exit 1 and exactly the failing groups %s", fault_mutants[i].groups);
    snprintf(res->obs, sizeof res->obs, "exit %d, failing groups %s", o.code, *got ? got : "(none)");
    cJSON_Delete(o.checks);
    return 0;
}

/* The YMM mutants (rule ymm-upper, docs/nan_semantics.md "YMM upper halves"):
 * a preload mutant runs the real guest with runners/nan_ymm_preload.c
 * (libnan-ymm.so beside nan-check, mode NAN_YMM_MUTANT) under the same
 * runner script as mutant_initial; a fact mutant rewrites the document
 * through nan-mutate fact-false:FACT (filter-runner.sh), for the facts no
 * wrapper can reach (raw fork, threads, VZEROUPPER itself).  Each must fail
 * ymm-upper with detail "<fact> false" in its context. */
static const struct {
    const char *scenario, *preload_mode, *context, *fact;
} ymm_mutants[] = {
    {"mutant_ymm_lose", "lose", "signal_raise", "ymm_sigreturn_restored"},
    {"mutant_ymm_leak", "leak", "vzeroupper", "ymm_vzeroupper_signal"},
    {"mutant_ymm_stale", "stale", "sigaltstack", "ymm_handler_init"},
    {"mutant_ymm_thread", NULL, "pthread", "ymm_thread_private"},
    {"mutant_ymm_fork", NULL, "fork", "ymm_fork_inherited"},
    {"mutant_ymm_vzeroupper", NULL, "vzeroupper", "ymm_vzeroupper_zero"},
    {"mutant_ymm_vzeroall", NULL, "vzeroupper", "ymm_vzeroall_zero"},
    {"mutant_ymm_ops", NULL, "vzeroupper", "ymm_vzeroupper_ops"},
};

static int ymm_mutant(ctx *c, const char *name, result *res, const char *probe)
{
    size_t i = ROW_NAMED(ymm_mutants, name);
    if (i == sizeof ymm_mutants / sizeof ymm_mutants[0])
        return -2;
    bg_cpu_features f;
    bg_cpu_detect(&f);
    char tool[1300], env[4200], detail[80];
    if (!f.avx) {
        res->v = BG_SKIP;
        snprintf(res->obs, sizeof res->obs, "no usable AVX on this CPU: the YMM facts are not measured");
        return 0;
    }
    if (ymm_mutants[i].preload_mode) {
        beside_check(c, "libnan-ymm.so", tool, sizeof tool);
        if (access(tool, R_OK) != 0) {
            res->v = BG_SKIP;
            snprintf(res->obs, sizeof res->obs, "no %s (built on x86-64 Linux only)", tool);
            return 0;
        }
        snprintf(env, sizeof env, "BG_X86_RUNNERS=ymm=env NAN_YMM_MUTANT=%s %s/initial-mutant-runner.sh %s",
                 ymm_mutants[i].preload_mode, c->runners, tool);
    } else {
        char kind[200];
        snprintf(kind, sizeof kind, "fact-false:%s", ymm_mutants[i].fact);
        mutant_env(c, "ymm", kind, "", env, sizeof env);
    }
    if (make_root(c, name, NULL, 0) != 0)
        return -1;
    char *args[] = {"--runner", "ymm", "--context", (char *)ymm_mutants[i].context, "--probe", (char *)probe, NULL};
    outcome o = run_check(c, args, env);
    snprintf(detail, sizeof detail, "%s false", ymm_mutants[i].fact);
    expect_group(res, &o, 1, "fail", "ymm-upper", detail);
    cJSON_Delete(o.checks);
    return 0;
}

/* QEMU 7.2 with minps returning the max (runners/filter-runner.sh piping
 * qemu's output through nan-mutate), under QEMU 7.2's real known lines (runner
 * renamed): the wrong minps values must be a fail `value` group of minps
 * alone, and QEMU's own min/max-under-DAZ cases stay their listed daz-ftz
 * group.  Before the detail of its own (issue 12 §2), both were one `value`
 * group that the line absorbed (fresh-user trial: exit 0 in fork).  Skips
 * without qemu-x86_64 7.2. */
static void qemu_minmax_value(ctx *c, result *res, const char *probe)
{
    char qemu[1024], ver[200] = "", src[1400], dst[1400], env[4200];
    snprintf(res->exp, sizeof res->exp, "exit 1; a fail value group listing minps and no other op");
    if (bg_proc_which("qemu-x86_64", qemu, sizeof qemu) != BG_OK) {
        res->v = BG_SKIP;
        snprintf(res->obs, sizeof res->obs, "qemu-x86_64 not installed");
        return;
    }
    char *vargv[] = {qemu, "--version", NULL};
    bg_proc_result vr;
    if (bg_proc_run(vargv, NULL, 30, 0, &vr) == BG_OK) {
        snprintf(ver, sizeof ver, "%.199s", vr.out);
        bg_proc_result_free(&vr);
    }
    if (!strstr(ver, "version 7.2.")) {
        res->v = BG_SKIP;
        snprintf(res->obs, sizeof res->obs, "the known lines are QEMU 7.2's; this is %.100s", ver);
        return;
    }
    if (make_root(c, "qemu_minmax_value", NULL, 0) != 0) {
        res->v = BG_FAIL;
        snprintf(res->obs, sizeof res->obs, "cannot set up %s", c->work);
        return;
    }
    snprintf(src, sizeof src, "%s/nan_semantics/known/qemu-x86_64.tsv", c->fixtures);
    snprintf(dst, sizeof dst, "%s/nan_semantics/known/qmut.tsv", c->root);
    size_t n;
    char *text = read_file(src, &n);
    FILE *f = text ? fopen(dst, "w") : NULL;
    for (char *line = f ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n"))
        if (strncmp(line, "qemu-x86_64\t>=7.2,<7.3\t", 23) == 0)
            fprintf(f, "qmut\t*\t%s\n", line + 23);
    if (f)
        fclose(f);
    free(text);
    mutant_env(c, "qmut", "copy:maxps:minps", qemu, env, sizeof env);
    char *args[] = {"--runner", "qmut", "--context", "fork", "--probe", (char *)probe, NULL};
    outcome o = run_check(c, args, env);
    const cJSON *v = find(&o, "fail", "value", NULL);
    char *ops = v ? cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(
                        cJSON_GetObjectItemCaseSensitive(v, "details"), "op_list"))
                  : NULL;
    res->v = o.code == 1 && ops && strcmp(ops, "[\"minps\"]") == 0 ? BG_PASS : BG_FAIL;
    snprintf(res->obs, sizeof res->obs, "exit %d; value group ops %s", o.code, ops ? ops : "(no fail value group)");
    free(ops);
    cJSON_Delete(o.checks);
}

/* An unlisted runner version must fail and leave an adoptable proposal. */
static void proposed_lines(ctx *c, result *res)
{
    static const char known[] =
        "qemu-x86_64\t>=7.2,<7.3\tmain_thread\tarith-ss\tdefault-nan\t*\tself-test: covers 7.2 only\n";
    static const char want[] = "qemu-x86_64\t>=99.1,<99.2\tmain_thread\t";
    static const char want2[] = "\tdefault-nan\tobserved 0x7fc00000\tproposed, not reviewed; observed ";
    char p[1400], env[4200], probe_arg[1300];
    snprintf(probe_arg, sizeof probe_arg, "%s", c->probe);
    make_root(c, "proposed_lines", NULL, 0);
    snprintf(p, sizeof p, "%s/nan_semantics/known/qemu-x86_64.tsv", c->root);
    write_file(p, known, sizeof known - 1);
    snprintf(p, sizeof p, "%s/proposed-known/nan_semantics/qemu-x86_64.tsv", c->work);
    unlink(p);
    const char *path = getenv("PATH");
    snprintf(env, sizeof env, "PATH=%s/version-99:%s", c->runners, path ? path : "/usr/bin:/bin");
    char *args[] = {"--runner", "qemu-x86_64", "--context", "main_thread", "--probe", probe_arg, NULL};
    outcome o = run_check(c, args, env);
    expect_group(res, &o, 1, "fail", "default-nan", "observed 0x7fc00000");
    const cJSON *ch = find(&o, "fail", "default-nan", "observed 0x7fc00000");
    const char *action = bg_json_str(cJSON_GetObjectItemCaseSensitive(ch, "details"), "action");
    size_t n = 0;
    char *text = read_file(p, &n);
    int ok = res->v == BG_PASS && text && strstr(text, want) && strstr(text, want2) && action &&
             strstr(action, "ci/adopt-known --approve");
    res->v = ok ? BG_PASS : BG_FAIL;
    snprintf(res->exp + strlen(res->exp), sizeof res->exp - strlen(res->exp),
             "; %s holding a line starting '%s' with '%s' and the check's action naming ci/adopt-known",
             p, want, want2);
    snprintf(res->obs + strlen(res->obs), sizeof res->obs - strlen(res->obs), "; proposed: %.600s",
             text ? text : "(no file)");
    free(text);
    cJSON_Delete(o.checks);
}

/* "rule:detail;..." of the failing deviation groups (sorted), into out. */
static void fail_groups(const outcome *o, char *out, size_t n)
{
    const char *names[64];
    char keys[64][160];
    int k = 0;
    const cJSON *ch;
    cJSON_ArrayForEach(ch, o->checks) {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(ch, "details");
        const char *v = bg_json_str(ch, "verdict"), *r = bg_json_str(d, "rule"), *dt = bg_json_str(d, "detail");
        if (k < 64 && v && strcmp(v, "fail") == 0 && r) {
            snprintf(keys[k], sizeof keys[k], "%s:%s", r, dt ? dt : "");
            names[k] = keys[k];
            k++;
        }
    }
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (strcmp(names[j], names[i]) < 0) {
                const char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    size_t len = 0;
    *out = '\0';
    for (int i = 0; i < k && len + 1 < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", i ? ";" : "", names[i]);
}

/* The native guest through a mutant filter: the failing groups must be
 * exactly `want` (one cause, one group). */
static void mutant_groups(ctx *c, result *res, const char *kind, const char *want)
{
    char env[4200], got[1800];
    make_root(c, kind, NULL, 0);
    mutant_env(c, "mut", kind, "", env, sizeof env);
    char *args[] = {"--runner", "mut", "--context", "main_thread", "--probe", (char *)c->probe, NULL};
    outcome o = run_check(c, args, env);
    fail_groups(&o, got, sizeof got);
    res->v = o.code == 1 && strcmp(got, want) == 0 ? BG_PASS : BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "exit 1 and exactly the failing groups %s", want);
    snprintf(res->obs, sizeof res->obs, "exit %d, failing groups %s", o.code, *got ? got : "(none)");
    cJSON_Delete(o.checks);
}

/* known/<name>.tsv in the scenario root: the lines of the real list of tool
 * that apply to version, as runner `name` of any version, plus extra. */
static int copy_known(ctx *c, const char *tool, const char *name, const char *version, const char *extra)
{
    char src[1400], dst[1400];
    snprintf(src, sizeof src, "%s/nan_semantics/known/%s.tsv", c->fixtures, tool);
    snprintf(dst, sizeof dst, "%s/nan_semantics/known/%s.tsv", c->root, name);
    size_t n;
    char *text = read_file(src, &n);
    FILE *f = text ? fopen(dst, "w") : NULL;
    if (!f) {
        free(text);
        return -1;
    }
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (line[0] == '#' || !t2)
            continue;
        char range[128];
        snprintf(range, sizeof range, "%.*s", (int)(t2 - t1 - 1), t1 + 1);
        if (bg_version_in_range(version, range) == 1)
            fprintf(f, "%s\t*%s\n", name, t2);
    }
    fputs(extra, f);
    free(text);
    return fclose(f) == 0 ? 0 : -1;
}

/* Real valgrind wrapped by the filter (kind), under its real known lines. */
static outcome run_valgrind_mutant(ctx *c, const bg_runner *vg, const char *kind, const char *context)
{
    char env[4200];
    size_t len = mutant_env(c, "vgmut", kind, "", env, sizeof env);
    for (int i = 0; i < vg->argc && len < sizeof env; i++)
        len += (size_t)snprintf(env + len, sizeof env - len, " %s", vg->argv[i]);
    char *args[] = {"--runner", "vgmut", "--context", (char *)context, "--probe", (char *)c->probe, NULL};
    return run_check(c, args, env);
}

/* known_new_op / known_new_context: a new wrong value must not hide behind
 * an old line of the same rule, nor behind a line of another context. */
static void known_new(ctx *c, result *res, int context)
{
    bg_runner vg;
    char why[300], got[1000];
    if (bg_runner_resolve("valgrind", "x86_64", &vg, why, sizeof why) != BG_OK) {
        res->v = BG_SKIP;
        snprintf(res->obs, sizeof res->obs, "%s", why);
        return;
    }
    const char *extra = context ? "vgmut\t*\tmain_thread\tsubss\tvalue\t-\tself-test: measured in main_thread only\n" : "";
    make_root(c, context ? "known_new_context" : "known_new_op", NULL, 0);
    if (copy_known(c, "valgrind", "vgmut", vg.version, extra) != 0) {
        bg_runner_free(&vg);
        snprintf(res->obs, sizeof res->obs, "cannot copy the valgrind list: %s", strerror(errno));
        return;
    }
    outcome ctl = run_valgrind_mutant(c, &vg, context ? "value:subss" : "none", "main_thread");
    outcome o = run_valgrind_mutant(c, &vg, "value:subss", context ? "pthread" : "main_thread");
    bg_runner_free(&vg);
    fail_groups(&o, got, sizeof got);
    const cJSON *ch = find(&o, "fail", "value", NULL);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(ch, "details");
    const char *newops = bg_json_str(d, "new_ops"), *pline = bg_json_str(d, "proposed_line");
    int named = context ? ch != NULL
                        : newops && strcmp(newops, "subss") == 0 && pline &&
                              strstr(pline, "\tmain_thread\tsubss\tvalue\t-\tproposed, not reviewed");
    res->v = ctl.code == 0 && o.code == 1 && named ? BG_PASS : BG_FAIL;
    snprintf(res->exp, sizeof res->exp, "%s: exit 0 under the real valgrind lines; with subss "
             "computing a wrong value%s: exit 1 and a value fail%s", context ? "subss wrong, main_thread (listed there)" : "unmutated, main_thread",
             context ? " in pthread" : "", context ? "" : " with new_ops 'subss' and the proposed line '<tool> <range> main_thread subss value - proposed, not reviewed...'");
    char *all = cJSON_PrintUnformatted(ch);
    snprintf(res->obs, sizeof res->obs, "control exit %d; mutant exit %d, failing groups %s; value check %.600s",
             ctl.code, o.code, *got ? got : "(none)", all ? all : "(none)");
    free(all);
    cJSON_Delete(ctl.checks);
    cJSON_Delete(o.checks);
}

static int scenario(ctx *c, const char *name, result *res)
{
    char probe_arg[1300];
    snprintf(probe_arg, sizeof probe_arg, "%s", c->probe);
    if (strcmp(name, "guest_not_built") == 0) {
        guest_not_built(c, res);
        return 0;
    }
    if (strcmp(name, "regen_ops") == 0) {
        regen_ops(c, res);
        return 0;
    }
    if (strncmp(c->probe, "none:", 5) == 0) {
        res->v = BG_SKIP;
        snprintf(res->obs, sizeof res->obs, "%s", c->probe + 5);
        return 0;
    }
    if (strcmp(name, "mutant_snan") == 0) {
        mutant_groups(c, res, "snan-unquieted", "snan-quieting:");
        return 0;
    }
    if (strcmp(name, "mutant_minmax") == 0) {
        mutant_groups(c, res, "minmax-number", "minmax:NaN operand");
        return 0;
    }
    if (strcmp(name, "mutant_daz") == 0) {
        mutant_groups(c, res, "daz-ignored", "daz-ftz:DAZ;daz-ftz:DAZ (status flags)");
        return 0;
    }
    if (strcmp(name, "mutant_rc_ignored") == 0) {
        mutant_groups(c, res, "rc-ignored", "rounding:MXCSR.RC ignored: the round-to-nearest result");
        return 0;
    }
    if (strcmp(name, "known_new_op") == 0 || strcmp(name, "known_new_context") == 0) {
        known_new(c, res, strcmp(name, "known_new_context") == 0);
        return 0;
    }
    outcome o = {0};
    char env[1400];
    if (strcmp(name, "qemu_minmax_value") == 0) {
        qemu_minmax_value(c, res, probe_arg);
    } else if (strcmp(name, "known_removed") == 0 || strcmp(name, "known_not_observed") == 0) {
        int removed = strcmp(name, "known_removed") == 0;
        const char *runner = removed ? "qemu-x86_64" : "native";
        char src[1400], dst[1400];
        if (make_root(c, name, NULL, 0) != 0)
            return -1;
        snprintf(dst, sizeof dst, "%s/nan_semantics/known/%s.tsv", c->root, runner);
        char rule[64] = "", detail[128] = "";
        if (removed) {
            /* copy qemu's list without its first main_thread line */
            snprintf(src, sizeof src, "%s/nan_semantics/known/%s.tsv", c->fixtures, runner);
            size_t n;
            char *text = read_file(src, &n);
            if (!text) {
                res->v = BG_FAIL;
                snprintf(res->exp, sizeof res->exp, "a known-deviation list %s", src);
                snprintf(res->obs, sizeof res->obs, "cannot read it: %s", strerror(errno));
                return 0;
            }
            FILE *f = fopen(dst, "w");
            if (!f) {
                free(text);
                return -1;
            }
            for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
                char copy[2048];
                snprintf(copy, sizeof copy, "%s", line);
                char *col[7] = {0};
                int k = 0;
                for (char *p = copy; k < 7 && p; k++) {
                    col[k] = p;
                    p = strchr(p, '\t');
                    if (p)
                        *p++ = '\0';
                }
                if (!*rule && line[0] != '#' && k == 7 && col[2] && strstr(col[2], "main_thread")) {
                    snprintf(rule, sizeof rule, "%s", col[4]);
                    snprintf(detail, sizeof detail, "%s", strcmp(col[5], "-") == 0 ? "" : col[5]);
                    continue;
                }
                fprintf(f, "%s\n", line);
            }
            fclose(f);
            free(text);
        } else {
            const char *line = "# a deviation the native CPU never shows\n"
                               "native\t*\tmain_thread\taddss\tdefault-nan\tobserved 0x7fc00000\tobserved here (self-test)\n";
            if (write_file(dst, line, strlen(line)) != 0)
                return -1;
        }
        char *args[] = {"--runner", (char *)runner, "--context", "main_thread", "--probe", probe_arg, NULL};
        bg_runner qr;
        char why[300];
        if (removed && bg_runner_resolve(runner, "x86_64", &qr, why, sizeof why) != BG_OK) {
            res->v = BG_SKIP;
            snprintf(res->obs, sizeof res->obs, "%s", why);
            return 0;
        }
        if (removed)
            bg_runner_free(&qr);
        o = run_check(c, args, NULL);
        if (removed)
            expect_group(res, &o, 1, "fail", rule, detail);
        else {
            res->v = (o.code == 1 && has_verdict(&o, "xpass")) ? BG_PASS : BG_FAIL;
            snprintf(res->exp, sizeof res->exp, "exit 1 and an xpass check for the unobserved line");
            char *all = cJSON_PrintUnformatted(o.checks);
            snprintf(res->obs, sizeof res->obs, "exit %d, checks: %.900s", o.code, all ? all : "?");
            free(all);
        }
    } else if (strcmp(name, "mutant_runner") == 0) {
        make_root(c, name, NULL, 0);
        snprintf(env, sizeof env, "BG_X86_RUNNERS=mutant=%s/mutant-runner.sh", c->runners);
        char *args[] = {"--runner", "mutant", "--context", "main_thread", "--probe", probe_arg, NULL};
        o = run_check(c, args, env);
        expect_group(res, &o, 1, "fail", "default-nan", "observed 0x7fc00000");
        /* a deviation from the stored fixture may be a hand edit of it: the fail's next step
         * says how to see one (here a copy outside the repository: diff against its copy) */
        static const char edited[] = "if the stored value was edited, `diff` it against the "
                                     "repository's fixtures/nan_semantics/golden-x86_64.json (";
        const char *act = bg_json_str(cJSON_GetObjectItemCaseSensitive(
                                          find(&o, "fail", "default-nan", NULL), "details"), "action");
        if (!act || !strstr(act, edited)) {
            res->v = BG_FAIL;
            snprintf(res->exp + strlen(res->exp), sizeof res->exp - strlen(res->exp),
                     ", whose details.action contains '%s'", edited);
            snprintf(res->obs + strlen(res->obs), sizeof res->obs - strlen(res->obs),
                     "; action: %.300s", act ? act : "none");
        }
    } else if (strcmp(name, "proposed_lines") == 0) {
        proposed_lines(c, res);
        return 0;
    } else if (strcmp(name, "mutant_initial") == 0) {
        initial_mutant(c, res, probe_arg);
        return 0;
    } else if (strncmp(name, "mutant_fault_", 13) == 0) {
        return fault_mutant(c, name, res, probe_arg);
    } else if (strncmp(name, "mutant_ymm_", 11) == 0) {
        return ymm_mutant(c, name, res, probe_arg);
    } else if (strncmp(name, "mutant_", 7) == 0) {
        return op_mutant(c, name, res, probe_arg);
    } else if (strcmp(name, "corrupt_fixture") == 0 || strcmp(name, "bad_record") == 0 ||
               strcmp(name, "fixture_op_deleted") == 0) {
        char real[1400];
        snprintf(real, sizeof real, "%s/nan_semantics/golden-x86_64.json", c->fixtures);
        size_t n;
        char *text = read_file(real, &n);
        if (!text)
            return -1;
        if (strcmp(name, "corrupt_fixture") == 0) {
            n /= 2; /* truncated in the middle of a record string */
        } else if (strcmp(name, "fixture_op_deleted") == 0) {
            /* valid JSON, same case-table digest, one op gone from every mode:
             * must be refused, not silently left out of every comparison */
            cJSON *doc = cJSON_Parse(text), *mode;
            cJSON_ArrayForEach(mode, cJSON_GetObjectItemCaseSensitive(doc, "modes"))
            {
                cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(mode, "results"),
                                                        "movmskps");
                cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(mode, "diff"),
                                                        "movmskps");
            }
            free(text);
            text = doc ? cJSON_PrintUnformatted(doc) : NULL;
            cJSON_Delete(doc);
            if (!text)
                return -1;
            n = strlen(text);
        } else {
            char *p = strstr(text, "\"addss\":");
            p = p ? strchr(p + 8, '"') : NULL;
            if (p)
                p[1] = 'z'; /* a non-hex digit in the first record */
        }
        int rc = make_root(c, name, text, n);
        free(text);
        if (rc != 0)
            return -1;
        /* the root is a copy under the build tree, outside the repository: not a git path */
        return fixture_one_cause(c, res, probe_arg, "buildgate: nan-check: fixture",
                                 "is not in the fixtures/ folder of a git repository: copy the "
                                 "repository's fixtures/nan_semantics/golden-x86_64.json (");
    } else if (strcmp(name, "fixtures_dir_wrong") == 0) {
        /* BG_FIXTURES_DIR at a folder without fixtures: said so, not "regenerate" */
        snprintf(c->root, sizeof c->root, "%s", c->work);
        mkdir(c->work, 0755);
        char *args[] = {"--check-fixture", "--probe", probe_arg, NULL};
        o = run_check(c, args, NULL);
        expect_exit_line(res, &o, 5, "buildgate: nan-check: fixtures: ");
        expect_stderr_has(res, &o, "holds no nan_semantics fixtures", "saying it holds no nan_semantics fixtures");
    } else if (strcmp(name, "known_typo") == 0) {
        /* a misspelt rule could never match: the list must be refused, not ignored */
        char dst[1400];
        if (native_list_root(c, name, dst, sizeof dst) != 0)
            return -1;
        static const char line[] = "native\t*\tmain_thread\taddss\tdaz-fzt\tDAZ\tobserved here\n";
        if (write_file(dst, line, sizeof line - 1) != 0)
            return -1;
        char *args[] = {"--runner", "native", "--context", "main_thread", "--probe", probe_arg, NULL};
        o = run_check(c, args, NULL);
        expect_exit_line(res, &o, 5, "buildgate: nan-check: ");
    } else if (strcmp(name, "known_ops_too_long") == 0 || strcmp(name, "known_long_not_duplicate") == 0) {
        /* known_ops_too_long: an ops column longer than the parser's field is
           refused, not cut (a cut column covered fewer ops than the line
           lists); known_long_not_duplicate: two lines whose ops differ only
           after 4,200 characters are two lines, not duplicates (a key cut at
           4096 once called them the same) */
        int too_long = strcmp(name, "known_ops_too_long") == 0;
        char dst[1400];
        if (native_list_root(c, name, dst, sizeof dst) != 0)
            return -1;
        size_t n = 0, cap = 24000;
        char *text = malloc(cap);
        if (!text)
            return -1;
        for (int l = 0; l < (too_long ? 1 : 2); l++) {
            size_t start = n;
            n += (size_t)snprintf(text + n, cap - n, "native\t*\tmain_thread\t");
            while (n - start < (too_long ? 9000u : 4200u))
                n += (size_t)snprintf(text + n, cap - n, "addss,");
            n += (size_t)snprintf(text + n, cap - n, "%s\tvalue\t-\tobserved here\n", l ? "mulss" : "subss");
        }
        int w = write_file(dst, text, n);
        free(text);
        if (w != 0)
            return -1;
        char *vargs[] = {"--validate-known", dst, NULL};
        o = run_check(c, vargs, NULL);
        if (too_long) {
            expect_exit_line(res, &o, 5, "buildgate: nan-check: ");
            expect_stderr_has(res, &o, "native.tsv:1: ops column longer than", "naming native.tsv:1 and the ops column");
        } else {
            res->v = o.code == 0 && o.err_lines == 0 ? BG_PASS : BG_FAIL;
            snprintf(res->exp, sizeof res->exp, "exit 0, no stderr: two lines differing in the ops column's end");
            snprintf(res->obs, sizeof res->obs, "exit %d, %d stderr line(s): %.600s", o.code, o.err_lines, o.err);
        }
    } else if (strcmp(name, "known_bad_range") == 0) {
        char dst[1400];
        if (native_list_root(c, name, dst, sizeof dst) != 0)
            return -1;
        static const char range[] = "# comment\nnative\t>=7.x\tmain_thread\taddss\tvalue\t-\tobserved here\n";
        static const char op[] = "native\t*\tmain_thread\taddss,nosuchop\tvalue\t-\tobserved here\n";
        char *args[] = {"--runner", "native", "--context", "main_thread", "--probe", probe_arg, NULL};
        char *vargs[] = {"--validate-known", dst, NULL};
        if (write_file(dst, range, sizeof range - 1) != 0)
            return -1;
        o = run_check(c, args, NULL);
        result r2 = {.v = BG_FAIL}, r3 = {.v = BG_FAIL};
        expect_exit_line(res, &o, 5, "buildgate: nan-check: ");
        int at_line = strstr(o.err, "native.tsv:2: malformed version range '>=7.x'") != NULL;
        cJSON_Delete(o.checks);
        o = run_check(c, vargs, NULL);
        expect_exit_line(&r2, &o, 5, "buildgate: nan-check: ");
        at_line &= strstr(o.err, "native.tsv:2:") != NULL;
        cJSON_Delete(o.checks);
        if (write_file(dst, op, sizeof op - 1) != 0)
            return -1;
        o = run_check(c, vargs, NULL);
        expect_exit_line(&r3, &o, 5, "buildgate: nan-check: ");
        at_line &= strstr(o.err, "native.tsv:1: ops column: 'nosuchop'") != NULL;
        if (res->v != BG_PASS || r2.v != BG_PASS || r3.v != BG_PASS || !at_line)
            res->v = BG_FAIL;
        size_t el = strlen(res->exp);
        snprintf(res->exp + el, sizeof res->exp - el, ", naming native.tsv:2 and the range '>=7.x' (check "
                 "and --validate-known); for an unknown op: naming native.tsv:1 and 'nosuchop'");
        snprintf(res->obs + strlen(res->obs), sizeof res->obs - strlen(res->obs), "; validate: %.700s; op: %.700s",
                 r2.obs, r3.obs);
    } else if (strcmp(name, "unknown_runner") == 0) {
        make_root(c, name, NULL, 0);
        char *args[] = {"--runner", "nosuch", "--context", "main_thread", "--probe", probe_arg, NULL};
        o = run_check(c, args, NULL);
        expect_exit_line(res, &o, 2, "buildgate: nan-check: unknown runner 'nosuch'");
    } else if (strcmp(name, "missing_runner") == 0) {
        make_root(c, name, NULL, 0);
        char *args[] = {"--runner", "gone", "--context", "main_thread", "--probe", probe_arg, NULL};
        o = run_check(c, args, "BG_X86_RUNNERS=gone=/nonexistent/translator");
        const cJSON *sk = NULL, *ch;
        cJSON_ArrayForEach(ch, o.checks) {
            const char *v = bg_json_str(ch, "verdict"), *ob = bg_json_str(ch, "observed");
            if (v && strcmp(v, "skip") == 0 && ob && strstr(ob, "/nonexistent/translator"))
                sk = ch;
        }
        res->v = (o.code == 77 && sk) ? BG_PASS : BG_FAIL;
        snprintf(res->exp, sizeof res->exp, "exit 77 and a skip check naming /nonexistent/translator");
        char *all = cJSON_PrintUnformatted(o.checks);
        snprintf(res->obs, sizeof res->obs, "exit %d, checks: %.900s", o.code, all ? all : "?");
        free(all);
    } else if (strcmp(name, "hanging_runner") == 0 || strcmp(name, "crashing_runner") == 0) {
        int hang = strcmp(name, "hanging_runner") == 0;
        make_root(c, name, NULL, 0);
        snprintf(env, sizeof env, "BG_X86_RUNNERS=%s=%s/%s-runner.sh", hang ? "hang" : "crash",
                 c->runners, hang ? "hang" : "crash");
        char *args[] = {"--runner", hang ? "hang" : "crash", "--context", "pthread", "--probe", probe_arg,
                        "--timeout", "2", NULL};
        o = run_check(c, args, env);
        expect_group(res, &o, 1, "fail", "probe-failed", hang ? "timed out after 2 s" : "killed by signal 11");
    } else if (strcmp(name, "fixture_no_replace") == 0) {
        make_root(c, name, NULL, 0);
        char *args[] = {"--write-fixture", "--reason", "self-test", "--probe", probe_arg, NULL};
        o = run_check(c, args, NULL);
        expect_exit_line(res, &o, 6, "buildgate: nan-check: fixture");
    } else {
        return -2;
    }
    cJSON_Delete(o.checks);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        bg_errorf("nan-selftest", "usage: nan-selftest SCENARIO NAN_CHECK PROBE FIXTURES_ROOT WORK_DIR RUNNERS_DIR");
        return BG_EXIT_USAGE;
    }
    ctx c = {.check = argv[2], .probe = argv[3], .fixtures = argv[4], .work = argv[5], .runners = argv[6]};
    result res = {.v = BG_FAIL};
    int rc = scenario(&c, argv[1], &res);
    if (rc == -2) {
        bg_errorf("nan-selftest", "unknown scenario '%s'", argv[1]);
        return BG_EXIT_USAGE;
    }
    if (rc != 0) {
        res.v = BG_FAIL;
        snprintf(res.exp, sizeof res.exp, "scenario set up in %s", c.work);
        snprintf(res.obs, sizeof res.obs, "could not prepare it: %s", strerror(errno));
    }
    bg_checks *chk = bg_checks_open("nan_semantics");
    if (!chk)
        return BG_EXIT_IO;
    char name[200];
    snprintf(name, sizeof name, "nan.selftest.%s", argv[1]);
    bg_check_emit_str(chk, name, res.v, res.exp, res.obs, NULL);
    return bg_checks_close(chk);
}
