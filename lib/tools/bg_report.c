/* bg-report — merges the checks of a run into results.json, report.md and
 * report.html.
 * Usage, options, outputs, exit codes: usage_text below (`bg-report --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"
#include "report_data.h"
#include "report_html.h"
#include "report_junit.h"
#include "report_md.h"
#include "report_merge.h"

/* Where perf baselines live when --baselines is not given (CMake passes the
 * source tree's baselines/). */
#ifndef BG_DEFAULT_BASELINES
#define BG_DEFAULT_BASELINES "baselines"
#endif

#define MAX_PREFIXES 8

static const char usage_text[] =
    "Usage: bg-report --checks-dir DIR --out-dir DIR [--tests FILE] [--junit FILE]\n"
    "                 [--meta KEY=VALUE]... [--base-results FILE] [--baselines DIR]\n"
    "                 [--strip-prefix DIR]...\n"
    "       bg-report --merge DIR --out-dir OUT   cross-host agreement of the\n"
    "                 DIR/<host>/results.json files (bg-report --merge --help)\n"
    "\n"
    "Merges the checks of a run into results.json, report.md and report.html.\n"
    "\n"
    "  --checks-dir DIR  folder of <test>.jsonl files written through BG_CHECKS_FILE,\n"
    "                    and optional report fragments <suite>--<name>.md (Markdown\n"
    "                    a suite wants under its section, e.g. a phase table)\n"
    "  --out-dir DIR     where results.json, report.md and report.html are written\n"
    "                    (created if missing; existing files there are replaced:\n"
    "                    outputs)\n"
    "  --tests FILE      output of `ctest --show-only=json-v1` for the same\n"
    "                    selection: a listed test that left no checks file gets a\n"
    "                    fail check <test>.checks, or a skip \"not run: <setup>\n"
    "                    failed\" when a fixture setup test it requires failed\n"
    "                    (CTest did not run it; the setup's failure counts once)\n"
    "  --junit FILE      path of ctest's JUnit file, recorded in results.json\n"
    "                    (relative to --out-dir when it lies inside it); its empty\n"
    "                    <failure message=\"\"/> entries get the test's first failing\n"
    "                    check (name, expected, observed)\n"
    "  --meta KEY=VALUE  facts about the run (commit, build type, labels) for\n"
    "                    results.json \"run\" and the report's header; repeatable;\n"
    "                    perf_base=<commit> says the perf checks compare against a\n"
    "                    base (without it the perf section says A/A self-check only)\n"
    "  --base-results FILE  the base run's results.json: the report lists the\n"
    "                    checks that are new, vanished or changed verdict\n"
    "  --strip-prefix DIR  written relative: \"DIR/\" is removed from every string of\n"
    "                    the checks (repeatable, the first that matches wins per\n"
    "                    place; ci/gate passes the report dir, then the source\n"
    "                    tree), so the report names no path of the machine it ran on\n"
    "  --baselines DIR   perf baselines (<host-key>.json) whose history report.html\n"
    "                    draws (default: the source tree's baselines/)\n"
    "  -h, --help        this text\n"
    "\n"
    "results.json: {\"schema\":1,\"generated\":UTC,\"host\":{...},\n"
    "  \"summary\":{verdict: count},\"suites\":{suite:{verdict: count}},\n"
    "  \"junit\":path|null,\"checks\":[...]}\n"
    "report.md (GitHub-flavoured Markdown, rendered from it): the verdict, each\n"
    "fail/xpass with expected vs observed, its doc section and next step; the\n"
    "inconclusive checks once per cause; changes against --base-results; perf\n"
    "ratios with intervals (table + Mermaid chart); one compact table per suite\n"
    "(checks whose details carry {\"matrix\":{\"table\",\"row\",\"col\"[,\"cell\"]}});\n"
    "then, inside <details>, the full matrices, fragments and every check.\n"
    "report.html: the same, self-contained (inline CSS and SVG, no script).\n"
    "\n"
    "Exit: 0 no check is fail or xpass and at least one was recorded; 1 one is\n"
    "      fail/xpass or none was recorded; 2 usage; 3 I/O; 4 a malformed checks\n"
    "      line (named with file and line).\n"
    "Doc: docs/results.schema.json, docs/writing-a-suite.md \"The report\".\n";

/* path relative to dir when it lies inside it ("<dir>/x" or "<dir>//x" -> "x"),
 * else path itself: report paths never name the machine that ran the gate. */
static const char *under_dir(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (strncmp(path, dir, n) != 0 || path[n] != '/')
        return path;
    path += n;
    while (*path == '/')
        path++;
    return *path ? path : ".";
}

/* Replaces, in every string inside v, each "<prefix>/" (prefixes in order)
 * with nothing: paths become relative to the report dir or the source tree. */
