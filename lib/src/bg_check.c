#include "buildgate/bg_check.h"
#include "buildgate/bg_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bg_checks {
    char *suite;
    char *test;
    FILE *out; /* JSON Lines sink, or NULL when BG_CHECKS_FILE is unset */
    int counts[BG_VERDICT_COUNT];
};

static const char *const verdict_names[BG_VERDICT_COUNT] = {
    "pass", "fail", "xfail", "xpass", "skip", "inconclusive",
};

const char *bg_verdict_name(bg_verdict v)
{
    return (v >= 0 && v < BG_VERDICT_COUNT) ? verdict_names[v] : "?";
}

bg_status bg_verdict_parse(const char *name, bg_verdict *out)
{
    for (int i = 0; name && i < BG_VERDICT_COUNT; i++) {
        if (strcmp(name, verdict_names[i]) == 0) {
            *out = (bg_verdict)i;
            return BG_OK;
        }
    }
    return BG_E_PARSE;
}

int bg_verdict_is_bad(bg_verdict v) { return v == BG_FAIL || v == BG_XPASS; }

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

const char *bg_test_name(const char *fallback)
{
    const char *t = getenv("BG_TEST_NAME");
    return t && *t ? t : fallback;
}

bg_checks *bg_checks_open(const char *suite)
{
    bg_checks *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->suite = dup_or_null(suite ? suite : "");
    c->test = dup_or_null(getenv("BG_TEST_NAME"));
    const char *path = getenv("BG_CHECKS_FILE");
    if (path && *path) {
        c->out = fopen(path, "a");
        if (!c->out) {
            bg_errorf("checks", "cannot append to BG_CHECKS_FILE %s: %s", path, strerror(errno));
            free(c->suite);
            free(c->test);
            free(c);
            return NULL;
        }
    }
    return c;
}

/* Prints a JSON value compactly on one line for the human log. */
static void print_value(const char *label, const cJSON *v)
{
    if (cJSON_IsString(v)) {
        printf("    %-9s %s\n", label, v->valuestring);
        return;
    }
    char *s = cJSON_PrintUnformatted(v);
    printf("    %-9s %s\n", label, s ? s : "?");
    free(s);
}

bg_status bg_check_emit(bg_checks *c, const char *name, bg_verdict v, cJSON *expected,
                        cJSON *observed, cJSON *details)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        cJSON_Delete(expected);
        cJSON_Delete(observed);
        cJSON_Delete(details);
        return BG_E_NOMEM;
    }
    cJSON_AddStringToObject(o, "suite", c->suite);
    cJSON_AddStringToObject(o, "name", name);
    if (c->test)
        cJSON_AddStringToObject(o, "test", c->test);
    cJSON_AddStringToObject(o, "verdict", bg_verdict_name(v));
    cJSON_AddItemToObject(o, "expected", expected ? expected : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "observed", observed ? observed : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "details", details ? details : cJSON_CreateNull());
    bg_json_utf8_repair(o); /* raw input (a non-UTF-8 name) never makes the line invalid JSON */

    c->counts[v]++;
    printf("%-12s %s\n", bg_verdict_name(v), name);
    if (v != BG_PASS) {
        print_value("expected:", cJSON_GetObjectItemCaseSensitive(o, "expected"));
        print_value("observed:", cJSON_GetObjectItemCaseSensitive(o, "observed"));
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, "details");
        if (!cJSON_IsNull(d))
            print_value("details:", d);
    }
    fflush(stdout);

    bg_status st = BG_OK;
    if (c->out) {
        char *line = cJSON_PrintUnformatted(o);
        if (!line || fprintf(c->out, "%s\n", line) < 0 || fflush(c->out) != 0)
            st = bg_fail(BG_E_IO, "checks", "cannot write check %s: %s", name, strerror(errno));
        free(line);
    }
    cJSON_Delete(o);
    return st;
}

bg_status bg_check_emit_str(bg_checks *c, const char *name, bg_verdict v, const char *expected,
                            const char *observed, cJSON *details)
{
    return bg_check_emit(c, name, v, expected ? cJSON_CreateString(expected) : NULL,
                         observed ? cJSON_CreateString(observed) : NULL, details);
}

int bg_checks_count(const bg_checks *c, bg_verdict v)
{
    return (c && v >= 0 && v < BG_VERDICT_COUNT) ? c->counts[v] : 0;
}

int bg_checks_close(bg_checks *c)
{
    if (!c)
        return BG_EXIT_FAIL;
    int total = 0, bad = 0;
    for (int i = 0; i < BG_VERDICT_COUNT; i++)
        total += c->counts[i];
    bad = c->counts[BG_FAIL] + c->counts[BG_XPASS];
    printf("checks: %d pass, %d fail, %d xfail, %d xpass, %d skip, %d inconclusive\n",
           c->counts[BG_PASS], c->counts[BG_FAIL], c->counts[BG_XFAIL], c->counts[BG_XPASS],
           c->counts[BG_SKIP], c->counts[BG_INCONCLUSIVE]);
    fflush(stdout);
    int rc = BG_EXIT_OK;
    if (total == 0) {
        bg_errorf(c->test ? c->test : c->suite, "no check was recorded");
        rc = BG_EXIT_FAIL;
    } else if (bad > 0) {
        rc = BG_EXIT_FAIL;
    } else if (c->counts[BG_SKIP] == total) {
        rc = BG_EXIT_SKIP;
    }
    bg_checks_free(c);
    return rc;
}

int bg_checks_fail_stored(bg_checks *c, const char *name, const char *expected, bg_status st,
                          const char *action)
{
    cJSON *d = action ? cJSON_CreateObject() : NULL;
    if (d)
        cJSON_AddStringToObject(d, "action", action);
    bg_check_emit_str(c, name, BG_FAIL, expected, bg_last_error(), d);
    bg_checks_free(c);
    return bg_exit_code(st);
}

void bg_checks_free(bg_checks *c)
{
    if (!c)
        return;
    if (c->out)
        fclose(c->out);
    free(c->suite);
    free(c->test);
    free(c);
}
