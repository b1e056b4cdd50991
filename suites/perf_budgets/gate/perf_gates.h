/* perf_gates.h — which benchmarks each perf test gates, declared once in
 * budgets.json (docs/perf_budgets.md "Gated benchmarks"), not as regexes in
 * CMake:
 *   "gates": {"<gate>": ["<exact benchmark name>" | "<prefix>/" | "<prefix>:", ...], ...}
 * A segment that is just "*" (between slashes) holds any one segment of a
 * name (perf_name_match, perf_budget.h): randomx, two such segments, then
 * hash/light-jit-hard is that benchmark for every RandomX version and build
 * variant (budgets.json spells it out).
 * An entry ending in '/' or ':' is a name prefix; any other entry is one exact
 * name.  A test passes `bg-perf <mode> --gates <gate>`; `bg-perf gated` checks
 * that every benchmark the program lists is in some gate (or retired), so a
 * new benchmark cannot go ungated.
 */
#ifndef PERF_GATES_H
#define PERF_GATES_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* Why budgets' "gates" member is invalid (not an object of non-empty arrays of
 * non-empty strings), with *where the gate's name; NULL when valid or absent. */
const char *perf_gates_invalid(const cJSON *budgets, const char **where);

/* The Google Benchmark --benchmark_filter regex of gate `gate` into buf[n]:
 * "^(a|b/.*)$", regex metacharacters escaped.  BG_E_USAGE (one line) when
 * budgets has no such gate; BG_E_NOMEM when buf is too small. */
bg_status perf_gates_filter(const cJSON *budgets, const char *gate, char *buf, size_t n);

/* The first gate that holds benchmark `name`, or NULL. */
const char *perf_gates_find(const cJSON *budgets, const char *name);

/* bg-perf gated: runs `exe --benchmark_list_tests` and records one check
 * "<test>.<benchmark>" per benchmark: pass naming its gate, skip when retired,
 * fail when no gate holds it.  Returns the process exit code (0, 1; 3 when
 * the program cannot be run). */
int perf_gates_check(const char *exe, const cJSON *budgets);

#endif
