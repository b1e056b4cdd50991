/* bg-expect — the one self-test driver (docs/architecture.md "Self-tests"):
 * runs a command that must fail (or pass) in a given way and records one
 * check saying whether it did.  Every suite's self-tests use it through
 * bg_add_selftest() (cmake/BuildgateTest.cmake) or their scripts.
 * Usage, assertions, exit codes: usage_text below (`bg-expect --help`).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_parse.h"
#include "buildgate/bg_proc.h"

#define MAX_ITEMS 16

static const char usage_text[] =
    "Usage: bg-expect --exit N [--name CHECK] [--stderr PREFIX] [--contains TEXT]...\n"
    "                 [--unchanged FILE]... [--check SUFFIX --verdict V [--observed TEXT]]...\n"
    "                 [--work DIR] [--timeout SECONDS] -- CMD [ARGS...]\n"
    "\n"
    "Self-test driver: runs CMD (stdout and stderr captured, BG_CHECKS_FILE pointed\n"
    "at DIR/inner.jsonl, so CMD's own checks are read, not merged into the test's),\n"
    "then records ONE check: pass when every assertion holds, else fail with\n"
    "expected vs observed.\n"
    "  --exit N            CMD exits with status N (0-255; a signal is never N)\n"
    "  --stderr PREFIX     CMD's stderr is exactly one line starting with PREFIX\n"
    "  --contains TEXT     TEXT occurs in CMD's stdout, stderr or inner checks\n"
    "  --unchanged FILE    FILE has the same bytes (or is still absent) afterwards\n"
    "  --check SUFFIX      the inner check whose name ends in SUFFIX ...\n"
    "    --verdict V       ... has verdict V (pass fail xfail xpass skip inconclusive)\n"
    "    --observed TEXT   ... and its \"observed\" contains TEXT\n"
    "  (each of --contains/--unchanged/--check up to 16 times)\n"
    "  --name CHECK        the check's name (default: $BG_TEST_NAME, set by bg-run)\n"
    "  --work DIR          where inner.jsonl and CMD's Markdown fragments go (created;\n"
    "                      default: a temporary folder in $TMPDIR or /tmp, removed\n"
    "                      afterwards with what the command wrote there)\n"
    "  --timeout SECONDS   kill CMD after this long (default: none; bg-run's test\n"
    "                      timeout is the backstop, CMD stays in its process group)\n"
    "  -h, --help          this text (only before --: CMD's arguments are its own)\n"
    "\n"
    "Needs BG_CHECKS_FILE (set by bg-run / ctest): without it nothing would be\n"
    "recorded, so it refuses (one line, exit 2).\n"
    "Exit: as bg_checks_close() (0 pass, 1 fail); 2 usage; 3 I/O.\n"
    "Doc: docs/architecture.md \"Self-tests\", docs/writing-a-suite.md \"Tests\".\n";

typedef struct inner_expect {
    const char *suffix, *verdict, *observed;
} inner_expect;

typedef struct spec {
    const char *name, *stderr_prefix, *work;
    long want_exit;
    uint64_t timeout_s;
    const char *contains[MAX_ITEMS], *unchanged[MAX_ITEMS];
    int ncontains, nunchanged, nchecks;
    inner_expect checks[MAX_ITEMS];
} spec;

/* Appends printf-style text to buf (NUL-terminated, capacity n), "; " first
 * when buf is not empty; silently truncates. */
static void addf(char *buf, size_t n, const char *fmt, const char *a, const char *b, const char *c)
{
    size_t u = strlen(buf);
    if (u + 3 >= n)
        return;
    if (u) {
        memcpy(buf + u, "; ", 3);
        u += 2;
    }
    snprintf(buf + u, n - u, fmt, a ? a : "", b ? b : "", c ? c : "");
}

