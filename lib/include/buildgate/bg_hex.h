/* bg_hex.h — lowercase hexadecimal encoding of byte strings (digests, keys). */
#ifndef BG_HEX_H
#define BG_HEX_H

#include <stddef.h>
#include <stdint.h>

#include "buildgate/bg_error.h"

/* Writes 2*n lowercase hex digits and a NUL to out (size >= 2*n+1). */
void bg_hex_encode(const uint8_t *in, size_t n, char *out);

/* Decodes hex (upper or lower case) into out[cap].  *n_out receives the byte
 * count.  BG_E_PARSE on an odd length or a non-hex digit, BG_E_USAGE when
 * cap is too small. */
bg_status bg_hex_decode(const char *hex, uint8_t *out, size_t cap, size_t *n_out);

#endif
