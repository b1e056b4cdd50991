/* bg-xratio — translator ratio kernels: time an x86-64 guest program under a
 * runner against a reference runner (seed 003's method).
 * Usage, method, checks, exit codes: usage_text below (`bg-xratio --help`).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_stats.h"

#define MAX_ARGS 16

typedef struct runner {
    const char *name;
    char buf[256];
    char *argv[MAX_ARGS];
    int argc;
} runner;

static void runner_parse(runner *r, const char *cmd)
{
    r->name = cmd;
    r->argc = 0;
    if (strcmp(cmd, "native") == 0)
        return;
    snprintf(r->buf, sizeof r->buf, "%s", cmd);
    for (char *t = strtok(r->buf, " "); t && r->argc < MAX_ARGS - 4; t = strtok(NULL, " "))
        r->argv[r->argc++] = t;
}

/* Runs runner + guest + kernel + n; CPU seconds into *t, stdout into out[cap].
 * Returns 0, or -1 when it could not run / exited non-zero. */
static int run_once(const runner *r, const char *guest, const char *kernel, unsigned long long n,
                    double *t, char *out, size_t cap)
{
    char ns[32];
    snprintf(ns, sizeof ns, "%llu", n);
    char *argv[MAX_ARGS + 4];
    int k = 0;
    for (int i = 0; i < r->argc; i++)
        argv[k++] = r->argv[i];
    argv[k++] = (char *)guest;
    argv[k++] = (char *)kernel;
    argv[k++] = ns;
    argv[k] = NULL;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        int dn = open("/dev/null", O_WRONLY);
        if (dn >= 0)
            dup2(dn, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t m;
    while ((m = read(fds[0], out + got, cap - 1 - got)) > 0)
        got += (size_t)m;
    out[got] = 0;
    close(fds[0]);
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    *t = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

typedef struct cfg {
    const char *guest;
    runner ref, run;
    double target, max_ratio;
    int reps;
} cfg;

static void measure_kernel(bg_checks *c, const cfg *g, const char *kernel)
{
    char name[256], out_ref[256], out_run[256], line[1024];
    snprintf(name, sizeof name, "perf.xratio.%s.%s", g->run.name, kernel);
    double t = 0;
    unsigned long long n = 1;
    for (;;) {
        if (run_once(&g->ref, g->guest, kernel, n, &t, out_ref, sizeof out_ref) != 0) {
            bg_check_emit_str(c, name, BG_FAIL, "the reference runs the kernel", "it failed", NULL);
            return;
        }
        if (t >= g->target / 8 || n > (1ULL << 40))
            break;
        n *= 2;
    }
    n = (unsigned long long)((double)n * g->target / (t > 0 ? t : 1e-3));
    if (n < 2)
        n = 2;
    double ratios[64];
    int nr = 0, mismatch = 0, run_failed = 0;
    for (int rep = 0; rep < g->reps && rep < 64; rep++) {
        double rf, rh, xf, xh;
        int e = run_once(&g->ref, g->guest, kernel, n, &rf, out_ref, sizeof out_ref);
        e |= run_once(&g->run, g->guest, kernel, n, &xf, out_run, sizeof out_run);
        if (e) {
            run_failed = 1;
            break;
        }
        if (strcmp(out_ref, out_run) != 0)
            mismatch = 1;
        e = run_once(&g->run, g->guest, kernel, n / 2, &xh, line, sizeof line);
        e |= run_once(&g->ref, g->guest, kernel, n / 2, &rh, line, sizeof line);
        if (e) {
            run_failed = 1;
            break;
        }
        if (rf - rh > 0)
            ratios[nr++] = (xf - xh) / (rf - rh);
    }
    out_ref[strcspn(out_ref, "\n")] = 0;
    out_run[strcspn(out_run, "\n")] = 0;
    if (run_failed) {
        bg_check_emit_str(c, name, BG_FAIL, "both runners run the kernel", "a run failed (non-zero exit)", NULL);
        return;
    }
    double med = nr ? bg_median(ratios, (size_t)nr) : 0;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "n", (double)n);
    cJSON_AddNumberToObject(d, "ratio", med);
    cJSON_AddItemToObject(d, "ratios", cJSON_CreateDoubleArray(ratios, nr));
    cJSON_AddStringToObject(d, "reference", g->ref.name);
    cJSON *mx = cJSON_AddObjectToObject(d, "matrix");
    char cell[64];
    snprintf(cell, sizeof cell, mismatch ? "output differs" : "%.2fx", med);
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
        if (nr == 0)
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
    "Usage: bg-xratio --guest XKERN --runner CMD [--reference CMD]\n"
    "                 [--kernels a,b,...] [--target SECONDS=0.333] [--reps N=5]\n"
    "                 [--max-ratio R]\n"
    "\n"
    "Translator ratio kernels: times an x86-64 guest program (xkern) under a runner\n"
    "against a reference runner (seed 003's method).\n"
    "  --guest XKERN      the guest program (xkern --help)\n"
    "  --runner CMD       \"native\" (no prefix) or a command prefix split on spaces,\n"
    "                     e.g. \"qemu-x86_64\", \"valgrind --tool=none\", \"arch -x86_64\"\n"
    "                     (Rosetta 2 on macOS)\n"
    "  --reference CMD    the same, for the reference (default native)\n"
    "  --kernels a,b,...  kernels to measure (default all: xkern --list)\n"
    "  --target SECONDS   CPU time the reference should take per run, in\n"
    "                     (0.001, 60) (default 0.333)\n"
    "  --reps N           repetitions, 1..64 (default 5)\n"
    "  --max-ratio R      fail when the median ratio exceeds R (default: record only)\n"
    "  -h, --help         this text\n"
    "\n"
    "Per kernel:\n"
    "  1. size: N doubles from 1 until the reference takes >= target/8 of CPU\n"
    "     time, then N = N * target / t, so the reference takes about `target`;\n"
    "  2. reps times, interleaved: reference and runner at N and at N/2; the\n"
    "     half-size run is subtracted, removing process start-up and translation\n"
    "     warm-up: ratio = (T_run(N) - T_run(N/2)) / (T_ref(N) - T_ref(N/2)),\n"
    "     T = user + system CPU time of the child (wait4 rusage);\n"
    "  3. the median ratio over the repetitions (those with a positive reference\n"
    "     difference);\n"
    "  4. the full-size outputs of both runners compared byte for byte: a fast\n"
    "     wrong answer fails.\n"
    "Check \"perf.xratio.<runner>.<kernel>\": fail when the outputs differ or the\n"
    "median ratio exceeds --max-ratio; inconclusive when no repetition had a\n"
    "positive reference difference; else pass (ratio in details and in the\n"
    "report's matrix \"translator ratio\").  A runner that is not installed: one\n"
    "skip check.\n"
    "Exit: as bg_checks_close() (0 pass, 1 fail, 77 skip); 2 usage; 3 I/O;\n"
    "      7 the guest's --list failed.\n"
    "Doc: docs/perf_budgets.md.\n";

static int usage(const char *why)
{
    bg_errorf("bg-xratio", "%s (see bg-xratio --help)", why);
    return BG_EXIT_USAGE;
}

/* 1 when argv0 of the runner is on PATH (or is "native"). */
static int runner_present(const runner *r)
{
    if (r->argc == 0)
        return 1;
    if (strchr(r->argv[0], '/'))
        return access(r->argv[0], X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[4096], f[4400];
    snprintf(buf, sizeof buf, "%s", path ? path : "/usr/bin:/bin");
    for (char *d = strtok(buf, ":"); d; d = strtok(NULL, ":")) {
        snprintf(f, sizeof f, "%s/%s", d, r->argv[0]);
        if (access(f, X_OK) == 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    cfg g = {.target = 1.0 / 3.0, .reps = 5};
    const char *kernels = NULL, *ref = "native", *run = NULL;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc)
            return usage("an option is missing its value");
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--guest")) g.guest = v;
        else if (!strcmp(a, "--runner")) run = v;
        else if (!strcmp(a, "--reference")) ref = v;
        else if (!strcmp(a, "--kernels")) kernels = v;
        else if (!strcmp(a, "--target")) g.target = atof(v);
        else if (!strcmp(a, "--reps")) g.reps = atoi(v);
        else if (!strcmp(a, "--max-ratio")) g.max_ratio = atof(v);
        else return usage("unknown option");
    }
    if (!g.guest || !run || !(g.target > 0.001 && g.target < 60) || g.reps < 1 || g.reps > 64)
        return usage("need --guest and --runner; --target in (0.001, 60) s; --reps 1..64");
    runner_parse(&g.ref, ref);
    runner_parse(&g.run, run);
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return BG_EXIT_IO;
    if (!runner_present(&g.run) || !runner_present(&g.ref)) {
        char why[512];
        snprintf(why, sizeof why, "runner %s or %s is not installed", g.run.name, g.ref.name);
        printf("bg-xratio: skip: %s\n", why);
        char nm[160];
        snprintf(nm, sizeof nm, "perf.xratio.%s", g.run.name);
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
        runner native;
        runner_parse(&native, "native");
        double t;
        if (run_once(&native, g.guest, "--list", 0, &t, list, sizeof list) != 0 && !*list) {
            bg_errorf("bg-xratio", "%s --list failed", g.guest);
            bg_checks_free(c);
            return BG_EXIT_TARGET;
        }
    }
    char *save = NULL;
    for (char *k = strtok_r(list, "\n", &save); k; k = strtok_r(NULL, "\n", &save))
        measure_kernel(c, &g, k);
    return bg_checks_close(c);
}