static void strip_prefixes(cJSON *v, char **pre, int npre)
{
    cJSON *x;
    if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        cJSON_ArrayForEach(x, v) {
            strip_prefixes(x, pre, npre);
        }
        return;
    }
    if (!cJSON_IsString(v) || !v->valuestring)
        return;
    const char *s = v->valuestring;
    size_t len = strlen(s);
    char *out = malloc(len + 1), *o = out;
    if (!out)
        return;
    int changed = 0;
    while (*s) {
        size_t k = 0;
        for (int i = 0; i < npre && !k; i++)
            if (strncmp(s, pre[i], strlen(pre[i])) == 0)
                k = strlen(pre[i]);
        if (k) {
            s += k;
            changed = 1;
        } else
            *o++ = *s++;
    }
    *o = '\0';
    if (changed)
        cJSON_SetValuestring(v, out);
    free(out);
}

/* Appends the checks of one .jsonl file to arr.  BG_E_PARSE on a bad line. */
static bg_status load_jsonl(const char *path, cJSON *arr)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return bg_fail(BG_E_IO, "bg-report", "cannot open %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    bg_status st = BG_OK;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        if (line[0] == '\n')
            continue;
        cJSON *o = cJSON_Parse(line);
        bg_verdict v;
        if (!o || !cJSON_IsObject(o) || !bg_json_str(o, "name") ||
            bg_verdict_parse(bg_json_str(o, "verdict"), &v) != BG_OK) {
            cJSON_Delete(o);
            st = bg_fail(BG_E_PARSE, "bg-report",
                         "%s:%ld: not a check (need a JSON object with name and verdict)", path,
                         lineno);
            break;
        }
        cJSON_AddItemToArray(arr, o);
    }
    free(line);
    fclose(f);
    return st;
}

/* The string values of test t's CTest property pname (ctest --show-only=json-v1
 * "properties": [{"name","value"}]), or NULL. */
static const cJSON *test_property(const cJSON *t, const char *pname)
{
    const cJSON *prop;
    cJSON_ArrayForEach(prop, cJSON_GetObjectItemCaseSensitive(t, "properties")) {
        const char *pn = bg_json_str(prop, "name");
        if (pn && !strcmp(pn, pname))
            return cJSON_GetObjectItemCaseSensitive(prop, "value");
    }
    return NULL;
}

/* 1 when the string list l holds s. */
static int list_has(const cJSON *l, const char *s)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, l) {
        if (cJSON_IsString(x) && !strcmp(x->valuestring, s))
            return 1;
    }
    return 0;
}

/* 1 when test name failed: it left no checks file (<checks_dir>/<name>.jsonl),
 * or a check in it is fail/xpass (bg-run records a timeout or crash there). */
static int test_failed(const char *name, const char *checks_dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.jsonl", checks_dir, name);
    struct stat sb;
    if (stat(path, &sb) != 0)
        return 1;
    cJSON *own = cJSON_CreateArray(); /* read (and checked) once already by main */
    int failed = load_jsonl(path, own) != BG_OK;
    const cJSON *c;
    cJSON_ArrayForEach(c, own) {
        bg_verdict v;
        if (bg_verdict_parse(bg_json_str(c, "verdict"), &v) == BG_OK && bg_verdict_is_bad(v))
            failed = 1;
    }
    cJSON_Delete(own);
    return failed;
}

/* The fixture setup test (FIXTURES_SETUP) of one of t's FIXTURES_REQUIRED that
 * failed, its fixture in *fixture; NULL when none did.  CTest does not run a
 * test whose fixture setup failed ("Failed test dependencies: <setup>", JUnit
 * status="notrun"): that is the setup test's failure, not another one. */
static const char *failed_setup(const cJSON *tests, const cJSON *t, const char *checks_dir,
                                const char **fixture)
{
    const cJSON *req = test_property(t, "FIXTURES_REQUIRED"), *f, *u;
    cJSON_ArrayForEach(f, req) {
        if (!cJSON_IsString(f))
            continue;
        cJSON_ArrayForEach(u, tests) {
            const char *un = bg_json_str(u, "name");
            if (un && u != t && list_has(test_property(u, "FIXTURES_SETUP"), f->valuestring) &&
                test_failed(un, checks_dir)) {
                *fixture = f->valuestring;
                return un;
            }
        }
    }
    return NULL;
}

/* For every test listed in the ctest JSON with no checks file: a fail check
 * "<test>.checks", or, when a fixture setup test it requires failed (CTest
 * did not run it), a skip "not run: <setup> failed" (details.not_run_because,
 * details.fixture): one cause, one failure (the setup test's own). */
