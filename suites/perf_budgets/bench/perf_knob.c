/* perf_knob.c — see perf_knob.h. */
#include "perf_knob.h"

#include <stdlib.h>

uint64_t perf_knob_scale(uint64_t units)
{
    const char *s = getenv("BG_PERF_SLOWDOWN_PCT");
    double p = 0;
    if (s && *s) {
        char *end;
        p = strtod(s, &end);
        if (*end || !(p >= 0 && p <= 1000))
            p = 0; /* documented range; anything else is ignored, never a crash */
    }
    return (uint64_t)((double)units * (100.0 + p) / 100.0 + 1e-9);
}
