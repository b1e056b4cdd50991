/* bg_fixtures.h — where the stored fixtures are (the repository's fixtures/
 * folder: nan_semantics/, memory_order/, randomx/), and one clear line when a
 * root given by BG_FIXTURES_DIR or --fixtures is not that folder.
 */
#ifndef BG_FIXTURES_H
#define BG_FIXTURES_H

#include <stddef.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_error.h"

/* The fixtures root: $BG_FIXTURES_DIR when set and not empty, else
 * "fixtures" (relative to the working directory: the repository root). */
const char *bg_fixtures_root(void);

/* BG_OK when root is a directory holding the suite's folder suite_dir
 * ("nan_semantics", "memory_order", "randomx") and that folder holds the
 * suite's own stored file (memory_order/expectations.json,
 * nan_semantics/golden-x86_64.json, randomx/kat.json) or root holds all
 * three folders (the real root with one file deleted: its reader then says
 * how to restore it).  So a folder such as the repository's suites/, which
 * has a nan_semantics/ of sources, is refused.  Otherwise BG_E_FIXTURE after
 * one line saying the directory holds no such fixtures (or is not a
 * directory) and to point BG_FIXTURES_DIR / --fixtures at the repository's
 * fixtures/ folder, instead of a per-file "missing, regenerate it" that would
 * send the user to re-record stored truth. */
bg_status bg_fixtures_check_root(const char *root, const char *suite_dir);

/* What to do about the stored file path, whose place in the repository's
 * fixtures/ is rel (e.g. "nan_semantics/golden-x86_64.json"), as one clause
 * for an error line or a check's "action" (the report's and JUnit's "Next:"),
 * written into out:
 *   BG_FIXTURE_RESTORE  a missing or corrupt file: when path lies in a git
 *       work tree's fixtures/ folder "restore it with `git checkout --
 *       fixtures/...` (in <top>)"; otherwise (BG_FIXTURES_DIR or --kat at a
 *       copy, even one under build/) "<path> is not in the fixtures/ folder
 *       of a git repository: copy the repository's fixtures/<rel>
 *       (<repo>/fixtures/<rel>) over it", naming where this build's
 *       repository keeps it.
 *   BG_FIXTURE_DIFF     a value that differs from the stored one (a hand edit
 *       reads as a deviation): "if the stored value was edited, `git diff --
 *       fixtures/...` (in <top>) shows it", or outside a repository a `diff`
 *       against the repository's copy.
 * No git is run (a fixtures/ folder above path whose parent holds .git, a
 * folder or a worktree's file, is the test).  The one place for these hints:
 * nan-check, nan-seq, litmus-check, bg-digest-check. */
typedef enum { BG_FIXTURE_RESTORE, BG_FIXTURE_DIFF } bg_fixture_hint_kind;
void bg_fixture_hint(bg_fixture_hint_kind kind, const char *path, const char *rel, char *out,
                     size_t n);

/* A stored file root/rel that cannot be used: bg_checks_fail_stored (a fail
 * check `name` whose observed is the error line already printed) with
 * details.action = the BG_FIXTURE_RESTORE hint; closes c, returns
 * bg_exit_code(st). */
int bg_checks_fail_fixture(bg_checks *c, const char *name, const char *expected, bg_status st,
                           const char *root, const char *rel);

#endif
