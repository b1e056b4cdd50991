/* rx_placement.c — one process's light-mode RandomX hash time beside where its
 * memory physically lies (issue 24 item 1: "physical page colouring";
 * docs/performance.md "Why light-mode processes were bimodal").  A study tool,
 * not a test: a shell loop runs it once per process and correlates the rows.
 *
 * Usage, output columns and exits: usage_text below (rx-placement --help).
 * Per process: a new 256 MiB light cache (RandomX's own allocation, advised for
 * huge pages as perf-bench does unless BG_PERF_RX_THP=off: bench/rx_thp.h), a
 * VM with JIT and hard AES, hashes of perf-bench's hash/light-* inputs (an
 * 8-byte counter in a 68-byte message) timed one by one, then a dependent
 * random walk over the cache's own 64-byte lines (each index depends on the
 * line just read: the latency of exactly these pages).
 * Sources: Linux Documentation/admin-guide/mm/pagemap.rst (bit 63 present,
 * bits 0-54 the frame number); RandomX src/randomx.h (the API). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <randomx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "buildgate/bg_stats.h"
#include "rx_thp.h"

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* frame number of the page holding p, or -1 (absent, unreadable) */
static int64_t frame_of(int fd, uintptr_t p)
{
    uint64_t e;
    off_t at = (off_t)(p / 4096) * 8;
    if (pread(fd, &e, sizeof e, at) != (ssize_t)sizeof e || !(e >> 63))
        return -1;
    return (int64_t)(e & ((1ULL << 55) - 1));
}

/* median cpu ms per hash over n hashes of perf-bench's inputs; t: n doubles */
static double hash_median(randomx_vm *vm, long n, double *t, double *min)
{
    uint8_t msg[68] = {0}, out[RANDOMX_HASH_SIZE];
    for (long i = 0; i < n; i++) {
        memcpy(msg, &i, sizeof i);
        double a = cpu_ms();
        randomx_calculate_hash(vm, msg, sizeof msg, out);
        t[i] = cpu_ms() - a;
    }
    *min = t[0];
    for (long i = 1; i < n; i++)
        *min = t[i] < *min ? t[i] : *min;
    return bg_median(t, (size_t)n);
}

/* ns per dependent 64-byte load over [lo, hi) (each index depends on the
 * line just read), 2^22 loads; *acc keeps the loads */
static double walk_ns(uintptr_t lo, uintptr_t hi, uint64_t *acc)
{
    const volatile uint64_t *w = (const uint64_t *)lo;
    uint64_t lines = (hi - lo) / 64, at = 12345, a = 0;
    const long loads = 1L << 22;
    double w0 = wall_ns();
    for (long i = 0; i < loads; i++) {
        a += w[at * 8];
        at = (at * 6364136223846793005ULL + 1442695040888963407ULL + a) % lines;
    }
    *acc += a;
    return (wall_ns() - w0) / (double)loads;
}

/* ns per step of a dependent multiply-add chain in registers (2^24 steps): no
 * memory at all, so it moves only with the core's clock (and time slicing,
 * which CLOCK_PROCESS_CPUTIME_ID excludes) */
static double alu_ns(uint64_t *acc)
{
    uint64_t x = *acc | 1;
    const long steps = 1L << 24;
    double a = cpu_ms();
    for (long i = 0; i < steps; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        __asm__ volatile("" : "+r"(x));
    }
    *acc += x;
    return (cpu_ms() - a) * 1e6 / (double)steps;
}

static int fail(const char *what)
{
    fprintf(stderr, "buildgate: rx-placement: %s\n", what);
    return 3;
}

static const char key[] = "buildgate rx-placement";
static const randomx_flags rx_f = (randomx_flags)(RANDOMX_FLAG_JIT | RANDOMX_FLAG_HARD_AES);

/* a new cache (alloc + init, advised per BG_PERF_RX_THP): NULL on failure */
static randomx_cache *new_cache(rx_thp_region *cr)
{
    rx_thp_begin();
    randomx_cache *c = randomx_alloc_cache(rx_f);
    *cr = rx_thp_end();
    if (c && !cr->lo) {
        randomx_release_cache(c);
        return NULL;
    }
    if (c)
        randomx_init_cache(c, key, sizeof key - 1);
    return c;
}

