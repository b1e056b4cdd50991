/* bg_runner.h — runners: how an x86-64 guest program is executed.
 *
 * Built-in runner names (ARCHITECTURE.md "runner"):
 *   native       the host CPU (x86-64 hosts only)
 *   qemu-x86_64  QEMU user mode (`qemu-x86_64` in PATH)
 *   valgrind     `valgrind --tool=none -q --trace-children=yes` (follows exec;
 *                x86-64 hosts only: valgrind does not translate)
 *   rosetta      `arch -x86_64` (macOS arm64 with Rosetta 2 installed)
 *   fex          `FEXInterpreter` (or `FEXLoader`) in PATH
 *   box64        `box64` in PATH
 * User runners come from the environment variable BG_X86_RUNNERS:
 *   "name=command [args...];name2=command2"  (names: [a-z0-9_-], no spaces
 *   inside an argument).  A built-in name always wins over a user one.
 * Version: the first line of `<tool> --version` (native: the OS kernel
 * release from uname(2); rosetta: macOS `sw_vers -productVersion`; user
 * runners: the first stdout line of `<command's tool> --version` when that
 * exits 0 (bg_runner_command_version), else "user command").
 */
#ifndef BG_RUNNER_H
#define BG_RUNNER_H

#include "buildgate/bg_error.h"

#define BG_RUNNER_MAX_ARGS 16

typedef struct bg_runner {
    char name[32];
    int argc;                                /* words of the prefix */
    char *argv[BG_RUNNER_MAX_ARGS + 1];      /* prefix, NULL-terminated (owned) */
    char version[160];                       /* see above; "" when unknown */
} bg_runner;

/* Resolves name.  BG_E_USAGE: unknown name (why names the known ones);
 * BG_E_UNSUPPORTED: known but not usable on this host (missing tool, wrong
 * OS/arch), why says which.  why[n] receives one line on error. */
bg_status bg_runner_resolve(const char *name, bg_runner *r, char *why, unsigned n);

/* Builds prefix + guest argv into out[cap] (pointers, not copies);
 * BG_E_USAGE when it does not fit. */
bg_status bg_runner_argv(const bg_runner *r, char *const guest[], char **out, unsigned cap);

void bg_runner_free(bg_runner *r);

/* Version of a runner given as a command prefix words[0..n-1]: runs its tool
 * (words[0], or after a leading `env NAME=value...` the first other word,
 * with those assignments) with --version, 10 s limit, and copies the first
 * stdout line into out[cap] when it exits 0 with output; otherwise out is
 * left as it was (callers preset a fallback such as "user command"). */
void bg_runner_command_version(char *const words[], int n, char *out, unsigned cap);

/* Numeric version "x.y.z" extracted from a version string into *v (up to 3
 * components, missing ones 0): the first "N.N" not glued to a word
 * ("qemu-x86_64 version 7.2.22 (Debian ...)" -> 7.2.22), else the first
 * free-standing digit run.  Returns 0 if none was found. */
int bg_version_parse(const char *s, int v[3]);

/* Compares versions a, b: <0, 0, >0. */
int bg_version_cmp(const int a[3], const int b[3]);

/* 1 when version string ver satisfies range: "*", or comma-separated
 * constraints ">=7.2", "<8.0", "=3.19.0" (all must hold); -1 on a malformed
 * range, 0 otherwise. */
int bg_version_in_range(const char *ver, const char *range);

#endif