static bg_status add_missing_tests(const char *tests_json, const char *checks_dir, cJSON *arr)
{
    cJSON *doc;
    bg_status st = bg_json_load(tests_json, "bg-report --tests", &doc);
    if (st)
        return st;
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(doc, "tests"), *t;
    cJSON_ArrayForEach(t, tests) {
        const char *name = bg_json_str(t, "name");
        if (!name)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.jsonl", checks_dir, name);
        struct stat sb;
        if (stat(path, &sb) == 0)
            continue;
        char suite[256];
        snprintf(suite, sizeof suite, "%s", name);
        suite[strcspn(suite, ".")] = '\0';
        /* bg_add_test() puts BG_SUITE=<suite> in the test's ENVIRONMENT */
        const cJSON *env;
        cJSON_ArrayForEach(env, test_property(t, "ENVIRONMENT")) {
            if (cJSON_IsString(env) && !strncmp(env->valuestring, "BG_SUITE=", 9))
                snprintf(suite, sizeof suite, "%s", env->valuestring + 9);
        }
        const char *fixture = NULL;
        const char *setup = failed_setup(tests, t, checks_dir, &fixture);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "suite", suite);
        char cname[600], why[700];
        snprintf(cname, sizeof cname, "%s.checks", name);
        cJSON_AddStringToObject(o, "name", cname);
        cJSON_AddStringToObject(o, "test", name);
        cJSON_AddStringToObject(o, "verdict", setup ? "skip" : "fail");
        cJSON_AddStringToObject(o, "expected", "the test ran and recorded its checks");
        if (setup) {
            snprintf(why, sizeof why, "not run: %s failed", setup);
            cJSON_AddStringToObject(o, "observed", why);
            cJSON *d = cJSON_AddObjectToObject(o, "details");
            cJSON_AddStringToObject(d, "not_run_because", setup);
            cJSON_AddStringToObject(d, "fixture", fixture);
        } else {
            cJSON_AddStringToObject(o, "observed", "no checks file: the test did not run or died "
                                                   "before bg-run could record it");
            cJSON_AddNullToObject(o, "details");
        }
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_Delete(doc);
    return BG_OK;
}

static void count_into(cJSON *obj, const char *verdict)
{
    cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, verdict);
    if (c)
        cJSON_SetNumberValue(c, c->valuedouble + 1);
}

static cJSON *verdict_counts(void)
{
    cJSON *o = cJSON_CreateObject();
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        cJSON_AddNumberToObject(o, bg_verdict_name((bg_verdict)v), 0);
    return o;
}

static void usage_exit(const char *why)
{
    bg_errorf("bg-report", "%s (see bg-report --help)", why);
    exit(BG_EXIT_USAGE);
}

