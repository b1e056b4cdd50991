/* bg-perf — the performance gate (suites/perf_budgets, docs/perf_budgets.md).
 * Modes, options, checks, exit codes: usage_text below (`bg-perf --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_parse.h"
#include "perf_baseline.h"
#include "perf_budget.h"
#include "perf_gates.h"
#include "perf_callgrind.h"
#include "perf_duet.h"
#include "perf_gate.h"
#include "perf_paired.h"
#include "perf_plan.h"
#include "perf_report.h"
#include "perf_run.h"
#include "perf_variants.h"
#include "buildgate/bg_file.h"

#define MAX_LIST 256

/* The modes, as every message lists them (written once). */
#define PERF_MODES "compare, ab, baseline, record, callgrind, calibrate, gated or variants"

static const char usage_text[] =
    "Usage: bg-perf MODE [OPTIONS]   (MODE: compare, ab, baseline, record, callgrind,\n"
    "                                 calibrate, gated, variants)\n"
    "\n"
    "bg-perf compare --base F [--base F]... --head F [--head F]... [--budgets B]\n"
    "    [--unit process|sample] [--paired]\n"
    "    Google Benchmark JSON files (--benchmark_out) of the base and the head,\n"
    "    one file per process.  --paired: the k-th --base and the k-th --head ran\n"
    "    at the same time (a duet pair): judged on the per-pair ratios; unequal\n"
    "    --base and --head counts are refused (exit 2).\n"
    "    --unit sample treats every sample as independent (the judge before\n"
    "    processes were the unit; for comparison only).\n"
    "    Every benchmark of either side gets a check: in the base only, fail\n"
    "    (\"vanished\") unless budgets.json \"retired\" gives a reason; in the\n"
    "    head only, skip (\"new, no reference\"); none in common, a fail check\n"
    "    perf.<mode>.common.  A benchmark that skipped itself (\"skipped\") is a\n"
    "    skip with its message; one with an error or a NaN/Infinity/missing\n"
    "    metric fails by name; the rest of the file is still judged.  A\n"
    "    benchmark with aggregate rows only (ReportAggregatesOnly) is judged on\n"
    "    its \"median\" row, one sample per process.\n"
    "bg-perf ab --base-exe EXE --head-exe EXE [--base-env K=V]... [--head-env K=V]...\n"
    "    [--filter RE] [--rounds N=auto] [--reps K=auto] [--min-time S] [--seed S]\n"
    "    [--work-dir D] [--budgets B] [--prefix CMD]... [--duet [--duet-cpus 1|2]\n"
    "    |--interleaved] [--pin] [--drop-warmup] [--random-interleaving]\n"
    "    Same-job A/B: N rounds, each one base and one head process in a random\n"
    "    order (AB or BA), each process with its own random environment padding\n"
    "    and ASLR as the kernel has it; K repetitions per process; the process is\n"
    "    the unit the statistics judge (the median of its repetitions).  N auto:\n"
    "    the fewest processes with which the U test can reach alpha after BH over\n"
    "    the benchmarks (at least 5); K auto: 3.  The benchmarks found\n"
    "    inconclusive are rerun (just those, max_reruns times), with repetitions\n"
    "    and rounds chosen from where their variance lies (docs/perf_budgets.md).\n"
    "    --duet: each round runs its base and head process AT THE SAME TIME,\n"
    "    pinned within the inherited affinity mask (--duet-cpus; macOS: unpinned),\n"
    "    released together; judged on the per-pair ratios (Hodges-Lehmann\n"
    "    estimate, signed-rank interval and p: perf_paired.h); N auto: the pairs\n"
    "    with which the signed-rank test can reach alpha after BH; fewer pairs\n"
    "    than the exact test needs to reach p < alpha at all (2^(1-n) < alpha:\n"
    "    8 at 0.01) leave every benchmark inconclusive.  What stays undecided\n"
    "    after the reruns gets sequential looks that add pairs (budgets.json\n"
    "    seq_looks, seq_max_pairs, seq_time_cap; each at alpha/seq_looks) until\n"
    "    DIFFERENT (fail/improved) or SAME (pass), else UNKNOWN (inconclusive,\n"
    "    saying why).  --duet-cpus 1 (the default): both processes of a pair on\n"
    "    ONE CPU, time-sliced by the kernel, the mask's first or second at random\n"
    "    per round (a pair's ratio then carries no CPU-to-CPU\n"
    "    difference: docs/performance.md \"Duet on one CPU\"); --duet-cpus 2: each\n"
    "    side on its own CPU (Bulej et al.'s duet).  Fewer than 2 CPUs in the\n"
    "    mask with --duet-cpus 2: a status line, then interleaved as without\n"
    "    --duet.\n"
    "    --interleaved: one process at a time (the default).  One judge per run:\n"
    "    --duet with --interleaved (or --paired with --unit sample, or a judge\n"
    "    option of another mode) is refused (exit 2).  Noise controls\n"
    "    (docs/performance.md \"Noise controls\"): --pin every process on the\n"
    "    mask's first CPU (interleaved); --drop-warmup one more repetition per\n"
    "    process, the first dropped; --random-interleaving Google Benchmark's\n"
    "    --benchmark_enable_random_interleaving; ASLR off: --prefix setarch\n"
    "    --prefix -R.\n"
    "bg-perf baseline --baseline FILE|DIR --exe EXE [--filter RE] [--rounds N]\n"
    "    [--reps K] [--min-time S] [--work-dir D] [--budgets B] [--env K=V]...\n"
    "    Head against the stored per-host baseline (DIR: DIR/<host key>.json).\n"
    "    A missing baseline is a skip naming the host key and the command that\n"
    "    records one; a DIR, or a FILE's folder, that does not exist is a typo:\n"
    "    one line, exit 2.\n"
    "bg-perf record --out FILE --reason R --from F... [--commit C] [--flags S]\n"
    "    [--build-type T] [--budgets B] [--force]      (ci/update-baselines)\n"
    "bg-perf record --out FILE --check-only\n"
    "    Only checks that an existing FILE is a valid baseline of this host (exit\n"
    "    0 also when FILE is absent), so a corrupt one is refused before any run.\n"
    "bg-perf callgrind --base-exe EXE --head-exe EXE [--base-env K=V]...\n"
    "    [--head-env K=V]... [--filter RE] [--iterations N] [--ir-only]\n"
    "    [--work-dir D] [--budgets B]\n"
    "    Instruction counts (valgrind callgrind Ir per iteration, perf_callgrind.h),\n"
    "    deterministic, judged against ir_band (checks perf.callgrind.<name>), and\n"
    "    from the same runs' cache simulation the estimated cycles per iteration\n"
    "    (Ir + 10 L1 misses + 100 LL misses, perf_cgfile.h) against cycles_band\n"
    "    (perf.callgrind_cycles.<name>); a failure names the function that got\n"
    "    slower (details.function_diff).  --ir-only: no cache simulation (about\n"
    "    2-3x less valgrind time), Ir alone.  N: each benchmark's budget\n"
    "    ir_iterations (20000; RandomX hashing 2) unless given, never below its\n"
    "    ir_min_iterations (2000; RandomX hashing 2): a smaller N is raised to it\n"
    "    with one line (fewer iterations leave the run-to-run variation of the\n"
    "    process's fixed cost in the result: false verdicts).  No valgrind\n"
    "    (macOS: valgrind does not run there): skip check naming why (exit 77).\n"
    "bg-perf calibrate --exe EXE [--filter RE] [--rounds N] [--reps K]\n"
    "    [--min-time S] [--work-dir D]\n"
    "    A/A: runs EXE against itself and prints proposed bands.\n"
    "bg-perf variants --rows FILE [--stored DIR] [--filter RE] [--rounds N] [--reps K]\n"
    "    [--min-time S] [--seed S] [--work-dir D] [--budgets B] [--base-env K=V]...\n"
    "    [--head-env K=V]...\n"
    "    The variant table (perf_variants.h, docs/perf_budgets.md \"The variant\n"
    "    table\"): FILE is tab-separated, a header line then one row per\n"
    "    comparison: version, variant, reference (e.g. v1/release), exe (the\n"
    "    variant's perf-bench), reference_exe, then the variant's properties\n"
    "    (columns named by the header).  Each row runs N duet pairs (variant and\n"
    "    reference at the same time; 1 CPU: one after the other), the rows\n"
    "    interleaved round by round; --filter (default: light-mode JIT hashing,\n"
    "    ^randomx/[^/]+/[^/]+/hash/light-jit-hard$) must select one benchmark\n"
    "    of each program.  N default: the fewest pairs whose interval has its\n"
    "    level (5 at alpha 0.05); K default 1.  Per row one check\n"
    "    <test>.<version>.<variant>: H/s ratio variant/reference with its\n"
    "    1 - 2 alpha interval and gain, loss, no useful gain (two one-sided\n"
    "    tests, margin +-2 %) or undecided; pass when decided, inconclusive\n"
    "    when undecided, fail only where budgets.json \"variant_table\" gates\n"
    "    that row on that verdict; skip when a program is missing.  Each pair's\n"
    "    JSON goes to D/<version>.<variant>/{base,head}-<round>-0.json;\n"
    "    --stored DIR judges such files instead of running (no --rows programs\n"
    "    needed).\n"
    "bg-perf gated --exe EXE --budgets B\n"
    "    One check per benchmark EXE lists: pass naming the gate (budgets.json\n"
    "    \"gates\") that holds it, skip when retired, fail when no gate does.\n"
    "\n"
    "Units and ranges: --rounds N and --reps K 1..1000; --iterations N 2..10^9;\n"
    "--min-time S seconds in (0, 60] (Google Benchmark --benchmark_min_time;\n"
    "default: each benchmark's budget min_time); --seed S the order/padding seed\n"
    "(default: from the clock and pid);\n"
    "--budgets B a budgets JSON (default: built-in defaults; the suite's is\n"
    "suites/perf_budgets/budgets.json); --work-dir D where runs write their JSON\n"
    "(default bg-perf-work); --filter RE a --benchmark_filter regex; --gates G\n"
    "instead: the benchmarks budgets.json \"gates\" lists for G (perf_gates.h); repeated\n"
    "options take up to 256 values.  -h, --help: this text.\n"
    "\n"
    "Checks: one per benchmark, \"perf.<mode>.<benchmark>\", into $BG_CHECKS_FILE\n"
    "(bg_check.h); `improved` is a pass with details.note = \"improved\".\n"
    "Exit: 0 pass (inconclusive included, reported); 1 a regression; 77 skip;\n"
    "      2 usage; 3 I/O; 4 malformed JSON / zero repetitions (Google\n"
    "      Benchmark's bare NaN/Infinity tokens are accepted) / a budgets.json\n"
    "      error (a user-counter metric without \"higher_is_better\": its\n"
    "      direction; real_time, cpu_time lower-, items_per_second,\n"
    "      bytes_per_second higher-is-better without it); 5 baseline\n"
    "      corrupt or of another schema/host/metric (also a fail check\n"
    "      \"perf.baseline.load\"); 7 a benchmark crashed or reported an error;\n"
    "      8 out of memory (bg_error.h).  SIGINT/SIGTERM/SIGHUP stop the running\n"
    "      benchmark (valgrind included), then one line \"buildgate: bg-perf:\n"
    "      interrupted by SIG...: <command> stopped\" and bg-perf ends by that\n"
    "      signal (a shell says 130/143/129).\n"
    "Doc: docs/perf_budgets.md.\n";

