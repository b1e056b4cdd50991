/* build_matrix.c — see build_matrix.h. */
#include "build_matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int build_matrix_cell(cJSON *details, const char *variant, const char *col, const char *cell)
{
    if (!details || !variant || !*variant)
        return 0;
    cJSON *m = cJSON_AddObjectToObject(details, "matrix");
    cJSON_AddStringToObject(m, "table", "Build variants");
    /* the RandomX version is the test's property (ENVIRONMENT BG_RANDOMX_VERSION,
     * builds/CMakeLists.txt): v1 rows keep the variant's name, others say it */
    const char *ver = getenv("BG_RANDOMX_VERSION");
    char row[256];
    if (ver && *ver && strcmp(ver, "v1") != 0)
        snprintf(row, sizeof row, "%s (RandomX %s)", variant, ver);
    else
        snprintf(row, sizeof row, "%s", variant);
    cJSON_AddStringToObject(m, "row", row);
    if (ver && *ver)
        cJSON_AddStringToObject(m, "randomx_version", ver);
    cJSON_AddStringToObject(m, "col", col);
    if (cell)
        cJSON_AddStringToObject(m, "cell", cell);
    return 1;
}

bg_status bg_build_variant_arg(int *argc, char ***argv, const char **variant)
{
    *variant = NULL;
    if (*argc < 2 || strcmp((*argv)[1], "--variant") != 0)
        return BG_OK;
    if (*argc < 3 || !*(*argv)[2])
        return bg_fail(BG_E_USAGE, "--variant", "expected a build variant's name (see %s --help)",
                       bg_error_tool());
    *variant = (*argv)[2];
    (*argv)[2] = (*argv)[0];
    *argv += 2;
    *argc -= 2;
    return BG_OK;
}
