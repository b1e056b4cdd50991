/* build_matrix.c — see build_matrix.h. */
#include "build_matrix.h"

#include <stdio.h>
#include <string.h>

int bg_build_matrix(cJSON *details, const char *test, const char *col, const char *cell)
{
    static const char prefix[] = "digest.build.";
    if (!details || !test || strncmp(test, prefix, sizeof prefix - 1))
        return 0;
    char row[256];
    snprintf(row, sizeof row, "%s", test + sizeof prefix - 1);
    char *dot = strchr(row, '.');
    if (dot)
        *dot = '\0';
    cJSON *m = cJSON_AddObjectToObject(details, "matrix");
    cJSON_AddStringToObject(m, "table", "Build variants");
    cJSON_AddStringToObject(m, "row", row);
    cJSON_AddStringToObject(m, "col", col);
    if (cell)
        cJSON_AddStringToObject(m, "cell", cell);
    return 1;
}
