/* bg-xratio — translator ratio kernels: time an x86-64 guest program under a
 * runner against a reference runner (seed 003's method).
 * Usage, method, checks, exit codes: usage_text below (`bg-xratio --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_cpu.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_proc.h"
#include "buildgate/bg_runner.h"
#include "buildgate/bg_stats.h"

#define XKERN_MAX_N 100000000ULL /* the largest N xkern accepts (xkern.c) */

/* Runs runner + guest + kernel + n with a timeout; CPU seconds into *t,
 * stdout into out[cap].  Returns 0, or -1 with why[wn] ("exit status 1:
 * <stderr's first line>") when it could not run or did not exit 0. */
static int run_once(const bg_runner *r, const char *guest, const char *kernel, unsigned long long n,
                    double timeout_s, double *t, char *out, size_t cap, char *why, size_t wn)
{
    char ns[32];
    snprintf(ns, sizeof ns, "%llu", n);
    char *g[] = {(char *)guest, (char *)kernel, ns, NULL};
    char *argv[BG_RUNNER_MAX_ARGS + 4];
    if (bg_runner_argv(r, g, argv, sizeof argv / sizeof argv[0]) != BG_OK) {
        snprintf(why, wn, "the command has too many words");
        return -1;
    }
    bg_proc_opts o = {.env = r->env, .timeout_s = timeout_s, .max_out = 1 << 20};
    bg_proc_result pr;
    bg_status st = bg_proc_spawn(argv, &o, &pr);
    if (st != BG_OK) {
        snprintf(why, wn, "%s", st == BG_E_TARGET ? "output over 1 MiB" : bg_status_name(st));
        return -1;
    }
    snprintf(out, cap, "%s", pr.out);
    *t = pr.cpu_s;
    int ok = bg_proc_ok(&pr);
    if (!ok)
        bg_proc_explain(&pr, timeout_s, why, wn);
    bg_proc_result_free(&pr);
    return ok ? 0 : -1;
}

typedef struct cfg {
    const char *guest, *ref_guest; /* ref_guest: what the reference runs (default guest) */
    bg_runner ref, run;
    double target, max_ratio, timeout;
    int reps;
} cfg;

