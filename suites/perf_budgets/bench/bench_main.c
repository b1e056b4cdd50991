/* perf-bench — the perf_budgets benchmarks, a Google Benchmark program.
 *
 * Usage: perf-bench [--benchmark_* flags]   (e.g. --benchmark_filter=synth
 *        --benchmark_repetitions=5 --benchmark_out=run.json)
 * Environment: BG_PERF_SLOWDOWN_PCT (perf_knob.h).
 * Built with BG_PERF_BENCH_RANDOMX_ONLY (each build variant's perf-bench, in the
 * digest suite's variant probe, builds/probe/CMakeLists.txt): the RandomX
 * benchmarks only.
 * Exit: 0; 2 bad flag; 7 a benchmark reported an error (bg_bench_main).
 */
#include "bench.h"

#include "buildgate/bg_bench.h"
#include "buildgate/bg_guard.h"

int main(int argc, char **argv)
{
    bg_guard_set_tool("perf-bench"); /* "buildgate: perf-bench: RandomX failed: ..." */
#ifndef BG_PERF_BENCH_RANDOMX_ONLY
    perf_register_synth();
    perf_register_aes();
#endif
    perf_register_randomx();
    return bg_bench_main(argc, argv);
}
