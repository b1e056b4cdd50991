/* perf_callgrind.c — see perf_callgrind.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_callgrind.h"
#include "perf_cgfile.h"

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

/* The callgrind profile of one benchmark at `iters` iterations, with the
 * cache simulation on a fixed geometry (perf_callgrind.h). */
static bg_status one_run(const perf_cmd *cmd, const char *tag, size_t idx, const char *name,
                         long long iters, int sim, const char *work_dir, perf_cg_profile *prof)
{
    char cg_out[1024], a_out[1100], a_iter[64], filter[600], json[1100];
    snprintf(cg_out, sizeof cg_out, "%s/cg-%s-%zu-%lld.out", work_dir, tag, idx, iters);
    snprintf(a_out, sizeof a_out, "--callgrind-out-file=%s", cg_out);
    snprintf(a_iter, sizeof a_iter, "--bg_iterations=%lld", iters);
    iter_filter(name, filter, sizeof filter);
    /* --smc-check=all: every write to code is seen, in anonymous mappings (a JIT buffer,
     * RandomX's) and file-backed ones; the x86 default all-non-file would cover the JIT
     * too, other architectures' default (stack) relies on cache flushes: so it is explicit. */
    const char *with[] = {"valgrind", "--tool=callgrind", "--smc-check=all", PERF_CG_CACHE_ARGS, a_out, NULL};
    const char *without[] = {"valgrind", "--tool=callgrind", "--smc-check=all", a_out, NULL};
    const char **prefix = sim ? with : without;
    const char *args[] = {a_iter, NULL};
    perf_cmd c = {cmd->exe, prefix, cmd->env, args};
    snprintf(json, sizeof json, "%s/cg-%s-%zu-%lld.json", work_dir, tag, idx, iters);
    int rr = perf_run_bench(&c, filter, 1, 0.001, json);
    if (rr == PERF_RUN_BENCH_ERROR)
        return bg_fail(BG_E_TARGET, "callgrind", "%s reported an error under valgrind (log: %s.log)", name, json);
    if (rr < 0)
        return (bg_status)rr;
    bg_status st = perf_cg_read(cg_out, prof);
    if (st == BG_OK && !(prof->total[PERF_CG_IR] > 0)) {
        perf_cg_free(prof);
        st = bg_fail(BG_E_PARSE, "callgrind", "%s: no summary line", cg_out);
    }
    return st;
}

/* One side of a benchmark: profiles at N and N/2 (prof[0], prof[1]) and the
 * per-iteration Ir and estimated cycles (per[PERF_CG_M_*]). */
static bg_status side_run(const perf_cmd *cmd, const char *tag, size_t idx, const char *name,
                          long long n, int sim, const char *work_dir, perf_cg_profile prof[2],
                          double per[PERF_CG_NM])
{
    bg_status st = one_run(cmd, tag, idx, name, n, sim, work_dir, &prof[0]);
    if (st != BG_OK)
        return st;
    st = one_run(cmd, tag, idx, name, n / 2, sim, work_dir, &prof[1]);
    if (st != BG_OK) {
        perf_cg_free(&prof[0]);
        return st;
    }
    double full = prof[0].total[PERF_CG_IR], half = prof[1].total[PERF_CG_IR];
    if (!(full > half))
        st = bg_fail(BG_E_PARSE, "callgrind", "%s: Ir(%lld) = %.0f is not above Ir(%lld) = %.0f", name,
                     n, full, n / 2, half);
    else if (sim && (!perf_cg_has_cache(&prof[0]) || !perf_cg_has_cache(&prof[1])))
        st = bg_fail(BG_E_PARSE, "callgrind", "%s: the callgrind output has no cache events (D1mr, DLmr): "
                     "was --cache-sim=yes ignored?", name);
    for (int m = 0; st == BG_OK && m < PERF_CG_NM; m++)
        per[m] = (perf_cg_metric(prof[0].total, m) - perf_cg_metric(prof[1].total, m)) / (double)(n - n / 2);
    if (st != BG_OK) {
        perf_cg_free(&prof[0]);
        perf_cg_free(&prof[1]);
    }
    return st;
}

/* Judges x on its ratio against band (deterministic: no interval). */
static void judge(perf_result *x, double base, double head, double band)
{
    x->measured = 1;
    x->med_base = base;
    x->med_head = head;
    x->n_base = x->n_head = 1;
    x->ratio = x->lo = x->hi = head / base;
    x->p = x->q = NAN;
    x->budget.band = band;
    x->outcome = x->ratio > 1 + band ? PERF_FAIL : x->ratio < 1 - band ? PERF_IMPROVED : PERF_PASS;
}

