/* bench.h — the benchmark groups of perf-bench (each registers its own). */
#ifndef PERF_BENCH_H
#define PERF_BENCH_H

void perf_register_synth(void);   /* bench_synth.c */
void perf_register_aes(void);     /* bench_aes.c */
void perf_register_randomx(void); /* bench_randomx.c */

#endif