typedef struct opts {
    const char *mode;
    int duet, interleaved, paired, pin, drop_warmup, random_interleaving; /* --duet ... */
    int duet_cpus;                                                       /* --duet-cpus; 0: not given (1) */
    int ir_only;                                                         /* callgrind --ir-only */
    perf_cpus cpus;
    const char *base[MAX_LIST], *head[MAX_LIST], *base_env[MAX_LIST + 1], *head_env[MAX_LIST + 1],
        *prefix[MAX_LIST + 1];
    unsigned long long seed;
    int nbase, nhead, nbenv, nhenv, nprefix;
    const char *base_exe, *head_exe, *filter, *gates, *work_dir, *budgets_path, *baseline, *out, *reason,
        *commit, *flags, *build_type, *unit, *rows, *stored;
    int rounds, reps, force, check_only, iterations;
    double min_time;
} opts;

static bg_status usage(const char *why)
{
    return bg_fail(BG_E_USAGE, "bg-perf", "%s (see bg-perf --help)", why);
}

static bg_status push(const char **list, int *n, const char *v)
{
    if (*n >= MAX_LIST)
        return usage("too many values for a repeated option");
    list[(*n)++] = v;
    list[*n] = NULL;
    return BG_OK;
}

/* The value v of option opt as a whole number in [lo, hi], else one line
 * naming the option, the value and the range (overflow included). */
static bg_status parse_int(const char *opt, const char *v, int lo, int hi, int *out)
{
    uint64_t u;
    if (bg_parse_u64(v, (uint64_t)lo, (uint64_t)hi, &u) != BG_OK) {
        bg_help_bad_value(opt, "'%s' is not a whole number in %d..%d", v, lo, hi);
        return BG_E_USAGE;
    }
    *out = (int)u;
    return BG_OK;
}

/* The options that take a value (parse below handles each). */
static int is_value_option(const char *a)
{
    static const char *const names[] = {
        "--base", "--head", "--from", "--base-env", "--head-env", "--env", "--prefix",
        "--base-exe", "--head-exe", "--exe", "--filter", "--gates", "--work-dir", "--budgets", "--unit",
        "--baseline", "--out", "--reason", "--commit", "--flags", "--build-type", "--rounds",
        "--reps", "--iterations", "--seed", "--min-time", "--rows", "--stored", "--duet-cpus"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(a, names[k]))
            return 1;
    return 0;
}

static bg_status parse(int argc, char **argv, opts *o)
{
    /* rounds, reps, min_time 0: automatic (perf_plan.h) */
    *o = (opts){.iterations = 0, .work_dir = "bg-perf-work",
                .seed = (unsigned long long)time(NULL) * 1000003ULL ^ (unsigned long long)getpid()};
    if (argc < 2)
        return usage("missing mode: " PERF_MODES);
    o->mode = argv[1];
    if (o->mode[0] == '-')
        return bg_fail(BG_E_USAGE, "bg-perf", "unknown option '%s': the first word is the mode "
                       "(" PERF_MODES "; see bg-perf --help)", o->mode);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--force") == 0 || strcmp(a, "--check-only") == 0) {
            *(a[2] == 'f' ? &o->force : &o->check_only) = 1;
            continue;
        }
        int *flag = !strcmp(a, "--duet") ? &o->duet : !strcmp(a, "--paired") ? &o->paired
                    : !strcmp(a, "--interleaved") ? &o->interleaved
                    : !strcmp(a, "--pin") ? &o->pin : !strcmp(a, "--drop-warmup") ? &o->drop_warmup
                    : !strcmp(a, "--random-interleaving") ? &o->random_interleaving
                    : !strcmp(a, "--ir-only") ? &o->ir_only : NULL;
        if (flag) {
            *flag = 1;
            continue;
        }
        if (!is_value_option(a)) {
            bg_help_unknown_option(a);
            return BG_E_USAGE;
        }
        if (i + 1 >= argc) {
            bg_help_missing_value(a);
            return BG_E_USAGE;
        }
        const char *v = argv[++i];
        bg_status st = BG_OK;
        if (!strcmp(a, "--base")) st = push(o->base, &o->nbase, v);
        else if (!strcmp(a, "--head") || !strcmp(a, "--from")) st = push(o->head, &o->nhead, v);
        else if (!strcmp(a, "--base-env")) st = push(o->base_env, &o->nbenv, v);
        else if (!strcmp(a, "--head-env") || !strcmp(a, "--env")) st = push(o->head_env, &o->nhenv, v);
        else if (!strcmp(a, "--prefix")) st = push(o->prefix, &o->nprefix, v);
        else if (!strcmp(a, "--base-exe")) o->base_exe = v;
        else if (!strcmp(a, "--head-exe") || !strcmp(a, "--exe")) o->head_exe = v;
        else if (!strcmp(a, "--filter")) o->filter = v;
        else if (!strcmp(a, "--gates")) o->gates = v;
        else if (!strcmp(a, "--work-dir")) o->work_dir = v;
        else if (!strcmp(a, "--budgets")) o->budgets_path = v;
        else if (!strcmp(a, "--unit")) {
            o->unit = v;
            if (strcmp(v, "process") && strcmp(v, "sample")) {
                st = BG_E_USAGE;
                bg_help_bad_value(a, "'%s': want process or sample", v);
            }
        }
        else if (!strcmp(a, "--baseline")) o->baseline = v;
        else if (!strcmp(a, "--rows")) o->rows = v;
        else if (!strcmp(a, "--stored")) o->stored = v;
        else if (!strcmp(a, "--out")) o->out = v;
        else if (!strcmp(a, "--reason")) o->reason = v;
        else if (!strcmp(a, "--commit")) o->commit = v;
        else if (!strcmp(a, "--flags")) o->flags = v;
        else if (!strcmp(a, "--build-type")) o->build_type = v;
        else if (!strcmp(a, "--rounds")) st = parse_int(a, v, 1, 1000, &o->rounds);
        else if (!strcmp(a, "--reps")) st = parse_int(a, v, 1, 1000, &o->reps);
        else if (!strcmp(a, "--duet-cpus")) st = parse_int(a, v, 1, 2, &o->duet_cpus);
        else if (!strcmp(a, "--iterations")) st = parse_int(a, v, 2, 1000000000, &o->iterations);
        else if (!strcmp(a, "--seed")) {
            uint64_t u = 0;
            if (bg_parse_u64(v, 0, UINT64_MAX, &u) != BG_OK) {
                st = BG_E_USAGE;
                bg_help_bad_value(a, "'%s' is not a whole decimal number", v);
            }
            o->seed = (unsigned long long)u;
        } else if (!strcmp(a, "--min-time")) {
            char *end;
            o->min_time = strtod(v, &end);
            if (*end || !(o->min_time > 0 && o->min_time <= 60)) {
                st = BG_E_USAGE;
                bg_help_bad_value(a, "'%s': want seconds in (0, 60]", v);
            }
        } else {
            st = BG_E_USAGE;
            bg_help_unknown_option(a);
        }
        if (st != BG_OK)
            return st;
    }
    return BG_OK;
}

