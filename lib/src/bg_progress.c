/* bg_progress.c — progress files of long steps and the host's load (bg_progress.h). */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* getloadavg with the POSIX headers */
#else
#define _DEFAULT_SOURCE /* glibc: getloadavg */
#endif
#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bg_progress_report(unsigned long long done, unsigned long long total, const char *unit,
                       double min_interval_s)
{
    static double last_t = -1;
    static char last_unit[160];
    const char *path = getenv(BG_PROGRESS_ENV);
    if (!path || !*path)
        return 0;
    if (!unit)
        unit = "";
    double now = mono_s();
    int unit_changed = strncmp(last_unit, unit, sizeof last_unit - 1) != 0;
    if (last_t >= 0 && now - last_t < min_interval_s && done != total && !unit_changed)
        return 0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int ok = fprintf(f, "%llu %llu %.159s\n", done, total, unit) > 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    last_t = now;
    snprintf(last_unit, sizeof last_unit, "%s", unit);
    return 0;
}

int bg_progress_read(const char *path, bg_progress *p)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(p->raw, 1, sizeof p->raw - 1, f);
    fclose(f);
    p->raw[n] = '\0';
    char *nl = strchr(p->raw, '\n');
    if (!nl) /* a writer half-way (or an overlong line): not a line yet */
        return 0;
    *nl = '\0';
    char *end;
    const char *s = p->raw;
    if (*s < '0' || *s > '9')
        return 0;
    p->done = strtoull(s, &end, 10);
    if (*end != ' ' || end[1] < '0' || end[1] > '9')
        return 0;
    p->total = strtoull(end + 1, &end, 10);
    if (*end != ' ' && *end != '\0')
        return 0;
    while (*end == ' ')
        end++;
    snprintf(p->unit, sizeof p->unit, "%s", end);
    return 1;
}

void bg_progress_describe(const bg_progress *p, char *buf, size_t n)
{
    if (!p)
        snprintf(buf, n, "no progress reported");
    else if (p->total)
        snprintf(buf, n, "%llu of %llu %s (%.0f %%)", p->done, p->total, p->unit,
                 100.0 * (double)p->done / (double)p->total);
    else
        snprintf(buf, n, "%llu %s", p->done, p->unit);
}

double bg_host_load(void)
{
    double l[1];
    if (getloadavg(l, 1) != 1)
        return -1;
    return l[0];
}

void bg_host_load_describe(char *buf, size_t n)
{
    double l = bg_host_load();
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    if (l >= 0)
        snprintf(buf, n, "load %.2f on %ld CPUs", l, c > 0 ? c : 1);
    else
        snprintf(buf, n, "load unknown on %ld CPUs", c > 0 ? c : 1);
}
