# sources.cmake — perf-bench's sources, in one place, relative to this folder:
# read by suites/perf_budgets/CMakeLists.txt (the host's perf-bench) and by
# each digest build variant's probe build (suites/digest_agreement/builds/probe/
# CMakeLists.txt: a RandomX-only perf-bench per variant), so that a new source
# file is named once.
#   BG_PERF_BENCH_CORE   the runner and the slowdown knob (every perf-bench)
#   BG_PERF_BENCH_RX     the RandomX benchmarks, their huge-page advice and the
#                        memory-latency knob's cycle
set(BG_PERF_BENCH_CORE bench_main.c perf_knob.c)
set(BG_PERF_BENCH_RX bench_randomx.c rx_thp.c rx_chase.c)
