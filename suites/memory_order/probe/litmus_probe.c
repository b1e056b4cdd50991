/* litmus-probe — runs litmus tests and prints their outcome histograms as JSON.
 * Usage, output, exit codes: usage_text below (`litmus-probe --help`).
 * Depends on libc + pthreads only (no libbuildgate, not even bg_help), so it
 * cross-builds for arm64 as a static binary.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "litmus_catalog.h"
#include "litmus_harness.h"

#define MAX_RUNS 16
#define MAX_ITERATIONS 100000000000ULL /* 10^11: days at the fastest rate seen */

typedef struct run_spec {
    const litmus_test *test;
    litmus_access access;
    uint64_t iterations;
} run_spec;

static const char usage_text[] =
    "Usage: litmus-probe [--instances K] [--time-budget S] [--sync auto|user|none]\n"
    "                    [--affinity incr[:N]|random|none] [--seed S]\n"
    "                    TEST:ACCESS:ITERATIONS...\n"
    "\n"
    "Runs litmus tests and prints their outcome histograms as JSON.\n"
    "  TEST           a catalogue name (probe/litmus_tests.def): SB, MP, IRIW, ...;\n"
    "                 an unknown name is refused with the full list\n"
    "  ACCESS         plain | tso | sc | mutant-drop-fence | mutant-tso-relaxed\n"
    "                 (see litmus_access.h)\n"
    "  ITERATIONS     copies to run, 1 .. 10^11 (at most 16 runs)\n"
    "  --instances K  copies per round (default 1024, at most 2^20)\n"
    "  --time-budget S  seconds per TEST:ACCESS run (default 10, at most 86400);\n"
    "                 a run stops at its iteration count or its budget\n"
    "  --sync X       per-copy rendezvous: user (always), none, auto (default:\n"
    "                 user unless the test has more threads than online CPUs)\n"
    "  --affinity M   where threads run, inside the CPU mask the probe inherited\n"
    "                 (taskset, cpuset), after litmus7's -affinity: incr[:N]\n"
    "                 (default incr:1) thread t on the (t*N mod n)-th CPU of the\n"
    "                 mask; random: on a random permutation of the mask's CPUs,\n"
    "                 drawn per run; none: unpinned.  macOS has no affinity API:\n"
    "                 every mode runs unpinned and the output says so\n"
    "  --seed S       random's seed (default: time and pid; run k uses S+k)\n"
    "  -h, --help     this text\n"
    "\n"
    "Output (stdout, one JSON object):\n"
    "  {\"probe\":\"litmus\",\"version\":1,\"arch\":\"x86_64\"|\"arm64\"|\"other\",\"ncpu\":N,\n"
    "   \"runs\":[{\"test\",\"access\",\"threads\",\"requested\",\"iterations\",\"rounds\",\n"
    "            \"instances\",\"seconds\",\"pinned\",\"oversubscribed\",\"sync\",\n"
    "            \"stopped_by\":\"iterations\"|\"time\",\n"
    "            \"affinity\":\"incr:N\"|\"random:SEED\"|\"none\"|\"none (no affinity API)\",\n"
    "            \"cpus\":[the CPU of each thread, -1 unpinned],\n"
    "            \"histogram\":{\"<litmus7 outcome key>\":count,...}}]}\n"
    "  a SPLIT test that cannot run here (not x86-64; split locks fatal: SIGBUS\n"
    "  in a child that tried one) is {\"test\",\"access\",\"threads\",\"requested\",\n"
    "  \"iterations\":0,\"skipped\":\"<why>\",\"histogram\":{}}.\n"
    "  ncpu: CPUs available to the probe (Linux: its affinity mask, e.g. 1 under\n"
    "  taskset -c 0); only outcomes seen are listed; \"impossible;\" counts values\n"
    "  outside 0..2.\n"
    "\n"
    "Exit: 0 ok; 2 bad argument (one line \"buildgate: litmus-probe: ...\" on\n"
    "      stderr); 8 out of memory or threads.\n"
    "Doc: docs/memory_order.md.\n";

