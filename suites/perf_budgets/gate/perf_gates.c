/* perf_gates.c — see perf_gates.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_gates.h"

#include <stdio.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_proc.h"
#include "perf_budget.h"

static const cJSON *gates_of(const cJSON *budgets)
{
    return budgets ? cJSON_GetObjectItemCaseSensitive(budgets, "gates") : NULL;
}

static int is_prefix(const char *entry)
{
    size_t l = strlen(entry);
    return l > 0 && (entry[l - 1] == '/' || entry[l - 1] == ':');
}

/* An entry's "*" segment holds any one segment of the name (perf_name_match). */
static int entry_holds(const char *entry, const char *name)
{
    long k = perf_name_match(entry, name);
    return k >= 0 && (is_prefix(entry) || name[k] == '\0');
}

const char *perf_gates_invalid(const cJSON *budgets, const char **where)
{
    const cJSON *g = gates_of(budgets), *e, *x;
    *where = "gates";
    if (!g)
        return NULL;
    if (!cJSON_IsObject(g))
        return "must be an object: {\"<gate>\": [\"<benchmark name or prefix/>\", ...]}";
    cJSON_ArrayForEach(e, g)
    {
        *where = e->string;
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) == 0)
            return "a gate is a non-empty array of benchmark names or prefixes ending in '/' or ':'";
        cJSON_ArrayForEach(x, e)
        {
            const char *s = cJSON_GetStringValue(x);
            if (!s || !*s)
                return "a gate's entries are non-empty strings";
        }
    }
    return NULL;
}

/* Appends s to buf (used so far: *u) with regex metacharacters escaped and a
 * "*" segment as [^/]+ (one segment, as perf_name_match reads it). */
static int append_escaped(char *buf, size_t n, size_t *u, const char *s)
{
    for (const char *s0 = s; *s; s++) {
        if (s[0] == '*' && (s == s0 || s[-1] == '/') && (s[1] == '/' || s[1] == '\0')) {
            if (*u + 6 >= n)
                return -1;
            memcpy(buf + *u, "[^/]+", 6);
            *u += 5;
            continue;
        }
        int meta = strchr(".^$|()[]{}*+?\\", *s) != NULL;
        if (*u + 2 + (size_t)meta >= n)
            return -1;
        if (meta)
            buf[(*u)++] = '\\';
        buf[(*u)++] = *s;
    }
    buf[*u] = '\0';
    return 0;
}

bg_status perf_gates_filter(const cJSON *budgets, const char *gate, char *buf, size_t n)
{
    const cJSON *g = gates_of(budgets);
    const cJSON *list = g ? cJSON_GetObjectItemCaseSensitive(g, gate) : NULL, *x;
    if (!list)
        return bg_fail(BG_E_USAGE, "gates", "no gate '%s' in budgets.json \"gates\" (--budgets)", gate);
    size_t u = 2;
    int first = 1;
    if (n < 8)
        return bg_fail(BG_E_NOMEM, "gates", "gate '%s': filter too long", gate);
    memcpy(buf, "^(", 3);
    cJSON_ArrayForEach(x, list)
    {
        const char *s = cJSON_GetStringValue(x);
        if (u + 4 >= n)
            return bg_fail(BG_E_NOMEM, "gates", "gate '%s': filter too long", gate);
        if (!first)
            buf[u++] = '|';
        first = 0;
        if (!s || append_escaped(buf, n, &u, s) != 0 || u + 4 >= n)
            return bg_fail(BG_E_NOMEM, "gates", "gate '%s': filter too long", gate);
        if (is_prefix(s)) {
            buf[u++] = '.';
            buf[u++] = '*';
        }
    }
    memcpy(buf + u, ")$", 3);
    return BG_OK;
}

const char *perf_gates_find(const cJSON *budgets, const char *name)
{
    const cJSON *e, *x;
    cJSON_ArrayForEach(e, gates_of(budgets))
    {
        cJSON_ArrayForEach(x, e)
        {
            const char *s = cJSON_GetStringValue(x);
            if (s && entry_holds(s, name))
                return e->string;
        }
    }
    return NULL;
}

int perf_gates_check(const char *exe, const cJSON *budgets)
{
    char *argv[] = {(char *)exe, "--benchmark_list_tests=true", NULL};
    bg_proc_result r;
    char how[600];
    if (bg_proc_run(argv, NULL, 120, 0, &r) != BG_OK)
        return bg_exit_code(bg_fail(BG_E_IO, "gated", "cannot run %s", exe));
    if (!bg_proc_ok(&r)) {
        bg_proc_explain(&r, 120, how, sizeof how);
        bg_proc_result_free(&r);
        return bg_exit_code(bg_fail(BG_E_IO, "gated", "%s --benchmark_list_tests: %s", exe, how));
    }
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c) {
        bg_proc_result_free(&r);
        return BG_EXIT_IO;
    }
    const char *test = bg_test_name("perf.unit.gated");
    int listed = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        if (!*line)
            continue;
        char name[700], obs[800];
        const char *gate = perf_gates_find(budgets, line), *retired = perf_budgets_retired(budgets, line);
        snprintf(name, sizeof name, "%s.%s", test, line);
        listed++;
        if (gate) {
            snprintf(obs, sizeof obs, "gated by %s", gate);
            bg_check_emit_str(c, name, BG_PASS, "a gate in budgets.json \"gates\"", obs, NULL);
        } else if (retired) {
            snprintf(obs, sizeof obs, "retired: %s", retired);
            bg_check_emit_str(c, name, BG_SKIP, "a gate in budgets.json \"gates\"", obs, NULL);
        } else {
            bg_check_emit_str(c, name, BG_FAIL, "a gate in budgets.json \"gates\"",
                              "gated by no test: add it to a gate in suites/perf_budgets/budgets.json "
                              "\"gates\" (docs/perf_budgets.md \"Gated benchmarks\")", NULL);
        }
    }
    if (!listed)
        bg_check_emit_str(c, test, BG_FAIL, "at least one benchmark listed", "the program listed none", NULL);
    bg_proc_result_free(&r);
    return bg_checks_close(c);
}