/* One judge per run, in the mode it belongs to: --duet or --interleaved
 * (ab, calibrate), --paired or --unit sample (compare); two at once, or one
 * in another mode, is refused (it was accepted, the last one or none
 * winning).  Modes outside PERF_MODES are left to main's error. */
static bg_status check_judge(const opts *o)
{
    int ab = !strcmp(o->mode, "ab") || !strcmp(o->mode, "calibrate"), cmp = !strcmp(o->mode, "compare");
    static const char *const others[] = {"baseline", "record", "callgrind", "gated", "variants", NULL};
    int known = ab || cmp || bg_option_in(o->mode, others);
    if (o->duet && o->interleaved)
        return usage("--duet and --interleaved exclude each other: one judge per run");
    if (o->paired && o->unit && !strcmp(o->unit, "sample"))
        return usage("--paired and --unit sample exclude each other: one judge per run");
    if (known && !ab && o->duet_cpus)
        return bg_fail(BG_E_USAGE, "bg-perf", "--duet-cpus: only for ab and calibrate, not %s (see bg-perf --help)",
                       o->mode);
    if (o->duet_cpus && !o->duet)
        return usage("--duet-cpus: only with --duet (it says where a duet pair runs)");
    if (known && !ab && (o->duet || o->interleaved))
        return bg_fail(BG_E_USAGE, "bg-perf", "%s: only for ab and calibrate, not %s (see bg-perf --help)",
                       o->duet ? "--duet" : "--interleaved", o->mode);
    if (known && strcmp(o->mode, "callgrind") && o->ir_only)
        return bg_fail(BG_E_USAGE, "bg-perf", "--ir-only: only for callgrind, not %s (see bg-perf --help)", o->mode);
    if (known && !cmp && (o->paired || o->unit))
        return bg_fail(BG_E_USAGE, "bg-perf", "%s: only for compare, not %s (see bg-perf --help)",
                       o->paired ? "--paired" : "--unit", o->mode);
    return BG_OK;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The side's environment plus a random padding (perf_plan.h). */
static void padded_env(const char *const *env, int n, char *pad, const char **out)
{
    for (int i = 0; i < n; i++)
        out[i] = env[i];
    out[n] = pad;
    out[n + 1] = NULL;
}

/* One benchmark process to run: class c of the plan on one side, round r. */
typedef struct proc_job {
    const opts *o;
    const perf_class *k;
    int is_head;
    perf_cmd cmd;
    const char *env[MAX_LIST + 2];
    char pad[PERF_PLAN_PAD_MAX + 16], out[1024];
    int rr;      /* perf_run_bench's result, then perf_run_check_output's */
    double wall; /* seconds the process took */
} proc_job;

static const char *const random_interleaving[] = {"--benchmark_enable_random_interleaving=true", NULL};

static void job_prepare(proc_job *j, const opts *o, perf_plan *pl, size_t c, int r, int is_head)
{
    j->o = o;
    j->k = &pl->cls[c];
    j->is_head = is_head;
    perf_plan_pad(pl, j->pad);
    if (is_head)
        padded_env(o->head_env, o->nhenv, j->pad, j->env);
    else
        padded_env(o->base_env, o->nbenv, j->pad, j->env);
    j->cmd = (perf_cmd){is_head ? o->head_exe : o->base_exe, o->nprefix ? o->prefix : NULL, j->env,
                        o->random_interleaving ? random_interleaving : NULL};
    snprintf(j->out, sizeof j->out, "%s/%s-%03d-%zu.json", o->work_dir, is_head ? "head" : "base", r, c);
}

/* Runs the process (a thread of perf_duet_run2 in duet mode). */
static int job_exec(void *arg)
{
    proc_job *j = arg;
    double t0 = now_s();
    j->rr = perf_run_bench(&j->cmd, j->k->filter, j->k->reps + j->o->drop_warmup, j->k->min_time, j->out);
    j->wall = now_s() - t0;
    if (j->rr == BG_OK)
        j->rr = perf_run_check_output(&j->cmd, j->k->filter, j->out);
    return j->rr;
}

/* Adds a finished process's samples to set (without its first repetition
 * with --drop-warmup). */
static bg_status job_collect(proc_job *j, perf_plan *pl, size_t c, perf_set *set, const char *metric)
{
    if (j->rr < 0)
        return (bg_status)j->rr;
    size_t errors = set->errors;
    bg_status ld = j->o->drop_warmup ? perf_set_add_file_after_warmup(set, j->out, metric)
                                     : perf_set_add_file(set, j->out, metric);
    int own = j->is_head ? PERF_HEAD_ONLY : PERF_BASE_ONLY;
    for (size_t i = 0; ld == BG_OK && i < pl->names.n; i++) /* the names this process ran */
        if (pl->cls_of[i] == (int)c && (pl->side_of[i] == 0 || pl->side_of[i] == own))
            ld = perf_set_expect(set, pl->names.s[i].name);
    /* exit 7 with an error row: that benchmark fails its check, the others are judged */
    if (j->rr == PERF_RUN_BENCH_ERROR && ld == BG_OK && set->errors == errors)
        return bg_fail(BG_E_TARGET, "bg-perf", "%s failed (log: %s.log)", j->cmd.exe, j->out);
    if (ld == BG_OK)
        perf_plan_note_setup(pl, c, set, j->wall);
    return ld;
}

/* One process: class c of the plan on one side, round r, into set (pinned
 * to the first CPU of the affinity mask with --pin). */
static bg_status run_process(const opts *o, perf_plan *pl, size_t c, int r, int is_head, perf_set *set,
                             const char *metric)
{
    proc_job j;
    job_prepare(&j, o, pl, c, r, is_head);
    perf_pin_saved saved = {0};
    if (o->pin && o->cpus.pinnable) {
        bg_status st = perf_pin_self(o->cpus.cpu[0], &saved);
        if (st != BG_OK)
            return st;
    }
    job_exec(&j);
    perf_pin_restore(&saved);
    return job_collect(&j, pl, c, set, metric);
}

/* Duet: the base and the head process of class c, round r, at the same
 * time: with --duet-cpus 2 each on its own CPU (which side gets which CPU:
 * head_first), else both on one CPU (the mask's first or second: head_first). */
static bg_status run_duet(const opts *o, perf_plan *pl, size_t c, int r, int head_first, perf_set *base,
                          perf_set *head, const char *metric)
{
    proc_job jb, jh;
    job_prepare(&jb, o, pl, c, r, 0);
    job_prepare(&jh, o, pl, c, r, 1);
    int pin = o->cpus.pinnable, rb, rh;
    int cb = pin ? o->cpus.cpu[head_first ? 1 : 0] : -1, ch = pin ? o->cpus.cpu[head_first ? 0 : 1] : -1;
    if (pin && o->duet_cpus != 2) /* 0: not given (bg-perf variants): one CPU, the default */
        cb = ch = o->cpus.cpu[o->cpus.n >= 2 && head_first ? 1 : 0];
    bg_status st = perf_duet_run2(job_exec, &jb, cb, &jh, ch, &rb, &rh);
    if (st == BG_OK)
        st = job_collect(&jb, pl, c, base, metric);
    if (st == BG_OK)
        st = job_collect(&jh, pl, c, head, metric);
    return st;
}

/* The plan's rounds, numbered from first: per round a random order of the
 * sides (only head when !with_base), per side one process per class; in
 * duet mode both sides of a class at once (one after the other, in that
 * order, for a multi-threaded class). */
/* The most rounds of any class of the plan: the pairs one run_rounds adds. */
static int most_rounds(const perf_plan *pl)
{
    int most = 0;
    for (size_t c = 0; c < pl->ncls; c++)
        most = pl->cls[c].rounds > most ? pl->cls[c].rounds : most;
    return most;
}

static bg_status run_rounds(const opts *o, perf_plan *pl, int first, perf_set *base, perf_set *head,
                            const char *metric, int with_base)
{
    int most = most_rounds(pl);
    for (int r = first; r < first + most; r++) {
        int head_first = perf_plan_head_first(pl);
        for (size_t c = 0; o->duet && with_base && c < pl->ncls; c++) {
            if (r - first >= pl->cls[c].rounds)
                continue;
            const perf_class *k = &pl->cls[c];
            bg_status st = BG_OK;
            if (k->has_base && k->has_head && !k->threaded) /* threaded: in turn, still a pair */
                st = run_duet(o, pl, c, r, head_first, base, head, metric);
            else
                for (int side = 0; side < 2 && st == BG_OK; side++) {
                    int is_head = head_first ? side == 0 : side == 1;
                    if (is_head ? k->has_head : k->has_base)
                        st = run_process(o, pl, c, r, is_head, is_head ? head : base, metric);
                }
            if (st != BG_OK)
                return st;
        }
        for (int side = 0; !(o->duet && with_base) && side < 2; side++) {
            int is_head = head_first ? side == 0 : side == 1;
            if (!is_head && !with_base)
                continue;
            for (size_t c = 0; c < pl->ncls; c++) {
                if (r - first >= pl->cls[c].rounds || !(is_head ? pl->cls[c].has_head : pl->cls[c].has_base))
                    continue;
                bg_status st = run_process(o, pl, c, r, is_head, is_head ? head : base, metric);
                if (st != BG_OK)
                    return st;
            }
        }
    }
    return BG_OK;
}

static int max_reruns(const cJSON *budgets, const perf_result *r, size_t n)
{
    perf_budget b;
    perf_budget_for(budgets, "", &b);
    int m = b.max_reruns;
    for (size_t i = 0; i < n; i++)
        if (r[i].budget.max_reruns > m)
            m = r[i].budget.max_reruns;
    return m;
}

static size_t count(const perf_result *r, size_t n, perf_outcome o)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += r[i].outcome == o;
    return k;
}