static int usage(const char *why, const char *arg)
{
    fprintf(stderr, "buildgate: litmus-probe: %s%s%s\n", why, arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* Parses an unsigned decimal in [lo, hi]; 0 on success. */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_run(char *arg, run_spec *r)
{
    char *c1 = strchr(arg, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2)
        return usage("bad run (want TEST:ACCESS:ITERATIONS)", arg);
    *c1 = *c2 = '\0';
    r->test = litmus_find(arg);
    if (!r->test) {
        char names[2048], why[2100];
        litmus_names(names, sizeof names);
        snprintf(why, sizeof why, "unknown test (known: %s)", names);
        return usage(why, arg);
    }
    int a = litmus_access_parse(c1 + 1);
    if (a < 0)
        return usage("unknown access (known: plain tso sc mutant-drop-fence mutant-tso-relaxed)",
                     c1 + 1);
    r->access = (litmus_access)a;
    if (parse_u64(c2 + 1, 1, MAX_ITERATIONS, &r->iterations))
        return usage("iterations must be an integer in 1..100000000000", c2 + 1);
    return 0;
}

static const char *arch_name(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "arm64";
#else
    return "other";
#endif
}

/* Why a SPLIT test cannot run here, or NULL: it needs x86-64, and a host
 * that kills split locks (Linux split_lock_detect=fatal: SIGBUS) would kill
 * the probe, so one split lock is tried in a child process first.  The
 * environment variable LITMUS_SPLIT_LOCK_TRAP=1 makes that child die by
 * SIGBUS as on such a host (the self-test memory_order.selftest.split-lock-fatal). */
static const char *split_unavailable(void)
{
#if defined(__x86_64__)
    static char why[200];
    static _Alignas(128) unsigned char line[128];
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, sizeof why, "cannot fork to try a split lock: %s", strerror(errno));
        return why;
    }
    if (pid == 0) {
        const char *trap = getenv("LITMUS_SPLIT_LOCK_TRAP");
        if (trap && strcmp(trap, "1") == 0)
            raise(SIGBUS);
        __asm__ __volatile__("lock addq $0, %0" : "+m"(*(unsigned long long *)(void *)(line + LITMUS_SPLIT_OFFSET))
                             : : "memory", "cc");
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(st)) {
        snprintf(why, sizeof why, "split locks are fatal on this host: a LOCK'd access across a "
                 "cache line killed a child with signal %d%s", WTERMSIG(st),
                 WTERMSIG(st) == SIGBUS ? " (SIGBUS: Linux split_lock_detect=fatal)" : "");
        return why;
    }
    return NULL;
#else
    return "SPLIT tests need x86-64 (locked accesses across a cache line; arm64 atomics must be aligned)";
#endif
}

static void print_skipped(const run_spec *r, const char *why, int first)
{
    printf("%s\n  {\"test\":\"%s\",\"access\":\"%s\",\"threads\":%d,\"requested\":%llu,"
           "\"iterations\":0,\"skipped\":\"%s\",\"histogram\":{}}",
           first ? "" : ",", r->test->name, litmus_access_name(r->access), r->test->nthreads,
           (unsigned long long)r->iterations, why);
}

static void print_run(const run_spec *r, const litmus_params *p, const litmus_result *res, int first)
{
    const litmus_test *t = r->test;
    printf("%s\n  {\"test\":\"%s\",\"access\":\"%s\",\"threads\":%d,\"requested\":%llu,"
           "\"iterations\":%llu,\"rounds\":%llu,\"instances\":%zu,\"seconds\":%.6f,"
           "\"pinned\":%s,\"oversubscribed\":%s,\"sync\":\"%s\",\"stopped_by\":\"%s\",",
           first ? "" : ",", t->name, litmus_access_name(r->access), t->nthreads,
           (unsigned long long)r->iterations, (unsigned long long)res->iterations,
           (unsigned long long)res->rounds, res->instances, res->seconds,
           res->pinned ? "true" : "false", res->oversubscribed ? "true" : "false",
           res->sync_user ? "user" : "none", res->by_time ? "time" : "iterations");
    if (!res->affinity_api || p->affinity == LITMUS_AFF_NONE)
        printf("\"affinity\":\"none%s\",", res->affinity_api ? "" : " (no affinity API)");
    else if (p->affinity == LITMUS_AFF_RANDOM)
        printf("\"affinity\":\"random:%llu\",", (unsigned long long)p->seed);
    else
        printf("\"affinity\":\"incr:%d\",", p->incr);
    printf("\"cpus\":[");
    for (int k = 0; k < t->nthreads; k++)
        printf("%s%d", k ? "," : "", res->cpu[k]);
    printf("],\"histogram\":{");
    unsigned count = litmus_outcome_count(t);
    int any = 0;
    for (unsigned o = 0; o <= count; o++) {
        if (!res->histogram[o])
            continue;
        char key[96];
        litmus_outcome_key(t, o, key, sizeof key);
        printf("%s\"%s\":%llu", any ? "," : "", key, (unsigned long long)res->histogram[o]);
        any = 1;
    }
    printf("}}");
}

