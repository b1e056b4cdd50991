/* litmus_expect.c — see litmus_expect.h. */
#include "litmus_expect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"
#include "buildgate/bg_runner.h"
#include "litmus_sc.h"
#include "litmus_tso.h"

int litmus_outcome_parse(const litmus_test *t, const char *key)
{
    char buf[96];
    for (unsigned o = 0; key && o < litmus_outcome_count(t); o++) {
        litmus_outcome_key(t, o, buf, sizeof buf);
        if (strcmp(buf, key) == 0)
            return (int)o;
    }
    return -1;
}

/* "allowed" or "forbidden", else NULL. */
static const char *verdict_word(const char *v)
{
    return v && (strcmp(v, "allowed") == 0 || strcmp(v, "forbidden") == 0) ? v : NULL;
}

bg_status litmus_expect_check_tso(const litmus_test *t, unsigned exists, const char *tso,
                                  const char *armv8, const char *where)
{
    unsigned char reach[81], sc[81];
    int th = 0, op = 0;
    if (exists >= litmus_outcome_count(t))
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: exists outcome index %u is no "
                       "outcome of the test", where, t->name, exists);
    if (litmus_tso_outcomes(t, reach, &th, &op))
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: thread %d op %d has op kind %d, "
                       "which the x86-TSO enumerator (check/litmus_tso.c) cannot model", where,
                       t->name, th, op, (int)t->ops[th][op].kind);
    char key[96], witness[512];
    litmus_outcome_key(t, exists, key, sizeof key);
    const char *found = reach[exists] ? "allowed" : "forbidden";
    const char *col = !verdict_word(tso) ? "x86-tso" : !verdict_word(armv8) ? "armv8" : NULL;
    if (col) {
        const char *v = col[0] == 'x' ? tso : armv8;
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: %s is \"%s\", want \"allowed\" "
                       "or \"forbidden\" (the x86-TSO enumerator says \"%s\" for x86-tso)", where,
                       t->name, col, v ? v : "(missing)", found);
    }
    if (strcmp(tso, found) != 0) {
        if (!reach[exists])
            return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: x86-tso says \"allowed\", "
                           "but the x86-TSO enumerator (check/litmus_tso.c) never reaches the "
                           "exists outcome '%s': x86-TSO forbids it", where, t->name, key);
        litmus_tso_witness(t, exists, witness, sizeof witness);
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: x86-tso says \"forbidden\", "
                       "but the x86-TSO enumerator (check/litmus_tso.c) reaches the exists outcome "
                       "'%s': %s", where, t->name, key, witness);
    }
    if (reach[exists] && strcmp(armv8, "allowed") != 0)
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: x86-TSO reaches the exists "
                       "outcome '%s' but armv8 says \"%s\" (Armv8 allows every relaxed outcome "
                       "x86-TSO allows)", where, t->name, key, armv8);
    /* The forbidden check allows SC outcomes plus exists (litmus_allowed): an
     * outcome x86-TSO reaches beyond those would fail a correct x86-TSO run. */
    litmus_sc_outcomes(t, sc);
    for (unsigned o = 0; o < litmus_outcome_count(t); o++) {
        if (!reach[o] || sc[o] || o == exists)
            continue;
        char stray[96];
        litmus_outcome_key(t, o, stray, sizeof stray);
        litmus_tso_witness(t, o, witness, sizeof witness);
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: x86-TSO also reaches '%s', "
                       "neither SC-reachable nor the exists outcome '%s', so a correct x86-TSO "
                       "run would fail: %s", where, t->name, stray, key, witness);
    }
    return BG_OK;
}

