/* bg_fixtures.h — where the stored fixtures are (the repository's fixtures/
 * folder: nan_semantics/, memory_order/, randomx/), and one clear line when a
 * root given by BG_FIXTURES_DIR or --fixtures is not that folder.
 */
#ifndef BG_FIXTURES_H
#define BG_FIXTURES_H

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

#endif
