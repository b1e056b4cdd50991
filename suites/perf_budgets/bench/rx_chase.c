/* rx_chase.c — the dependent-load cycle of the memory-latency knob (rx_chase.h). */
#include "rx_chase.h"

#include "buildgate/bg_bench.h"
#include <stdlib.h>

uint64_t *rx_chase_make(void)
{
    uint64_t n = RX_CHASE_BYTES / 64, *perm = malloc(n * sizeof *perm);
    uint64_t *lines = perm ? malloc(RX_CHASE_BYTES) : NULL;
    if (lines) {
        uint64_t x = 88172645463325252ULL;
        for (uint64_t i = 0; i < n; i++)
            perm[i] = i;
        for (uint64_t i = n - 1; i > 0; i--) { /* Sattolo: one cycle through all n */
            x = bg_bench_xorshift64(x);
            uint64_t j = x % i, t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (uint64_t i = 0; i < n; i++)
            lines[perm[i] * 8] = perm[(i + 1) % n] * 64;
    }
    free(perm);
    return lines;
}

__attribute__((noinline)) uint64_t rx_chase(const uint64_t *lines, uint64_t at, uint64_t n)
{
    const char *base = (const char *)lines;
    for (uint64_t k = 0; k < n; k++)
        at = *(const uint64_t *)(const void *)(base + at);
    return at;
}
