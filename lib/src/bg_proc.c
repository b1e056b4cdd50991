#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_proc.h"
#include "buildgate/bg_progress.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct sink {
    char *buf;
    size_t len, cap, max;
    int overflow;
} sink;

/* Appends n bytes; keeps at most max (overflow set beyond). */
static int sink_add(sink *s, const char *p, size_t n)
{
    if (s->len + n > s->max) {
        s->overflow = 1;
        n = s->max - s->len;
    }
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 65536;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *b = realloc(s->buf, cap);
        if (!b)
            return -1;
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    s->buf[s->len] = '\0';
    return 0;
}

static void child_exec(char *const argv[], char *const env[], int own_group, int out_fd, int err_fd,
                       int st_fd)
{
    if (own_group)
        setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    for (int i = 0; env && env[i]; i++) {
        const char *eq = strchr(env[i], '=');
        if (eq) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
            setenv(name, eq + 1, 1);
        }
    }
    execvp(argv[0], argv);
    int e = errno;
    if (write(st_fd, &e, sizeof e) < 0) {
        /* nothing more to do in a failed child */
    }
    _exit(127);
}

static double cpu_children(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Sends sig to the child's group (or to the child alone with same_group). */
static void signal_child(pid_t pid, int same_group, int sig)
{
    kill(same_group ? pid : -pid, sig);
}

/* An interrupt ends everything the process started: while a child runs in its
 * own process group, SIGINT, SIGTERM and SIGHUP to the caller are passed on to
 * that group (the caller's own group no longer reaches it: a hanging runner
 * outlived Ctrl-C, re-parented to pid 1); a same_group child gets them alone
 * (a signal sent to the caller's pid, not its group, never reached it:
 * `kill -INT` of bg-perf left valgrind running).  The caller then waits up to
 * BG_PROC_INTR_GRACE_S for the child, SIGKILLs the group, reaps the child,
 * restores its own disposition and raises the signal again, so it ends as the
 * signal says.  Groups of children running at once (threads): a fixed table,
 * lock-free (async-signal-safe). */
#define BG_PROC_GROUPS 16
#define BG_PROC_INTR_GRACE_S 2.0
static atomic_int live_groups[BG_PROC_GROUPS]; /* kill(-v): v > 0 a group, v < 0 one pid (-pid) */
static volatile sig_atomic_t intr_sig;
static const int intr_sigs[] = {SIGINT, SIGTERM, SIGHUP};
#define N_INTR_SIGS (sizeof intr_sigs / sizeof intr_sigs[0])

static void pass_on_interrupt(int sig)
{
    int e = errno;
    intr_sig = sig;
    for (int i = 0; i < BG_PROC_GROUPS; i++) {
        int g = atomic_load(&live_groups[i]);
        if (g != 0)
            kill(-(pid_t)g, sig);
    }
    errno = e;
}

/* Registers who (kill(-who) reaches the child: its pgid, or -pid); installs the handler for each signal whose disposition is
 * the default (an ignored signal stays ignored; a caller's own handler is
 * its own business).  old[] receives what was there. */
static int track_group(pid_t who, struct sigaction old[N_INTR_SIGS], int installed[N_INTR_SIGS])
{
    int slot = -1;
    for (int i = 0; i < BG_PROC_GROUPS && slot < 0; i++) {
        int zero = 0;
        if (atomic_compare_exchange_strong(&live_groups[i], &zero, (int)who))
            slot = i;
    }
    for (size_t i = 0; i < N_INTR_SIGS; i++) {
        installed[i] = 0;
        if (sigaction(intr_sigs[i], NULL, &old[i]) != 0 || old[i].sa_handler != SIG_DFL ||
            (old[i].sa_flags & SA_SIGINFO))
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = pass_on_interrupt;
        sigemptyset(&sa.sa_mask);
        installed[i] = sigaction(intr_sigs[i], &sa, NULL) == 0;
    }
    return slot;
}

/* Unregisters the slot, restores the dispositions, and raises an interrupt
 * that came meanwhile (the caller ends as it would have without us), after
 * the line "buildgate: <tool>: interrupted by SIG<name>: <what> stopped" when
 * tool is not NULL. */
static void untrack_group(int slot, const struct sigaction old[N_INTR_SIGS], const int installed[N_INTR_SIGS],
                          const char *tool, const char *what)
{
    if (slot >= 0)
        atomic_store(&live_groups[slot], 0);
    int sig = intr_sig;
    for (size_t i = 0; i < N_INTR_SIGS; i++)
        if (installed[i])
            sigaction(intr_sigs[i], &old[i], NULL);
    if (sig) {
        for (size_t i = 0; i < N_INTR_SIGS; i++)
            if (intr_sigs[i] == sig && installed[i]) {
                if (tool)
                    fprintf(stderr, "buildgate: %s: interrupted by SIG%s: %s stopped\n", tool,
                            sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : "HUP", what);
                raise(sig);
            }
    }
}

bg_status bg_proc_spawn(char *const argv[], const bg_proc_opts *opts, bg_proc_result *r)
{
    static const bg_proc_opts none = {0};
    const bg_proc_opts *o = opts ? opts : &none;
    memset(r, 0, sizeof *r);
    int po[2], pe[2], ps[2];
    if (pipe(po) != 0)
        return BG_E_IO;
    if (pipe(pe) != 0) {
        close(po[0]), close(po[1]);
        return BG_E_IO;
    }
    if (pipe(ps) != 0) {
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        return BG_E_IO;
    }
    fcntl(ps[1], F_SETFD, FD_CLOEXEC);
    /* an interrupt between fork and the handler's installation waits (blocked)
     * instead of ending the caller with the child's group left behind */
    sigset_t intr_set, old_mask;
    sigemptyset(&intr_set);
    for (size_t i = 0; i < N_INTR_SIGS; i++)
        sigaddset(&intr_set, intr_sigs[i]);
    sigprocmask(SIG_BLOCK, &intr_set, &old_mask);
    double t0 = now_s(), cpu0 = cpu_children();
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]), close(ps[0]), close(ps[1]);
        return BG_E_IO;
    }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        close(po[0]), close(pe[0]), close(ps[0]);
        child_exec(argv, o->env, !o->same_group, po[1], pe[1], ps[1]);
    }
    struct sigaction old_sa[N_INTR_SIGS];
    int installed[N_INTR_SIGS] = {0}, slot = -1;
    if (!o->same_group)
        setpgid(pid, pid);
    slot = track_group(o->same_group ? -pid : pid, old_sa, installed);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    close(po[1]), close(pe[1]), close(ps[1]);
    sink so = {.max = o->max_out ? o->max_out : (size_t)64 << 20}, se = {.max = o->max_err ? o->max_err : 4096};
    struct pollfd fds[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
    int open_fds = 2, nomem = 0;
    double kill_at = 0; /* after SIGTERM: when SIGKILL follows */
    char buf[65536];
    int interrupted = 0;
    while (open_fds > 0) {
        if (intr_sig && slot >= 0 && !interrupted) {
            interrupted = 1; /* passed on by the handler; SIGKILL after the grace */
            double at = now_s() + BG_PROC_INTR_GRACE_S;
            if (kill_at <= 0 || at < kill_at)
                kill_at = at;
        }
        double deadline = kill_at > 0 ? kill_at : o->timeout_s > 0 ? t0 + o->timeout_s : 0;
        double left = deadline > 0 ? deadline - now_s() : 1e9;
        if (left <= 0) {
            if (kill_at > 0)
                break; /* SIGKILL below */
            r->timed_out = 1;
            bg_host_load_describe(r->load, sizeof r->load);
            signal_child(pid, o->same_group, SIGTERM);
            kill_at = now_s() + 2;
            continue;
        }
        if (slot >= 0 && left > 0.2)
            left = 0.2; /* an interrupt is noticed within 0.2 s */
        int pr = poll(fds, 2, left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            } else if (sink_add(i == 0 ? &so : &se, buf, (size_t)n) != 0) {
                nomem = 1;
            }
        }
        if (so.overflow || nomem)
            break;
    }
    if (intr_sig && slot >= 0 && !interrupted) {
        /* the interrupt came as the pipes closed: the same grace */
        interrupted = 1;
        for (double until = now_s() + BG_PROC_INTR_GRACE_S; now_s() < until;) {
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
                break; /* ended (still a zombie: its pid stays the group's) */
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    /* the group's other members (a runner's background children) go too */
    if (r->timed_out || so.overflow || nomem || interrupted)
        signal_child(pid, o->same_group, SIGKILL);
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (slot >= 0 || installed[0] || installed[1] || installed[2])
        untrack_group(slot, old_sa, installed, o->interrupt_tool, argv[0]);
    r->cpu_s = cpu_children() - cpu0;
    int exec_errno = 0;
    if (read(ps[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        r->spawn_failed = 1;
        char msg[256];
        snprintf(msg, sizeof msg, "cannot run '%s': %s", argv[0], strerror(exec_errno));
        se.len = 0;
        sink_add(&se, msg, strlen(msg));
    }
    close(ps[0]);
    r->wall_s = now_s() - t0;
    if (!so.buf)
        sink_add(&so, "", 0);
    if (!se.buf)
        sink_add(&se, "", 0);
    r->out = so.buf, r->out_len = so.len;
    r->err = se.buf, r->err_len = se.len;
    if (WIFEXITED(status))
        r->exited = 1, r->code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r->signaled = 1, r->sig = WTERMSIG(status);
    if (nomem) {
        bg_proc_result_free(r);
        return BG_E_NOMEM;
    }
    if (so.overflow) {
        bg_proc_result_free(r);
        return BG_E_TARGET;
    }
    return BG_OK;
}

bg_status bg_proc_run(char *const argv[], char *const env[], double timeout_s, size_t max_out,
                      bg_proc_result *r)
{
    bg_proc_opts o = {.env = env, .timeout_s = timeout_s, .max_out = max_out};
    return bg_proc_spawn(argv, &o, r);
}

void bg_proc_result_free(bg_proc_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void bg_proc_describe(const bg_proc_result *r, double timeout_s, char *buf, size_t n)
{
    if (r->spawn_failed)
        snprintf(buf, n, "%s", r->err ? r->err : "cannot run");
    else if (r->timed_out)
        snprintf(buf, n, "timed out after %.0f s%s%s", timeout_s, r->load[0] ? " at " : "", r->load);
    else if (r->signaled)
        snprintf(buf, n, "killed by signal %d", r->sig);
    else
        snprintf(buf, n, "exit status %d", r->code);
}

void bg_proc_stderr_tail(const bg_proc_result *r, int lines, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (r->spawn_failed || !r->err || n == 0)
        return;
    /* walk back over the last `lines` non-empty lines */
    const char *start = r->err, *p = r->err + strlen(r->err);
    int found = 0;
    while (p > r->err && found < lines) {
        while (p > r->err && (p[-1] == '\n' || p[-1] == '\r'))
            p--;
        if (p == r->err)
            break;
        while (p > r->err && p[-1] != '\n' && p[-1] != '\r')
            p--;
        start = p;
        found++;
    }
    size_t used = 0;
    for (const char *q = start; found && *q && used + 1 < n;) {
        size_t len = strcspn(q, "\r\n");
        if (len) {
            int k = snprintf(buf + used, n - used, "%s%.*s", used ? " | " : "", (int)len, q);
            used = k < 0 ? n : used + (size_t)k;
        }
        q += len;
        q += strspn(q, "\r\n");
    }
    if (used >= n)
        buf[n - 1] = '\0';
}

void bg_proc_explain(const bg_proc_result *r, double timeout_s, char *buf, size_t n)
{
    bg_proc_describe(r, timeout_s, buf, n);
    char tail[600];
    bg_proc_stderr_tail(r, BG_PROC_TAIL_LINES, tail, sizeof tail);
    size_t used = strlen(buf);
    if (*tail && used + 11 < n)
        snprintf(buf + used, n - used, "; stderr: %s", tail);
}

int bg_proc_ok(const bg_proc_result *r)
{
    return !r->spawn_failed && !r->timed_out && r->exited && r->code == 0;
}

bg_status bg_proc_which(const char *name, char *buf, size_t n)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return BG_E_UNSUPPORTED;
        snprintf(buf, n, "%s", name);
        return BG_OK;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        char cand[4096];
        if (len > 0 && len + strlen(name) + 2 < sizeof cand) {
            snprintf(cand, sizeof cand, "%.*s/%s", (int)len, path, name);
            if (access(cand, X_OK) == 0) {
                snprintf(buf, n, "%s", cand);
                return BG_OK;
            }
        }
        if (!colon)
            break;
        path = colon + 1;
    }
    return BG_E_UNSUPPORTED;
}
