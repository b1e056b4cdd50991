/* perf-expect — a self-test driver: runs a command that must fail in a given
 * way and records one check saying whether it did.
 * Usage, exit codes: usage_text below (`perf-expect --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"

static const char usage_text[] =
    "Usage: perf-expect NAME --exit N [--contains TEXT]... [--unchanged FILE]...\n"
    "                   -- CMD [ARGS...]\n"
    "\n"
    "Self-test driver: runs CMD with its stdout+stderr captured and BG_CHECKS_FILE\n"
    "pointed at a private file (the inner checks are read, not merged), then\n"
    "records check NAME: pass when\n"
    "  --exit N           CMD's exit status is N,\n"
    "  --contains TEXT    every TEXT occurs in the output or the inner checks\n"
    "                     (up to 16), and\n"
    "  --unchanged FILE   every FILE has the same bytes as before (up to 16);\n"
    "otherwise fail with expected vs observed.\n"
    "  -h, --help         this text (only before --: CMD's arguments are its own)\n"
    "\n"
    "Exit: as bg_checks_close() (0 pass, 1 fail); 2 usage; 3 I/O.\n"
    "Doc: docs/perf_budgets.md, suites/perf_budgets/CMakeLists.txt.\n";

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    *n = 0;
    if (!f)
        return NULL;
    size_t cap = 4096;
    char *b = malloc(cap + 1);
    size_t k;
    while (b && (k = fread(b + *n, 1, cap - *n, f)) > 0) {
        *n += k;
        if (*n == cap) {
            char *nb = realloc(b, (cap *= 2) + 1);
            if (!nb) {
                free(b);
                b = NULL;
            }
            b = nb;
        }
    }
    fclose(f);
    if (b)
        b[*n] = 0;
    return b;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    if (argc > 1 && argv[1][0] == '-') /* NAME comes first */
        return bg_help_unknown_option(argv[1]);
    if (argc < 5) {
        bg_errorf("perf-expect", "want NAME --exit N ... -- CMD (see perf-expect --help)");
        return BG_EXIT_USAGE;
    }
    const char *name = argv[1], *contains[16], *unchanged[16];
    char *before[16];
    size_t before_n[16];
    int want = -1, nc = 0, nu = 0, i = 2;
    for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
        if (i + 1 >= argc)
            break;
        if (!strcmp(argv[i], "--exit"))
            want = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--contains") && nc < 16)
            contains[nc++] = argv[i + 1];
        else if (!strcmp(argv[i], "--unchanged") && nu < 16)
            unchanged[nu++] = argv[i + 1];
    }
    if (want < 0 || i >= argc - 1) {
        bg_errorf("perf-expect", "need --exit N and -- CMD (see perf-expect --help)");
        return BG_EXIT_USAGE;
    }
    char **cmd = argv + i + 1;
    for (int k = 0; k < nu; k++)
        before[k] = slurp(unchanged[k], &before_n[k]);
    char out[] = "/tmp/perf-expect-out-XXXXXX", inner[] = "/tmp/perf-expect-checks-XXXXXX";
    int fo = mkstemp(out), fi = mkstemp(inner);
    if (fo < 0 || fi < 0) {
        bg_errorf("perf-expect", "cannot create temporary files");
        return BG_EXIT_IO;
    }
    close(fi);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fo, 2);
        setenv("BG_CHECKS_FILE", inner, 1);
        execvp(cmd[0], cmd);
        fprintf(stderr, "buildgate: perf-expect: cannot run %s\n", cmd[0]);
        _exit(127);
    }
    close(fo);
    int status = 0;
    waitpid(pid, &status, 0);
    int got = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    size_t n1, n2;
    char *o = slurp(out, &n1), *ic = slurp(inner, &n2);
    unlink(out);
    unlink(inner);
    char expected[2048], observed[4096];
    int ok = got == want;
    int k = snprintf(expected, sizeof expected, "exit %d", want);
    int m = snprintf(observed, sizeof observed, "exit %d", got);
    for (int c = 0; c < nc; c++) {
        int found = (o && strstr(o, contains[c])) || (ic && strstr(ic, contains[c]));
        ok &= found;
        k += snprintf(expected + k, sizeof expected - (size_t)k, "; output contains \"%s\"", contains[c]);
        if (!found)
            m += snprintf(observed + m, sizeof observed - (size_t)m, "; no \"%s\"", contains[c]);
    }
    for (int u = 0; u < nu; u++) {
        size_t an;
        char *after = slurp(unchanged[u], &an);
        int same = (!before[u] && !after) ||
                   (before[u] && after && an == before_n[u] && memcmp(after, before[u], an) == 0);
        ok &= same;
        k += snprintf(expected + k, sizeof expected - (size_t)k, "; %s unchanged", unchanged[u]);
        if (!same)
            m += snprintf(observed + m, sizeof observed - (size_t)m, "; %s CHANGED", unchanged[u]);
        free(after);
        free(before[u]);
    }
    /* the last line of the output: the command's own words */
    if (o) {
        char *end = o + strlen(o);
        while (end > o && end[-1] == '\n')
            *--end = 0;
        char *last = strrchr(o, '\n');
        snprintf(observed + m, sizeof observed - (size_t)m, "; last line: %.600s", last ? last + 1 : o);
    }
    free(o);
    free(ic);
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return BG_EXIT_IO;
    bg_check_emit_str(c, name, ok ? BG_PASS : BG_FAIL, expected, observed, NULL);
    return bg_checks_close(c);
}
