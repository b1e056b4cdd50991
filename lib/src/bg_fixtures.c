/* bg_fixtures.c — the fixtures root (bg_fixtures.h). */
#define _XOPEN_SOURCE 700 /* realpath */
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

/* The repository this build came from (lib/CMakeLists.txt); empty in builds
 * that do not say (the stand-alone guest and host builds). */
#ifndef BG_REPO_FIXTURES
#define BG_REPO_FIXTURES ""
#endif

/* When path (a file that may be missing; its folder exists) lies in a git
 * work tree's own fixtures/ folder (a parent of that folder holds .git: a
 * folder, or a file in a worktree), 1 with that tree's top into top and the
 * path below it ("fixtures/...") into below.  A copy elsewhere, even inside a
 * work tree (e.g. under build/), is not: git would not know the file. */
static int in_repo_fixtures(const char *path, char *top, size_t tn, char *below, size_t bn)
{
    char dir[4096], abs[4096], p[4200];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (!*dir)
        snprintf(dir, sizeof dir, "/");
    if (!realpath(dir, abs))
        return 0;
    for (char *end = abs + strlen(abs); end > abs;) {
        char *cut = end;
        while (cut > abs && cut[-1] != '/')
            cut--; /* [cut, end) is the last component */
        struct stat sb;
        snprintf(p, sizeof p, "%.*s.git", (int)(cut - abs), abs);
        if (end - cut == 8 && strncmp(cut, "fixtures", 8) == 0 && stat(p, &sb) == 0) {
            snprintf(top, tn, "%.*s", cut - abs > 1 ? (int)(cut - abs - 1) : 1, abs);
            snprintf(below, bn, "%s/%s", cut, slash ? slash + 1 : path);
            return 1;
        }
        end = cut > abs ? cut - 1 : abs;
    }
    return 0;
}

void bg_fixture_hint(bg_fixture_hint_kind kind, const char *path, const char *rel, char *out,
                     size_t n)
{
    char top[4096], below[8200];
    if (in_repo_fixtures(path, top, sizeof top, below, sizeof below)) {
        if (kind == BG_FIXTURE_RESTORE)
            snprintf(out, n, "restore it with `git checkout -- %s` (in %s)", below, top);
        else
            snprintf(out, n, "if the stored value was edited, `git diff -- %s` (in %s) shows it",
                     below, top);
        return;
    }
    char repo[4200] = "";
    if (BG_REPO_FIXTURES[0])
        snprintf(repo, sizeof repo, " (%s/%s)", BG_REPO_FIXTURES, rel);
    if (kind == BG_FIXTURE_RESTORE)
        snprintf(out, n, "%s is not in the fixtures/ folder of a git repository: copy the "
                         "repository's fixtures/%s%s over it", path, rel, repo);
    else
        snprintf(out, n, "%s is not in the fixtures/ folder of a git repository: if the stored "
                         "value was edited, `diff` it against the repository's fixtures/%s%s",
                 path, rel, repo);
}

int bg_checks_fail_fixture(bg_checks *c, const char *name, const char *expected, bg_status st,
                           const char *root, const char *rel)
{
    char path[4200], next[9000];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    bg_fixture_hint(BG_FIXTURE_RESTORE, path, rel, next, sizeof next);
    return bg_checks_fail_stored(c, name, expected, st, next);
}
