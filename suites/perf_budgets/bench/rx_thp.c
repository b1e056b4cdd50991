/* rx_thp.c — THP advice for RandomX's allocations (rx_thp.h). */
#define _DEFAULT_SOURCE
#include "rx_thp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

int rx_thp_policy(void)
{
    const char *v = getenv("BG_PERF_RX_THP");
    if (!v || !*v || strcmp(v, "on") == 0)
        return 1;
    if (strcmp(v, "off") == 0)
        return 0;
    return -1;
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)

#define RX_THP_2M ((uintptr_t)2 << 20)
#define RX_MAPS_MAX 16384

typedef struct range {
    uintptr_t lo, hi;
} range;

static range before[RX_MAPS_MAX];
static size_t n_before;

const char *rx_thp_host(void)
{
    static char mode[64];
    char line[256];
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return "unavailable: no /sys/kernel/mm/transparent_hugepage/enabled";
    char *ok = fgets(line, sizeof line, f);
    fclose(f);
    char *a = ok ? strchr(line, '[') : NULL, *b = a ? strchr(a, ']') : NULL;
    if (!b || (size_t)(b - a - 1) >= sizeof mode)
        return "unavailable: unreadable transparent_hugepage/enabled";
    memcpy(mode, a + 1, (size_t)(b - a - 1));
    mode[b - a - 1] = 0;
    return mode;
}

/* The private writable anonymous mappings (no path, or [heap]), ascending. */
static size_t anon_maps(range *r, size_t max)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    size_t n = 0;
    if (!f)
        return 0;
    while (n < max && fgets(line, sizeof line, f)) {
        unsigned long lo, hi, ino;
        char perms[8];
        int end = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %n", &lo, &hi, perms, &ino, &end) < 4)
            continue;
        const char *path = line + end;
        if (ino != 0 || perms[0] != 'r' || perms[1] != 'w' || perms[3] != 'p' ||
            (path[0] != '\n' && path[0] != 0 && strncmp(path, "[heap]", 6) != 0))
            continue;
        r[n++] = (range){(uintptr_t)lo, (uintptr_t)hi};
    }
    fclose(f);
    return n;
}

void rx_thp_begin(void) { n_before = anon_maps(before, RX_MAPS_MAX); }

rx_thp_region rx_thp_end(void)
{
    static range after[RX_MAPS_MAX];
    size_t n_after = anon_maps(after, RX_MAPS_MAX);
    rx_thp_region best = {0, 0, 0};
    int advise = rx_thp_policy() == 1;
    /* each new piece: an after-range minus every before-range (both sorted) */
    for (size_t i = 0, j = 0; i < n_after; i++) {
        uintptr_t cur = after[i].lo, hi = after[i].hi;
        while (j < n_before && before[j].hi <= cur)
            j++;
        for (size_t k = j; cur < hi; k++) {
            uintptr_t stop = k < n_before && before[k].lo < hi ? before[k].lo : hi;
            if (stop > cur && stop - cur >= RX_THP_2M) {
                rx_thp_region r = {cur, stop, 0};
                if (advise)
                    r.advised = madvise((void *)cur, stop - cur, MADV_HUGEPAGE) == 0;
                if (r.hi - r.lo > best.hi - best.lo)
                    best = r;
            }
            if (k >= n_before || before[k].lo >= hi)
                break;
            if (before[k].hi > cur)
                cur = before[k].hi;
        }
    }
    return best;
}

long rx_thp_huge_kib(rx_thp_region r)
{
    if (r.hi <= r.lo)
        return -1;
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[1024];
    long kib = 0;
    int in = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi, v;
        char c;
        /* a mapping's header starts with its (lower-case hex) address; its
         * fields with a capitalised name ("AnonHugePages:") */
        if (!(line[0] >= 'A' && line[0] <= 'Z') && sscanf(line, "%lx-%lx %c", &lo, &hi, &c) == 3)
            in = (uintptr_t)lo < r.hi && (uintptr_t)hi > r.lo;
        else if (in && sscanf(line, "AnonHugePages: %lu kB", &v) == 1)
            kib += (long)v;
    }
    fclose(f);
    return kib;
}

#else /* no MADV_HUGEPAGE or no /proc: nothing to advise, nothing to read */

const char *rx_thp_host(void) { return "unavailable: not Linux (no MADV_HUGEPAGE)"; }
void rx_thp_begin(void) {}
rx_thp_region rx_thp_end(void)
{
    rx_thp_region r = {0, 0, 0};
    return r;
}
long rx_thp_huge_kib(rx_thp_region r)
{
    (void)r;
    return -1;
}

#endif