int main(int argc, char **argv)
{
    if (bg_report_merge_requested(argc, argv))
        return bg_report_merge_main(argc, argv); /* report_merge.c */
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *checks_dir = NULL, *out_dir = NULL, *tests = NULL, *junit = NULL;
    const char *base_results = NULL, *baselines = BG_DEFAULT_BASELINES;
    cJSON *meta = cJSON_CreateObject();
    char *pre[MAX_PREFIXES];
    int npre = 0;
    static const char *const names[] = {"--meta", "--checks-dir", "--out-dir", "--tests", "--junit",
                                        "--base-results", "--baselines", "--strip-prefix", NULL};
    for (int i = 1; i < argc; i++) {
        if (!bg_option_in(argv[i], names))
            exit(bg_help_unknown_option(argv[i]));
        if (i + 1 >= argc)
            exit(bg_help_missing_value(argv[i]));
        if (strcmp(argv[i], "--meta") == 0) {
            char *eq = strchr(argv[++i], '=');
            if (!eq || eq == argv[i])
                exit(bg_help_bad_value("--meta", "want KEY=VALUE, got '%s'", argv[i]));
            *eq = '\0';
            cJSON_AddStringToObject(meta, argv[i], eq + 1);
            *eq = '=';
        } else if (strcmp(argv[i], "--checks-dir") == 0)
            checks_dir = argv[++i];
        else if (strcmp(argv[i], "--out-dir") == 0)
            out_dir = argv[++i];
        else if (strcmp(argv[i], "--tests") == 0)
            tests = argv[++i];
        else if (strcmp(argv[i], "--junit") == 0)
            junit = argv[++i];
        else if (strcmp(argv[i], "--base-results") == 0)
            base_results = argv[++i];
        else if (strcmp(argv[i], "--baselines") == 0)
            baselines = argv[++i];
        else if (strcmp(argv[i], "--strip-prefix") == 0 && npre < MAX_PREFIXES) {
            const char *d = argv[++i];
            size_t n = strlen(d);
            while (n > 1 && d[n - 1] == '/')
                n--;
            if (n < 2 || !(pre[npre] = malloc(n + 2)))
                exit(bg_help_bad_value("--strip-prefix", "want a folder other than /"));
            snprintf(pre[npre++], n + 2, "%.*s/", (int)n, d);
        } else
            exit(bg_help_bad_value("--strip-prefix", "given more than %d times", MAX_PREFIXES));
    }
    if (!checks_dir || !out_dir)
        usage_exit("--checks-dir and --out-dir are required");
    cJSON *base = NULL;
    if (base_results) {
        bg_status bst = bg_json_load(base_results, "bg-report --base-results", &base);
        if (bst) {
            cJSON_Delete(meta);
            return bg_exit_code(bst);
        }
    }

    int n;
    char **files = bg_report_list_dir(checks_dir, ".jsonl", &n);
    if (!files && errno != 0 && n == 0) {
        DIR *probe = opendir(checks_dir);
        if (!probe) {
            bg_errorf("bg-report", "cannot read checks dir %s: %s", checks_dir, strerror(errno));
            cJSON_Delete(meta);
            cJSON_Delete(base);
            return BG_EXIT_IO;
        }
        closedir(probe);
    }
    cJSON *checks = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", checks_dir, files[i]);
        bg_status st = load_jsonl(path, checks);
        if (st) {
            bg_report_list_free(files, n);
            cJSON_Delete(checks);
            cJSON_Delete(meta);
            cJSON_Delete(base);
            return bg_exit_code(st);
        }
    }
    bg_report_list_free(files, n);
    if (tests) {
        bg_status st = add_missing_tests(tests, checks_dir, checks);
        if (st) {
            cJSON_Delete(checks);
            cJSON_Delete(meta);
            cJSON_Delete(base);
            return bg_exit_code(st);
        }
    }

    strip_prefixes(checks, pre, npre); /* relative paths, also in the added fail checks */
    for (int i = 0; i < npre; i++)
        free(pre[i]);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "schema", 1);
    char now[32];
    bg_utc_now(now);
    cJSON_AddStringToObject(doc, "generated", now);
    bg_host h;
    bg_host_probe(&h);
    cJSON_AddItemToObject(doc, "host", bg_host_to_json(&h));
    cJSON *summary = verdict_counts();
    cJSON *suites = cJSON_CreateObject();
    const cJSON *c;
    int bad = 0;
    cJSON_ArrayForEach(c, checks) {
        const char *v = bg_json_str(c, "verdict");
        const char *s = bg_json_str(c, "suite");
        s = s ? s : "unknown";
        cJSON *sc = cJSON_GetObjectItemCaseSensitive(suites, s);
        if (!sc) {
            sc = verdict_counts();
            cJSON_AddItemToObject(suites, s, sc);
        }
        count_into(summary, v);
        count_into(sc, v);
        bg_verdict vd;
        if (bg_verdict_parse(v, &vd) == BG_OK)
            bad += bg_verdict_is_bad(vd);
    }
    cJSON_AddItemToObject(doc, "run", meta);
    cJSON_AddItemToObject(doc, "summary", summary);
    cJSON_AddItemToObject(doc, "suites", suites);
    if (junit)
        cJSON_AddStringToObject(doc, "junit", under_dir(junit, out_dir));
    else
        cJSON_AddNullToObject(doc, "junit");
    cJSON_AddItemToObject(doc, "checks", checks);

    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        bg_errorf("bg-report", "cannot create %s: %s", out_dir, strerror(errno));
        cJSON_Delete(doc);
        return BG_EXIT_IO;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/results.json", out_dir);
    bg_status st = bg_json_write_atomic(path, doc);
    bg_report_model model;
    if (!st)
        st = bg_report_model_build(&model, doc, base, base_results, baselines);
    if (!st) {
        snprintf(path, sizeof path, "%s/report.md", out_dir);
        st = bg_report_markdown(&model, checks_dir, path);
        if (!st) {
            snprintf(path, sizeof path, "%s/report.html", out_dir);
            st = bg_report_html(&model, path);
        }
        bg_report_model_free(&model);
    }
    if (!st && junit) { /* CTest's empty <failure message=""/>: the failing check's words */
        const char *labels = bg_json_str(meta, "labels");
        char suite_name[600];
        snprintf(suite_name, sizeof suite_name, "buildgate%s%s", labels && *labels ? ": " : "",
                 labels && *labels ? labels : "");
        st = bg_report_junit_messages(junit, checks, suite_name);
    }
    if (!st)
        bg_report_print_summary(doc, stdout);
    int nchecks = cJSON_GetArraySize(checks);
    cJSON_Delete(doc);
    cJSON_Delete(base);
    if (st)
        return bg_exit_code(st);
    if (nchecks == 0) {
        bg_errorf("bg-report", "no check was recorded in %s: nothing was tested", checks_dir);
        return BG_EXIT_FAIL;
    }
    return bad ? BG_EXIT_FAIL : BG_EXIT_OK;
}