bg_status perf_callgrind_compare(const perf_cmd *base, const perf_cmd *head, const char *filter,
                                 long long iterations, int cache_sim, const char *work_dir,
                                 const cJSON *budgets, perf_result **out, size_t *n_out, perf_set *names)
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
    size_t per = cache_sim ? 2 : 1; /* results per benchmark */
    perf_result *r = calloc(per * names->n, sizeof *r);
    if (!r)
        return BG_E_NOMEM;
    for (size_t i = 0; i < names->n && st == BG_OK; i++) {
        perf_result ycopy, *x = &r[per * i], *y = cache_sim ? &r[2 * i + 1] : &ycopy; /* Ir, estimated cycles */
        memset(&ycopy, 0, sizeof ycopy);
        x->name = y->name = names->s[i].name;
        perf_budget_for(budgets, x->name, &x->budget);
        y->budget = x->budget;
        y->check_mode = "callgrind_cycles";
        snprintf(x->budget.metric, sizeof x->budget.metric, "instructions");
        x->budget.lower_better = 1; /* Ir: fewer is better, whatever the budgets' metric */
        y->budget.lower_better = 1; /* estimated cycles: fewer is better */
        snprintf(y->budget.metric, sizeof y->budget.metric, "estimated_cycles");
        if (strstr(x->name, "/iterations:")) {
            /* Google Benchmark names a benchmark that fixes its own count (->Iterations(N)):
             * --bg_iterations cannot set it, so Ir(N) vs Ir(N/2) cannot isolate one iteration */
            for (perf_result *z = x; z; z = z == x && cache_sim ? y : NULL) {
                z->outcome = PERF_SKIP;
                snprintf(z->why, sizeof z->why, "fixes its own iteration count (/iterations: in its "
                         "name): callgrind mode needs the count free; judge it by time");
            }
            continue;
        }
        long long it = iterations ? iterations : x->budget.ir_iterations;
        if (it < x->budget.ir_min_iterations) { /* the benchmark's floor (perf_budget.h) */
            printf("bg-perf: %s: --iterations %lld raised to %d, the benchmark's floor (budgets "
                   "ir_min_iterations: fewer leave the run-to-run variation of its fixed cost in Ir per "
                   "iteration)\n", x->name, it, x->budget.ir_min_iterations);
            it = x->budget.ir_min_iterations;
        }
        perf_cg_profile pb[2], ph[2];
        double vb[PERF_CG_NM], vh[PERF_CG_NM];
        st = side_run(base, "base", i, x->name, it, cache_sim, work_dir, pb, vb);
        if (st != BG_OK)
            break;
        st = side_run(head, "head", i, x->name, it, cache_sim, work_dir, ph, vh);
        if (st != BG_OK) {
            perf_cg_free(&pb[0]);
            perf_cg_free(&pb[1]);
            break;
        }
        judge(x, vb[PERF_CG_M_IR], vh[PERF_CG_M_IR], x->budget.ir_band);
        judge(y, vb[PERF_CG_M_CYCLES], vh[PERF_CG_M_CYCLES], y->budget.cycles_band);
        /* which function got slower: for every judgement that did not pass */
        for (int m = 0; m < (cache_sim ? PERF_CG_NM : 1) && st == BG_OK; m++) {
            perf_result *z = m == PERF_CG_M_IR ? x : y;
            if (z->outcome != PERF_FAIL && z->outcome != PERF_INCONCLUSIVE)
                continue;
            cJSON *d = perf_cg_function_diff(&pb[0], &pb[1], &ph[0], &ph[1], (double)(it - it / 2), m,
                                             PERF_CG_TOP, PERF_CG_MAX_STACKS);
            z->extra = cJSON_CreateObject();
            if (!d || !z->extra)
                st = BG_E_NOMEM;
            cJSON_AddItemToObject(z->extra, "function_diff", d);
        }
        for (int k = 0; k < 2; k++) {
            perf_cg_free(&pb[k]);
            perf_cg_free(&ph[k]);
        }
    }
    if (st != BG_OK) {
        perf_results_free(r, per * names->n);
        return st;
    }
    *out = r;
    *n_out = per * names->n;
    return BG_OK;
}
