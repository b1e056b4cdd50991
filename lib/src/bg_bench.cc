// bg_bench.cc — the C interface to Google Benchmark (see bg_bench.h).
// The project's only C++ file: everything else calls it through bg_bench.h.
#include "buildgate/bg_bench.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

struct bg_bench {
    std::string name;
    bg_bench_fn run = nullptr;
    bg_bench_setup_fn setup = nullptr;
    bg_bench_teardown_fn teardown = nullptr;
    void *user = nullptr;
    bool manual_time = false;
    benchmark::internal::Benchmark *gb = nullptr;
};

// A State plus what the C side needs; lives on the stack of one thread's run.
struct bg_bench_state {
    benchmark::State *gb;
};

namespace {

// Owns every registered benchmark until exit (LeakSanitizer: a plain pointer
// vector, destroyed before its check, left them all unreachable).
std::vector<std::unique_ptr<bg_bench>> &registry()
{
    static std::vector<std::unique_ptr<bg_bench>> all;
    return all;
}

// The C++ reference benchmark, so --bg_iterations fixes it too.
benchmark::internal::Benchmark *cxx_reference_bench = nullptr;

void run_c_benchmark(benchmark::State &state, bg_bench *b)
{
    bg_bench_state st{&state};
    void *ctx = b->user;
    if (b->setup)
        ctx = b->setup(&st, b->user);
    if (!state.error_occurred()) {
        // One batch of exactly max_iterations: the C side loops, not us.
        const benchmark::IterationCount n = state.max_iterations;
        while (state.KeepRunningBatch(n))
            b->run(&st, static_cast<uint64_t>(n), ctx);
    }
    if (b->teardown)
        b->teardown(&st, ctx);
}

// Console output plus a note of whether any run reported an error.
class ErrorNotingReporter : public benchmark::ConsoleReporter {
  public:
    bool any_error = false;
    void ReportRuns(const std::vector<Run> &runs) override
    {
        for (const Run &r : runs)
            if (r.error_occurred)
                any_error = true;
        ConsoleReporter::ReportRuns(runs);
    }
};

} // namespace

extern "C" {

bg_bench *bg_bench_register(const char *name, bg_bench_fn run)
{
    bg_bench *b = new bg_bench;
    b->name = name;
    b->run = run;
    b->gb = benchmark::RegisterBenchmark(name, run_c_benchmark, b);
    registry().emplace_back(b);
    return b;
}

bg_bench *bg_bench_user(bg_bench *b, void *user) { b->user = user; return b; }
bg_bench *bg_bench_setup(bg_bench *b, bg_bench_setup_fn s, bg_bench_teardown_fn t)
{
    b->setup = s;
    b->teardown = t;
    return b;
}
bg_bench *bg_bench_arg(bg_bench *b, int64_t a) { b->gb->Arg(a); return b; }
bg_bench *bg_bench_arg_name(bg_bench *b, const char *name) { b->gb->ArgName(name); return b; }
bg_bench *bg_bench_range(bg_bench *b, int64_t lo, int64_t hi) { b->gb->Range(lo, hi); return b; }
bg_bench *bg_bench_dense_range(bg_bench *b, int64_t lo, int64_t hi, int step)
{
    b->gb->DenseRange(lo, hi, step);
    return b;
}
bg_bench *bg_bench_threads(bg_bench *b, int n) { b->gb->Threads(n); return b; }
bg_bench *bg_bench_thread_range(bg_bench *b, int lo, int hi) { b->gb->ThreadRange(lo, hi); return b; }
bg_bench *bg_bench_manual_time(bg_bench *b)
{
    b->manual_time = true;
    b->gb->UseManualTime();
    return b;
}
bg_bench *bg_bench_real_time(bg_bench *b) { b->gb->UseRealTime(); return b; }
bg_bench *bg_bench_repetitions(bg_bench *b, int n) { b->gb->Repetitions(n); return b; }
bg_bench *bg_bench_iterations(bg_bench *b, uint64_t n)
{
    b->gb->Iterations(static_cast<benchmark::IterationCount>(n));
    return b;
}
bg_bench *bg_bench_min_time(bg_bench *b, double s) { b->gb->MinTime(s); return b; }
bg_bench *bg_bench_unit_ms(bg_bench *b) { b->gb->Unit(benchmark::kMillisecond); return b; }

int64_t bg_bench_state_arg(const bg_bench_state *st, int i)
{
    return st->gb->range(static_cast<std::size_t>(i));
}
int bg_bench_thread_index(const bg_bench_state *st) { return st->gb->thread_index(); }
int bg_bench_thread_count(const bg_bench_state *st) { return st->gb->threads(); }
void bg_bench_set_items_processed(bg_bench_state *st, int64_t n) { st->gb->SetItemsProcessed(n); }
void bg_bench_set_bytes_processed(bg_bench_state *st, int64_t n) { st->gb->SetBytesProcessed(n); }
void bg_bench_set_batch_time(bg_bench_state *st, double s) { st->gb->SetIterationTime(s); }
void bg_bench_pause(bg_bench_state *st) { st->gb->PauseTiming(); }
void bg_bench_resume(bg_bench_state *st) { st->gb->ResumeTiming(); }
void bg_bench_error(bg_bench_state *st, const char *msg) { st->gb->SkipWithError(msg); }
void bg_bench_set_label(bg_bench_state *st, const char *label) { st->gb->SetLabel(label); }
void bg_bench_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }

