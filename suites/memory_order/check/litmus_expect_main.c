/* litmus-expect — self-test driver: runs a command that is meant to fail in
 * a given way and records whether it did.
 * Usage, assertions, exit codes: usage_text below (`litmus-expect --help`).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_proc.h"

#define MAX_EXPECT 8

static const char usage_text[] =
    "Usage: litmus-expect --work DIR --exit CODE [--stderr PREFIX]\n"
    "                     [--check SUFFIX --verdict V --contains TEXT]... -- CMD...\n"
    "\n"
    "Self-test driver: runs CMD, meant to fail in a given way, with\n"
    "BG_CHECKS_FILE=DIR/inner.jsonl (DIR is created; its Markdown fragments stay\n"
    "out of the report; CMD is killed after 300 s), then asserts:\n"
    "  --exit CODE       CMD's exit status is CODE\n"
    "  --stderr PREFIX   CMD's stderr is exactly one line that starts with PREFIX\n"
    "  --check SUFFIX --verdict V --contains TEXT   (up to 8 times)\n"
    "                    the inner check whose name ends in SUFFIX has verdict V\n"
    "                    and its \"observed\" contains TEXT\n"
    "  -h, --help        this text (only before --: CMD's arguments are its own)\n"
    "\n"
    "Records one check \"$BG_TEST_NAME.detected\" in $BG_CHECKS_FILE: pass when all\n"
    "hold, else fail with expected vs observed.\n"
    "Exit: as bg_checks_close() (0 pass, 1 fail); 2 bad arguments; 3 I/O.\n"
    "Doc: docs/memory_order.md, suites/memory_order/selftests.cmake.\n";

typedef struct expect {
    const char *suffix, *verdict, *contains;
} expect;

/* Finds the inner check ending in e->suffix; appends a mismatch to bad. */
static void check_inner(const char *path, const expect *e, char *bad, size_t n, char *seen,
                        size_t sn)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    int found = 0;
    size_t sl = strlen(e->suffix);
    while (f && !found && getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        const char *name = bg_json_str(o, "name"), *v = bg_json_str(o, "verdict"),
                   *obs = bg_json_str(o, "observed");
        size_t l = name ? strlen(name) : 0;
        if (name && l >= sl && strcmp(name + l - sl, e->suffix) == 0) {
            found = 1;
            size_t u = strlen(seen);
            if (!strstr(seen, name))
                snprintf(seen + u, sn - u, "%s%s: %s \"%.300s\"", u ? "; " : "", name, v ? v : "?",
                         obs ? obs : "");
            if (!v || strcmp(v, e->verdict) || !obs || !strstr(obs, e->contains)) {
                size_t u = strlen(bad);
                snprintf(bad + u, n - u, "%s%s: %s \"%s\"", u ? "; " : "", name, v ? v : "?",
                         obs ? obs : "");
            }
        }
        cJSON_Delete(o);
    }
    free(line);
    if (f)
        fclose(f);
    if (!found) {
        size_t u = strlen(bad);
        snprintf(bad + u, n - u, "%sno check *%s recorded", u ? "; " : "", e->suffix);
    }
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *work = NULL, *stderr_prefix = NULL;
    long want_exit = -1;
    expect ex[MAX_EXPECT];
    int nex = 0, i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        static const char *const names[] = {"--work", "--exit", "--stderr", "--check",
                                            "--verdict", "--contains", NULL};
        if (!bg_option_in(argv[i], names))
            return bg_help_unknown_option(argv[i]);
        if (i + 1 >= argc)
            return bg_exit_code(bg_fail(BG_E_USAGE, "litmus-expect",
                                        "%s needs a value (see litmus-expect --help)", argv[i]));
        const char *a = argv[i], *v = argv[++i];
        if (strcmp(a, "--work") == 0)
            work = v;
        else if (strcmp(a, "--exit") == 0)
            want_exit = strtol(v, NULL, 10);
        else if (strcmp(a, "--stderr") == 0)
            stderr_prefix = v;
        else if (strcmp(a, "--check") == 0 && nex < MAX_EXPECT)
            ex[nex++] = (expect){v, NULL, NULL};
        else if (strcmp(a, "--verdict") == 0 && nex > 0)
            ex[nex - 1].verdict = v;
        else if (strcmp(a, "--contains") == 0 && nex > 0)
            ex[nex - 1].contains = v;
        else
            return bg_exit_code(bg_fail(BG_E_USAGE, "litmus-expect",
                                        "bad option '%s' (see litmus-expect --help)", a));
    }
    for (int k = 0; k < nex; k++)
        if (!ex[k].verdict || !ex[k].contains)
            return bg_exit_code(bg_fail(BG_E_USAGE, "litmus-expect",
                                        "--check needs --verdict and --contains"));
    if (!work || want_exit < 0 || i >= argc)
        return bg_exit_code(bg_fail(BG_E_USAGE, "litmus-expect",
                                    "want --work DIR --exit CODE ... -- CMD..."));
    if (mkdir(work, 0777) != 0 && errno != EEXIST)
        return bg_exit_code(bg_fail(BG_E_IO, "litmus-expect", "%s: %s", work, strerror(errno)));
    char inner[4096], envf[4200];
    snprintf(inner, sizeof inner, "%s/inner.jsonl", work);
    remove(inner);
    snprintf(envf, sizeof envf, "BG_CHECKS_FILE=%s", inner);
    char *env[] = {envf, NULL};

    bg_checks *c = bg_checks_open("memory_order");
    if (!c)
        return BG_EXIT_IO;
    bg_proc_result r;
    if (bg_proc_run(argv + i, env, 300, (size_t)64 << 20, &r) != BG_OK) {
        bg_checks_free(c);
        return bg_exit_code(bg_fail(BG_E_IO, "litmus-expect", "cannot run %s", argv[i]));
    }
    char bad[2048] = "", expected[1024], seen[2048] = "";
    int exit_status = r.exited ? r.code : -1;
    if (exit_status != want_exit) {
        char how[400];
        bg_proc_describe(&r, 300, how, sizeof how);
        snprintf(bad, sizeof bad, "%s", how);
    }
    if (stderr_prefix) {
        char *nl = strchr(r.err, '\n');
        int one_line = nl && nl[1] == '\0';
        if (strncmp(r.err, stderr_prefix, strlen(stderr_prefix)) != 0 || !one_line) {
            size_t u = strlen(bad);
            snprintf(bad + u, sizeof bad - u, "%sstderr \"%.300s\"", u ? "; " : "", r.err);
        }
    }
    for (int k = 0; k < nex; k++)
        check_inner(inner, &ex[k], bad, sizeof bad, seen, sizeof seen);
    snprintf(expected, sizeof expected, "exit %ld%s%s%s", want_exit,
             stderr_prefix ? ", one stderr line starting \"" : "",
             stderr_prefix ? stderr_prefix : "", stderr_prefix ? "\"" : "");
    for (int k = 0; k < nex; k++) {
        size_t u = strlen(expected);
        snprintf(expected + u, sizeof expected - u, "; *%s %s containing \"%s\"", ex[k].suffix,
                 ex[k].verdict, ex[k].contains);
    }
    char name[512];
    snprintf(name, sizeof name, "%s.detected", bg_test_name("memory_order.selftest"));
    /* on success, show what the inner run said (the first line of stderr or
     * the exit status) so the report shows the failure that was caught */
    char shown[3000];
    if (!*bad) {
        char *nl = strchr(r.err, '\n');
        if (nl)
            *nl = '\0';
        snprintf(shown, sizeof shown, "as expected: exit %d%s%.400s%s%s", exit_status,
                 *r.err ? ", " : "", r.err, *seen ? "; " : "", seen);
    }
    bg_check_emit_str(c, name, *bad ? BG_FAIL : BG_PASS, expected, *bad ? bad : shown, NULL);
    bg_proc_result_free(&r);
    return bg_checks_close(c);
}