static size_t count_unresolved(const perf_result *r, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (size_t)perf_result_unresolved(&r[i]);
    return k;
}

/* Before a confirmation rerun: only the unresolved slowdowns stay
 * inconclusive, so that perf_plan_rerun runs just them (r is recomputed
 * right after the rerun). */
static void keep_unresolved(perf_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].outcome == PERF_INCONCLUSIVE && !perf_result_unresolved(&r[i]))
            r[i].outcome = PERF_PASS;
}

/* perf_gate_compare, then the paired judge when the processes ran in pairs. */
static bg_status compare(const opts *o, const perf_set *base, const perf_set *head, const cJSON *budgets,
                         perf_result **r, size_t *n)
{
    bg_status st = perf_gate_compare(base, head, budgets, r, n);
    size_t unpaired = 0;
    if (st == BG_OK && o->paired)
        st = perf_paired_rejudge(*r, *n, &unpaired);
    if (unpaired)
        printf("bg-perf: note: %zu benchmark(s) with unequal process counts on the two sides: judged "
               "unpaired\n", unpaired);
    return st;
}

/* Sequential pairs (perf_paired.h, docs/perf_budgets.md "Sequential pairs"):
 * after the reruns of a duet run, the paired benchmarks still undecided get
 * up to seq_looks looks, each adding pairs (perf_paired_seq_add) and judged at
 * alpha / seq_looks, until each is DIFFERENT or SAME, or a cap (seq_max_pairs,
 * seq_time_cap: budgets.json "defaults") ends them UNKNOWN with the reason.
 * rerun_pp: the seconds per pair of the last rerun (just the undecided
 * benchmarks), 0 when none ran: the first look's prediction. */
static bg_status seq_pairs(const opts *o, perf_plan *pl, perf_set *base, perf_set *head, const cJSON *budgets,
                           int with_base, double rerun_pp, perf_result **r, size_t *n)
{
    char **seq = calloc(*n ? *n : 1, sizeof *seq);
    size_t nseq = 0, unpaired = 0;
    if (!seq)
        return BG_E_NOMEM;
    bg_status st = BG_OK;
    for (size_t i = 0; i < *n && st == BG_OK; i++)
        if (perf_paired_seq_open(&(*r)[i]) && !(seq[nseq++] = strdup((*r)[i].name)))
            st = BG_E_NOMEM;
    perf_budget b;
    perf_budget_for(budgets, "", &b);
    double t0 = now_s(), per_pair = rerun_pp;
    int look = 0;
    const char *stop = "seq_max_pairs reached";
    char capmsg[200];
    while (st == BG_OK && nseq > 0) {
        size_t add = perf_paired_seq_add(*r, *n, look + 1);
        if (add == 0) {
            stop = perf_paired_seq_stop(*r, *n, seq, nseq);
            break;
        }
        double spent = now_s() - t0, next = per_pair * (double)add;
        if (spent >= b.seq_time_cap || spent + next > b.seq_time_cap) {
            /* the cap is reached (or the next look would pass it): say so with the figures */
            if (look == 0)
                snprintf(capmsg, sizeof capmsg, "seq_time_cap %g s reached before the first look: %.0f s spent, "
                         "its %zu pairs would take about %.1f s (%.2f s per pair in the last rerun)",
                         b.seq_time_cap, spent, add, next, per_pair);
            else if (spent >= b.seq_time_cap)
                snprintf(capmsg, sizeof capmsg, "seq_time_cap %g s reached: the looks took %.0f s", b.seq_time_cap,
                         spent);
            else
                snprintf(capmsg, sizeof capmsg, "seq_time_cap %g s: %.0f s spent, the next look's %zu pairs would "
                         "take about %.0f s more", b.seq_time_cap, spent, add, next);
            stop = capmsg;
            printf("bg-perf: sequential: no %s: %s\n", look ? "further look" : "look", capmsg);
            break;
        }
        look++;
        size_t open = 0;
        for (size_t i = 0; i < *n; i++) /* just the open ones are rerun */
            if ((*r)[i].outcome == PERF_INCONCLUSIVE && !perf_paired_seq_open(&(*r)[i]))
                (*r)[i].outcome = PERF_PASS;
            else
                open += (*r)[i].outcome == PERF_INCONCLUSIVE;
        size_t ncls = perf_plan_rerun(pl, *r, *n, head, budgets, o->min_time, (int)add, o->reps);
        for (size_t c = 0; c < ncls; c++) /* exactly the pairs this look adds, in every class */
            pl->cls[c].rounds = (int)add;
        printf("bg-perf: sequential look %d/%d: %zu more pair(s) for %zu undecided benchmark(s), judged at alpha/%d "
               "(seq_max_pairs %d, seq_time_cap %g s):", look, perf_paired_seq_looks(*r, *n, seq, nseq), add, open,
               perf_paired_seq_looks(*r, *n, seq, nseq),
               b.seq_max_pairs, b.seq_time_cap);
        for (size_t c = 0; c < ncls; c++)
            printf(" %s (%d rounds x %d reps)", pl->cls[c].filter, pl->cls[c].rounds, pl->cls[c].reps);
        printf("\n");
        perf_results_free(*r, *n);
        *r = NULL;
        double t1 = now_s();
        st = run_rounds(o, pl, 1000 * (20 + look) /* after the reruns (max_reruns <= 10, so <= 20) */, base, head, perf_budgets_metric(budgets),
                        with_base);
        per_pair = (now_s() - t1) / (double)add;
        if (st == BG_OK)
            st = perf_gate_compare(base, head, budgets, r, n);
        if (st == BG_OK)
            st = perf_paired_rejudge_seq(*r, *n, seq, nseq, &unpaired);
    }
    if (st == BG_OK && nseq > 0) {
        perf_paired_seq_unknown(*r, *n, seq, nseq, look, stop);
        for (size_t i = 0; i < *n; i++) {
            const perf_result *x = &(*r)[i];
            if (!x->measured)
                continue;
            for (size_t j = 0; j < nseq; j++)
                if (!strcmp(seq[j], x->name))
                    printf("bg-perf: sequential: %s: %s after %zu pairs (%s)\n", x->name,
                           x->outcome == PERF_FAIL || x->outcome == PERF_IMPROVED ? "DIFFERENT"
                           : x->outcome == PERF_PASS ? "SAME" : "UNKNOWN",
                           x->np_base, perf_outcome_name(x->outcome));
        }
    }
    for (size_t i = 0; i < nseq; i++)
        free(seq[i]);
    free(seq);
    return st;
}