/* --renew cache|vm ROUNDS HASHES: which allocation carries a process's speed */
static int renew(int cache_each, long rounds, long hashes)
{
    double *t = malloc((size_t)hashes * sizeof *t), mn;
    rx_thp_region cr;
    randomx_cache *c = NULL;
    uint64_t acc = 0;
    if (!t)
        return fail("out of memory");
    for (long r = 0; r < rounds; r++) {
        if (!c || cache_each) {
            if (c)
                randomx_release_cache(c);
            if (!(c = new_cache(&cr)))
                return fail("randomx_alloc_cache failed or added no mapping of >= 2 MiB");
        }
        randomx_vm *vm = randomx_create_vm(rx_f, c, NULL);
        if (!vm)
            return fail("randomx_create_vm failed");
        double h = hash_median(vm, hashes, t, &mn);
        double wk = walk_ns(cr.lo, cr.hi, &acc);
        printf("%ld\t%s\t%.3f\t%.1f\t%.3f\n", r, cache_each ? "cache" : "vm", h, wk, alu_ns(&acc));
        fflush(stdout);
        randomx_destroy_vm(vm);
    }
    randomx_release_cache(c);
    free(t);
    return (int)(acc & 0);
}

static const char usage_text[] =
    "Usage: rx-placement [HASHES]\n"
    "       rx-placement --renew cache|vm ROUNDS HASHES\n"
    "One process's light-mode RandomX hash time (JIT, hard AES) beside the latency of the\n"
    "memory it reads (docs/performance.md \"The cause, measured\"; a study tool). x86-64\n"
    "Linux, root (/proc/self/pagemap). BG_PERF_RX_THP=on (default)|off: huge page advice\n"
    "for the cache, as perf-bench.\n"
    "  HASHES  1..100000 (default 40): hashes timed one by one (cpu ms)\n"
    "  ROUNDS  1..1000: rounds in one process, each a new VM on one cache (vm) or a new\n"
    "          cache and VM (cache)\n"
    "Output, one tab-separated line: hash_ms_median hash_ms_min walk_ns pages gib_hist\n"
    "  l2_colour_max frames gib_ticks (walk_ns: ns per dependent 64-byte load over the\n"
    "  cache, 2^22 loads; gib_hist: the cache's 4 KiB pages per GiB of guest-physical\n"
    "  address, \"g:count,...\"; l2_colour_max: the scratchpad's first 256 KiB, pages per\n"
    "  colour of 16, the fullest; frames: huge|4k; gib_ticks: per GiB, the median TSC\n"
    "  ticks of one load from a flushed line, one line per page).\n"
    "--renew: a line per round: round renewed hash_ms_median walk_ns alu_ns (cpu ns per\n"
    "  step of a register-only multiply-add chain: the core clock's witness).\n"
    "Exit: 0; 2 usage (also BG_PERF_RX_THP not on|off); 3 RandomX or /proc failed.\n";

static int usage(const char *why)
{
    fprintf(stderr, "buildgate: rx-placement: %s (see rx-placement --help)\n", why);
    return 2;
}

/* v as a whole number in [1, max], else -1 */
static long whole(const char *v, long max)
{
    char *e;
    long n = strtol(v, &e, 10);
    return *v && !*e && n >= 1 && n <= max ? n : -1;
}

