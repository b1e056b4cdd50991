/* bg-run — runs one CTest test command and guarantees it leaves checks behind.
 * Usage, options, exit codes: usage_text below (`bg-run --help`).
 */
#define _POSIX_C_SOURCE 200809L
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

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_progress.h"

static const char usage_text[] =
    "Usage: bg-run --checks FILE --suite SUITE --test NAME [--timeout SECONDS]\n"
    "              [--stall SECONDS [--cap SECONDS]] -- CMD [ARGS...]\n"
    "\n"
    "Runs one CTest test command and guarantees it leaves checks behind.\n"
    "Truncates FILE, exports BG_CHECKS_FILE=FILE and BG_TEST_NAME=NAME, runs CMD\n"
    "in its own process group and waits.  Everything after -- is CMD's, untouched.\n"
    "\n"
    "  --checks FILE      the test's checks file (JSON lines, bg_check.h); truncated\n"
    "  --suite SUITE      suite of the checks bg-run adds itself\n"
    "  --test NAME        the CTest test name; prefix of those checks' names\n"
    "  --timeout SECONDS  wall-clock limit (default 1800 s): then SIGTERM to the\n"
    "                     process group, SIGKILL 5 s later\n"
    "  --stall SECONDS    progress mode, for a long step whose duration follows the\n"
    "                     host's load: exports BG_PROGRESS_FILE=FILE.progress, which\n"
    "                     CMD rewrites as it goes (\"<done> <total> <unit>\",\n"
    "                     lib/include/buildgate/bg_progress.h); killed when the file\n"
    "                     has not changed for SECONDS; --timeout passed while\n"
    "                     progress comes is no kill (a pass check <NAME>.limit says it)\n"
    "  --cap SECONDS      with --stall: the overall limit (default 4 x --timeout);\n"
    "                     a kill there, progress still coming, is a skip (the host\n"
    "                     is too slow or loaded), not a fail\n"
    "  -h, --help         this text\n"
    "\n"
    "The test's own checks decide its verdict; bg-run adds one check only when\n"
    "the command could not speak for itself:\n"
    "  <NAME>.exit     fail: killed by a signal, or exited non-zero (other than 77)\n"
    "                  without recording a fail; quotes the last non-empty line\n"
    "                  CMD wrote on stderr (bg-run passes CMD's stderr through)\n"
    "  <NAME>.timeout  fail: ran past --timeout (no --stall); skip: ran past --cap\n"
    "                  while making progress\n"
    "  <NAME>.stalled  fail: --stall SECONDS without progress\n"
    "  <NAME>.limit    pass: ran past --timeout, progress kept coming (--stall)\n"
    "Every kill names the host's load and the progress made, e.g. \"no progress for\n"
    "300 s; killed after 912 s at load 12.31 on 2 CPUs: 21000000 of 34078719\n"
    "dataset items built (61 %)\".\n"
    "  <NAME>.checks   exited 0 (fail) or 77 (skip) without recording any check\n"
    "Each failing check (the first 20) is also one stderr line, \"buildgate: <check>:\n"
    "<verdict>: expected ...; observed ...\", for ctest --output-on-failure.\n"
    "SIGINT, SIGTERM and SIGHUP sent to bg-run are passed on to CMD's process group.\n"
    "\n"
    "Exit: the command's own (0, 1, 77, ...); 1 when bg-run added a fail; 77 for\n"
    "      the --cap skip;\n"
    "      2 usage; 3 I/O (checks file, fork).\n"
    "Doc: docs/usage.md, docs/writing-a-suite.md, cmake/BuildgateTest.cmake\n"
    "     (bg_add_test).\n";

static void usage_exit(const char *why)
{
    bg_errorf("bg-run", "%s (see bg-run --help)", why);
    exit(BG_EXIT_USAGE);
}

/* One stderr line per failing check, so `ctest --output-on-failure` and the
 * <system-out> of ctest's JUnit say what failed (the full text is in
 * results.json / report.md).  The first BG_RUN_SAY_MAX only. */