static bg_status validate(const cJSON *doc, const char *path)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (!cJSON_IsNumber(schema) || schema->valuedouble != 2) {
        char have[32] = "(missing)";
        if (cJSON_IsNumber(schema))
            snprintf(have, sizeof have, "%g", schema->valuedouble);
        return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: schema %s, want 2 (schema 2 calls the "
                       "access \"access\" and the context map \"model_of\")", path, have);
    }
    /* model_of: every pair names a model of "models"; the architectural pairs
     * are fixed facts (an sc access is sequentially consistent by C11 7.17.3;
     * x86-64's plain and acquire/release accesses are plain MOVs under
     * x86-TSO), so an edit cannot weaken them.  arm64.plain/tso are the
     * measured claims and stay data. */
    static const char *const fixed[][2] = {{"x86_64.plain", "x86-tso"}, {"x86_64.tso", "x86-tso"},
                                           {"x86_64.sc", "sc"}, {"arm64.sc", "sc"}};
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(doc, "models"), *pair;
    cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(doc, "model_of")) {
        if (!cJSON_IsString(pair) || !cJSON_GetObjectItemCaseSensitive(models, pair->valuestring))
            return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: model_of.%s: not a model of \"models\"",
                           path, pair->string);
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        const char *m = bg_json_str(cJSON_GetObjectItemCaseSensitive(doc, "model_of"), fixed[i][0]);
        if (!m || strcmp(m, fixed[i][1]) != 0)
            return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: model_of.%s must be \"%s\" (an "
                           "architectural fact), found \"%s\"", path, fixed[i][0], fixed[i][1],
                           m ? m : "(missing)");
    }
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(doc, "tests");
    size_t n;
    const litmus_test *cat = litmus_tests(&n);
    for (size_t i = 0; i < n; i++) {
        const litmus_test *t = &cat[i];
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(tests, t->name);
        const char *exists = bg_json_str(e, "exists"), *sc = bg_json_str(e, "sc");
        int idx = litmus_outcome_parse(t, exists);
        if (idx < 0)
            return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: exists outcome '%s' is not "
                           "an outcome of the test", path, t->name, exists ? exists : "(missing)");
        unsigned char reach[81];
        litmus_sc_outcomes(t, reach);
        if (reach[idx])
            return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: exists outcome '%s' is "
                           "reachable under SC, so it is no relaxed outcome", path, t->name, exists);
        bg_status st = litmus_expect_check_tso(t, (unsigned)idx, bg_json_str(e, "x86-tso"),
                                               bg_json_str(e, "armv8"), path);
        if (st != BG_OK)
            return st;
        if (!sc || strcmp(sc, "forbidden") != 0)
            return bg_fail(BG_E_FIXTURE, "litmus-check", "%s: test %s: sc must be \"forbidden\", "
                           "found \"%s\"", path, t->name, sc ? sc : "(missing)");
    }
    return BG_OK;
}

bg_status litmus_expect_load(const char *fixtures_dir, cJSON **doc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/memory_order/expectations.json", fixtures_dir);
    bg_status st = bg_json_load(path, "fixture", doc);
    if (st != BG_OK)
        return st == BG_E_IO || st == BG_E_PARSE ? BG_E_FIXTURE : st; /* missing or corrupt */
    st = validate(*doc, path);
    if (st != BG_OK) {
        cJSON_Delete(*doc);
        *doc = NULL;
    }
    return st;
}

bg_status litmus_expect_get(const cJSON *doc, const char *test, const char *arch,
                            const char *access, litmus_expect *out)
{
    memset(out, 0, sizeof *out);
    out->test = litmus_find(test);
    if (!out->test)
        return bg_fail(BG_E_USAGE, "litmus-check", "unknown test '%s'", test);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "%s.%s", arch, access);
    out->model = bg_json_str(cJSON_GetObjectItemCaseSensitive(doc, "model_of"), ctx);
    if (!out->model)
        return bg_fail(BG_E_FIXTURE, "litmus-check", "fixture: model_of: no memory model for '%s'",
                       ctx);
    const cJSON *e =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "tests"), test);
    const char *v = bg_json_str(e, out->model);
    if (!v || (strcmp(v, "allowed") && strcmp(v, "forbidden")))
        return bg_fail(BG_E_FIXTURE, "litmus-check", "fixture: test %s: model %s: want "
                       "\"allowed\" or \"forbidden\"", test, out->model);
    out->allowed = strcmp(v, "allowed") == 0;
    out->exists = (unsigned)litmus_outcome_parse(out->test, bg_json_str(e, "exists"));
    out->source = bg_json_str(e, "source");
    const cJSON *c =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "controls"), arch);
    out->control_test = bg_json_str(c, "test");
    out->control_access = bg_json_str(c, "access");
    out->control_why = bg_json_str(c, "why");
    if (!out->control_test || !litmus_find(out->control_test) || !out->control_access)
        return bg_fail(BG_E_FIXTURE, "litmus-check", "fixture: no valid power control for arch '%s'",
                       arch);
    return BG_OK;
}