static bg_status parse_args(int argc, char **argv, spec *s, int *cmd_at)
{
    memset(s, 0, sizeof *s);
    s->want_exit = -1;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
        const char *a = argv[i];
        static const char *const names[] = {"--exit", "--timeout", "--name", "--stderr", "--work",
                                            "--contains", "--unchanged", "--check", "--verdict",
                                            "--observed", NULL};
        if (!bg_option_in(a, names)) {
            bg_help_unknown_option(a);
            return BG_E_USAGE;
        }
        if (i + 1 >= argc || !strcmp(argv[i + 1], "--")) {
            bg_help_missing_value(a);
            return BG_E_USAGE;
        }
        const char *v = argv[i + 1];
        int full = 0;
        uint64_t u = 0;
        if (!strcmp(a, "--exit")) {
            if (bg_parse_u64(v, 0, 255, &u) != BG_OK)
                return bg_fail(BG_E_USAGE, "bg-expect", "--exit '%s': want 0-255", v);
            s->want_exit = (long)u;
        } else if (!strcmp(a, "--timeout")) {
            if (bg_parse_u64(v, 1, 86400, &s->timeout_s) != BG_OK)
                return bg_fail(BG_E_USAGE, "bg-expect", "--timeout '%s': want 1-86400 seconds", v);
        } else if (!strcmp(a, "--name")) {
            if (!*v) {
                bg_help_bad_value(a, "must not be empty");
                return BG_E_USAGE;
            }
            s->name = v;
        } else if (!strcmp(a, "--stderr"))
            s->stderr_prefix = v;
        else if (!strcmp(a, "--work"))
            s->work = v;
        else if (!strcmp(a, "--contains"))
            full = s->ncontains == MAX_ITEMS || !(s->contains[s->ncontains++] = v);
        else if (!strcmp(a, "--unchanged"))
            full = s->nunchanged == MAX_ITEMS || !(s->unchanged[s->nunchanged++] = v);
        else if (!strcmp(a, "--check"))
            full = s->nchecks == MAX_ITEMS ||
                   !(s->checks[s->nchecks++] = (inner_expect){v, NULL, NULL}).suffix;
        else if (!strcmp(a, "--verdict") || !strcmp(a, "--observed")) {
            if (!s->nchecks)
                return bg_fail(BG_E_USAGE, "bg-expect", "%s must follow --check SUFFIX", a);
            inner_expect *e = &s->checks[s->nchecks - 1];
            bg_verdict vd;
            if (a[2] == 'v' && bg_verdict_parse(v, &vd) != BG_OK)
                return bg_fail(BG_E_USAGE, "bg-expect", "--verdict '%s': not a verdict", v);
            *(a[2] == 'v' ? &e->verdict : &e->observed) = v;
        }
        if (full)
            return bg_fail(BG_E_USAGE, "bg-expect", "%s given more than %d times", a, MAX_ITEMS);
    }
    for (int k = 0; k < s->nchecks; k++)
        if (!s->checks[k].verdict)
            return bg_fail(BG_E_USAGE, "bg-expect", "--check %s needs --verdict", s->checks[k].suffix);
    if (s->want_exit < 0)
        return bg_fail(BG_E_USAGE, "bg-expect", "--exit N is required (see bg-expect --help)");
    if (i + 1 >= argc)
        return bg_fail(BG_E_USAGE, "bg-expect", "no command after -- (see bg-expect --help)");
    *cmd_at = i + 1;
    return BG_OK;
}

/* The inner check whose name ends in e->suffix: a mismatch goes to bad, what
 * was seen to seen. */
static void check_inner(const char *inner, const inner_expect *e, char *bad, size_t n, char *seen,
                        size_t sn)
{
    FILE *f = fopen(inner, "r");
    char *line = NULL;
    size_t cap = 0, sl = strlen(e->suffix);
    int found = 0;
    while (f && !found && getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        const char *name = bg_json_str(o, "name"), *v = bg_json_str(o, "verdict"),
                   *obs = bg_json_str(o, "observed");
        size_t l = name ? strlen(name) : 0;
        if (name && l >= sl && !strcmp(name + l - sl, e->suffix)) {
            found = 1;
            char what[700];
            snprintf(what, sizeof what, "%s: %s \"%.500s\"", name, v ? v : "?", obs ? obs : "");
            addf(seen, sn, "%s%s%s", what, NULL, NULL);
            if (!v || strcmp(v, e->verdict) || (e->observed && (!obs || !strstr(obs, e->observed))))
                addf(bad, n, "%s%s%s", what, NULL, NULL);
        }
        cJSON_Delete(o);
    }
    free(line);
    if (f)
        fclose(f);
    if (!found)
        addf(bad, n, "no check *%s recorded%s%s", e->suffix, NULL, NULL);
}

/* The whole file at path (NUL-terminated; the caller frees it) or NULL when
 * it cannot be read: an absent file is a state to compare, not an error. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *b = NULL;
    size_t cap = 0, k;
    *n = 0;
    if (!f)
        return NULL;
    do {
        if (*n + 4096 + 1 > cap) {
            char *nb = realloc(b, cap = 2 * cap + 4096 + 1);
            if (!nb) {
                free(b);
                fclose(f);
                return NULL;
            }
            b = nb;
        }
        k = fread(b + *n, 1, 4096, f);
        *n += k;
    } while (k > 0);
    fclose(f);
    b[*n] = '\0';
    return b;
}

/* The last non-empty line of text (modified in place). */
static const char *last_line(char *text)
{
    size_t l = strlen(text);
    while (l && (text[l - 1] == '\n' || text[l - 1] == '\r'))
        text[--l] = '\0';
    char *nl = strrchr(text, '\n');
    return nl ? nl + 1 : text;
}

/* Removes the files directly in dir, then dir (bg-expect's own temporary
 * folder: the command writes only files there). */
