#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *g_tool = "buildgate";
static _Thread_local sigjmp_buf *t_jump; /* the guarded call of this thread, if any */
static volatile sig_atomic_t g_region;
static const char *volatile g_region_lib = "";
static const char *volatile g_region_call = "";

static const int g_sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
#define NSIGS (sizeof g_sigs / sizeof g_sigs[0])
static struct sigaction g_old[NSIGS];
static int g_installed;

void bg_guard_set_tool(const char *tool) { g_tool = tool && *tool ? tool : "buildgate"; }

const char *bg_guard_tool(void) { return g_tool; }

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGABRT: return "SIGABRT (abort)";
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    default: return "a fatal signal";
    }
}

static void put(const char *s) { (void)!write(2, s, strlen(s)); }

static void on_signal(int sig)
{
    sigjmp_buf *j = t_jump;
    if (j) {
        t_jump = NULL;
        siglongjmp(*j, sig);
    }
    if (g_region) { /* only async-signal-safe calls from here */
        put("buildgate: ");
        put(g_tool);
        put(": ");
        put(g_region_lib);
        put(" failed: ");
        put(g_region_call);
        put(": ");
        put(sig_name(sig));
        put("\n");
        _exit(BG_EXIT_TARGET);
    }
    /* not ours: the previous disposition, then the signal again */
    for (size_t i = 0; i < NSIGS; i++)
        if (g_sigs[i] == sig)
            sigaction(sig, &g_old[i], NULL);
    raise(sig);
}

/* Installs the handlers once; they stay (and pass foreign signals on). */
static void install(void)
{
    if (g_installed)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSIGS; i++)
        sigaction(g_sigs[i], &sa, &g_old[i]);
    g_installed = 1;
}

/* Why the call failed, from what it wrote to stderr: libstdc++'s
 * "terminate called after throwing an instance of 'T'\n  what():  text". */
static void explain(const char *text, int sig, char *why, size_t n)
{
    const char *w = strstr(text, "what():");
    const char *type = strstr(text, "instance of '");
    if (w) {
        w += strlen("what():");
        w += strspn(w, " \t");
        int len = (int)strcspn(w, "\r\n");
        int tlen = type ? (int)strcspn(type + 13, "'\r\n") : 0;
        snprintf(why, n, "%.*s (uncaught C++ exception%s%.*s; %s)", len, w, type ? " " : "", tlen,
                 type ? type + 13 : "", sig_name(sig));
        return;
    }
    const char *line = text + strspn(text, " \t\r\n");
    int len = (int)strcspn(line, "\r\n");
    if (len > 0)
        snprintf(why, n, "%.*s (%s)", len, line, sig_name(sig));
    else
        snprintf(why, n, "%s", sig_name(sig));
}

bg_status bg_guard_call(const char *lib, const char *call, bg_guard_fn fn, void *arg)
{
    install();
    fflush(stderr);
    FILE *cap = tmpfile(); /* stderr of the call: the exception text, if it throws */
    int saved = cap ? dup(2) : -1;
    if (saved >= 0 && dup2(fileno(cap), 2) < 0) {
        close(saved);
        saved = -1;
    }
    sigjmp_buf jb;
    int sig = sigsetjmp(jb, 1);
    if (sig == 0) {
        t_jump = &jb;
        fn(arg);
        t_jump = NULL;
    }
    fflush(stderr);
    char text[2048] = "";
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
        rewind(cap);
        size_t got = fread(text, 1, sizeof text - 1, cap);
        text[got] = '\0';
        while (sig == 0 && got) { /* a call that worked: its messages, unchanged */
            fwrite(text, 1, got, stderr);
            got = fread(text, 1, sizeof text - 1, cap);
        }
    }
    if (cap)
        fclose(cap);
    if (sig == 0)
        return BG_OK;
    char why[400];
    explain(text, sig, why, sizeof why);
    return bg_fail(BG_E_TARGET, g_tool, "%s failed: %s: %s", lib, call, why);
}

void bg_guard_region_begin(const char *lib, const char *call)
{
    install();
    g_region_lib = lib;
    g_region_call = call;
    g_region = 1;
}

void bg_guard_region_end(void) { g_region = 0; }
