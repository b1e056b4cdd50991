/* bg_fragment.c — see bg_fragment.h. */
#include "buildgate/bg_fragment.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_error.h"

FILE *bg_fragment_open(const char *suite, const char *name)
{
    const char *cf = getenv("BG_CHECKS_FILE");
    if (!cf || !*cf)
        return NULL;
    const char *slash = strrchr(cf, '/');
    char path[4096];
    snprintf(path, sizeof path, "%.*s/%s--%s.md", slash ? (int)(slash - cf) : 1, slash ? cf : ".",
             suite, name);
    FILE *f = fopen(path, "w");
    if (!f)
        bg_errorf("report fragment", "cannot create %s: %s", path, strerror(errno));
    return f;
}
