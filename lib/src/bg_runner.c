/* bg_runner.c — the runner registry (bg_runner.h, bg_runners.def). */
#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_runner.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "buildgate/bg_cpu.h"
#include "buildgate/bg_proc.h"

#ifndef BG_RUNNER_DIR_DEFAULT
#define BG_RUNNER_DIR_DEFAULT "build/cache/runners"
#endif

#define MAX_ROWS 64

static const bg_runner_row builtin[] = {
#define BG_RUNNER(name, guest, hosts, programs, args, env, version, known, traits, install) \
    {name, guest, hosts, programs, args, env, version, known, traits, install},
#include "buildgate/bg_runners.def"
#undef BG_RUNNER
};
#define NBUILTIN (sizeof builtin / sizeof builtin[0])

/* ---- BG_X86_RUNNERS, parsed once ---------------------------------------- */

static struct {
    int parsed;
    bg_status st;
    char why[300];
    bg_runner_row rows[MAX_ROWS];
    size_t count;
    char *text; /* the copy the user rows point into */
} reg;

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 31)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' || *s == '-'))
            return 0;
    return 1;
}

/* Splits s into words (spaces; '...' quotes) in place; -1 on an unterminated
 * quote or more than max words. */
static int split_words(char *s, char **w, int max)
{
    int n = 0;
    char *o = s;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        if (n >= max)
            return -1;
        w[n++] = o;
        while (*s && *s != ' ') {
            if (*s == '\'') {
                char *q = strchr(s + 1, '\'');
                if (!q)
                    return -1;
                memmove(o, s + 1, (size_t)(q - s - 1));
                o += q - s - 1;
                s = q + 1;
            } else {
                *o++ = *s++;
            }
        }
        if (*s)
            s++;
        *o++ = '\0';
    }
    return n;
}

static const bg_runner_row *find_row(const char *name)
{
    for (size_t i = 0; i < reg.count; i++)
        if (strcmp(reg.rows[i].name, name) == 0)
            return &reg.rows[i];
    return NULL;
}

static bg_status reject(const char *entry, const char *why)
{
    snprintf(reg.why, sizeof reg.why, "BG_X86_RUNNERS entry '%.80s': %s", entry, why);
    return BG_E_USAGE;
}

/* Fills reg: the built-in rows, then the user entries. */
static bg_status parse_registry(void)
{
    reg.count = 0;
    for (size_t i = 0; i < NBUILTIN; i++)
        reg.rows[reg.count++] = builtin[i];
    const char *spec = getenv("BG_X86_RUNNERS");
    if (!spec || !*spec)
        return BG_OK;
    reg.text = strdup(spec);
    if (!reg.text)
        return BG_E_NOMEM;
    char *save = NULL;
    for (char *ent = strtok_r(reg.text, ";", &save); ent; ent = strtok_r(NULL, ";", &save)) {
        while (*ent == ' ')
            ent++;
        if (!*ent)
            continue; /* "a=x;" : nothing between the separators */
        char *eq = strchr(ent, '=');
        if (!eq)
            return reject(ent, "want name=command");
        *eq = '\0';
        char *name = ent, *cmd = eq + 1;
        if (!valid_name(name))
            return reject(name, "the name must be 1-31 of [a-z0-9_-]");
        if (find_row(name))
            return reject(name, "the name is already taken (a built-in runner or an earlier entry)");
        char copy[1024], *w[BG_RUNNER_MAX_ARGS];
        snprintf(copy, sizeof copy, "%s", cmd);
        int nw = split_words(copy, w, BG_RUNNER_MAX_ARGS);
        if (nw < 0)
            return reject(name, "an unterminated quote or more than 16 words");
        if (nw == 0)
            return reject(name, "empty command");
        if (reg.count >= MAX_ROWS)
            return reject(name, "too many runners");
        reg.rows[reg.count++] = (bg_runner_row){name, "x86_64", "any", "", cmd, "", "", "", "user", ""};
    }
    return BG_OK;
}

bg_status bg_runner_rows(const bg_runner_row **rows, size_t *count, char *why, unsigned n)
{
    if (!reg.parsed) {
        reg.parsed = 1;
        reg.st = parse_registry();
    }
    if (reg.st != BG_OK) {
        snprintf(why, n, "%s", reg.st == BG_E_NOMEM ? "out of memory" : reg.why);
        return reg.st;
    }
    *rows = reg.rows;
    *count = reg.count;
    return BG_OK;
}