static void remove_flat(const char *dir)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    char p[4400];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            remove(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    spec s;
    int at = 0;
    bg_status st = parse_args(argc, argv, &s, &at);
    if (st != BG_OK)
        return bg_exit_code(st);
    const char *outer = getenv("BG_CHECKS_FILE");
    if (!outer || !*outer)
        return bg_exit_code(bg_fail(BG_E_USAGE, "bg-expect",
                                    "BG_CHECKS_FILE is not set, so the check would not be recorded "
                                    "(run it under bg-run or ctest)"));
    char tmp[4100], inner[4200], envf[4300];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/bg-expect-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    const char *work = s.work;
    if (!work && !(work = mkdtemp(tmp)))
        return bg_exit_code(bg_fail(BG_E_IO, "bg-expect", "cannot create a temporary folder: %s",
                                    strerror(errno)));
    if (s.work && mkdir(work, 0777) != 0 && errno != EEXIST)
        return bg_exit_code(bg_fail(BG_E_IO, "bg-expect", "%s: %s", work, strerror(errno)));
    snprintf(inner, sizeof inner, "%s/inner.jsonl", work);
    remove(inner);
    snprintf(envf, sizeof envf, "BG_CHECKS_FILE=%s", inner);
    char *env[] = {envf, NULL};

    char *before[MAX_ITEMS];
    size_t before_n[MAX_ITEMS];
    for (int k = 0; k < s.nunchanged; k++)
        before[k] = slurp(s.unchanged[k], &before_n[k]);

    bg_proc_opts po = {.env = env, .timeout_s = (double)s.timeout_s, .max_err = (size_t)1 << 20,
                       .same_group = 1};
    bg_proc_result r;
    if (bg_proc_spawn(argv + at, &po, &r) != BG_OK)
        return bg_exit_code(bg_fail(BG_E_IO, "bg-expect", "cannot run %s", argv[at]));

    char bad[4096] = "", expected[2048] = "", seen[3000] = "", how[600];
    char want[32];
    snprintf(want, sizeof want, "exit %ld", s.want_exit);
    addf(expected, sizeof expected, "%s%s%s", want, NULL, NULL);
    bg_proc_explain(&r, (double)s.timeout_s, how, sizeof how);
    if (!r.exited || r.code != s.want_exit)
        addf(bad, sizeof bad, "%s%s%s", how, NULL, NULL);
    if (s.stderr_prefix) {
        addf(expected, sizeof expected, "one stderr line starting \"%s\"%s%s", s.stderr_prefix, NULL,
             NULL);
        const char *nl = strchr(r.err, '\n');
        if (strncmp(r.err, s.stderr_prefix, strlen(s.stderr_prefix)) || !nl || nl[1])
            addf(bad, sizeof bad, "stderr \"%.600s\"%s%s", r.err, NULL, NULL);
    }
    size_t icn = 0;
    char *ic = slurp(inner, &icn);
    for (int k = 0; k < s.ncontains; k++) {
        const char *t = s.contains[k];
        addf(expected, sizeof expected, "output contains \"%s\"%s%s", t, NULL, NULL);
        if (!strstr(r.out, t) && !strstr(r.err, t) && !(ic && strstr(ic, t)))
            addf(bad, sizeof bad, "no \"%s\" in the output%s%s", t, NULL, NULL);
    }
    for (int k = 0; k < s.nunchanged; k++) {
        size_t an = 0;
        char *after = slurp(s.unchanged[k], &an);
        int same = (!before[k] && !after) ||
                   (before[k] && after && an == before_n[k] && !memcmp(after, before[k], an));
        addf(expected, sizeof expected, "%s unchanged%s%s", s.unchanged[k], NULL, NULL);
        if (!same)
            addf(bad, sizeof bad, "%s CHANGED%s%s", s.unchanged[k], NULL, NULL);
        free(after);
        free(before[k]);
    }
    for (int k = 0; k < s.nchecks; k++) {
        const inner_expect *e = &s.checks[k];
        addf(expected, sizeof expected, "*%s %s%s", e->suffix, e->verdict,
             e->observed ? " containing \"" : NULL);
        if (e->observed)
            snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s\"",
                     e->observed);
        check_inner(inner, e, bad, sizeof bad, seen, sizeof seen);
    }
    free(ic);
    /* the command's own last words: the failure that was (or was not) caught */
    char observed[8192];
    if (*bad)
        snprintf(observed, sizeof observed, "%s; last line: %.600s", bad,
                 *r.err ? last_line(r.err) : last_line(r.out));
    else
        snprintf(observed, sizeof observed, "as expected: %s%s%s", how, *seen ? "; " : "", seen);
    if (!s.work) /* the temporary folder, with what the command wrote beside
                    inner.jsonl (bg-check's <suite>--<name>.md: left 687 folders in /tmp) */
        remove_flat(work);
    bg_proc_result_free(&r);
    const char *suite = getenv("BG_SUITE");
    bg_checks *c = bg_checks_open(suite && *suite ? suite : "selftest");
    if (!c)
        return BG_EXIT_IO;
    bg_check_emit_str(c, s.name ? s.name : bg_test_name("selftest"), *bad ? BG_FAIL : BG_PASS,
                      expected, observed, NULL);
    return bg_checks_close(c);
}
