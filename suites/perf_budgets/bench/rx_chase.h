/* rx_chase.h — the memory-latency regression planted by perf-bench's chase
 * knob (BG_PERF_CHASE_LOADS, bench_randomx.c) and timed by the pair study
 * rx-turns: N dependent loads through one random cycle over RX_CHASE_BYTES,
 * one node per 64-byte line, so each load is a cache (and, with 4 KiB pages,
 * a TLB) miss and adds about 3 instructions (docs/performance.md "The planted
 * memory-latency regression"). */
#ifndef BG_RX_CHASE_H
#define BG_RX_CHASE_H
#include <stdint.h>

#define RX_CHASE_BYTES (64ULL << 20) /* 64 MiB: beyond this host's LL cache */

/* A new cycle: RX_CHASE_BYTES bytes (free() them), the first word of each
 * 64-byte line the byte offset of the next line; all lines in one cycle
 * (Sattolo's algorithm, xorshift64 from a fixed seed: the same cycle in every
 * process).  NULL when memory runs out.  Not timed: build it before measuring. */
uint64_t *rx_chase_make(void);

/* n dependent loads from byte offset at; returns the offset reached (keep it,
 * or the loads are dead).  Never inlined, so a profile names it rx_chase
 * (perf.selftest.callgrind_chase requires that name). */
uint64_t rx_chase(const uint64_t *lines, uint64_t at, uint64_t n);

#endif