void bg_runner_registry_reset(void)
{
    free(reg.text);
    memset(&reg, 0, sizeof reg);
}

/* ---- resolving one row --------------------------------------------------- */

static bg_status push(char **v, int *c, int max, const char *word)
{
    if (*c >= max)
        return BG_E_USAGE;
    v[*c] = strdup(word);
    if (!v[*c])
        return BG_E_NOMEM;
    v[++*c] = NULL;
    return BG_OK;
}

/* s with every {dir} replaced by the runner directory, into out[n]. */
static void expand_dir(const char *s, char *out, size_t n)
{
    const char *dir = getenv("BG_RUNNER_DIR");
    if (!dir || !*dir)
        dir = BG_RUNNER_DIR_DEFAULT;
    size_t k = 0;
    while (*s && k + 1 < n) {
        if (strncmp(s, "{dir}", 5) == 0) {
            k += (size_t)snprintf(out + k, n - k, "%s", dir);
            if (k >= n)
                k = n - 1;
            s += 5;
        } else {
            out[k++] = *s++;
        }
    }
    out[k] = '\0';
}

/* Space-separated words of s ({dir} expanded) pushed onto v. */
static bg_status push_words(char **v, int *c, int max, const char *s, int quoted)
{
    char copy[1024], *w[BG_RUNNER_MAX_ARGS + 1], word[1024];
    snprintf(copy, sizeof copy, "%s", s);
    int nw = quoted ? split_words(copy, w, BG_RUNNER_MAX_ARGS) : 0;
    if (!quoted) {
        char *save = NULL;
        for (char *t = strtok_r(copy, " ", &save); t && nw <= BG_RUNNER_MAX_ARGS;
             t = strtok_r(NULL, " ", &save))
            w[nw++] = t;
    }
    if (nw < 0 || nw > BG_RUNNER_MAX_ARGS)
        return BG_E_USAGE;
    for (int i = 0; i < nw; i++) {
        expand_dir(w[i], word, sizeof word);
        bg_status st = push(v, c, max, word);
        if (st != BG_OK)
            return st;
    }
    return BG_OK;
}

/* First line of `argv` (run with r's env) into r->version ("" when it
 * printed nothing or could not run); BG_E_PARSE with why when that line holds
 * no version number (bg_version_line): a runner that logs to stdout first
 * (box64 with BOX64_LOG >= 1: " PageSize:4096 Running on ...") would else
 * give a version such as 4096 and proposed known lines ">=4096.0,<4096.1". */
static bg_status version_of(bg_runner *r, char *const argv[], char *why, unsigned n)
{
    bg_proc_opts o = {.env = r->env, .timeout_s = 10, .max_out = 1 << 16};
    bg_proc_result pr;
    if (bg_proc_spawn(argv, &o, &pr) != BG_OK)
        return BG_OK;
    const char *src = pr.out_len ? pr.out : pr.err;
    size_t all = pr.out_len ? pr.out_len : pr.err_len, len = strcspn(src, "\n"), lines = 0;
    for (size_t i = 0; i < all; i++)
        lines += src[i] == '\n';
    lines += all > 0 && src[all - 1] != '\n';
    bg_status st = BG_OK;
    int v[3];
    if (!pr.spawn_failed && len > 0) {
        snprintf(r->version, sizeof r->version, "%.*s", (int)len, src);
        if (!bg_version_line(r->version, v)) {
            for (char *p = r->version; *p; p++)
                if ((unsigned char)*p < 0x20 || *p == 0x7f)
                    *p = '?';
            snprintf(why, n,
                     "runner '%s': its version command ('%s%s%s') printed no version number on "
                     "its first line: '%.80s%s' (%zu bytes; %zu lines, %zu bytes in all from %s): "
                     "a runner that logs first needs its quiet setting in the row's env",
                     r->name, argv[0], argv[1] ? " " : "", argv[1] ? argv[1] : "", r->version,
                     len > 80 ? "..." : "", len, lines, all, pr.out_len ? "stdout" : "stderr");
            r->version[0] = '\0';
            st = BG_E_PARSE;
        }
    }
    bg_proc_result_free(&pr);
    return st;
}

