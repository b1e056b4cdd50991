#include "buildgate/bg_parse.h"

#include <errno.h>
#include <stdlib.h>

bg_status bg_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return BG_E_USAGE;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return BG_E_USAGE;
    *out = (uint64_t)v;
    return BG_OK;
}
