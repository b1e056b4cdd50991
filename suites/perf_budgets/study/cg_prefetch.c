/* cg_prefetch.c — does callgrind/cachegrind model software prefetch?  (docs/performance.md
 * "Memory behaviour by cache simulation").  64 MiB, 1M lines; touches 100000 random lines,
 * with (argument 1) or without (0) a software prefetch of each line 8 accesses ahead:
 *   cc -O2 -o cg_prefetch cg_prefetch.c
 *   valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
 *            --LL=8388608,16,64 ./cg_prefetch 0    (then 1) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int pf = argc > 1 && argv[1][0] == '1';
    size_t n = 1 << 20;
    char *buf = calloc(n, 64);
    uint32_t *idx = malloc(100000 * sizeof *idx);
    uint64_t x = 88172645463325252ULL, s = 0;
    for (int i = 0; i < 100000; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; idx[i] = (uint32_t)(x % n); }
    for (int i = 0; i < 100000; i++) {
        if (pf && i + 8 < 100000)
            __builtin_prefetch(buf + (size_t)idx[i + 8] * 64);
        s += (unsigned char)buf[(size_t)idx[i] * 64];
    }
    printf("%llu\n", (unsigned long long)s);
    return 0;
}