static bg_status read_version(bg_runner *r, const bg_runner_row *row, char *why, unsigned n)
{
    if (row->version[0] == '\0')
        return BG_OK;
    if (strcmp(row->version, "uname") == 0) {
        struct utsname u;
        if (uname(&u) == 0)
            snprintf(r->version, sizeof r->version, "%s %s", u.sysname, u.release);
        return BG_OK;
    }
    char *argv[BG_RUNNER_MAX_ARGS + 2] = {NULL};
    int c = 0;
    bg_status st = BG_OK;
    if (row->version[0] == '-' && r->argc > 0)
        push(argv, &c, BG_RUNNER_MAX_ARGS + 1, r->argv[0]);
    if (push_words(argv, &c, BG_RUNNER_MAX_ARGS + 1, row->version, 0) == BG_OK)
        st = version_of(r, argv, why, n);
    for (int i = 0; i < c; i++)
        free(argv[i]);
    return st;
}

static const char *arch_label(const char *a)
{
    return strcmp(a, "x86_64") == 0 ? "x86-64" : a;
}

/* The row's host constraint; BG_E_UNSUPPORTED with why when not met. */
static bg_status check_host(const bg_runner_row *row, char *why, unsigned n)
{
    const char *host = bg_cpu_arch();
    if (strcmp(row->hosts, "any") == 0)
        return BG_OK;
    if (strcmp(row->hosts, "macos-rosetta") == 0) {
#if defined(__APPLE__)
        /* an Intel Mac starts x86-64 programs natively: that is not Rosetta */
        if (strcmp(host, "arm64") != 0) {
            snprintf(why, n, "runner '%s': this Mac is %s, not arm64: Rosetta 2 runs only on Apple silicon",
                     row->name, host);
            return BG_E_UNSUPPORTED;
        }
        /* Rosetta 2 is usable when `arch -x86_64` can start an x86-64 program */
        char *argv[] = {"/usr/bin/arch", "-x86_64", "/usr/bin/true", NULL};
        bg_proc_result pr;
        bg_proc_opts o = {.timeout_s = 30};
        int ok = 0;
        if (bg_proc_spawn(argv, &o, &pr) == BG_OK) {
            ok = bg_proc_ok(&pr);
            bg_proc_result_free(&pr);
        }
        if (ok)
            return BG_OK;
        snprintf(why, n, "runner '%s': Rosetta 2 is not installed (softwareupdate --install-rosetta)",
                 row->name);
#else
        snprintf(why, n, "runner '%s' exists only on macOS (arm64 with Rosetta 2)", row->name);
#endif
        return BG_E_UNSUPPORTED;
    }
    if (strcmp(row->hosts, host) == 0)
        return BG_OK;
    snprintf(why, n, "runner '%s' needs an %s host for an %s guest (this one is %s)", row->name,
             arch_label(row->hosts), arch_label(row->guest), host);
    return BG_E_UNSUPPORTED;
}

/* The first candidate program found becomes argv[0]. */
static bg_status find_program(bg_runner *r, const bg_runner_row *row, char *why, unsigned n)
{
    char copy[1024], cand[1024], path[4096], *save = NULL;
    snprintf(copy, sizeof copy, "%s", row->programs);
    const char *first = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        expand_dir(t, cand, sizeof cand);
        if (!first)
            first = t;
        if (bg_proc_which(cand, path, sizeof path) == BG_OK)
            return push(r->argv, &r->argc, BG_RUNNER_MAX_ARGS, path);
    }
    if (!first)
        return BG_OK; /* no program: native */
    expand_dir(first, cand, sizeof cand);
    /* the command that installs it is the row's (ci/provision, with a flag
     * for the runner directory's programs: ci/extra-runners) */
    char how[200];
    if (*row->install)
        snprintf(how, sizeof how, " (install it: %s)", row->install);
    else
        snprintf(how, sizeof how, " (ci/provision does not install it: install %s yourself)", first);
    snprintf(why, n, "runner '%s' is not installed: '%s' not found%s%s", r->name, cand,
             strchr(cand, '/') ? "" : " in PATH", how);
    return BG_E_UNSUPPORTED;
}

