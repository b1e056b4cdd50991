/* perf_callgrind.c — see perf_callgrind.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_callgrind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int have_valgrind(void)
{
    const char *path = getenv("PATH");
    char buf[4096], file[4200];
    snprintf(buf, sizeof buf, "%s", path ? path : "/usr/bin:/bin");
    for (char *d = strtok(buf, ":"); d; d = strtok(NULL, ":")) {
        snprintf(file, sizeof file, "%s/valgrind", d);
        if (access(file, X_OK) == 0)
            return 1;
    }
    return 0;
}

static bg_status read_ir(const char *path, double *ir)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return bg_fail(BG_E_IO, "callgrind", "cannot read %s", path);
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0) {
            *ir = strtod(strchr(line, ':') + 1, NULL);
            found = 1;
        }
    fclose(f);
    return found && *ir > 0 ? BG_OK : bg_fail(BG_E_PARSE, "callgrind", "%s: no summary line", path);
}

/* Appends c to buf (escaped when a regex metacharacter). */
static size_t put_escaped(char *buf, size_t k, size_t cap, const char *from, const char *to)
{
    for (const char *c = from; c < to && k + 4 < cap; c++) {
        if (strchr(".[]()*+?^$|\\{}", *c))
            buf[k++] = '\\';
        buf[k++] = *c;
    }
    return k;
}

/* Regex for the listed benchmark `name` as Google Benchmark renames it under
 * --bg_iterations (it inserts "/iterations:N" before "/real_time",
 * "/manual_time" or "/threads:", else at the end). */
static void iter_filter(const char *name, char *buf, size_t cap)
{
    const char *cut = name + strlen(name);
    const char *marks[] = {"/real_time", "/manual_time", "/threads:"};
    for (int i = 0; i < 3; i++) {
        const char *m = strstr(name, marks[i]);
        if (m && m < cut)
            cut = m;
    }
    size_t k = 0;
    buf[k++] = '^';
    k = put_escaped(buf, k, cap, name, cut);
    k += (size_t)snprintf(buf + k, cap - k, "/iterations:[0-9]+");
    k = put_escaped(buf, k, cap, cut, name + strlen(name));
    snprintf(buf + k, cap - k, "$");
}

/* Ir of one benchmark at `iters` iterations. */
static bg_status one_ir(const perf_cmd *cmd, const char *tag, size_t idx, const char *name,
                        long long iters, const char *work_dir, double *ir)
{
    char cg_out[1024], a_out[1100], a_iter[64], filter[600], json[1100];
    snprintf(cg_out, sizeof cg_out, "%s/cg-%s-%zu-%lld.out", work_dir, tag, idx, iters);
    snprintf(a_out, sizeof a_out, "--callgrind-out-file=%s", cg_out);
    snprintf(a_iter, sizeof a_iter, "--bg_iterations=%lld", iters);
    iter_filter(name, filter, sizeof filter);
    /* --smc-check=all: every write to code is seen, in anonymous mappings (a JIT buffer,
     * RandomX's) and file-backed ones; the x86 default all-non-file would cover the JIT
     * too, other architectures' default (stack) relies on cache flushes: so it is explicit. */
    const char *prefix[] = {"valgrind", "--tool=callgrind", "--smc-check=all", a_out, NULL};
    const char *args[] = {a_iter, NULL};
    perf_cmd c = {cmd->exe, prefix, cmd->env, args};
    snprintf(json, sizeof json, "%s/cg-%s-%zu-%lld.json", work_dir, tag, idx, iters);
    int rr = perf_run_bench(&c, filter, 1, 0.001, json);
    if (rr == PERF_RUN_BENCH_ERROR)
        return bg_fail(BG_E_TARGET, "callgrind", "%s reported an error under valgrind (log: %s.log)", name, json);
    return rr < 0 ? (bg_status)rr : read_ir(cg_out, ir);
}

static bg_status ir_per_iteration(const perf_cmd *cmd, const char *tag, size_t idx, const char *name,
                                  long long n, const char *work_dir, double *per)
{
    double full, half;
    bg_status st = one_ir(cmd, tag, idx, name, n, work_dir, &full);
    if (st == BG_OK)
        st = one_ir(cmd, tag, idx, name, n / 2, work_dir, &half);
    if (st == BG_OK && !(full > half))
        st = bg_fail(BG_E_PARSE, "callgrind", "%s: Ir(%lld) = %.0f is not above Ir(%lld) = %.0f", name,
                     n, full, n / 2, half);
    if (st == BG_OK)
        *per = (full - half) / (double)(n - n / 2);
    return st;
}

bg_status perf_callgrind_compare(const perf_cmd *base, const perf_cmd *head, const char *filter,
                                 long long iterations, const char *work_dir, const cJSON *budgets,
                                 perf_result **out, size_t *n_out, perf_set *names)
{
    *out = NULL;
    *n_out = 0;
#ifdef __APPLE__
    return bg_fail(BG_E_UNSUPPORTED, "callgrind", "valgrind does not run on macOS (arm64): no instruction counts here");
#endif
    if (!have_valgrind())
        return bg_fail(BG_E_UNSUPPORTED, "callgrind", "valgrind is not installed (Debian: apt-get install valgrind)");
    if (iterations != 0 && iterations < 2)
        return bg_fail(BG_E_USAGE, "callgrind", "--iterations must be >= 2");
    /* the names: --benchmark_list_tests of the head (no runner prefix) */
    perf_cmd lc = {head->exe, NULL, head->env, NULL};
    bg_status st = perf_run_list(&lc, filter, work_dir, "callgrind", names);
    if (st != BG_OK)
        return st;
    perf_result *r = calloc(names->n, sizeof *r);
    if (!r)
        return BG_E_NOMEM;
    for (size_t i = 0; i < names->n && st == BG_OK; i++) {
        perf_result *x = &r[i];
        x->name = names->s[i].name;
        perf_budget_for(budgets, x->name, &x->budget);
        snprintf(x->budget.metric, sizeof x->budget.metric, "instructions");
        x->budget.lower_better = 1; /* Ir: fewer is better, whatever the budgets' metric */
        long long it = iterations ? iterations : x->budget.ir_iterations;
        st = ir_per_iteration(base, "base", i, x->name, it, work_dir, &x->med_base);
        if (st == BG_OK)
            st = ir_per_iteration(head, "head", i, x->name, it, work_dir, &x->med_head);
        if (st != BG_OK)
            break;
        x->n_base = x->n_head = 1;
        x->ratio = x->lo = x->hi = x->med_head / x->med_base;
        x->p = x->q = NAN;
        x->budget.band = x->budget.ir_band;
        x->outcome = x->ratio > 1 + x->budget.ir_band   ? PERF_FAIL
                     : x->ratio < 1 - x->budget.ir_band ? PERF_IMPROVED
                                                        : PERF_PASS;
    }
    if (st != BG_OK) {
        free(r);
        return st;
    }
    *out = r;
    *n_out = names->n;
    return BG_OK;
}
