/* litmus_verdict.c — see litmus_verdict.h. */
#include "litmus_verdict.h"

#include "buildgate/bg_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "litmus_expect.h"
#include "litmus_sc.h"

bg_status litmus_histogram_parse(const litmus_test *t, const cJSON *hist,
                                 uint64_t *counts, uint64_t *total)
{
    unsigned count = litmus_outcome_count(t);
    memset(counts, 0, (count + 1) * sizeof *counts);
    *total = 0;
    if (!cJSON_IsObject(hist))
        return BG_E_PARSE;
    const cJSON *e;
    cJSON_ArrayForEach(e, hist) {
        if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble != floor(e->valuedouble))
            return BG_E_PARSE;
        int idx = litmus_outcome_parse(t, e->string);
        uint64_t k = (uint64_t)e->valuedouble;
        counts[idx < 0 ? count : (unsigned)idx] += k;
        *total += k;
    }
    return BG_OK;
}

void litmus_allowed(const litmus_test *t, unsigned exists, int exists_allowed,
                    unsigned char *allowed)
{
    litmus_sc_outcomes(t, allowed);
    if (exists_allowed && exists < litmus_outcome_count(t))
        allowed[exists] = 1;
}

uint64_t litmus_forbidden(const litmus_test *t, const uint64_t *counts,
                          const unsigned char *allowed, unsigned *worst)
{
    unsigned count = litmus_outcome_count(t);
    uint64_t total = 0, best = 0;
    for (unsigned o = 0; o <= count; o++) {
        if (o < count && allowed[o])
            continue;
        total += counts[o];
        if (counts[o] > best) {
            best = counts[o];
            *worst = o;
        }
    }
    return total;
}

double litmus_per_million(uint64_t k, uint64_t n)
{
    return n ? (double)k * 1e6 / (double)n : 0.0;
}

double litmus_upper95_per_million(uint64_t n)
{
    return n ? 3e6 / (double)n : 1e6;
}

void litmus_no_power_reason(const char *runner, const char *probe_arch, const char *host_arch,
                            int ncpu, char *buf, size_t n)
{
    if (ncpu <= 1)
        snprintf(buf, n, "1 CPU available (affinity mask or online CPUs): the test's threads "
                         "never run at the same time");
    else if (strstr(runner, "valgrind"))
        snprintf(buf, n, "valgrind serialises threads (one guest thread runs at a time), so no "
                         "two accesses are ever concurrent");
    else if (strcmp(probe_arch, "arm64") == 0 && strcmp(host_arch, "x86_64") == 0)
        snprintf(buf, n, "%s emulates arm64 on an x86-64 host: guest loads and stores become "
                         "host x86-TSO accesses, so Armv8 reorderings cannot appear; this "
                         "needs arm64 hardware", runner);
    else if (strncmp(runner, "native", 6) != 0)
        snprintf(buf, n, "runner %s did not let the threads race in this run (it may serialise "
                         "threads or run them on one host CPU)", runner);
    else
        snprintf(buf, n, "not seen in this run: too few iterations for this host (raise "
                         "--iterations) or the CPUs were busy");
}

int litmus_forbidden_verdict(uint64_t forbidden, int only_exists, int deviation,
                             double dev_rate_pm, uint64_t n)
{
    if (forbidden)
        return deviation && only_exists ? BG_XFAIL : BG_FAIL;
    if (!deviation)
        return BG_PASS;
    return dev_rate_pm * (double)n / 1e6 >= 20.0 ? BG_XPASS : BG_INCONCLUSIVE;
}