static void measure_kernel(bg_checks *c, const cfg *g, const char *kernel)
{
    char name[256], out_ref[256], out_run[256], line[1024], why[512], failed[700];
    snprintf(name, sizeof name, "perf.xratio.%s.%s", g->run.name, kernel);
    double t = 0;
    unsigned long long n = 1;
    for (;;) {
        if (run_once(&g->ref, g->ref_guest, kernel, n, g->timeout, &t, out_ref, sizeof out_ref, why,
                     sizeof why) != 0) {
            snprintf(failed, sizeof failed, "it failed: %s", why);
            bg_check_emit_str(c, name, BG_FAIL, "the reference runs the kernel", failed, NULL);
            return;
        }
        if (t >= g->target / 8 || n * 2 > XKERN_MAX_N)
            break;
        n *= 2;
    }
    double scaled = (double)n * g->target / (t > 0 ? t : 1e-3);
    n = scaled > (double)XKERN_MAX_N ? XKERN_MAX_N : (unsigned long long)scaled;
    if (n < 2)
        n = 2;
    double ratios[64];
    int nr = 0, mismatch = 0, run_failed = 0;
    for (int rep = 0; rep < g->reps && rep < 64; rep++) {
        double rf, rh, xf, xh;
        /* the four runs of a repetition; the first failure is reported */
        const bg_runner *who[4] = {&g->ref, &g->run, &g->run, &g->ref};
        unsigned long long size[4] = {n, n, n / 2, n / 2};
        double *tt[4] = {&rf, &xf, &xh, &rh};
        char *o[4] = {out_ref, out_run, line, line};
        size_t ocap[4] = {sizeof out_ref, sizeof out_run, sizeof line, sizeof line};
        for (int k = 0; k < 4 && !run_failed; k++) {
            if (run_once(who[k], who[k] == &g->ref ? g->ref_guest : g->guest, kernel, size[k], g->timeout, tt[k], o[k], ocap[k], why,
                         sizeof why) != 0) {
                snprintf(failed, sizeof failed, "the %s run at n=%llu failed: %s", who[k]->name,
                         size[k], why);
                run_failed = 1;
            }
        }
        if (run_failed)
            break;
        if (strcmp(out_ref, out_run) != 0)
            mismatch = 1;
        /* A time difference (size n minus n/2) at or below 0 on either side
         * means noise swamped the subtraction: that repetition gives no
         * ratio (a negative "ratio" is no measurement). */
        if (rf - rh > 0 && xf - xh > 0)
            ratios[nr++] = (xf - xh) / (rf - rh);
    }
    out_ref[strcspn(out_ref, "\n")] = 0;
    out_run[strcspn(out_run, "\n")] = 0;
    if (run_failed) {
        bg_check_emit_str(c, name, BG_FAIL, "both runners run the kernel", failed, NULL);
        return;
    }
    double med = nr ? bg_median(ratios, (size_t)nr) : 0;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "n", (double)n);
    cJSON_AddNumberToObject(d, "ratio", med);
    cJSON_AddItemToObject(d, "ratios", cJSON_CreateDoubleArray(ratios, nr));
    cJSON_AddStringToObject(d, "reference", g->ref.name);
    cJSON_AddStringToObject(d, "reference_guest", g->ref_guest);
    cJSON *mx = cJSON_AddObjectToObject(d, "matrix");
    char cell[64];
    /* fewer than half the repetitions measured a ratio: no figure in the table
       (a fresh-user trial saw "0.00x" and "44.22x" from 0 and 1 of 3 reps) */
    if (mismatch)
        snprintf(cell, sizeof cell, "output differs");
    else if (2 * nr < g->reps)
        snprintf(cell, sizeof cell, "not measured (%d of %d reps)", nr, g->reps);
    else
        snprintf(cell, sizeof cell, "%.2fx", med);
    cJSON_AddStringToObject(mx, "table", "translator ratio (runner time / reference time)");
    cJSON_AddStringToObject(mx, "row", kernel);
    cJSON_AddStringToObject(mx, "col", g->run.name);
    cJSON_AddStringToObject(mx, "cell", cell);
    bg_verdict v = BG_PASS;
    char exp[256];
    if (mismatch) {
        v = BG_FAIL;
        snprintf(exp, sizeof exp, "output \"%.120s\" (as %.100s)", out_ref, g->ref.name);
        snprintf(line, sizeof line, "output \"%s\" under %s", out_run, g->run.name);
    } else {
        if (2 * nr < g->reps) /* fewer than half the repetitions measured anything */
            v = BG_INCONCLUSIVE;
        else if (g->max_ratio > 0 && med > g->max_ratio)
            v = BG_FAIL;
        if (g->max_ratio > 0)
            snprintf(exp, sizeof exp, "identical output; median ratio <= %.2f", g->max_ratio);
        else
            snprintf(exp, sizeof exp, "identical output (ratio recorded)");
        snprintf(line, sizeof line, "output \"%s\" on both; median ratio %.3f over %d of %d reps at n=%llu",
                 out_run, med, nr, g->reps, n);
    }
    bg_check_emit_str(c, name, v, exp, line, d);
}

static const char usage_text[] =
    "Usage: bg-xratio --guest XKERN --runner NAME [--reference NAME]\n"
    "                 [--reference-guest XKERN_HOST]\n"
    "                 [--kernels a,b,...] [--target SECONDS=0.333] [--reps N=5]\n"
    "                 [--max-ratio R] [--timeout SECONDS=600]\n"
    "\n"
    "Translator ratio kernels: times an x86-64 guest program (xkern) under a runner\n"
    "against a reference runner (seed 003's method).\n"
    "  --guest XKERN      the guest program (xkern --help)\n"
    "  --runner NAME      a runner of x86-64 programs in the runner registry\n"
    "                     (`bg-runner --list`, or a BG_X86_RUNNERS name)\n"
    "  --reference NAME   the same, for the reference (default native)\n"
    "  --reference-guest XKERN_HOST\n"
    "                     what the reference runs instead of --guest: a build of\n"
    "                     the same kernels for this host (macOS arm64: the arm64\n"
    "                     xkern against the x86-64 one under rosetta); the\n"
    "                     reference is then a runner of this host's architecture\n"
    "  --kernels a,b,...  kernels to measure (default all: xkern --list)\n"
    "  --target SECONDS   CPU time the reference should take per run, in\n"
    "                     (0.001, 60) (default 0.333)\n"
    "  --reps N           repetitions, 1..64 (default 5)\n"
    "  --max-ratio R      fail when the median ratio exceeds R (default: record only)\n"
    "  --timeout SECONDS  wall-clock limit of one run (default 600); past it the run\n"
    "                     is killed and the check fails, quoting how\n"
    "  -h, --help         this text\n"
    "\n"
    "Per kernel:\n"
    "  1. size: N doubles from 1 until the reference takes >= target/8 of CPU\n"
    "     time, then N = N * target / t, so the reference takes about `target`;\n"
    "  2. reps times, interleaved: reference and runner at N and at N/2; the\n"
    "     half-size run is subtracted, removing process start-up and translation\n"
    "     warm-up: ratio = (T_run(N) - T_run(N/2)) / (T_ref(N) - T_ref(N/2)),\n"
    "     T = user + system CPU time of the child (rusage, bg_proc.h);\n"
    "  3. the median ratio over the repetitions (those where both differences\n"
    "     are positive: at or below 0, noise swamped the subtraction);\n"
    "  4. the full-size outputs of both runners compared byte for byte: a fast\n"
    "     wrong answer fails.\n"
    "Check \"perf.xratio.<runner>.<kernel>\": fail when the outputs differ or the\n"
    "median ratio exceeds --max-ratio, or a run fails (its exit and stderr\n"
    "quoted); inconclusive when fewer than half the repetitions had positive\n"
    "differences on both sides; else pass (ratio in details and in the report's\n"
    "matrix \"translator ratio\").  A runner this host lacks: one skip check with\n"
    "the registry's reason.\n"
    "Exit: as bg_checks_close() (0 pass, 1 fail, 77 skip); 2 usage (an unknown\n"
    "      runner); 3 I/O;\n"
    "      7 the guest's --list failed.\n"
    "Doc: docs/perf_budgets.md.\n";

