/* build_matrix.c — see build_matrix.h. */
#include "build_matrix.h"

#include <string.h>

int build_matrix_cell(cJSON *details, const char *variant, const char *col, const char *cell)
{
    if (!details || !variant || !*variant)
        return 0;
    cJSON *m = cJSON_AddObjectToObject(details, "matrix");
    cJSON_AddStringToObject(m, "table", "Build variants");
    cJSON_AddStringToObject(m, "row", variant);
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