/* Compares, reruns the inconclusive ones (max_reruns times), then confirms
 * the unresolved slowdowns (perf_gate.h) with up to max_reruns more reruns of
 * just them, reports. */
static int judge(const opts *o, perf_plan *pl, const char *mode, perf_set *base, perf_set *head,
                 const cJSON *budgets, int with_base)
{
    perf_result *r = NULL;
    size_t n = 0;
    bg_status st = compare(o, base, head, budgets, &r, &n);
    int reruns = 0, limit = pl ? max_reruns(budgets, r, n) : 0;
    double rerun_pp = 0; /* seconds per pair of the last rerun: seq_pairs' first prediction */
    while (st == BG_OK && ((reruns < limit && count(r, n, PERF_INCONCLUSIVE) > 0) ||
                           (reruns < 2 * limit && count_unresolved(r, n) > 0))) {
        int confirm = reruns >= limit;
        if (confirm)
            keep_unresolved(r, n);
        size_t ncls = perf_plan_rerun(pl, r, n, head, budgets, o->min_time, o->rounds, o->reps);
        reruns++;
        printf("bg-perf: %s %d/%d of %zu %s benchmark(s):", confirm ? "confirmation rerun" : "rerun",
               confirm ? reruns - limit : reruns, limit, count(r, n, PERF_INCONCLUSIVE),
               confirm ? "unresolved slowdown" : "inconclusive");
        for (size_t c = 0; c < ncls; c++)
            printf(" %s (%d rounds x %d reps)", pl->cls[c].filter, pl->cls[c].rounds, pl->cls[c].reps);
        printf("\n");
        perf_results_free(r, n);
        r = NULL;
        double t1 = now_s();
        st = run_rounds(o, pl, 1000 * reruns, base, head, perf_budgets_metric(budgets), with_base);
        rerun_pp = most_rounds(pl) > 0 ? (now_s() - t1) / most_rounds(pl) : 0;
        if (st == BG_OK)
            st = compare(o, base, head, budgets, &r, &n);
    }
    if (st == BG_OK && o->paired && pl)
        st = seq_pairs(o, pl, base, head, budgets, with_base, rerun_pp, &r, &n);
    if (st != BG_OK) {
        perf_results_free(r, n);
        return bg_exit_code(st);
    }
    char decide[3072];
    if (!strcmp(mode, "baseline"))
        snprintf(decide, sizeof decide, "bg-perf baseline --baseline %s --exe %s", o->baseline, o->head_exe);
    else
        snprintf(decide, sizeof decide, "bg-perf ab --base-exe %s --head-exe %s%s",
                 o->base_exe ? o->base_exe : "<base perf-bench>", o->head_exe ? o->head_exe : "<head perf-bench>",
                 o->paired ? " --duet" : "");
    if (o->budgets_path) {
        size_t k = strlen(decide);
        snprintf(decide + k, sizeof decide - k, " --budgets %s", o->budgets_path);
    }
    perf_report_set_decide(decide);
    int rc = perf_report(mode, r, n, reruns);
    perf_results_free(r, n);
    const perf_series *e = perf_set_first_error(head);
    if (!e || !e->reported)
        e = perf_set_first_error(base);
    if (rc != BG_EXIT_IO && e && e->reported) /* Google Benchmark's error_occurred: exit 7 */
        rc = bg_exit_code(bg_fail(BG_E_TARGET, "bg-perf", "benchmark %s %s", e->name, e->error));
    return rc;
}

static int mode_compare(const opts *o, const cJSON *budgets)
{
    if (o->nbase == 0 || o->nhead == 0)
        return bg_exit_code(usage("compare needs --base FILE and --head FILE"));
    if (o->paired && o->nbase != o->nhead) /* pair k = the k-th --base and the k-th --head */
        return bg_exit_code(bg_fail(BG_E_USAGE, "bg-perf", "--paired: %d --base file(s) and %d --head file(s): "
                                    "pairs need equal counts (the k-th of each ran together; see bg-perf --help)",
                                    o->nbase, o->nhead));
    perf_set base = {0}, head = {0};
    bg_status st = BG_OK;
    const char *metric = perf_budgets_metric(budgets);
    for (int i = 0; i < o->nbase && st == BG_OK; i++)
        st = perf_set_add_file(&base, o->base[i], metric);
    for (int i = 0; i < o->nhead && st == BG_OK; i++)
        st = perf_set_add_file(&head, o->head[i], metric);
    if (o->unit && !strcmp(o->unit, "sample")) {
        perf_set_flatten(&base);
        perf_set_flatten(&head);
    }
    int rc = st == BG_OK ? judge(o, NULL, "compare", &base, &head, budgets, 0) : bg_exit_code(st);
    perf_set_free(&base);
    perf_set_free(&head);
    return rc;
}

static bg_status make_work_dir(const char *d)
{
    if (mkdir(d, 0755) != 0) {
        struct stat sb;
        if (stat(d, &sb) != 0 || !S_ISDIR(sb.st_mode))
            return bg_fail(BG_E_IO, "bg-perf", "cannot create the work directory %s", d);
    }
    return BG_OK;
}

/* The plan of the head's benchmarks; notes when ASLR is off (Linux). */
static bg_status plan(const opts *o, perf_plan *pl, const cJSON *budgets)
{
    FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
    int aslr = -1;
    if (f) {
        if (fscanf(f, "%d", &aslr) != 1)
            aslr = -1;
        fclose(f);
    }
    if (aslr == 0)
        printf("bg-perf: note: ASLR is off (kernel.randomize_va_space = 0): every process gets the "
               "same layout but for the environment padding\n");
    perf_cmd cmd = {o->head_exe, o->nprefix ? o->prefix : NULL, o->nhenv ? o->head_env : NULL, NULL};
    perf_cmd base = {o->base_exe, o->nprefix ? o->prefix : NULL, o->nbenv ? o->base_env : NULL, NULL};
    int two = o->base_exe && strcmp(o->base_exe, o->head_exe) != 0; /* ab of two programs */
    return perf_plan_make(pl, &cmd, two ? &base : NULL, o->filter, o->work_dir, budgets, o->min_time, o->rounds, o->reps,
                          o->seed);
}

/* Automatic rounds in duet mode: at least the pairs with which the signed-
 * rank test can reach alpha after BH over the benchmarks (perf_paired.h). */
static void duet_rounds(perf_plan *pl)
{
    int need = (int)perf_paired_pairs_for(pl->alpha, pl->names.n);
    if (need > pl->rounds0) {
        printf("bg-perf: duet: %d pairs (the signed-rank test needs %d to reach q < %g over %zu "
               "benchmark(s) with one pair out of direction)\n", need, need, pl->alpha, pl->names.n);
        pl->rounds0 = need;
        for (size_t c = 0; c < pl->ncls; c++)
            pl->cls[c].rounds = need;
    }
}

/* The note when the first rounds cannot reach alpha, with the minimum of the
 * judge that will decide: the signed-rank test's on pairs (duet; below it
 * every benchmark is inconclusive, perf_paired.h), else the per-process U
 * test's (perf_plan.h). */
static void power_note(const perf_plan *pl, int paired)
{
    size_t need = paired ? perf_paired_pairs_min(pl->alpha) : pl->need_u;
    if ((size_t)pl->rounds0 >= need)
        return;
    if (paired)
        printf("bg-perf: note: %d pairs cannot reach p < %g (the exact signed-rank test needs at least "
               "%zu pairs: 2^(1-n) < alpha): no fail possible, every benchmark inconclusive\n",
               pl->rounds0, pl->alpha, need);
    else
        printf("bg-perf: note: %d processes per side cannot reach q < %g over %zu benchmarks "
               "(the per-process U test needs %zu): no fail possible, at most inconclusive\n",
               pl->rounds0, pl->alpha, pl->names.n, need);
}

