/* nan_known.c — see nan_known.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_known.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_runner.h"
#include "nan_context_rules.h"

static bg_status bad(const char *path, int line, const char *why)
{
    return bg_fail(BG_E_FIXTURE, "nan-check", "known deviations %s:%d: %s", path, line, why);
}

/* 1 when context matches one of the comma-separated fnmatch(3) patterns. */
static int context_matches(const char *patterns, const char *context)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", patterns);
    char *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
        if (fnmatch(p, context, 0) == 0)
            return 1;
    return 0;
}

/* Rule ids (nan_classify.h) and context names (nan_contexts): a line naming
 * anything else could never match, so it is refused instead of ignored. */
static const char *const known_rules[] = {
    "nan-operand-priority", "default-nan", "snan-quieting", "nan-propagation", "daz-ftz",
    "rounding", "value", "minmax", "integer-indefinite", "compare-mask", "comis-eflags",
    "eflags-clobbered", "status-flag", "upper-lanes", "source-modified", "mxcsr-readback",
    "handler-mxcsr", "mxcsr-inheritance", "context-fact", "trap-not-delivered", "trap-si-code",
    "trap-handler-mxcsr", "trap-saved-status", "probe-failed", "op-missing", "bitwise", "sign-mask", "mxcsr-initial", NULL,
};

static int rule_known(const char *rule)
{
    for (int i = 0; known_rules[i]; i++)
        if (!strcmp(rule, known_rules[i]))
            return 1;
    return 0;
}

/* 1 when every comma-separated pattern matches at least one known context. */
static int contexts_known(const char *patterns)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", patterns);
    char *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int hit = 0;
        for (int i = 0; nan_contexts[i] && !hit; i++)
            hit = fnmatch(p, nan_contexts[i], 0) == 0;
        if (!hit)
            return 0;
    }
    return 1;
}

bg_status nan_known_load(const char *dir, const char *file, const char *version,
                         const char *context, nan_known *kd)
{
    memset(kd, 0, sizeof *kd);
    snprintf(kd->path, sizeof kd->path, "%s/%s", dir, file);
    /* the runner column names the file's tool: its name without .tsv */
    const char *dot = strrchr(file, '.');
    size_t stem = dot ? (size_t)(dot - file) : strlen(file);
    FILE *f = fopen(kd->path, "r");
    if (!f)
        return errno == ENOENT ? BG_OK
                               : bg_fail(BG_E_FIXTURE, "nan-check", "known deviations %s: %s",
                                         kd->path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    bg_status st = BG_OK;
    while (st == BG_OK && getline(&line, &cap, f) > 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *col[6];
        int nc = 0;
        for (char *p = line; nc < 6; nc++) {
            col[nc] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                nc++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        if (nc != 6) {
            st = bad(kd->path, lineno, "needs 6 tab-separated columns: runner versions contexts rule detail reference");
            break;
        }
        if (strlen(col[0]) != stem || strncmp(col[0], file, stem) != 0) {
            st = bad(kd->path, lineno, "runner column differs from the file's runner");
            break;
        }
        int in = bg_version_in_range(version, col[1]);
        if (in < 0) {
            st = bad(kd->path, lineno, "malformed version range (use *, or >=x.y,<x.y)");
            break;
        }
        if (!*col[3] || !*col[5]) {
            st = bad(kd->path, lineno, "rule and reference must not be empty");
            break;
        }
        if (!rule_known(col[3])) {
            st = bad(kd->path, lineno, "unknown rule (see suites/nan_semantics/nan_classify.h)");
            break;
        }
        if (!contexts_known(col[2])) {
            st = bad(kd->path, lineno, "a context pattern matches no context (main_thread, "
                                       "pthread, signal_raise, ..., see docs/nan_semantics.md)");
            break;
        }
        if (!in || !context_matches(col[2], context))
            continue;
        nan_known_line *nl = realloc(kd->lines, (size_t)(kd->n + 1) * sizeof *nl);
        if (!nl) {
            st = BG_E_NOMEM;
            break;
        }
        kd->lines = nl;
        nan_known_line *l = &kd->lines[kd->n++];
        memset(l, 0, sizeof *l);
        l->lineno = lineno;
        snprintf(l->versions, sizeof l->versions, "%s", col[1]);
        snprintf(l->contexts, sizeof l->contexts, "%s", col[2]);
        snprintf(l->rule, sizeof l->rule, "%s", col[3]);
        snprintf(l->detail, sizeof l->detail, "%s", strcmp(col[4], "-") == 0 ? "" : col[4]);
        snprintf(l->reference, sizeof l->reference, "%s", col[5]);
    }
    free(line);
    fclose(f);
    if (st != BG_OK)
        nan_known_free(kd);
    return st;
}

nan_known_line *nan_known_match(nan_known *kd, const char *rule, const char *detail)
{
    for (int i = 0; i < kd->n; i++) {
        nan_known_line *l = &kd->lines[i];
        if (strcmp(l->rule, rule) == 0 && fnmatch(l->detail, detail, 0) == 0) {
            l->used = 1;
            return l;
        }
    }
    return NULL;
}

void nan_known_free(nan_known *kd)
{
    free(kd->lines);
    kd->lines = NULL;
    kd->n = 0;
}