static int usage(const char *why)
{
    bg_errorf("bg-xratio", "%s (see bg-xratio --help)", why);
    return BG_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    cfg g = {.target = 1.0 / 3.0, .reps = 5, .timeout = 600};
    const char *kernels = NULL, *ref = "native", *run = NULL;
    for (int i = 1; i < argc; i += 2) {
        static const char *const names[] = {"--guest", "--runner", "--reference",
                                            "--reference-guest", "--kernels", "--target", "--reps",
                                            "--max-ratio", "--timeout", NULL};
        if (!bg_option_in(argv[i], names))
            return bg_help_unknown_option(argv[i]);
        if (i + 1 >= argc)
            return bg_help_missing_value(argv[i]);
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--guest")) g.guest = v;
        else if (!strcmp(a, "--runner")) run = v;
        else if (!strcmp(a, "--reference")) ref = v;
        else if (!strcmp(a, "--reference-guest")) g.ref_guest = v;
        else if (!strcmp(a, "--kernels")) kernels = v;
        else if (!strcmp(a, "--target")) g.target = atof(v);
        else if (!strcmp(a, "--reps")) g.reps = atoi(v);
        else if (!strcmp(a, "--max-ratio")) g.max_ratio = atof(v);
        else if (!strcmp(a, "--timeout")) g.timeout = atof(v);
    }
    if (!g.guest || !run || !(g.target > 0.001 && g.target < 60) || g.reps < 1 || g.reps > 64 ||
        !(g.timeout >= 1 && g.timeout <= 86400))
        return usage("need --guest and --runner; --target in (0.001, 60) s; --reps 1..64; "
                     "--timeout 1..86400 s");
    char why[512];
    const char *ref_arch = g.ref_guest ? bg_cpu_arch() : "x86_64";
    if (!g.ref_guest)
        g.ref_guest = g.guest;
    bg_status rs = bg_runner_resolve(run, "x86_64", &g.run, why, sizeof why);
    if (rs == BG_OK) {
        rs = bg_runner_resolve(ref, ref_arch, &g.ref, why, sizeof why);
        if (rs != BG_OK)
            bg_runner_free(&g.run);
    }
    if (rs != BG_OK && rs != BG_E_UNSUPPORTED)
        return bg_exit_code(bg_fail(rs, "bg-xratio", "%s", why));
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return BG_EXIT_IO;
    if (rs != BG_OK) {
        printf("bg-xratio: skip: %s\n", why);
        char nm[160];
        snprintf(nm, sizeof nm, "perf.xratio.%s", run);
        bg_check_emit_str(c, nm, BG_SKIP, "the runner is installed", why, NULL);
        return bg_checks_close(c);
    }
    char list[1024] = "";
    if (kernels) {
        snprintf(list, sizeof list, "%s", kernels);
        for (char *p = list; *p; p++)
            if (*p == ',')
                *p = '\n';
    } else {
        bg_runner native = {.name = "native"}; /* no prefix: the guest runs on this host */
        double t;
        if (run_once(&native, g.guest, "--list", 0, g.timeout, &t, list, sizeof list, why,
                     sizeof why) != 0 && !*list) {
            bg_errorf("bg-xratio", "%s --list failed: %s", g.guest, why);
            bg_checks_free(c);
            bg_runner_free(&g.run);
            bg_runner_free(&g.ref);
            return BG_EXIT_TARGET;
        }
    }
    char *save = NULL;
    for (char *k = strtok_r(list, "\n", &save); k; k = strtok_r(NULL, "\n", &save))
        measure_kernel(c, &g, k);
    bg_runner_free(&g.run);
    bg_runner_free(&g.ref);
    return bg_checks_close(c);
}