int main(int argc, char **argv)
{
    long hashes = 40, rounds = 0;
    int cache_each = 0;
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rx_thp_policy() < 0)
        return usage("BG_PERF_RX_THP must be on or off");
    if (argc == 5 && !strcmp(argv[1], "--renew")) {
        cache_each = !strcmp(argv[2], "cache");
        if (!cache_each && strcmp(argv[2], "vm"))
            return usage("--renew takes cache or vm");
        if ((rounds = whole(argv[3], 1000)) < 0)
            return usage("ROUNDS must be a whole number 1..1000");
        if ((hashes = whole(argv[4], 100000)) < 0)
            return usage("HASHES must be a whole number 1..100000");
    } else if (argc == 2) {
        if ((hashes = whole(argv[1], 100000)) < 0)
            return usage("HASHES must be a whole number 1..100000");
    } else if (argc != 1) {
        return usage("want [HASHES] or --renew cache|vm ROUNDS HASHES");
    }
    if (rounds)
        return renew(cache_each, rounds, hashes);
    rx_thp_region cr, sr;
    randomx_cache *cache = new_cache(&cr);
    if (!cache)
        return fail("randomx_alloc_cache failed or added no mapping of >= 2 MiB");
    rx_thp_begin();
    randomx_vm *vm = randomx_create_vm(rx_f, cache, NULL);
    sr = rx_thp_end();
    if (!vm)
        return fail("randomx_create_vm failed");
    double *t = malloc((size_t)hashes * sizeof *t), tmin;
    if (!t)
        return fail("out of memory");
    double tmed = hash_median(vm, hashes, t, &tmin);
    uint64_t acc = 0;
    double walk = walk_ns(cr.lo, cr.hi, &acc);

    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0)
        return fail("cannot open /proc/self/pagemap");
    enum { GIB_MAX = 1024 };
    static long gib[GIB_MAX];
    long pages = 0, npg = (long)((cr.hi - cr.lo) / 4096);
    int32_t *pg_gib = malloc((size_t)npg * sizeof *pg_gib);
    double *lat = malloc((size_t)npg * sizeof *lat);
    if (!pg_gib || !lat)
        return fail("out of memory");
    for (uintptr_t p = cr.lo; p < cr.hi; p += 4096) {
        int64_t fr = frame_of(fd, p);
        pg_gib[(p - cr.lo) / 4096] = fr > 0 ? (int32_t)((fr >> 18) < GIB_MAX ? fr >> 18 : GIB_MAX - 1) : -1;
        if (fr <= 0)
            continue;
        pages++;
        int64_t g = fr >> 18; /* 2^18 frames of 4 KiB = 1 GiB */
        gib[g < GIB_MAX ? g : GIB_MAX - 1]++;
    }
    int64_t f0 = frame_of(fd, cr.lo + (2u << 20) - (cr.lo % (2u << 20)));
    int64_t f1 = frame_of(fd, cr.lo + (2u << 20) - (cr.lo % (2u << 20)) + 4096);
    int huge = f0 > 0 && f1 == f0 + 1 && f0 % 512 == 0; /* 2 MiB-aligned, contiguous */
    int colour[16] = {0}, cmax = 0;
    for (uintptr_t p = sr.lo; sr.lo && p < sr.lo + (256u << 10) && p < sr.hi; p += 4096) {
        int64_t fr = frame_of(fd, p);
        if (fr > 0 && ++colour[fr % 16] > cmax)
            cmax = colour[fr % 16];
    }
    close(fd);
    if (!pages)
        return fail("no frame numbers readable (not root?)");
    printf("%.3f\t%.3f\t%.1f\t%ld\t", tmed, tmin, walk, pages);
    const char *sep = "";
    for (int g = 0; g < GIB_MAX; g++)
        if (gib[g] * 100 >= pages) {
            printf("%s%d:%ld", sep, g, gib[g]);
            sep = ",";
        }
    printf("\t%d\t%s\t", cmax, huge ? "huge" : "4k");
    /* one flushed line per page, timed alone (TSC ticks, the load's latency
     * including its page walk), the median per GiB of guest-physical address:
     * latency by where the frames lie, the same for every process if the
     * host's backing of guest memory is what differs */
    sep = "";
    for (int g = 0; g < GIB_MAX; g++) {
        if (gib[g] * 100 < pages)
            continue;
        long k = 0;
        for (long i = 0; i < npg; i++)
            if (pg_gib[i] == g) {
                const volatile uint8_t *q = (const uint8_t *)(cr.lo + (uintptr_t)i * 4096 + (uintptr_t)(i * 7 % 64) * 64);
                _mm_clflush((const void *)q);
                _mm_mfence();
                unsigned aux;
                uint64_t t0 = __rdtscp(&aux);
                acc += *q;
                uint64_t t1 = __rdtscp(&aux);
                lat[k++] = (double)(t1 - t0);
            }
        printf("%s%d:%.0f", sep, g, bg_median(lat, (size_t)k));
        sep = ",";
    }
    printf("\n");
    free(pg_gib);
    free(lat);
    randomx_destroy_vm(vm);
    randomx_release_cache(cache);
    free(t);
    return (int)(acc & 0);
}
