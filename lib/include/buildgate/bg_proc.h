/* bg_proc.h — the one way buildgate runs a child process (docs/architecture.md
 * "Child processes"): a timeout, exit/signal decoding, CPU time, stdout and
 * stderr captured into memory, stderr quoted in errors, environment additions.
 *
 * The child runs in its own process group (setpgid; unless same_group), with
 * stdin from /dev/null and stdout/stderr captured through pipes.  When the
 * wall-clock timeout passes, the group gets SIGTERM and, 2 s later, SIGKILL,
 * so a hanging translator and everything it started are gone.  While the
 * child runs, SIGINT/SIGTERM/SIGHUP to the caller (default disposition only)
 * are passed on to the child's group (a same_group child: to the child), which
 * gets SIGKILL 2 s later; then the caller's disposition is restored, the line
 * opts.interrupt_tool asks for printed, and the signal raised again (an
 * interrupt leaves no orphan; docs/architecture.md "Child processes").  POSIX only
 * (Linux, macOS).
 */
#ifndef BG_PROC_H
#define BG_PROC_H

#include <stddef.h>

#include "buildgate/bg_error.h"

typedef struct bg_proc_result {
    int exited;       /* 1: exited normally; code holds the exit status */
    int code;         /* exit status when exited */
    int signaled;     /* 1: killed by a signal; sig holds it */
    int sig;
    int timed_out;    /* 1: killed by bg_proc_run after timeout_s */
    int spawn_failed; /* 1: execvp failed (missing command); err holds why */
    char *out;        /* captured stdout, NUL-terminated (caller frees) */
    size_t out_len;   /* bytes in out, without the NUL */
    char *err;        /* captured stderr, NUL-terminated, its first max_err bytes */
    size_t err_len;
    double wall_s;    /* elapsed wall-clock seconds */
    double cpu_s;     /* user + system CPU seconds of the child and the
                         descendants it waited for (getrusage RUSAGE_CHILDREN) */
    char load[48];    /* timed_out: the host's load when it was killed,
                         "load 12.31 on 2 CPUs" (bg_progress.h) */
} bg_proc_result;

typedef struct bg_proc_opts {
    char *const *env; /* extra "NAME=value" entries, NULL-terminated, or NULL */
    double timeout_s; /* wall-clock limit in seconds; <= 0: none */
    size_t max_out;   /* stdout bytes kept; more is BG_E_TARGET (child killed);
                         0: 64 MiB */
    size_t max_err;   /* stderr bytes kept (the rest is read and dropped);
                         0: 4 KiB */
    int same_group;   /* 1: the child stays in the caller's process group, so a
                         parent killed with its group (bg-run's timeout) takes
                         it along; the timeout and an interrupt then signal
                         the child alone */
    const char *interrupt_tool; /* not NULL: before an interrupt is raised again, one line
                                   "buildgate: <tool>: interrupted by SIG<INT|TERM|HUP>:
                                   <argv[0]> stopped" on stderr */
} bg_proc_opts;

/* Runs argv (argv[0] looked up in PATH) as opts say (NULL: no env, no
 * timeout, 64 MiB stdout, 4 KiB stderr).  Returns BG_OK when the
 * child ran (whatever its status: inspect *r; a command that cannot be
 * executed is BG_OK with spawn_failed), BG_E_NOMEM, BG_E_IO when pipes/fork
 * fail, BG_E_TARGET when stdout passed max_out.  On BG_OK the caller
 * releases r with bg_proc_result_free(). */
bg_status bg_proc_spawn(char *const argv[], const bg_proc_opts *opts, bg_proc_result *r);

/* bg_proc_spawn with {env, timeout_s, max_out} (own process group). */
bg_status bg_proc_run(char *const argv[], char *const env[], double timeout_s, size_t max_out,
                      bg_proc_result *r);

void bg_proc_result_free(bg_proc_result *r);

/* One-line description of how the child ended: "exit status 3",
 * "killed by signal 11", "timed out after 5 s at load 12.31 on 2 CPUs",
 * "cannot run 'x': ...". */
void bg_proc_describe(const bg_proc_result *r, double timeout_s, char *buf, size_t n);

/* The last `lines` non-empty lines of the child's captured stderr (the
 * first max_err bytes), joined by " | ", into buf[n] ("" when there are
 * none, or the command could not be started). */
void bg_proc_stderr_tail(const bg_proc_result *r, int lines, char *buf, size_t n);

/* Lines of stderr bg_proc_explain quotes. */
#define BG_PROC_TAIL_LINES 3

/* bg_proc_describe, then "; stderr: " and the last BG_PROC_TAIL_LINES
 * non-empty lines of the child's stderr when there are any, as bg-run quotes
 * a failing command (e.g. "exit status 1; stderr: qemu: unknown option"). */
void bg_proc_explain(const bg_proc_result *r, double timeout_s, char *buf, size_t n);

/* 1 when the child exited with status 0 (not signalled, not timed out). */
int bg_proc_ok(const bg_proc_result *r);

/* Absolute path of an executable found in PATH (or name itself if it
 * contains '/' and is executable) into buf[n]; BG_E_UNSUPPORTED if none. */
bg_status bg_proc_which(const char *name, char *buf, size_t n);

#endif
