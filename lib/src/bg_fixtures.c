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

/* The fixtures root's layout: each suite's folder and the file it always holds. */
static const struct {
    const char *dir, *file;
} layout[] = {
    {"memory_order", "expectations.json"},
    {"nan_semantics", "golden-x86_64.json"},
    {"randomx", "kat.json"},
};
#define LAYOUT_N (sizeof layout / sizeof layout[0])

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* 1 when root/suite_dir holds the suite's own file, or root holds every
 * suite's folder (the repository's fixtures/ with a file deleted: that file
 * is then reported by its reader, with the command that restores it). */
static int looks_like_root(const char *root, const char *suite_dir)
{
    char p[4096];
    size_t dirs = 0;
    for (size_t k = 0; k < LAYOUT_N; k++) {
        snprintf(p, sizeof p, "%s/%s", root, layout[k].dir);
        dirs += is_dir(p);
        snprintf(p, sizeof p, "%s/%s/%s", root, layout[k].dir, layout[k].file);
        if (strcmp(layout[k].dir, suite_dir) == 0 && is_file(p))
            return 1;
    }
    return dirs == LAYOUT_N;
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
    if (!looks_like_root(root, suite_dir))
        return bg_fail(BG_E_FIXTURE, "fixtures",
                       "%s is not a fixtures root (its %s/ lacks the suite's stored file; the "
                       "root holds memory_order/expectations.json, nan_semantics/golden-x86_64.json "
                       "and randomx/kat.json): point BG_FIXTURES_DIR at the repository's fixtures/ "
                       "folder; nothing needs regenerating", root, suite_dir);
    return BG_OK;
}