#define BG_RUN_SAY_MAX 20
static void say_bad(int nth, const char *name, const char *verdict, const char *exp, const char *obs)
{
    if (nth < BG_RUN_SAY_MAX)
        fprintf(stderr, "buildgate: %s: %s: expected %.300s; observed %.500s\n", name, verdict,
                exp ? exp : "-", obs ? obs : "-");
    else if (nth == BG_RUN_SAY_MAX)
        fprintf(stderr, "buildgate: ... more failing checks in the checks file and report.md\n");
}

/* A check bg-run adds itself: recorded, and said on stderr when it fails. */
static void own_check(bg_checks *c, const char *name, bg_verdict v, const char *exp, const char *obs)
{
    bg_check_emit_str(c, name, v, exp, obs, NULL);
    if (bg_verdict_is_bad(v))
        say_bad(0, name, bg_verdict_name(v), exp, obs);
}

/* Counts the lines of FILE whose verdict is fail/xpass (*bad, each said on
 * stderr) and all lines (*all). */
static void scan_checks(const char *path, int *all, int *bad)
{
    *all = *bad = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        if (!o)
            continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "verdict");
        bg_verdict vd;
        if (cJSON_IsString(v) && bg_verdict_parse(v->valuestring, &vd) == BG_OK) {
            (*all)++;
            if (bg_verdict_is_bad(vd)) {
                say_bad(*bad, bg_json_str(o, "name"), v->valuestring, bg_json_str(o, "expected"),
                        bg_json_str(o, "observed"));
                (*bad)++;
            }
        }
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
}

/* The child's stderr as it passes through: the last non-empty line. */
typedef struct err_tail {
    char last[512]; /* last complete non-empty line, or the partial one at exit */
    char cur[512];  /* the line being read */
    size_t n;       /* bytes in cur */
} err_tail;

static void tail_end_line(err_tail *t)
{
    while (t->n && (t->cur[t->n - 1] == '\r' || t->cur[t->n - 1] == ' '))
        t->n--;
    if (t->n) {
        memcpy(t->last, t->cur, t->n);
        t->last[t->n] = '\0';
    }
    t->n = 0;
}

/* Copies what the child's stderr pipe holds to our stderr, keeping t. */
static void pass_stderr(int fd, err_tail *t)
{
    char buf[4096];
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) > 0) {
        fwrite(buf, 1, (size_t)k, stderr);
        for (ssize_t j = 0; j < k; j++) {
            if (buf[j] == '\n')
                tail_end_line(t);
            else if (t->n + 1 < sizeof t->cur)
                t->cur[t->n++] = buf[j];
        }
    }
    fflush(stderr);
    if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
        tail_end_line(t); /* EOF: a last line without a newline counts */
}

static volatile sig_atomic_t child_pgid;

/* Passes an interrupting signal on to the test's process group, then lets
 * bg-run record what happened to the child. */
static void forward_signal(int sig)
{
    if (child_pgid > 0)
        kill(-(pid_t)child_pgid, sig);
}

