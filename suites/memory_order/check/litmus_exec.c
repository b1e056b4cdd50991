/* litmus_exec.c — see litmus_exec.h. */
#define _XOPEN_SOURCE 700 /* putenv */
#include "litmus_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAP (64u << 20)

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static int buf_read(buf *b, int fd)
{
    char tmp[65536];
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n <= 0)
        return n == 0 || errno != EINTR ? 0 : 1;
    if (b->len + (size_t)n + 1 > b->cap && b->len + (size_t)n < CAP) {
        size_t nc = (b->cap ? b->cap * 2 : 65536);
        while (nc < b->len + (size_t)n + 1)
            nc *= 2;
        char *p = realloc(b->p, nc);
        if (!p)
            return 1; /* drop data, keep draining */
        b->p = p;
        b->cap = nc;
    }
    if (b->len + (size_t)n + 1 <= b->cap) {
        memcpy(b->p + b->len, tmp, (size_t)n);
        b->len += (size_t)n;
    }
    return 1;
}

static char *buf_take(buf *b)
{
    if (!b->p)
        return calloc(1, 1);
    b->p[b->len] = '\0';
    return b->p;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bg_exec_run(char *const argv[], char *const env[], double timeout_s, bg_exec_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_status = -1;
    int po[2], pe[2];
    if (pipe(po) != 0)
        return -1;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        for (int i = 0; env && env[i]; i++)
            putenv(env[i]);
        execvp(argv[0], argv);
        fprintf(stderr, "buildgate: exec: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(po[1]);
    close(pe[1]);
    buf out = {0}, err = {0};
    int open_o = 1, open_e = 1, killed = 0;
    double kill_at = 0;
    while (open_o || open_e) {
        struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
        double left = (killed ? kill_at + 2 : t0 + timeout_s) - now_s();
        int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
        int n = poll(fds, 2, ms);
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0) {
            if (open_o && fds[0].revents)
                open_o = buf_read(&out, po[0]);
            if (open_e && fds[1].revents)
                open_e = buf_read(&err, pe[0]);
        } else if (n == 0) {
            if (!killed) {
                r->timed_out = 1;
                killed = 1;
                kill_at = now_s();
                kill(-pid, SIGTERM);
            } else {
                kill(-pid, SIGKILL);
                break;
            }
        }
    }
    close(po[0]);
    close(pe[0]);
    int st = 0;
    if (killed)
        kill(-pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    r->seconds = now_s() - t0;
    r->started = !(WIFEXITED(st) && WEXITSTATUS(st) == 127);
    if (WIFEXITED(st))
        r->exit_status = WEXITSTATUS(st);
    else if (WIFSIGNALED(st))
        r->signal = WTERMSIG(st);
    r->out = buf_take(&out);
    r->err = buf_take(&err);
    return 0;
}

void bg_exec_describe(const bg_exec_result *r, double timeout_s, char *buf, size_t n)
{
    if (r->timed_out)
        snprintf(buf, n, "timed out after %.0f s", timeout_s);
    else if (!r->started)
        snprintf(buf, n, "could not start");
    else if (r->signal)
        snprintf(buf, n, "killed by signal %d", r->signal);
    else
        snprintf(buf, n, "exit status %d", r->exit_status);
}

void bg_exec_free(bg_exec_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}