static bg_status resolve_row(const bg_runner_row *row, const char *guest, bg_runner *r, char *why,
                             unsigned n)
{
    const char *host = bg_cpu_arch();
    const char *own = strcmp(row->guest, "host") == 0 ? host : row->guest;
    snprintf(r->guest, sizeof r->guest, "%s", own);
    if (*row->known)
        snprintf(r->known, sizeof r->known, "%s", row->known);
    else
        snprintf(r->known, sizeof r->known, "%.58s.tsv", row->name);
    snprintf(r->traits, sizeof r->traits, "%s", row->traits);
    r->user = strcmp(row->traits, "user") == 0;
    if (guest && strcmp(guest, own) != 0) {
        if (strcmp(row->guest, "host") == 0)
            snprintf(why, n, "runner '%s' needs an %s host (this one is %s)", row->name,
                     arch_label(guest), host);
        else
            snprintf(why, n, "runner '%s' runs %s programs, not %s", row->name, arch_label(own),
                     arch_label(guest));
        return BG_E_UNSUPPORTED;
    }
    bg_status st = check_host(row, why, n);
    if (st != BG_OK)
        return st;
    if (r->user) {
        if ((st = push_words(r->argv, &r->argc, BG_RUNNER_MAX_ARGS, row->args, 1)) != BG_OK)
            return st;
        char path[4096];
        if (bg_proc_which(r->argv[0], path, sizeof path) != BG_OK) {
            snprintf(why, n, "runner '%s' (BG_X86_RUNNERS) command '%s' not found or not executable",
                     r->name, r->argv[0]);
            return BG_E_UNSUPPORTED;
        }
        snprintf(r->version, sizeof r->version, "user command");
        return BG_OK;
    }
    if ((st = find_program(r, row, why, n)) != BG_OK)
        return st;
    if ((st = push_words(r->argv, &r->argc, BG_RUNNER_MAX_ARGS, row->args, 0)) != BG_OK ||
        (st = push_words(r->env, &(int){0}, BG_RUNNER_MAX_ENV, row->env, 0)) != BG_OK) {
        snprintf(why, n, "runner '%s': its registry row has too many words", r->name);
        return st;
    }
    return read_version(r, row, why, n);
}

bg_status bg_runner_resolve(const char *name, const char *guest, bg_runner *r, char *why,
                            unsigned n)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    const bg_runner_row *rows = NULL;
    size_t count = 0;
    bg_status st = bg_runner_rows(&rows, &count, why, n);
    if (st != BG_OK)
        return st;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(rows[i].name, name) != 0)
            continue;
        st = resolve_row(&rows[i], guest, r, why, n);
        if (st != BG_OK)
            bg_runner_free(r);
        return st;
    }
    char known[512] = "";
    for (size_t i = 0; i < NBUILTIN; i++) {
        size_t k = strlen(known);
        snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", rows[i].name);
    }
    snprintf(why, n, "unknown runner '%s': known are %s, or a name listed in BG_X86_RUNNERS", name,
             known);
    return BG_E_USAGE;
}

int bg_runner_has_trait(const bg_runner *r, const char *trait)
{
    size_t len = strlen(trait);
    for (const char *p = r->traits; (p = strstr(p, trait)) != NULL; p += len)
        if ((p == r->traits || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' '))
            return 1;
    return 0;
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
    for (int i = 0; r->env[i]; i++)
        free(r->env[i]);
    r->argc = 0;
    r->argv[0] = NULL;
    r->env[0] = NULL;
}

void bg_runner_row_known_tool(const bg_runner_row *row, char *out, size_t n)
{
    const char *file = *row->known ? row->known : row->name;
    const char *dot = *row->known ? strrchr(file, '.') : NULL;
    snprintf(out, n, "%.*s", dot ? (int)(dot - file) : (int)strlen(file), file);
}

void bg_runner_known_tool(const bg_runner *r, char *out, size_t n)
{
    const char *dot = strrchr(r->known, '.');
    int len = dot ? (int)(dot - r->known) : (int)strlen(r->known);
    snprintf(out, n, "%.*s", len, r->known);
}

/* 1 when the digit at p starts a number that does not continue a word or
 * another number: not after a letter or digit ("x86_64", "A72"), except a
 * lone 'v' ("Box64 v0.2.8"), and not after "<digit>." (the 2 of 0.2.8). */
static int free_number(const char *start, const char *p)
{
    if (p == start)
        return 1;
    unsigned char b = (unsigned char)p[-1];
    if (b == '.' && p - 1 > start && isdigit((unsigned char)p[-2]))
        return 0;
    if ((b == 'v' || b == 'V') && (p - 1 == start || !isalnum((unsigned char)p[-2])))
        return 1;
    return !isalnum(b);
}

