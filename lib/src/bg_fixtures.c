/* bg_fixtures.c — the fixtures root (bg_fixtures.h). */
#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_fixtures.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *bg_fixtures_root(void)
{
    const char *fx = getenv("BG_FIXTURES_DIR");
    return fx && *fx ? fx : "fixtures";
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

bg_status bg_fixtures_check_root(const char *root, const char *suite_dir)
{
    if (!is_dir(root))
        return bg_fail(BG_E_FIXTURE, "fixtures",
                       "%s is not a directory: point BG_FIXTURES_DIR at the repository's "
                       "fixtures/ folder", root);
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", root, suite_dir);
    if (!is_dir(sub))
        return bg_fail(BG_E_FIXTURE, "fixtures",
                       "%s holds no %s fixtures (no %s/ inside): point BG_FIXTURES_DIR at the "
                       "repository's fixtures/ folder; nothing needs regenerating", root, suite_dir, suite_dir);
    return BG_OK;
}
