/* nan_fixture_check.c — the golden fixture's own check (nan.fixture) and the
 * skip of the tests that depend on it (nan_fixture_check.h). */
#define _POSIX_C_SOURCE 200809L
#include "nan_fixture_check.h"

#include <stdio.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_error.h"
#include "nan_fixture.h"

#define FIXTURE_REL "nan_semantics/golden-x86_64.json"
#define EXPECTED "a valid golden fixture " FIXTURE_REL " (docs/nan_semantics.md)"

/* The fixture's path as a user should type it: repository-relative when the
 * root is a "fixtures" folder (the repository's), else as given (absolute
 * when the root is: CMake passes BG_FIXTURES_DIR absolute). */
static void shown_path(const char *root, char *out, size_t n)
{
    size_t len = strlen(root);
    while (len > 1 && root[len - 1] == '/')
        len--;
    if (len >= 8 && strncmp(root + len - 8, "fixtures", 8) == 0 &&
        (len == 8 || root[len - 9] == '/'))
        snprintf(out, n, "fixtures/" FIXTURE_REL);
    else
        snprintf(out, n, "%.*s/" FIXTURE_REL, (int)len, root);
}

int nan_fixture_check(const char *root, const char *probe)
{
    bg_checks *c = bg_checks_open("nan_semantics");
    if (!c)
        return BG_EXIT_IO;
    const char *name = bg_test_name("nan.fixture");
    char path[1300], shown[1300], obs[3000];
    if (bg_fixtures_check_root(root, "nan_semantics") != BG_OK) {
        bg_check_emit_str(c, name, BG_FAIL, EXPECTED, bg_last_error(), NULL);
        bg_checks_free(c);
        return BG_EXIT_FIXTURE;
    }
    snprintf(path, sizeof path, "%s/" FIXTURE_REL, root);
    shown_path(root, shown, sizeof shown);
    nan_fixture fx;
    bg_status st = nan_fixture_load(path, &fx);
    if (st == BG_OK) {
        snprintf(obs, sizeof obs, "valid: recorded on %s, %s", fx.cpu_model, fx.date);
        nan_fixture_free(&fx);
        bg_check_emit_str(c, name, BG_PASS, EXPECTED, obs, NULL);
        return bg_checks_close(c);
    }
    char rerecord[1500] = "";
    if (probe && *probe && strncmp(probe, "none:", 5) != 0)
        snprintf(rerecord, sizeof rerecord, " --probe %s", probe);
    else
        snprintf(rerecord, sizeof rerecord, " --probe <build>/suites/nan_semantics/nan-probe");
    char restore[1500], action[4608]; /* room for restore + root (cut at 1200) + rerecord */
    bg_fixture_hint(BG_FIXTURE_RESTORE, path, FIXTURE_REL, restore, sizeof restore);
    snprintf(action, sizeof action,
             "%s, or re-record it on an x86-64 host "
             "with `nan-check --write-fixture --replace --reason \"<why>\" --fixtures %.1200s%s`",
             restore, shown[0] == '/' ? root : "fixtures", rerecord);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "action", action); /* the report's and JUnit's "Next:" */
    bg_check_emit_str(c, name, BG_FAIL, EXPECTED, bg_last_error(), d);
    bg_checks_free(c);
    return bg_exit_code(st);
}

int nan_fixture_skip(bg_checks *c, const char *test)
{
    char obs[1200], name[300];
    snprintf(obs, sizeof obs, "fixture unreadable, see nan.fixture: %s", bg_last_error());
    snprintf(name, sizeof name, "%s.fixture", test);
    bg_check_emit_str(c, name, BG_SKIP, EXPECTED, obs, NULL);
    return bg_checks_close(c);
}