/* 1 when the "observed" array of entry d holds a version equal to v. */
static int observed_has(const cJSON *d, const int v[3])
{
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(d, "observed")) {
        int w[3];
        if (cJSON_IsString(o) && bg_version_parse(o->valuestring, w) && bg_version_cmp(v, w) == 0)
            return 1;
    }
    return 0;
}

int litmus_expect_deviation(const cJSON *doc, const char *runner, const char *version,
                            const char *access, const char *test, double *rate_pm,
                            const char **why, char *bracket, size_t bracket_n)
{
    const cJSON *d;
    if (bracket_n)
        *bracket = '\0';
    int any_range = 0;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "known_deviations")) {
        const char *r = bg_json_str(d, "runner"), *m = bg_json_str(d, "access");
        const cJSON *rates = cJSON_GetObjectItemCaseSensitive(d, "rate_per_million");
        const cJSON *rate = cJSON_GetObjectItemCaseSensitive(rates, test);
        const char *vr = bg_json_str(d, "versions");
        if (!r || strcmp(r, runner))
            continue;
        any_range |= !vr || bg_version_in_range(version, vr) == 1;
        if (!m || strcmp(m, access) || !cJSON_IsNumber(rate))
            continue;
        if (vr && bg_version_in_range(version, vr) != 1)
            continue;
        *rate_pm = rate->valuedouble;
        *why = bg_json_str(d, "why");
        return 1;
    }
    /* a version no entry's range holds and nobody measured: its bracket, the
       nearest measured versions (the runner's "observed") below and above,
       both showing this deviation (docs/memory_order.md "Runner versions") */
    int v[3];
    bg_version_bracket b = {0};
    if (any_range || !bg_version_parse(version, v))
        return 0;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "known_deviations")) {
        const char *r = bg_json_str(d, "runner");
        const cJSON *o;
        if (!r || strcmp(r, runner))
            continue;
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(d, "observed")) {
            int w[3];
            if (cJSON_IsString(o) && bg_version_parse(o->valuestring, w))
                bg_version_bracket_add(&b, v, w);
        }
    }
    if (!bg_version_bracket_ok(&b))
        return 0;
    const int *lo = b.lo, *hi = b.hi;
    const cJSON *at_lo = NULL, *at_hi = NULL;
    double r_lo = 0, r_hi = 0;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(doc, "known_deviations")) {
        const char *r = bg_json_str(d, "runner"), *m = bg_json_str(d, "access");
        const cJSON *rate = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "rate_per_million"), test);
        if (!r || !m || strcmp(r, runner) || strcmp(m, access) || !cJSON_IsNumber(rate))
            continue;
        if (!at_lo && observed_has(d, lo))
            at_lo = d, r_lo = rate->valuedouble;
        if (!at_hi && observed_has(d, hi))
            at_hi = d, r_hi = rate->valuedouble;
    }
    if (!at_lo || !at_hi)
        return 0;
    *rate_pm = r_lo < r_hi ? r_lo : r_hi; /* the rarer end: gone only when even it predicts many */
    *why = bg_json_str(at_lo, "why");
    if (bracket_n)
        snprintf(bracket, bracket_n, "%d.%d.%d is between measured %d.%d.%d and %d.%d.%d; not measured",
                 v[0], v[1], v[2], lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    return 1;
}
