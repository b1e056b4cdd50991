/* bg_runner.h — runners: how a guest program is executed (natively, under a
 * translator or an emulator).  The one place runners are defined and
 * resolved (docs/architecture.md "Runner registry"):
 *   built-in runners   one row each in bg_runners.def (`bg-runner --list`)
 *   user runners       the environment variable BG_X86_RUNNERS, parsed once:
 *                      "name=command [args...];name2=command2" (names
 *                      [a-z0-9_-], up to 31 characters; words split on spaces,
 *                      '...' quotes a word with spaces); x86-64 guests, any
 *                      host, known-deviation file <name>.tsv, version "user
 *                      command".  An entry without '=', with a bad name, an
 *                      empty command, an unterminated quote, more than
 *                      BG_RUNNER_MAX_ARGS words, or a name already taken (a
 *                      built-in or an earlier entry) is rejected: every
 *                      resolve and bg-runner --list fail with one line naming it.
 * Tools take the runner by name (--runner NAME); CMake lists the runners with
 * `bg-runner --list` at configure time (cmake/BuildgateRunners.cmake).
 */
#ifndef BG_RUNNER_H
#define BG_RUNNER_H

#include <stddef.h>

#include "buildgate/bg_error.h"

#define BG_RUNNER_MAX_ARGS 16
#define BG_RUNNER_MAX_ENV 8

/* One registry row; every field a string, as in bg_runners.def. */
typedef struct bg_runner_row {
    const char *name, *guest, *hosts, *programs, *args, *env, *version, *known, *traits;
    const char *install; /* the command that installs the program; "": none of ours */
} bg_runner_row;

typedef struct bg_runner {
    char name[32];
    char guest[16];                          /* x86_64 or arm64 (host resolved) */
    char known[64];                          /* known-deviation file name */
    char traits[64];
    int user;                                /* 1: from BG_X86_RUNNERS */
    int argc;                                /* words of the prefix */
    char *argv[BG_RUNNER_MAX_ARGS + 1];      /* prefix, NULL-terminated (owned) */
    char *env[BG_RUNNER_MAX_ENV + 1];        /* "NAME=value", NULL-terminated (owned) */
    char version[160];                       /* see bg_runners.def; "" when unknown */
} bg_runner;

/* The registry: built-in rows then user rows (BG_X86_RUNNERS, parsed on the
 * first call).  *rows points to static storage.  BG_E_USAGE with why[n] when
 * BG_X86_RUNNERS has a malformed or duplicate entry. */
bg_status bg_runner_rows(const bg_runner_row **rows, size_t *count, char *why, unsigned n);

/* Forgets the parsed registry: the next call reads BG_X86_RUNNERS again
 * (tests and the fuzz target lib/fuzz/fuzz_runners_env.c; rows returned
 * before are invalid afterwards). */
void bg_runner_registry_reset(void);

/* Resolves name for programs of architecture guest ("x86_64", "arm64"; NULL:
 * the row's own).  BG_E_USAGE: unknown name (why names the known ones) or a
 * bad BG_X86_RUNNERS; BG_E_UNSUPPORTED: known but not usable here (wrong
 * guest or host, missing program), why says which; BG_E_PARSE: its version
 * command's first line holds no version number (bg_version_line; why quotes
 * the line with its byte count): refused, never guessed, since the version
 * scopes known-deviation lines.  why[n] receives one line
 * on error.  On BG_OK release r with bg_runner_free(). */
bg_status bg_runner_resolve(const char *name, const char *guest, bg_runner *r, char *why,
                            unsigned n);

/* 1 when the space-separated traits of r contain trait. */
int bg_runner_has_trait(const bg_runner *r, const char *trait);

/* Builds prefix + guest argv into out[cap] (pointers, not copies);
 * BG_E_USAGE when it does not fit. */
bg_status bg_runner_argv(const bg_runner *r, char *const guest[], char **out, unsigned cap);

void bg_runner_free(bg_runner *r);

/* The tool name r's known-deviation lines carry: its known file without the
 * extension ("qemu-x86_64" for qemu-x86_64.tsv, also for qemu-x86_64-trixie,
 * whose row shares that file).  Proposed lines (bg_proposed.h) go to this
 * name's file too.  out[n] receives it, truncated to fit. */
void bg_runner_known_tool(const bg_runner *r, char *out, size_t n);

/* The same for a registry row (bg_runner_rows) without resolving it: its known
 * file without the extension, or a user row's name (which bg_runner_resolve
 * gives the file <name>.tsv). */
void bg_runner_row_known_tool(const bg_runner_row *row, char *out, size_t n);

/* Numeric version "x.y.z" extracted from a version string into *v (up to 3
 * components, missing ones 0): the first "N.N" not glued to a word
 * ("qemu-x86_64 version 7.2.22 (Debian ...)" -> 7.2.22), else the first
 * free-standing digit run.  Returns 0 if none was found. */
int bg_version_parse(const char *s, int v[3]);

/* The version number of a runner's version line (the first line its version
 * command prints), into *v; 0 when the line holds none.  Stricter than
 * bg_version_parse, which takes any free-standing digit run: the first
 * "N.N[.N]" not glued to a word ("v" may precede it: "Box64 v0.2.8"); else a
 * tag "<letters>-N" ("FEX-2407"); else a line that is one number ("15").
 * " PageSize:4096 Running on Cortex-A72 with 4 Cores" (box64's log, issue
 * 23) holds none: bg_runner_resolve refuses such a runner (BG_E_PARSE). */
int bg_version_line(const char *s, int v[3]);

/* Compares versions a, b: <0, 0, >0. */
int bg_version_cmp(const int a[3], const int b[3]);

/* The bracket of a runner version V among the versions it was measured at
 * (docs/nan_semantics.md "Runner versions"): the nearest measured version below
 * V (lo) and above it (hi), and whether V itself was measured.  Start from
 * {0} and add every measured version W with bg_version_bracket_add; V is
 * bracketed (bg_version_bracket_ok) when it was not measured and has a
 * measured neighbour on each side.  One rule for nan-check and litmus-check. */
typedef struct {
    int lo[3], hi[3];
    int have_lo, have_hi, measured;
} bg_version_bracket;
void bg_version_bracket_add(bg_version_bracket *b, const int v[3], const int w[3]);
int bg_version_bracket_ok(const bg_version_bracket *b);

/* 1 when range is well formed: "*", "=X[.Y[.Z]]" alone, or at most one lower
 * bound (">=", ">") and at most one upper bound ("<=", "<"), comma-separated,
 * each version 1-3 components of 1-6 digits (no overflow, no "7.x"), the
 * lower below the upper (a range that admits some version).  0 otherwise. */
int bg_version_range_valid(const char *range);

/* 1 when version string ver satisfies range: "*", or comma-separated
 * constraints ">=7.2", "<8.0", "=3.19.0" (all must hold); -1 on a malformed
 * range (bg_version_range_valid), 0 otherwise. */
int bg_version_in_range(const char *ver, const char *range);

#endif
