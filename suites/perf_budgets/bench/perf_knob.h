/* perf_knob.h — the injected-slowdown knob of the perf_budgets benchmarks.
 *
 * BG_PERF_SLOWDOWN_PCT=<p> (a number 0..1000, default 0; e.g. 0.5) makes the
 * knob-aware benchmarks (synth and aes groups) do (100+p)/100 times their
 * work per iteration, rounded down to whole units, so p = 10 is a real 10%
 * regression of instructions and time (synth/chain has 1000 units, so steps
 * of 0.1% are exact; aes/rounds has 100 per lane, so whole percents are).
 * Used by the self-tests and the detection-rate study (docs/performance.md).
 */
#ifndef PERF_KNOB_H
#define PERF_KNOB_H

#include <stdint.h>

/* Work units scaled by the knob: floor(units * (100 + p) / 100). */
uint64_t perf_knob_scale(uint64_t units);

#endif