static int mode_ab(opts *o, const cJSON *budgets, int aa)
{
    if (!o->head_exe || (!aa && !o->base_exe))
        return bg_exit_code(usage(aa ? "calibrate needs --exe" : "ab needs --base-exe and --head-exe"));
    if (aa)
        o->base_exe = o->head_exe;
    if (o->duet && !o->duet_cpus)
        o->duet_cpus = 1;
    if (o->duet && o->duet_cpus == 2 && o->cpus.n < 2) {
        printf("bg-perf: duet: %d CPU in the affinity mask (duet needs 2): interleaved instead, one "
               "process at a time\n", o->cpus.n);
        o->duet = 0;
    }
    o->paired = o->duet;
    if (o->duet && o->cpus.pinnable && o->duet_cpus == 1)
        printf("bg-perf: duet: base and head at the same time on one CPU per pair (CPU %d or %d at "
               "random per round; %d in the affinity mask; the kernel time-slices the two), judged on per-pair "
               "ratios\n", o->cpus.cpu[0], o->cpus.n >= 2 ? o->cpus.cpu[1] : o->cpus.cpu[0], o->cpus.n);
    else if (o->duet && o->cpus.pinnable)
        printf("bg-perf: duet: base and head at the same time on CPUs %d and %d (%d in the affinity "
               "mask; sides swap CPUs at random per round), judged on per-pair ratios\n",
               o->cpus.cpu[0], o->cpus.cpu[1], o->cpus.n);
    else if (o->duet)
        printf("bg-perf: duet: base and head at the same time, unpinned (no CPU pinning API here), "
               "judged on per-pair ratios\n");
    bg_status st = make_work_dir(o->work_dir);
    perf_set base = {0}, head = {0};
    perf_plan pl = {0};
    const char *metric = perf_budgets_metric(budgets);
    if (st == BG_OK)
        st = plan(o, &pl, budgets);
    if (st == BG_OK && o->duet && !o->rounds)
        duet_rounds(&pl);
    if (st == BG_OK)
        power_note(&pl, o->duet);
    if (st == BG_OK)
        st = run_rounds(o, &pl, 0, &base, &head, metric, 1);
    int rc = bg_exit_code(st);
    if (st == BG_OK)
        rc = aa ? perf_calibrate_print(&base, &head, budgets)
                : judge(o, &pl, "ab", &base, &head, budgets, 1);
    perf_plan_free(&pl);
    perf_set_free(&base);
    perf_set_free(&head);
    return rc;
}

static int mode_callgrind(const opts *o, const cJSON *budgets)
{
    if (!o->head_exe || !o->base_exe)
        return bg_exit_code(usage("callgrind needs --base-exe and --head-exe"));
    bg_status st = make_work_dir(o->work_dir);
    perf_cmd cb = {o->base_exe, NULL, o->nbenv ? o->base_env : NULL, NULL};
    perf_cmd ch = {o->head_exe, NULL, o->nhenv ? o->head_env : NULL, NULL};
    perf_result *r = NULL;
    size_t n = 0;
    perf_set names = {0};
    if (st == BG_OK)
        st = perf_callgrind_compare(&cb, &ch, o->filter, o->iterations, !o->ir_only, o->work_dir, budgets,
                                    &r, &n, &names);
    int rc;
    if (st == BG_E_UNSUPPORTED)
        rc = perf_report_skip("perf.callgrind.valgrind", "valgrind installed", bg_last_error());
    else
        rc = st == BG_OK ? perf_report("callgrind", r, n, 0) : bg_exit_code(st);
    perf_results_free(r, n);
    perf_set_free(&names);
    return rc;
}

static void host_key(char *buf, unsigned n)
{
    bg_host h;
    bg_host_probe(&h);
    bg_host_key(&h, buf, n);
}

/* 1, with why, when --baseline B can only be a typo: B does not exist and is
 * no NAME.json (so a folder, missing), or is a NAME.json whose folder is
 * missing.  A missing NAME.json in a folder that exists is a new host: 0 (the
 * caller's skip names the file). */
static int baseline_typo(const char *b, char *why, size_t n)
{
    struct stat sb;
    if (stat(b, &sb) == 0)
        return 0;
    size_t len = strlen(b);
    if (len <= 5 || strcmp(b + len - 5, ".json")) {
        snprintf(why, n, "no such folder");
        return 1;
    }
    char dir[1200];
    snprintf(dir, sizeof dir, "%s", b);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0; /* in the working directory */
    *(slash == dir ? slash + 1 : slash) = '\0';
    if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
        return 0;
    snprintf(why, n, "its folder '%.1000s' does not exist", dir);
    return 1;
}