int bg_version_line(const char *s, int v[3])
{
    v[0] = v[1] = v[2] = 0;
    const char *tag = NULL;
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p) || !free_number(s, p))
            continue;
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == '.' && isdigit((unsigned char)q[1]))
            return bg_version_parse(p, v); /* N.N */
        /* a tag "<letters>-N" ("FEX-2407") */
        if (!tag && p - s >= 2 && p[-1] == '-' && isalpha((unsigned char)p[-2]) && !isalnum((unsigned char)*q))
            tag = p;
    }
    if (tag)
        return bg_version_parse(tag, v);
    /* the whole line one number ("15") */
    const char *p = s;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    while (*q == ' ' || *q == '\t' || *q == '\r')
        q++;
    return q > p && *q == '\0' && isdigit((unsigned char)*p) ? bg_version_parse(p, v) : 0;
}

int bg_version_parse(const char *s, int v[3])
{
    v[0] = v[1] = v[2] = 0;
    /* the first "N.N" that does not continue a word ("qemu-x86_64 version
       7.2.22" -> 7.2.22, not 86; "valgrind-3.19.0" -> 3.19.0; "Box64 v0.2.8"
       -> 0.2.8, not 2.8); else the first digit run */
    const char *start = s, *first = NULL;
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p) || !free_number(start, p))
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

void bg_version_bracket_add(bg_version_bracket *b, const int v[3], const int w[3])
{
    int c = bg_version_cmp(w, v);
    b->measured |= c == 0;
    if (c < 0 && (!b->have_lo || bg_version_cmp(w, b->lo) > 0))
        memcpy(b->lo, w, sizeof b->lo), b->have_lo = 1;
    if (c > 0 && (!b->have_hi || bg_version_cmp(w, b->hi) < 0))
        memcpy(b->hi, w, sizeof b->hi), b->have_hi = 1;
}

int bg_version_bracket_ok(const bg_version_bracket *b)
{
    return !b->measured && b->have_lo && b->have_hi;
}

/* One bound "<op><version>" at *p (up to ',' or the end): its op into op[3]
 * and version into v; returns the end, or NULL when malformed. */
static const char *range_bound(const char *p, char op[3], int v[3])
{
    int k = 0;
    while (k < 2 && (p[k] == '<' || p[k] == '>' || p[k] == '='))
        op[k] = p[k], k++;
    op[k] = '\0';
    if (strcmp(op, ">=") && strcmp(op, ">") && strcmp(op, "<=") && strcmp(op, "<") && strcmp(op, "="))
        return NULL;
    p += k;
    v[0] = v[1] = v[2] = 0;
    for (int i = 0; i < 3; i++) {
        size_t d = strspn(p, "0123456789");
        if (d == 0 || d > 6)
            return NULL;
        v[i] = atoi(p);
        p += d;
        if (*p != '.')
            return *p == ',' || *p == '\0' ? p : NULL;
        p++;
    }
    return NULL; /* a fourth component */
}

int bg_version_range_valid(const char *range)
{
    if (!range || !*range)
        return 0;
    if (strcmp(range, "*") == 0)
        return 1;
    int lo[3], hi[3], v[3], nlo = 0, nhi = 0, neq = 0, lo_incl = 0, hi_incl = 0;
    char op[3];
    for (const char *p = range;;) {
        p = range_bound(p, op, v);
        if (!p)
            return 0;
        if (op[0] == '>') {
            memcpy(lo, v, sizeof lo), lo_incl = op[1] == '=', nlo++;
        } else if (op[0] == '<') {
            memcpy(hi, v, sizeof hi), hi_incl = op[1] == '=', nhi++;
        } else {
            neq++;
        }
        if (!*p)
            break;
        p++;
    }
    if (neq)
        return neq == 1 && nlo == 0 && nhi == 0;
    if (nlo > 1 || nhi > 1)
        return 0;
    if (nlo && nhi) {
        int d = bg_version_cmp(lo, hi);
        return d < 0 || (d == 0 && lo_incl && hi_incl);
    }
    return 1;
}

int bg_version_in_range(const char *ver, const char *range)
{
    if (strcmp(range, "*") == 0)
        return 1;
    if (!bg_version_range_valid(range))
        return -1;
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
