/* litmus_exec.h — runs a command (a runner prefix + a probe) with a time
 * limit and captures its stdout and stderr.
 *
 * The child runs in its own process group; past the limit the group gets
 * SIGTERM, then SIGKILL 2 s later (a runner that hangs, e.g. an emulator
 * dead-locked on a guest futex, never blocks the suite).  POSIX.1-2008
 * fork/execvp/poll/waitpid. */
#ifndef BG_LITMUS_EXEC_H
#define BG_LITMUS_EXEC_H

#include <stddef.h>

typedef struct bg_exec_result {
    int started;      /* 0: execvp failed (exit_status 127) or fork failed */
    int exit_status;  /* when exited normally, else -1 */
    int signal;       /* terminating signal, else 0 */
    int timed_out;    /* killed after timeout_s */
    double seconds;   /* wall time */
    char *out;        /* stdout, NUL-terminated (caller frees) */
    char *err;        /* stderr, NUL-terminated (caller frees) */
} bg_exec_result;

/* Runs argv[0..] (argv NULL-terminated; argv[0] looked up in PATH) with
 * extra environment entries env ("NAME=value", NULL-terminated, may be NULL).
 * Output beyond 64 MiB per stream is dropped.  Returns 0, or -1 when pipes or
 * memory cannot be had. */
int bg_exec_run(char *const argv[], char *const env[], double timeout_s, bg_exec_result *r);

/* One line describing how the command ended: "exit status 3",
 * "killed by signal 11", "timed out after 60 s", "could not start". */
void bg_exec_describe(const bg_exec_result *r, double timeout_s, char *buf, size_t n);

void bg_exec_free(bg_exec_result *r);

#endif
