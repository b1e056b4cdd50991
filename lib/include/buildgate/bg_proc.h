/* bg_proc.h — running a child command with a timeout and capturing its output.
 *
 * The child runs in its own process group (setpgid), with stdin from
 * /dev/null and stdout/stderr captured through pipes into memory.  When the
 * wall-clock timeout passes, the whole group gets SIGKILL, so a hanging
 * translator and everything it started are gone.  POSIX only (Linux, macOS).
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
    char *err;        /* captured stderr, NUL-terminated, at most max_err bytes */
    size_t err_len;
    double wall_s;    /* elapsed wall-clock seconds */
} bg_proc_result;

/* Runs argv (argv[0] looked up in PATH) with extra environment entries env
 * ("NAME=value", NULL-terminated, may be NULL), waits at most timeout_s
 * seconds (> 0).  stdout beyond max_out bytes is an error (BG_E_TARGET, the
 * child is killed).  Returns BG_OK when the child ran (whatever its status:
 * inspect *r), BG_E_NOMEM, or BG_E_IO when pipes/fork fail.  On BG_OK the
 * caller releases r with bg_proc_result_free(). */
bg_status bg_proc_run(char *const argv[], char *const env[], double timeout_s, size_t max_out,
                      bg_proc_result *r);

void bg_proc_result_free(bg_proc_result *r);

/* One-line description of how the child ended: "exit status 3",
 * "killed by signal 11", "timed out after 5 s", "cannot run 'x': ...". */
void bg_proc_describe(const bg_proc_result *r, double timeout_s, char *buf, size_t n);

/* Absolute path of an executable found in PATH (or name itself if it
 * contains '/' and is executable) into buf[n]; BG_E_UNSUPPORTED if none. */
bg_status bg_proc_which(const char *name, char *buf, size_t n);

#endif