static int mode_baseline(opts *o, const cJSON *budgets)
{
    if (!o->baseline || !o->head_exe)
        return bg_exit_code(usage("baseline needs --baseline FILE and --exe EXE"));
    char key[160], path[1200];
    host_key(key, sizeof key);
    struct stat sb;
    if (stat(o->baseline, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        snprintf(path, sizeof path, "%s/%s.json", o->baseline, key);
        o->baseline = path;
    } else {
        char why[1100];
        if (baseline_typo(o->baseline, why, sizeof why))
            return bg_exit_code(bg_fail(BG_E_USAGE, "bg-perf",
                                        "--baseline: '%s': %s (a typo? the baselines folder, e.g. baselines, "
                                        "or a .json file in an existing folder)",
                                        o->baseline, why));
    }
    FILE *f = fopen(o->baseline, "r");
    if (!f)
        return perf_report_no_baseline(key, o->baseline);
    fclose(f);
    perf_set base = {0}, head = {0};
    bg_status st = perf_baseline_load(o->baseline, key, perf_budgets_metric(budgets), &base);
    if (st != BG_OK) {
        perf_set_free(&base);
        return perf_report_bad_baseline(o->baseline, st);
    }
    perf_set_keep_matching(&base, o->filter); /* the run's scope: the others are not gone */
    st = make_work_dir(o->work_dir);
    perf_plan pl = {0};
    if (st == BG_OK)
        st = plan(o, &pl, budgets);
    if (st == BG_OK)
        power_note(&pl, 0);
    if (st == BG_OK)
        st = run_rounds(o, &pl, 0, &base, &head, perf_budgets_metric(budgets), 0);
    int rc = st == BG_OK ? judge(o, &pl, "baseline", &base, &head, budgets, 0) : bg_exit_code(st);
    perf_plan_free(&pl);
    perf_set_free(&base);
    perf_set_free(&head);
    return rc;
}

static int mode_record(const opts *o, const cJSON *budgets, int argc, char **argv)
{
    if (!o->out || (o->nhead == 0 && !o->check_only))
        return bg_exit_code(usage("record needs --out FILE and --from RESULTS.json"));
    char key[160], cmd[2048] = "";
    host_key(key, sizeof key);
    for (int i = 0; i < argc; i++) {
        size_t k = strlen(cmd);
        snprintf(cmd + k, sizeof cmd - k, "%s%s", i ? " " : "", argv[i]);
    }
    const char *base = strrchr(o->out, '/');
    base = base ? base + 1 : o->out;
    size_t kl = strlen(key);
    if (strncmp(base, key, kl) != 0 || strcmp(base + kl, ".json") != 0)
        return bg_exit_code(bg_fail(BG_E_USAGE, "record",
                                    "%s is not this host's baseline file (%s.json): refusing", o->out, key));
    if (o->check_only) /* ci/update-baselines, before any benchmark runs */
        return bg_exit_code(perf_baseline_check(o->out, key, perf_budgets_metric(budgets)));
    perf_set set = {0};
    bg_status st = BG_OK;
    const char *metric = perf_budgets_metric(budgets);
    for (int i = 0; i < o->nhead && st == BG_OK; i++)
        st = perf_set_add_file(&set, o->head[i], metric);
    const perf_series *bad = st == BG_OK ? perf_set_first_error(&set) : NULL;
    if (bad)
        st = bg_fail(bad->reported ? BG_E_TARGET : BG_E_PARSE, "bg-perf record",
                     "benchmark %s: %s: nothing recorded", bad->name, bad->error);
    perf_record_opts ro = {o->out, key, o->reason, o->commit, o->flags, o->build_type, cmd, metric, o->force};
    if (st == BG_OK)
        st = perf_baseline_record(&ro, &set);
    perf_set_free(&set);
    return bg_exit_code(st);
}

/* ---- bg-perf variants: the variant table (perf_variants.h) ---- */

#define VT_MAX_ROWS 128
#define VT_MAX_COLS 32

typedef struct vt_row {
    char *field[VT_MAX_COLS]; /* into the file's text */
    int nfield;
    char id[200], row[200]; /* "<version>.<variant>", "<version>/<variant>" */
    perf_set base, head;
    perf_plan pl;
    int planned;
    char why[600]; /* why it was not measured ("" when it was) */
    bg_verdict skip_or_fail;
} vt_row;

typedef struct vt_table {
    char *text;
    char *head[VT_MAX_COLS];
    int ncols;
    vt_row row[VT_MAX_ROWS];
    int nrows;
} vt_table;

/* Splits line at tabs into out (at most max fields); returns the count. */
static int vt_split(char *line, char **out, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        out[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

/* The rows file: a header (version, variant, reference, exe, reference_exe,
 * then property names), then one row per line; '#' lines and blank lines are
 * skipped.  BG_E_IO, BG_E_PARSE (one line naming the file and line). */
static bg_status vt_load(const char *path, vt_table *t)
{
    static const char *const fixed[] = {"version", "variant", "reference", "exe", "reference_exe"};
    size_t len;
    bg_status st = bg_file_read(path, "the variant table rows", &t->text, &len);
    if (st != BG_OK)
        return st;
    int lineno = 0;
    for (char *line = t->text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (*line == '#' || *line == '\0')
            continue;
        if (!t->ncols) {
            t->ncols = vt_split(line, t->head, VT_MAX_COLS);
            for (int k = 0; k < 5; k++)
                if (k >= t->ncols || strcmp(t->head[k], fixed[k]))
                    return bg_fail(BG_E_PARSE, "bg-perf", "variants: %s:%d: the header's column %d must be '%s'",
                                   path, lineno, k + 1, fixed[k]);
            continue;
        }
        if (t->nrows == VT_MAX_ROWS)
            return bg_fail(BG_E_PARSE, "bg-perf", "variants: %s: more than %d rows", path, VT_MAX_ROWS);
        vt_row *r = &t->row[t->nrows++];
        r->nfield = vt_split(line, r->field, VT_MAX_COLS);
        if (r->nfield != t->ncols || !*r->field[0] || !*r->field[1] || !*r->field[2])
            return bg_fail(BG_E_PARSE, "bg-perf", "variants: %s:%d: %d fields, the header has %d (version, "
                           "variant and reference must not be empty)", path, lineno, r->nfield, t->ncols);
        snprintf(r->id, sizeof r->id, "%s.%s", r->field[0], r->field[1]);
        snprintf(r->row, sizeof r->row, "%s/%s", r->field[0], r->field[1]);
    }
    if (!t->nrows)
        return bg_fail(BG_E_PARSE, "bg-perf", "variants: %s: no rows", path);
    return BG_OK;
}

/* The one benchmark of a side, renamed to the reference's name on the
 * variant's side (so that the two are judged as one benchmark). */
static int vt_one_name(vt_row *r)
{
    if (r->base.n != 1 || r->head.n != 1) {
        snprintf(r->why, sizeof r->why, "the filter selects %zu benchmark(s) of the reference and %zu of the "
                 "variant: one of each expected", r->base.n, r->head.n);
        r->skip_or_fail = BG_FAIL;
        return 0;
    }
    char *name = strdup(r->base.s[0].name);
    if (!name) {
        snprintf(r->why, sizeof r->why, "out of memory");
        r->skip_or_fail = BG_FAIL;
        return 0;
    }
    free(r->head.s[0].name);
    r->head.s[0].name = name;
    return 1;
}

/* One row's check: measured (pairs judged), or not (why). */
static void vt_emit(bg_checks *c, const char *test, const vt_row *r, const vt_table *t, const perf_result *res,
                    const perf_variant_cfg *cfg, int lower_better, int *bad)
{
    char name[400], expected[600], observed[900];
    snprintf(name, sizeof name, "%s.%s", test, r->id);
    const char *ref = r->field[2];
    const char *gkey = NULL;
    perf_variant_gated(cfg, r->row, PERF_TOST_UNDECIDED, &gkey);
    snprintf(expected, sizeof expected,
             "H/s of %s against %s: gain, loss or no useful gain (%.0f %% interval against +-%.1f %%, two "
             "one-sided tests)%s%s%s",
             r->row, ref, 100 * (1 - 2 * cfg->alpha), 100 * cfg->margin, gkey ? "; budgets.json variant_table gates " : "",
             gkey ? gkey : "", gkey ? "" : "; informs, gates nothing");
    cJSON *d = cJSON_CreateObject(), *vt = cJSON_AddObjectToObject(d, "variant_table");
    cJSON_AddStringToObject(vt, "version", r->field[0]);
    cJSON_AddStringToObject(vt, "variant", r->field[1]);
    cJSON_AddStringToObject(vt, "reference", ref);
    cJSON *props = cJSON_AddObjectToObject(vt, "properties");
    for (int k = 5; k < t->ncols; k++)
        cJSON_AddStringToObject(props, t->head[k], r->field[k]);
    cJSON_AddNumberToObject(vt, "margin", cfg->margin);
    cJSON_AddNumberToObject(vt, "alpha", cfg->alpha);
    if (!res || !res->measured || res->np_base != res->np_head) {
        const char *why = r->why[0] ? r->why : res ? res->why : "not measured";
        bg_verdict v = r->why[0] ? r->skip_or_fail : res && res->outcome == PERF_SKIP ? BG_SKIP : BG_FAIL;
        if (res && res->measured) /* unequal counts: a pair lost a side */
            why = "unequal process counts on the two sides: no pairs to judge";
        cJSON_AddStringToObject(vt, "verdict", v == BG_SKIP ? "not measured" : "failed");
        cJSON_AddStringToObject(vt, "why", why);
        bg_check_emit_str(c, name, v, expected, why, d);
        printf("bg-perf: variants: %s: %s: %s\n", r->row, bg_verdict_name(v), why);
        *bad |= v == BG_FAIL;
        return;
    }
    size_t n = res->np_base;
    double *e = calloc(n ? n : 1, sizeof *e);
    perf_variant_judgement j;
    cJSON *lr = cJSON_AddArrayToObject(vt, "pair_log_ratios");
    for (size_t k = 0; e && k < n; k++) { /* ln(H/s variant / H/s reference) */
        e[k] = lower_better ? log(res->proc_base[k] / res->proc_head[k]) : log(res->proc_head[k] / res->proc_base[k]);
        cJSON_AddItemToArray(lr, cJSON_CreateNumber(e[k]));
    }
    if (!e || perf_variant_judge(e, n, cfg, &j) != BG_OK) {
        free(e);
        cJSON_Delete(d);
        *bad = 1;
        return;
    }
    free(e);
    const char *tv = perf_tost_name(j.verdict);
    int gated = perf_variant_gated(cfg, r->row, j.verdict, &gkey);
    bg_verdict v = gated ? BG_FAIL : j.verdict == PERF_TOST_UNDECIDED ? BG_INCONCLUSIVE : BG_PASS;
    /* H/s from the medians (ns per hash for a time metric) */
    double hs_ref = lower_better ? 1e9 / res->med_base : res->med_base;
    double hs_var = lower_better ? 1e9 / res->med_head : res->med_head;
    snprintf(observed, sizeof observed, "%s: H/s ratio %.4f [%.4f, %.4f] (%.0f %% interval, %zu pairs, p=%.2g; "
             "%.2f vs %.2f H/s)%s%s%s", tv, j.ratio, j.lo, j.hi, 100 * j.level, j.pairs, j.p, hs_var, hs_ref,
             j.why[0] ? ": " : "", j.why, gated ? "; budgets.json variant_table fails this verdict" : "");
    cJSON_AddStringToObject(vt, "verdict", tv);
    cJSON_AddNumberToObject(vt, "ratio", j.ratio);
    cJSON_AddNumberToObject(vt, "lo", j.lo);
    cJSON_AddNumberToObject(vt, "hi", j.hi);
    cJSON_AddNumberToObject(vt, "level", j.level);
    cJSON_AddNumberToObject(vt, "pairs", (double)j.pairs);
    cJSON_AddNumberToObject(vt, "min_pairs", (double)j.min_pairs);
    cJSON_AddNumberToObject(vt, "p", j.p);
    cJSON_AddNumberToObject(vt, "hs_variant", hs_var);
    cJSON_AddNumberToObject(vt, "hs_reference", hs_ref);
    if (j.why[0])
        cJSON_AddStringToObject(vt, "why", j.why);
    if (gkey)
        cJSON_AddStringToObject(vt, "gate", gkey);
    bg_check_emit_str(c, name, v, expected, observed, d);
    printf("bg-perf: variants: %s vs %s: %s\n", r->row, ref, observed);
    *bad |= v == BG_FAIL;
}

/* Reads stored pairs DIR/<id>/{base,head}-<k>-0.json, k = 0, 1, ... */
static bg_status vt_read_stored(const char *dir, vt_row *r, const char *metric)
{
    char b[2048], h[2048];
    for (int k = 0;; k++) {
        snprintf(b, sizeof b, "%s/%s/base-%03d-0.json", dir, r->id, k);
        snprintf(h, sizeof h, "%s/%s/head-%03d-0.json", dir, r->id, k);
        struct stat sb;
        if (stat(b, &sb) != 0 || stat(h, &sb) != 0) {
            if (k == 0) {
                snprintf(r->why, sizeof r->why, "no stored pairs (%.500s)", b);
                r->skip_or_fail = BG_FAIL;
            }
            return BG_OK;
        }
        bg_status st = perf_set_add_file(&r->base, b, metric);
        if (st == BG_OK)
            st = perf_set_add_file(&r->head, h, metric);
        if (st != BG_OK)
            return st;
    }
}

static int mode_variants(opts *o, const cJSON *budgets)
{
    if (!o->rows)
        return bg_exit_code(usage("variants needs --rows FILE"));
    perf_variant_cfg cfg;
    bg_status st = perf_variant_cfg_load(budgets, &cfg);
    vt_table *t = calloc(1, sizeof *t);
    if (st == BG_OK && !t)
        st = BG_E_NOMEM;
    if (st == BG_OK)
        st = vt_load(o->rows, t);
    const char *metric = perf_budgets_metric(budgets);
    const char *filter = o->filter ? o->filter : "^randomx/[^/]+/[^/]+/hash/light-jit-hard$";
    int rounds = o->rounds ? o->rounds : (int)perf_paired_pairs_min(2 * cfg.alpha);
    if (st == BG_OK && !o->stored)
        st = make_work_dir(o->work_dir);
    opts *ro = st == BG_OK ? calloc((size_t)t->nrows, sizeof *ro) : NULL;
    if (st == BG_OK && !ro)
        st = BG_E_NOMEM;
    int live = 0;
    for (int i = 0; st == BG_OK && i < t->nrows; i++) {
        vt_row *r = &t->row[i];
        if (o->stored) {
            st = vt_read_stored(o->stored, r, metric);
            continue;
        }
        ro[i] = *o;
        char *wd = malloc(strlen(o->work_dir) + strlen(r->id) + 2);
        if (!wd) {
            st = BG_E_NOMEM;
            break;
        }
        sprintf(wd, "%s/%s", o->work_dir, r->id);
        ro[i].work_dir = wd;
        ro[i].base_exe = r->field[4];
        ro[i].head_exe = r->field[3];
        ro[i].filter = filter;
        ro[i].rounds = 1;
        ro[i].duet = o->cpus.n >= 2;
        ro[i].paired = 1;
        ro[i].seed = o->seed + (unsigned long long)i; /* each row its own sides per round */
        if (access(r->field[3], X_OK) != 0 || access(r->field[4], X_OK) != 0) {
            snprintf(r->why, sizeof r->why, "not built: %.500s", access(r->field[3], X_OK) ? r->field[3] : r->field[4]);
            r->skip_or_fail = BG_SKIP;
            continue;
        }
        if ((st = make_work_dir(wd)) != BG_OK)
            break;
        st = plan(&ro[i], &r->pl, budgets);
        if (st == BG_OK)
            r->planned = 1, live++;
        else if (st == BG_E_USAGE || st == BG_E_TARGET) { /* the filter selects nothing, the program fails */
            snprintf(r->why, sizeof r->why, "%s", bg_last_error());
            r->skip_or_fail = BG_FAIL;
            st = BG_OK;
        }
    }
    if (st == BG_OK && live)
        printf("bg-perf: variants: %d row(s), %d pair(s) each, %s, rows interleaved round by round\n", live, rounds,
               o->cpus.n >= 2 ? "duet (variant and reference at the same time, on one CPU per pair)"
                              : "1 CPU: variant and reference one after the other");
    for (int k = 0; st == BG_OK && k < rounds && live; k++) {
        printf("bg-perf: variants: round %d/%d\n", k + 1, rounds);
        fflush(stdout);
        for (int i = 0; st == BG_OK && i < t->nrows; i++) {
            vt_row *r = &t->row[i];
            if (!r->planned)
                continue;
            for (size_t c = 0; c < r->pl.ncls; c++)
                r->pl.cls[c].rounds = 1, r->pl.cls[c].reps = o->reps ? o->reps : 1;
            bg_status rs = run_rounds(&ro[i], &r->pl, k, &r->base, &r->head, metric, 1);
            if (rs != BG_OK) { /* this row's program failed: the others go on */
                snprintf(r->why, sizeof r->why, "%s", bg_last_error());
                r->skip_or_fail = BG_FAIL;
                r->planned = 0;
                live--;
            }
        }
    }
    int rc = bg_exit_code(st);
    if (st == BG_OK) {
        bg_checks *c = bg_checks_open("perf_budgets");
        const char *test = bg_test_name("perf.variants");
        int bad = 0;
        for (int i = 0; c && i < t->nrows; i++) {
            vt_row *r = &t->row[i];
            perf_result *res = NULL;
            size_t n = 0;
            if (!r->why[0] && vt_one_name(r) && perf_gate_compare(&r->base, &r->head, budgets, &res, &n) != BG_OK)
                snprintf(r->why, sizeof r->why, "%s", bg_last_error()), r->skip_or_fail = BG_FAIL;
            vt_emit(c, test, r, t, r->why[0] ? NULL : res, &cfg, perf_budgets_lower_better(budgets), &bad);
            perf_results_free(res, n);
        }
        rc = bg_checks_close(c);
        if (bad && rc == 0)
            rc = 1;
    }
    for (int i = 0; t && i < t->nrows; i++) {
        perf_set_free(&t->row[i].base);
        perf_set_free(&t->row[i].head);
        perf_plan_free(&t->row[i].pl); /* zeroed when never planned */
        if (ro && ro[i].work_dir && ro[i].work_dir != o->work_dir)
            free((char *)ro[i].work_dir);
    }
    free(ro);
    if (t)
        free(t->text);
    free(t);
    return rc;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    opts o;
    bg_status st = parse(argc, argv, &o);
    if (st == BG_OK)
        st = check_judge(&o);
    if (st != BG_OK)
        return bg_exit_code(st);
    perf_cpus_probe(&o.cpus);
    if (o.pin && !o.cpus.pinnable)
        printf("bg-perf: note: --pin: no CPU pinning API here: processes run unpinned\n");
    cJSON *budgets = NULL;
    st = perf_budgets_load(o.budgets_path, &budgets);
    if (st != BG_OK)
        return bg_exit_code(st);
    char gate_filter[4096];
    if (o.gates) { /* the gate's benchmarks from budgets.json (perf_gates.h) */
        st = o.filter ? usage("--filter and --gates exclude each other")
             : !budgets ? usage("--gates needs --budgets")
                        : perf_gates_filter(budgets, o.gates, gate_filter, sizeof gate_filter);
        if (st != BG_OK) {
            cJSON_Delete(budgets);
            return bg_exit_code(st);
        }
        o.filter = gate_filter;
    }
    int rc;
    if (!strcmp(o.mode, "gated"))
        rc = !o.head_exe || !budgets ? bg_exit_code(usage("gated needs --exe and --budgets"))
                                     : perf_gates_check(o.head_exe, budgets);
    else if (!strcmp(o.mode, "compare"))
        rc = mode_compare(&o, budgets);
    else if (!strcmp(o.mode, "ab"))
        rc = mode_ab(&o, budgets, 0);
    else if (!strcmp(o.mode, "calibrate"))
        rc = mode_ab(&o, budgets, 1);
    else if (!strcmp(o.mode, "baseline"))
        rc = mode_baseline(&o, budgets);
    else if (!strcmp(o.mode, "callgrind"))
        rc = mode_callgrind(&o, budgets);
    else if (!strcmp(o.mode, "record"))
        rc = mode_record(&o, budgets, argc, argv);
    else if (!strcmp(o.mode, "variants"))
        rc = mode_variants(&o, budgets);
    else
        rc = bg_exit_code(bg_fail(BG_E_USAGE, "bg-perf", "unknown mode '%s': " PERF_MODES " (see bg-perf --help)", o.mode));
    cJSON_Delete(budgets);
    return rc;
}
