#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_runner.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "buildgate/bg_cpu.h"
#include "buildgate/bg_proc.h"


static bg_status push(bg_runner *r, const char *word)
{
    if (r->argc >= BG_RUNNER_MAX_ARGS)
        return BG_E_USAGE;
    r->argv[r->argc] = strdup(word);
    if (!r->argv[r->argc])
        return BG_E_NOMEM;
    r->argv[++r->argc] = NULL;
    return BG_OK;
}

/* First line of `tool --version` into r->version ("" on failure). */
static void version_of(bg_runner *r, const char *tool, const char *flag)
{
    char *argv[] = {(char *)tool, (char *)flag, NULL};
    bg_proc_result pr;
    if (bg_proc_run(argv, NULL, 10, 1 << 16, &pr) != BG_OK)
        return;
    const char *src = pr.out_len ? pr.out : pr.err;
    size_t len = strcspn(src, "\n");
    if (!pr.spawn_failed && len > 0)
        snprintf(r->version, sizeof r->version, "%.*s", (int)len, src);
    bg_proc_result_free(&pr);
}

/* Finds the first of the candidates in PATH and makes it the prefix. */
static bg_status tool_prefix(bg_runner *r, const char *const *cands, int nc, char *why, unsigned n)
{
    char path[4096];
    for (int i = 0; i < nc; i++) {
        if (bg_proc_which(cands[i], path, sizeof path) == BG_OK) {
            version_of(r, path, "--version");
            return push(r, path);
        }
    }
    snprintf(why, n, "runner '%s' is not installed: '%s' not found in PATH", r->name, cands[0]);
    return BG_E_UNSUPPORTED;
}

/* BG_X86_RUNNERS lookup: 1 found (prefix filled), 0 not listed, <0 error. */
static int user_runner(bg_runner *r, const char *name, char *why, unsigned n)
{
    const char *spec = getenv("BG_X86_RUNNERS");
    if (!spec || !*spec)
        return 0;
    char *copy = strdup(spec);
    if (!copy)
        return BG_E_NOMEM;
    int found = 0;
    char *save = NULL;
    for (char *ent = strtok_r(copy, ";", &save); ent && !found; ent = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(ent, '=');
        while (*ent == ' ')
            ent++;
        if (!eq || (size_t)(eq - ent) != strlen(name) || strncmp(ent, name, strlen(name)) != 0)
            continue;
        found = 1;
        char *save2 = NULL;
        for (char *w = strtok_r(eq + 1, " ", &save2); w; w = strtok_r(NULL, " ", &save2)) {
            if (push(r, w) != BG_OK) {
                snprintf(why, n, "BG_X86_RUNNERS entry '%s' has more than %d words", name,
                         BG_RUNNER_MAX_ARGS);
                free(copy);
                return BG_E_USAGE;
            }
        }
        if (r->argc == 0) {
            snprintf(why, n, "BG_X86_RUNNERS entry '%s' has an empty command", name);
            free(copy);
            return BG_E_USAGE;
        }
    }
    free(copy);
    if (found) {
        char path[4096];
        if (bg_proc_which(r->argv[0], path, sizeof path) != BG_OK) {
            snprintf(why, n, "runner '%s' (BG_X86_RUNNERS) command '%s' not found or not executable",
                     name, r->argv[0]);
            return BG_E_UNSUPPORTED;
        }
        snprintf(r->version, sizeof r->version, "user command");
        bg_runner_command_version(r->argv, r->argc, r->version, sizeof r->version);
    }
    return found;
}

void bg_runner_command_version(char *const words[], int n, char *out, unsigned cap)
{
    /* the tool: the first word after a leading `env` and its NAME=value words */
    int k = 0;
    if (n > 0 && strcmp(words[0], "env") == 0)
        for (k = 1; k < n && strchr(words[k], '='); k++)
            ;
    if (k >= n || k + 2 > BG_RUNNER_MAX_ARGS)
        return;
    char *argv[BG_RUNNER_MAX_ARGS + 2];
    for (int i = 0; i <= k; i++)
        argv[i] = words[i];
    argv[k + 1] = "--version";
    argv[k + 2] = NULL;
    bg_proc_result pr;
    if (bg_proc_run(argv, NULL, 10, 1 << 16, &pr) != BG_OK)
        return;
    size_t len = strcspn(pr.out, "\n");
    if (!pr.spawn_failed && !pr.timed_out && pr.exited && pr.code == 0 && len > 0)
        snprintf(out, cap, "%.*s", (int)len, pr.out);
    bg_proc_result_free(&pr);
}

