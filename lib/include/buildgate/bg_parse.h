/* bg_parse.h — command-line numbers, strictly.
 *
 * A value is accepted only when it is all decimal digits (no sign, no
 * spaces, no suffix) and lies in [lo, hi]; "-5", "1e3", "12x" and overflow
 * are refused, so a typo can never become a huge or negative count.
 */
#ifndef BG_PARSE_H
#define BG_PARSE_H

#include <stdint.h>

#include "buildgate/bg_error.h"

/* Parses s into *out.  BG_E_USAGE (nothing printed) when s is not a whole
 * number in [lo, hi]; the caller names the option in its error line. */
bg_status bg_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

#endif
