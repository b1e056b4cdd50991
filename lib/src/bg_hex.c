#include "buildgate/bg_hex.h"

#include <string.h>

void bg_hex_encode(const uint8_t *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bg_status bg_hex_decode(const char *hex, uint8_t *out, size_t cap, size_t *n_out)
{
    size_t len = strlen(hex);
    if (len % 2)
        return BG_E_PARSE;
    if (len / 2 > cap)
        return BG_E_USAGE;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return BG_E_PARSE;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *n_out = len / 2;
    return BG_OK;
}
