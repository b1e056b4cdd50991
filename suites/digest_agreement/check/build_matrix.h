/* build_matrix.h — the report.md cell of a build variant's check.
 *
 * build_matrix_cell() adds to details {"matrix": {"table": "Build variants",
 * "row": variant, "col": col, "cell": cell}} (docs/results.schema.json
 * details.matrix, rendered by bg-report as one table) and returns 1 when
 * variant is a build variant's name (the tools get it from --variant, which
 * CMake passes: builds/CMakeLists.txt); with variant NULL or "" (a tool run
 * outside a build variant) it adds nothing and returns 0.  The RandomX
 * version comes from the environment variable BG_RANDOMX_VERSION (a test
 * property CMake sets): stored as "randomx_version", and a version other
 * than v1 is part of the row ("release (RandomX v2)").
 */
#ifndef BUILD_MATRIX_H
#define BUILD_MATRIX_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

int build_matrix_cell(cJSON *details, const char *variant, const char *col, const char *cell);

/* For the tools whose other arguments are positional (bg-aes-flags,
 * bg-aes-insns): a leading "--variant NAME" is taken out of argc and argv (the
 * rest is parsed as if it were not there) into *variant (NULL without one).
 * Returns BG_OK, or BG_E_USAGE after one line "buildgate: <tool>: --variant: ..."
 * when NAME is missing or empty. */
bg_status bg_build_variant_arg(int *argc, char ***argv, const char **variant);

#endif
