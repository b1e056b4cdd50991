/* perf_run.c — see perf_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_run.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildgate/bg_proc.h"

int perf_run_bench(const perf_cmd *cmd, const char *filter, int reps, double min_time,
                   const char *out)
{
    char a_out[1024], a_reps[64], a_min[64], a_filter[1024], log[1100];
    snprintf(a_out, sizeof a_out, "--benchmark_out=%s", out);
    snprintf(a_reps, sizeof a_reps, "--benchmark_repetitions=%d", reps);
    snprintf(a_min, sizeof a_min, "--benchmark_min_time=%g", min_time);
    snprintf(a_filter, sizeof a_filter, "--benchmark_filter=%s", filter ? filter : ".");
    snprintf(log, sizeof log, "%s.log", out);
    const char *argv[64];
    int k = 0;
    for (int i = 0; cmd->prefix && cmd->prefix[i] && k < 50; i++)
        argv[k++] = cmd->prefix[i];
    argv[k++] = cmd->exe;
    argv[k++] = a_out;
    argv[k++] = "--benchmark_out_format=json";
    argv[k++] = a_reps;
    argv[k++] = a_min;
    argv[k++] = a_filter;
    for (int i = 0; cmd->args && cmd->args[i] && k < 62; i++)
        argv[k++] = cmd->args[i];
    argv[k] = NULL;
    unlink(out);
    /* bg_proc (the lib's one child-process module): no timeout (bg-run's is
       the backstop; same_group so it takes the child along), output kept in
       memory, then appended to the log; SIGINT/SIGTERM/SIGHUP to bg-perf stop
       the child (valgrind) too, then bg-perf says so and ends by the signal */
    bg_proc_opts po = {.env = (char *const *)cmd->env, .max_err = (size_t)64 << 20, .same_group = 1,
                       .interrupt_tool = "bg-perf"};
    bg_proc_result pr;
    bg_status st = bg_proc_spawn((char *const *)argv, &po, &pr);
    if (st != BG_OK)
        return bg_fail(st == BG_E_TARGET ? BG_E_TARGET : BG_E_IO, "bg-perf", "cannot run %s: %s",
                       argv[0], st == BG_E_TARGET ? "output over 64 MiB" : bg_status_name(st));
    FILE *lf = fopen(log, "a");
    if (lf) {
        fwrite(pr.out, 1, pr.out_len, lf);
        fwrite(pr.err, 1, pr.err_len, lf);
        fclose(lf);
    }
    char how[600];
    bg_proc_explain(&pr, 0, how, sizeof how);
    int spawn_failed = pr.spawn_failed, signaled = pr.signaled, rc = pr.code;
    bg_proc_result_free(&pr);
    if (spawn_failed)
        return bg_fail(BG_E_IO, "bg-perf", "%s (log: %s)", how, log);
    if (signaled)
        return bg_fail(BG_E_TARGET, "bg-perf", "%s %s (log: %s)", cmd->exe, how, log);
    if (rc == 7)
        return PERF_RUN_BENCH_ERROR; /* silent: the caller reads <out> to name the benchmark */
    if (rc != 0)
        return bg_fail(BG_E_TARGET, "bg-perf", "%s %s (log: %s)", cmd->exe, how, log);
    return BG_OK;
}

bg_status perf_run_check_output(const perf_cmd *cmd, const char *filter, const char *out)
{
    struct stat sb;
    if (stat(out, &sb) != 0)
        return bg_fail(BG_E_TARGET, "bg-perf", "%s wrote no results to %s: not a Google Benchmark "
                       "program? (log: %s.log)", cmd->exe, out, out);
    if (sb.st_size == 0) /* Google Benchmark exits 0 and writes nothing when no name matches */
        return bg_fail(BG_E_USAGE, "bg-perf", "no benchmark of %s matches --filter '%s' (log: %s.log)",
                       cmd->exe, filter ? filter : ".", out);
    return BG_OK;
}

bg_status perf_run_list(const perf_cmd *cmd, const char *filter, const char *work_dir,
                        const char *what, perf_set *names)
{
    char list[1024], log[1100], line[512];
    snprintf(list, sizeof list, "%s/%s-names.json", work_dir, what);
    snprintf(log, sizeof log, "%s.log", list);
    unlink(log);
    const char *ls[] = {"--benchmark_list_tests=true", NULL};
    perf_cmd lc = {cmd->exe, cmd->prefix, cmd->env, ls};
    int rr = perf_run_bench(&lc, filter, 1, 0.001, list);
    bg_status st = rr == PERF_RUN_BENCH_ERROR
                       ? bg_fail(BG_E_TARGET, what, "%s --benchmark_list_tests failed", cmd->exe)
                       : (bg_status)rr;
    FILE *f = st == BG_OK ? fopen(log, "r") : NULL;
    while (f && st == BG_OK && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (*line && !strchr(line, ' '))
            st = perf_set_push(names, line, 1.0);
    }
    if (f)
        fclose(f);
    if (st == BG_OK && names->n == 0)
        st = bg_fail(BG_E_USAGE, what, "no benchmark of %s matches the filter '%s'", cmd->exe,
                     filter ? filter : ".");
    return st;
}
