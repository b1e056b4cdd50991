/* build_matrix.h — the report.md cell of a build variant's check.
 *
 * Under a build variant's test (CTest name digest.build.<variant>[.<more>])
 * bg_build_matrix() adds to details {"matrix": {"table": "Build variants",
 * "row": <variant>, "col": col, "cell": cell}} (docs/results.schema.json
 * details.matrix, rendered by bg-report as one table) and returns 1; for any
 * other test name it adds nothing and returns 0.
 */
#ifndef BUILD_MATRIX_H
#define BUILD_MATRIX_H

#include <cjson/cJSON.h>

int bg_build_matrix(cJSON *details, const char *test, const char *col, const char *cell);

#endif
