/* rx_flags.h — RandomX runtime flags by name, and the variant slug.
 *
 * Names (interface, bg-chain --flags): jit, hard-aes, full-mem, secure,
 * argon2=ref|ssse3|avx2, large-pages, v2 (only where randomx.h has
 * RANDOMX_FLAG_V2), and "auto" (randomx_get_flags(): what the library
 * recommends on this host, without jit when the host forbids W+X memory,
 * bg_wx.h).  Numeric values: randomx.h enum randomx_flags.
 *
 * Slug (interface, CTest names digest.runtime.<slug>):
 *   <jit|interp>[+secure]+<hard|soft>-aes+<light|full>[+argon2-<ref|ssse3|avx2>][+large-pages][+v2]
 * e.g. jit+secure+hard-aes+light+argon2-avx2.  The argon2 part is left out
 * when the dataset comes from a shared file (the cache's Argon2 then plays no
 * part in the hash).
 */
#ifndef RX_FLAGS_H
#define RX_FLAGS_H

#include <stddef.h>

#include <randomx.h>

#include "buildgate/bg_error.h"

/* Parses a comma-separated list of names (spaces allowed) into *out.
 * Errors (one line printed): BG_E_USAGE for an unknown name, an argon2 value
 * other than ref/ssse3/avx2, "secure" without "jit", or "v2" on a library
 * without RandomX v2. */
bg_status rx_flags_parse(const char *list, randomx_flags *out);

/* Writes the slug of flags into buf[n]; with_argon2=0 leaves the argon2 part out. */
void rx_flags_slug(randomx_flags flags, int with_argon2, char *buf, size_t n);

/* 1 when slug is a slug rx_flags_slug can write (the grammar above, secure
 * only with jit) of the algorithm: with +v2 exactly for "randomx-v2"
 * ("*": either); 0 otherwise.  Textual: a RandomX v1-only build judges
 * randomx-v2 slugs alike. */
int rx_slug_valid(const char *slug, const char *algorithm);

/* Writes the comma-separated names of flags (as rx_flags_parse reads them). */
void rx_flags_names(randomx_flags flags, char *buf, size_t n);

/* 1 when the RandomX library was built with RANDOMX_FLAG_V2 support. */
int rx_flags_have_v2(void);

#endif