void bg_bench_counter(bg_bench_state *st, const char *name, double value, int flags)
{
    st->gb->counters[name] =
        benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(flags));
}

void bg_bench_keep_slow(const void *p, size_t n)
{
    const unsigned char *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; i++)
        benchmark::DoNotOptimize(c[i]);
    benchmark::ClobberMemory();
}

static void cxx_reference(benchmark::State &state)
{
    uint64_t x = static_cast<uint64_t>(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(x = bg_bench_xorshift64(x));
    state.SetItemsProcessed(state.iterations());
}

void bg_bench_register_cxx_reference(void)
{
    cxx_reference_bench =
        benchmark::RegisterBenchmark("bg_bench/overhead/cxx_loop", cxx_reference)->ArgName("seed")->Arg(88172645463325252LL);
}

// Takes --bg_iterations=N out of argv (before Google Benchmark sees it) and
// fixes every registered benchmark to N iterations.  0 when absent, -1 bad.
static long long take_fixed_iterations(int *argc, char **argv)
{
    long long n = 0;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (std::strncmp(argv[i], "--bg_iterations=", 16) == 0) {
            char *end;
            n = std::strtoll(argv[i] + 16, &end, 10);
            if (*end || n < 1)
                return -1;
            continue;
        }
        argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = nullptr;
    if (n > 0) {
        for (const auto &b : registry())
            b->gb->Iterations(n);
        if (cxx_reference_bench)
            cxx_reference_bench->Iterations(n);
    }
    return n;
}

int bg_bench_main(int argc, char **argv)
{
    if (take_fixed_iterations(&argc, argv) < 0) {
        std::fprintf(stderr, "buildgate: bench: --bg_iterations=N needs an integer N >= 1\n");
        return 2;
    }
    static char help[] = "--help";
    for (int i = 1; i < argc; i++)
        if (std::strcmp(argv[i], "-h") == 0)
            argv[i] = help; /* Google Benchmark knows --help only */
    benchmark::Initialize(&argc, argv);
    if (argc > 1) {
        std::fprintf(stderr, "buildgate: bench: unknown argument '%s' (flags: --benchmark_*; see --help)\n",
                     argv[1]);
        return 2;
    }
    ErrorNotingReporter display;
    benchmark::RunSpecifiedBenchmarks(&display);
    benchmark::Shutdown();
    return display.any_error ? 7 : 0;
}

} // extern "C"
