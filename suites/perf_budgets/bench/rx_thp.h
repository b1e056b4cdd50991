/* rx_thp.h — transparent huge page (THP) advice for RandomX's memory in
 * perf-bench, and what the kernel actually gave.
 *
 * Production RandomX runs with huge pages for its 256 MiB cache (miners and
 * nodes ask for RANDOMX_FLAG_LARGE_PAGES or madvise(MADV_HUGEPAGE) their
 * allocations); RandomX 1.1.10's default allocator (_mm_malloc) never
 * advises, so on a host whose THP mode is `madvise` a plain randomx_alloc_cache
 * gets 4 KiB pages only (docs/performance.md "Why light-mode processes were
 * bimodal").  perf-bench therefore brackets the RandomX allocation calls:
 * rx_thp_begin() notes the process's private anonymous mappings
 * (/proc/self/maps), rx_thp_end() finds the address ranges the call added and
 * madvise(MADV_HUGEPAGE)s every one of >= 2 MiB before RandomX touches them
 * (randomx_alloc_cache does not write its memory; randomx_init_cache does).
 * No RandomX source is patched and the same works for the installed shared
 * library.
 *
 * Policy: environment BG_PERF_RX_THP = on (default: production) | off
 * (RandomX's own allocation, unadvised: the measurement's control).  Any other
 * value is a usage error (rx_thp_policy returns -1).
 * Linux only (MADV_HUGEPAGE, /proc); elsewhere every call is a no-op and
 * rx_thp_host() says why.
 */
#ifndef PERF_RX_THP_H
#define PERF_RX_THP_H

#include <stddef.h>
#include <stdint.h>

/* An address range [lo, hi) RandomX allocated, and what it got. */
typedef struct rx_thp_region {
    uintptr_t lo, hi;
    int advised;         /* madvise(MADV_HUGEPAGE) returned 0 */
} rx_thp_region;

/* 1 on (default), 0 off, -1 when BG_PERF_RX_THP holds anything else. */
int rx_thp_policy(void);

/* The host's THP mode: "always", "madvise", "never" (the bracketed word of
 * /sys/kernel/mm/transparent_hugepage/enabled), or "unavailable: <why>". */
const char *rx_thp_host(void);

/* Note the mappings now (call right before a RandomX allocation). */
void rx_thp_begin(void);

/* After the allocation: the largest range >= 2 MiB it added (advised when the
 * policy is on), or {0, 0, 0} when none was found.  Not thread-safe: perf-bench
 * allocates RandomX memory from one thread at a time (under its lock). */
rx_thp_region rx_thp_end(void);

/* KiB of AnonHugePages (/proc/self/smaps) in mappings that overlap r; -1 when
 * it cannot be read (not Linux, r empty). */
long rx_thp_huge_kib(rx_thp_region r);

#endif
