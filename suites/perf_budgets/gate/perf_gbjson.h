/* perf_gbjson.h — reading Google Benchmark JSON as Google Benchmark writes it.
 *
 * Google Benchmark's JSON reporter (src/json_reporter.cc, FormatKV(double),
 * the same in 1.7.1, 1.8.3 and 1.9.1) writes a non-finite double as a bare
 * token: NaN, -NaN, Infinity or -Infinity.  JSON (RFC 8259) has no such
 * values and cJSON rejects them, so one NaN user counter would make the whole
 * file unreadable.  perf_gbjson_load accepts exactly those four tokens where
 * the reporter puts them, a value position (after ':' , ',' or '['), outside
 * strings, followed by a delimiter, and gives them to the caller as cJSON
 * numbers whose valuedouble is NAN, +INFINITY or -INFINITY.  Anything else
 * that is not JSON stays an error.  How: the tokens are first rewritten to
 * strings holding a marker byte (\u0001) that the reporter never writes
 * unescaped-as-such in a value position, the text is parsed by cJSON, and
 * the marked strings are turned back into numbers.
 */
#ifndef PERF_GBJSON_H
#define PERF_GBJSON_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* Parses the file at path into *out (caller deletes).  Errors, one line
 * printed: BG_E_IO, BG_E_NOMEM, BG_E_PARSE "benchmark results: <path> is not
 * valid JSON (near byte N of L)", N counted in the file as it is. */
bg_status perf_gbjson_load(const char *path, cJSON **out);

#endif