bg_status bg_runner_resolve(const char *name, bg_runner *r, char *why, unsigned n)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    if (strcmp(name, "native") == 0) {
        if (strcmp(bg_cpu_arch(), "x86_64") != 0) {
            snprintf(why, n, "runner 'native' needs an x86-64 host (this one is %s)", bg_cpu_arch());
            return BG_E_UNSUPPORTED;
        }
        struct utsname u;
        if (uname(&u) == 0)
            snprintf(r->version, sizeof r->version, "%s %s", u.sysname, u.release);
        return BG_OK;
    }
    if (strcmp(name, "qemu-x86_64") == 0) {
        static const char *const c[] = {"qemu-x86_64", "qemu-x86_64-static"};
        return tool_prefix(r, c, 2, why, n);
    }
    if (strcmp(name, "valgrind") == 0) {
        static const char *const c[] = {"valgrind"};
        if (strcmp(bg_cpu_arch(), "x86_64") != 0) {
            /* valgrind runs programs of its own host's architecture only */
            snprintf(why, n, "runner 'valgrind' needs an x86-64 host for an x86-64 guest (this one is %s)",
                     bg_cpu_arch());
            return BG_E_UNSUPPORTED;
        }
        bg_status st = tool_prefix(r, c, 1, why, n);
        if (st == BG_OK)
            st = push(r, "--tool=none");
        if (st == BG_OK)
            st = push(r, "-q");
        if (st == BG_OK)
            st = push(r, "--trace-children=yes");
        return st;
    }
    if (strcmp(name, "rosetta") == 0) {
#if defined(__APPLE__)
        bg_status st = push(r, "/usr/bin/arch");
        if (st == BG_OK)
            st = push(r, "-x86_64");
        version_of(r, "sw_vers", "-productVersion");
        return st;
#else
        snprintf(why, n, "runner 'rosetta' exists only on macOS (arm64 with Rosetta 2)");
        return BG_E_UNSUPPORTED;
#endif
    }
    if (strcmp(name, "fex") == 0) {
        static const char *const c[] = {"FEXInterpreter", "FEXLoader"};
        return tool_prefix(r, c, 2, why, n);
    }
    if (strcmp(name, "box64") == 0) {
        static const char *const c[] = {"box64"};
        return tool_prefix(r, c, 1, why, n);
    }
    int u = user_runner(r, name, why, n);
    if (u > 0)
        return BG_OK;
    if (u < 0)
        return (bg_status)u;
    snprintf(why, n, "unknown runner '%s': known are native, qemu-x86_64, valgrind, rosetta, fex, "
             "box64, or a name listed in BG_X86_RUNNERS", name);
    return BG_E_USAGE;
}

bg_status bg_runner_argv(const bg_runner *r, char *const guest[], char **out, unsigned cap)
{
    unsigned k = 0;
    for (int i = 0; i < r->argc; i++) {
        if (k + 1 >= cap)
            return BG_E_USAGE;
        out[k++] = r->argv[i];
    }
    for (int i = 0; guest[i]; i++) {
        if (k + 1 >= cap)
            return BG_E_USAGE;
        out[k++] = guest[i];
    }
    out[k] = NULL;
    return BG_OK;
}

void bg_runner_free(bg_runner *r)
{
    for (int i = 0; i < r->argc; i++)
        free(r->argv[i]);
    r->argc = 0;
    r->argv[0] = NULL;
}

int bg_version_parse(const char *s, int v[3])
{
    v[0] = v[1] = v[2] = 0;
    /* the first "N.N" that does not continue a word ("qemu-x86_64 version
       7.2.22" -> 7.2.22, not 86; "valgrind-3.19.0" -> 3.19.0); else the
       first digit run */
    const char *start = s, *first = NULL;
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p) || (p > start && isalnum((unsigned char)p[-1])))
            continue;
        if (!first)
            first = p;
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == '.' && isdigit((unsigned char)q[1])) {
            first = p;
            break;
        }
    }
    if (!first)
        return 0;
    s = first;
    for (int i = 0; i < 3; i++) {
        v[i] = (int)strtol(s, (char **)&s, 10);
        if (*s != '.' || !isdigit((unsigned char)s[1]))
            break;
        s++;
    }
    return 1;
}

int bg_version_cmp(const int a[3], const int b[3])
{
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

int bg_version_in_range(const char *ver, const char *range)
{
    if (strcmp(range, "*") == 0)
        return 1;
    int v[3];
    if (!bg_version_parse(ver, v))
        return 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", range);
    char *save = NULL;
    for (char *c = strtok_r(copy, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        while (*c == ' ')
            c++;
        char op[3] = {0};
        int k = 0;
        while (k < 2 && (c[k] == '<' || c[k] == '>' || c[k] == '='))
            op[k] = c[k], k++;
        int b[3];
        if (k == 0 || !isdigit((unsigned char)c[k]) || !bg_version_parse(c + k, b))
            return -1;
        int d = bg_version_cmp(v, b);
        int ok = strcmp(op, ">=") == 0   ? d >= 0
                 : strcmp(op, ">") == 0  ? d > 0
                 : strcmp(op, "<=") == 0 ? d <= 0
                 : strcmp(op, "<") == 0  ? d < 0
                 : strcmp(op, "=") == 0  ? d == 0
                                         : -1;
        if (ok < 0)
            return -1;
        if (!ok)
            return 0;
    }
    return 1;
}