int main(int argc, char **argv)
{
    litmus_params p = {.iterations = 0, .instances = 1024, .time_budget_s = 10,
                          .sync = LITMUS_SYNC_AUTO, .affinity = LITMUS_AFF_INCR, .incr = 1};
    int seeded = 0;
    run_spec runs[MAX_RUNS];
    int nruns = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (strcmp(a, "--instances") == 0) {
            if (parse_u64(i + 1 < argc ? argv[++i] : NULL, 1, 1u << 20, &v))
                return usage("--instances must be an integer in 1..1048576", argv[i]);
            p.instances = (size_t)v;
        } else if (strcmp(a, "--time-budget") == 0) {
            if (parse_u64(i + 1 < argc ? argv[++i] : NULL, 1, 86400, &v))
                return usage("--time-budget must be whole seconds in 1..86400", argv[i]);
            p.time_budget_s = (double)v;
        } else if (strcmp(a, "--affinity") == 0) {
            const char *m = i + 1 < argc ? argv[++i] : "";
            if (strcmp(m, "random") == 0)
                p.affinity = LITMUS_AFF_RANDOM;
            else if (strcmp(m, "none") == 0)
                p.affinity = LITMUS_AFF_NONE;
            else if (strcmp(m, "incr") == 0)
                p.affinity = LITMUS_AFF_INCR, p.incr = 1;
            else if (strncmp(m, "incr:", 5) == 0 && parse_u64(m + 5, 1, 1024, &v) == 0)
                p.affinity = LITMUS_AFF_INCR, p.incr = (int)v;
            else
                return usage("--affinity must be incr, incr:N (N in 1..1024), random or none", m);
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_u64(i + 1 < argc ? argv[++i] : NULL, 0, UINT64_MAX, &v))
                return usage("--seed must be an unsigned integer", argv[i]);
            p.seed = v;
            seeded = 1;
        } else if (strcmp(a, "--sync") == 0) {
            const char *m = i + 1 < argc ? argv[++i] : "";
            if (strcmp(m, "auto") == 0)
                p.sync = LITMUS_SYNC_AUTO;
            else if (strcmp(m, "user") == 0)
                p.sync = LITMUS_SYNC_USER;
            else if (strcmp(m, "none") == 0)
                p.sync = LITMUS_SYNC_NONE;
            else
                return usage("--sync must be auto, user or none", m);
        } else if (a[0] == '-') {
            fprintf(stderr, "buildgate: litmus-probe: unknown option '%s' (see litmus-probe --help)\n",
                    a);
            return 2;
        } else {
            if (nruns == MAX_RUNS)
                return usage("too many runs (at most 16)", a);
            int rc = parse_run(argv[i], &runs[nruns]);
            if (rc)
                return rc;
            nruns++;
        }
    }
    if (nruns == 0)
        return usage("no run given (want TEST:ACCESS:ITERATIONS...)", NULL);
    if (!seeded)
        p.seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();

    printf("{\"probe\":\"litmus\",\"version\":1,\"arch\":\"%s\",\"ncpu\":%ld,\"runs\":[",
           arch_name(), (long)litmus_available_cpus());
    for (int k = 0; k < nruns; k++) {
        litmus_params pk = p;
        pk.iterations = runs[k].iterations;
        pk.seed = p.seed + (uint64_t)k;
        litmus_result res;
        const char *why = runs[k].test->set == LITMUS_SET_SPLIT ? split_unavailable() : NULL;
        if (why) {
            print_skipped(&runs[k], why, k == 0);
            fflush(stdout);
            continue;
        }
        if (litmus_run(runs[k].test, litmus_loops(runs[k].test->name, runs[k].access), &pk,
                       &res) != 0)
            return 8;
        print_run(&runs[k], &pk, &res, k == 0);
        free(res.histogram);
        fflush(stdout);
    }
    printf("\n]}\n");
    return 0;
}