static void install_forwarding(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *checks = NULL, *suite = NULL, *test = NULL;
    double timeout = 1800, stall = 0, cap = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--checks") && strcmp(argv[i], "--suite") && strcmp(argv[i], "--test") &&
            strcmp(argv[i], "--timeout") && strcmp(argv[i], "--stall") && strcmp(argv[i], "--cap"))
            return bg_help_unknown_option(argv[i]);
        if (i + 1 >= argc)
            return bg_help_missing_value(argv[i]);
        if (!*argv[i + 1])
            return bg_help_bad_value(argv[i], "must not be empty");
        if (strcmp(argv[i], "--checks") == 0)
            checks = argv[++i];
        else if (strcmp(argv[i], "--suite") == 0)
            suite = argv[++i];
        else if (strcmp(argv[i], "--test") == 0)
            test = argv[++i];
        else {
            const char *opt = argv[i];
            char *end;
            double v = strtod(argv[++i], &end);
            if (*end || !(v > 0)) {
                char why[80];
                snprintf(why, sizeof why, "%s takes a positive number of seconds", opt);
                usage_exit(why);
            }
            *(strcmp(opt, "--timeout") == 0 ? &timeout : strcmp(opt, "--stall") == 0 ? &stall
                                                                                     : &cap) = v;
        }
    }
    if (cap > 0 && stall <= 0)
        usage_exit("--cap only applies with --stall");
    if (stall > 0 && cap <= 0)
        cap = 4 * timeout;
    if (stall > 0 && cap < timeout)
        usage_exit("--cap must not be below --timeout");
    if (!checks || !suite || !test || i >= argc)
        usage_exit("--checks, --suite, --test and a command are required");

    FILE *trunc = fopen(checks, "w");
    if (!trunc) {
        bg_errorf("bg-run", "cannot create %s: %s", checks, strerror(errno));
        return BG_EXIT_IO;
    }
    fclose(trunc);
    setenv("BG_CHECKS_FILE", checks, 1);
    setenv("BG_TEST_NAME", test, 1);
    char progress_path[4200] = "";
    if (stall > 0) {
        snprintf(progress_path, sizeof progress_path, "%s.progress", checks);
        remove(progress_path); /* an earlier run's */
        setenv(BG_PROGRESS_ENV, progress_path, 1);
    } else {
        unsetenv(BG_PROGRESS_ENV); /* an outer bg-run's file is not this test's */
    }
    fflush(NULL);

    /* the child's stderr goes through a pipe: passed on, its last line kept */
    int errp[2];
    if (pipe(errp) != 0) {
        bg_errorf("bg-run", "pipe: %s", strerror(errno));
        return BG_EXIT_IO;
    }
    pid_t pid = fork();
    if (pid < 0) {
        bg_errorf("bg-run", "fork: %s", strerror(errno));
        return BG_EXIT_IO;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(errp[1], STDERR_FILENO);
        close(errp[0]);
        close(errp[1]);
        execvp(argv[i], argv + i);
        bg_errorf("bg-run", "cannot run %s: %s", argv[i], strerror(errno));
        _exit(127);
    }
    close(errp[1]);
    fcntl(errp[0], F_SETFL, fcntl(errp[0], F_GETFL) | O_NONBLOCK);
    err_tail tail = {{0}, {0}, 0};
    setpgid(pid, pid);
    child_pgid = pid;
    install_forwarding();

    double t0 = now_s(), last_change = t0, last_look = 0, kill_t = 0;
    int status = 0, timed_out = 0, stalled = 0, term_sent = 0, seen = 0;
    bg_progress prog, cur;
    memset(&prog, 0, sizeof prog);
    char load_at_kill[64] = "";
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            pass_stderr(errp[0], &tail); /* what is already there; not waiting for EOF */
            break;
        }
        if (r < 0 && errno != EINTR) {
            bg_errorf("bg-run", "waitpid: %s", strerror(errno));
            return BG_EXIT_IO;
        }
        double now = now_s(), el = now - t0;
        if (stall > 0 && !term_sent && now - last_look >= 0.2) {
            last_look = now;
            if (bg_progress_read(progress_path, &cur) && strcmp(cur.raw, prog.raw)) {
                prog = cur;
                seen = 1;
                last_change = now;
            }
        }
        if (!term_sent) {
            if (stall > 0 && now - last_change > stall)
                stalled = 1;
            else if (el > (stall > 0 ? cap : timeout))
                timed_out = 1;
            if (stalled || timed_out) {
                term_sent = 1;
                kill_t = el;
                bg_host_load_describe(load_at_kill, sizeof load_at_kill);
                kill(-pid, SIGTERM);
            }
        } else if (el > kill_t + 5) {
            kill(-pid, SIGKILL);
        }
        struct pollfd pfd = {errp[0], POLLIN, 0};
        if (poll(&pfd, 1, 20) > 0)
            pass_stderr(errp[0], &tail);
    }
    close(errp[0]);
    if (stall > 0 && bg_progress_read(progress_path, &cur)) { /* the last word */
        prog = cur;
        seen = 1;
    }

    int all, bad;
    scan_checks(checks, &all, &bad);
    bg_checks *c = bg_checks_open(suite);
    if (!c)
        return BG_EXIT_IO;
    char name[512], obs[900], exp[160], done[300];
    bg_progress_describe(seen ? &prog : NULL, done, sizeof done);
    double ran = now_s() - t0;
    int rc;
    if (stalled) {
        snprintf(name, sizeof name, "%s.stalled", test);
        snprintf(exp, sizeof exp, "progress at least every %.0f s", stall);
        snprintf(obs, sizeof obs, "no progress for %.0f s; killed after %.0f s at %s: %s", stall,
                 kill_t, load_at_kill, done);
        own_check(c, name, BG_FAIL, exp, obs);
        rc = BG_EXIT_FAIL;
    } else if (timed_out && stall > 0 && seen) {
        /* progress came until the cap: the host's speed, not the code (a fail
         * the step recorded before stays a fail) */
        snprintf(name, sizeof name, "%s.timeout", test);
        snprintf(exp, sizeof exp, "finishes within the %.0f s cap", cap);
        snprintf(obs, sizeof obs,
                 "still making progress when killed after %.0f s at %s: %s; the host is too "
                 "slow or too loaded for this step here (not a fail of the code)",
                 kill_t, load_at_kill, done);
        own_check(c, name, BG_SKIP, exp, obs);
        fprintf(stderr, "buildgate: %s: skip: %s\n", name, obs);
        rc = bad > 0 ? BG_EXIT_FAIL : BG_EXIT_SKIP;
    } else if (timed_out) {
        snprintf(name, sizeof name, "%s.timeout", test);
        snprintf(obs, sizeof obs, "still running after %.0f s at %s; killed", timeout,
                 load_at_kill);
        own_check(c, name, BG_FAIL, "finishes within the timeout", obs);
        rc = BG_EXIT_FAIL;
    } else if (WIFSIGNALED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 77 &&
                                        bad == 0)) {
        snprintf(name, sizeof name, "%s.exit", test);
        if (WIFSIGNALED(status))
            snprintf(obs, sizeof obs, "killed by signal %d", WTERMSIG(status));
        else if (tail.last[0])
            snprintf(obs, sizeof obs, "exit status %d without a failing check; stderr: %s",
                     WEXITSTATUS(status), tail.last);
        else
            snprintf(obs, sizeof obs, "exit status %d without a failing check (nothing on stderr)",
                     WEXITSTATUS(status));
        own_check(c, name, BG_FAIL, "exit status 0, 1 with a failing check, or 77", obs);
        rc = BG_EXIT_FAIL;
    } else if (all == 0) {
        snprintf(name, sizeof name, "%s.checks", test);
        int skipped = WEXITSTATUS(status) == 77;
        own_check(c, name, skipped ? BG_SKIP : BG_FAIL, "at least one recorded check",
                  skipped ? "skipped without a reason" : "no check recorded");
        rc = skipped ? BG_EXIT_SKIP : BG_EXIT_FAIL;
    } else {
        rc = WEXITSTATUS(status);
        /* A test that recorded a failure but exited 0 still fails. */
        if (rc == 0 && bad > 0)
            rc = BG_EXIT_FAIL;
        if (stall > 0 && ran > timeout) { /* said, not judged: the limit followed progress */
            char load[64];
            bg_host_load_describe(load, sizeof load);
            snprintf(name, sizeof name, "%s.limit", test);
            snprintf(exp, sizeof exp, "within %.0f s, or past it while making progress", timeout);
            snprintf(obs, sizeof obs, "ran %.0f s, past its %.0f s limit, at %s, progress kept "
                     "coming: %s", ran, timeout, load, done);
            own_check(c, name, BG_PASS, exp, obs);
        }
    }
    if (progress_path[0])
        remove(progress_path);
    bg_checks_free(c);
    return rc;
}
