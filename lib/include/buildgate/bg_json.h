/* bg_json.h — reading and writing JSON files with cJSON, with one-line errors.
 *
 * Loading never aborts: a missing file is BG_E_IO, malformed or truncated
 * JSON is BG_E_PARSE (with the byte offset in the message).  Writing is
 * atomic (a temporary file in the same directory, then rename(2)), so a crash
 * never leaves a half-written fixture, baseline or results file.
 */
#ifndef BG_JSON_H
#define BG_JSON_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* Parses the file at path into *out (caller deletes).  what names the file
 * in error lines ("fixture", "baseline", ...).  Prints one error line. */
bg_status bg_json_load(const char *path, const char *what, cJSON **out);

/* Parses the NUL-terminated text buf (nothing may follow the value); NULL on
 * malformed or truncated JSON, with *err_at = the byte offset where parsing
 * stopped (-1 unknown).  Prints nothing. */
cJSON *bg_json_parse_buf(const char *buf, long *err_at);

/* The one error line of bg_json_load for text of len bytes at path that is
 * not JSON near byte at: "<what>: <path> is not valid JSON (near byte A of L)".
 * Returns BG_E_PARSE. */
bg_status bg_json_parse_error(const char *path, const char *what, long at, size_t len);

/* Why len bytes of a child's stdout (text; need not end in NUL) are not one
 * JSON document, into buf: "output is not JSON (L bytes)", then the first
 * line quoted (up to 80 bytes, control bytes as '?') with its byte count.
 * When a JSON document starts at a later line (a runner that logs to stdout
 * before the program's output): "output is not JSON (L bytes): N bytes before
 * the JSON document, which starts on line K; first line: '<line>' (B bytes)"
 * (the first 8 lines that start with '{' or '[' are tried).
 * Empty output: "output is empty (0 bytes)".  For the probes' failures
 * (nan-check, litmus-check), instead of a bare byte count. */
void bg_json_explain_invalid(const char *text, size_t len, char *buf, size_t n);

/* Writes doc, formatted, to path atomically.  Prints one error line. */
bg_status bg_json_write_atomic(const char *path, const cJSON *doc);

/* Field accessors that return NULL/fallback on a missing or mistyped field. */
const char *bg_json_str(const cJSON *obj, const char *key);

/* Makes every string value and key of item and its children valid UTF-8 in
 * place: each byte that does not start or continue a well-formed sequence
 * (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF) becomes '?'.
 * cJSON copies bytes as they are, so a check named from raw input (a
 * non-UTF-8 argv) would otherwise make results.json invalid JSON text.
 * Returns the number of bytes replaced. */
size_t bg_json_utf8_repair(cJSON *item);
double bg_json_num(const cJSON *obj, const char *key, double fallback);
/* 1 and *out when obj's member key is a number that is a whole number in
 * [0, 2^53] (every such double converts exactly), else 0 (missing, mistyped,
 * negative, fractional, NaN/Infinity, too large: converting those to an
 * integer type would be undefined behaviour). */
int bg_json_u64(const cJSON *obj, const char *key, uint64_t *out);

/* The known word nearest to word when it is a likely misspelling of one
 * (Levenshtein distance at most 2 and at most half its length), else
 * NULL; the first of equally near ones. known ends with NULL. */
const char *bg_nearest_word(const char *word, const char *const *known);

/* BG_OK when every member of obj (an object; anything else passes) is named
 * in known (ends with NULL), else one line `buildgate: <tool>: <file>:
 * unknown key '<k>' in <where>` (with ` (did you mean '<known>'?)` when
 * bg_nearest_word finds one) and BG_E_PARSE: a misspelt key in a settings
 * file is refused, never ignored. */
bg_status bg_json_known_keys(const cJSON *obj, const char *const *known, const char *file,
                             const char *where);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into buf[32]. */
void bg_utc_now(char buf[32]);

#endif
