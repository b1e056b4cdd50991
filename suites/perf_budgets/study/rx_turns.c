/* rx_turns.c — one pair of light-mode RandomX processes, timed four ways
 * (issue 24 goal: the duet judge's between-pair spread; docs/performance.md
 * "Duet on one CPU").  A study tool, not a test: turns.sh
 * runs it once per pair, alternating the modes, and summarises the rows.
 *
 * The question: a duet pair (base and head at the same time, one per CPU)
 * shares the host's memory-latency state, which moves on a scale of seconds
 * (docs/performance.md "The cause, measured"), yet its log ratio still
 * spreads 10-12 % between pairs under load.  Two processes that take turns,
 * one hash each, see the same state a few tens of milliseconds apart, never
 * contend with each other, and (in `turns1`) run on the same CPU.
 *
 * Modes (MODE):
 *   duet    both hash at once, A on CPU c and B on the other (c = PAIR % 2),
 *           as bg-perf ab --duet runs a pair (perf_duet.h);
 *   shared  both hash at once, both pinned to CPU c: the kernel's scheduler
 *           time-slices them (a few milliseconds each, not per hash);
 *   turns   they alternate one hash each (a token passed through two pipes),
 *           both pinned to CPU c: one core, one cache hierarchy;
 *   turns2  they alternate, A on CPU c and B on the other.
 * Each process: a new 256 MiB light cache (advised for huge pages as
 * perf-bench does unless BG_PERF_RX_THP=off: bench/rx_thp.h), a VM with the
 * host's flags (randomx_get_flags: JIT, hard AES), WARM untimed hashes, then HASHES timed ones of perf-bench's
 * inputs (an 8-byte counter in a 68-byte message), each followed in B alone
 * by CHASE dependent loads through a 64 MiB random cycle (the planted
 * memory-latency regression of issue 24; 0: an A/A pair).
 * Output: one TSV row (columns in usage_text).  Units: ms per hash, thread
 * CPU time (CLOCK_THREAD_CPUTIME_ID) and wall time (CLOCK_MONOTONIC); d =
 * ln(B / A) of the two processes' medians (> 0: B slower); d_hash_med = the
 * median over i of ln(B_i / A_i) (hash i of each side; in turns modes
 * they ran back to back).
 * Sources: RandomX src/randomx.h (the API); sched_setaffinity(2). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <randomx.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_parse.h"
#include "buildgate/bg_stats.h"
#include "rx_chase.h"
#include "rx_thp.h"

enum { WARM = 3 };
enum mode { DUET, SHARED, TURNS, TURNS2 };

static const char usage_text[] =
    "usage: rx-turns MODE PAIR HASHES CHASE\n"
    "  MODE    duet | shared | turns | turns2 (see the head of rx_turns.c)\n"
    "  PAIR    the pair's number, 0..1000000: CPU c = PAIR % 2 for A, the other for B\n"
    "          (shared, turns: both on c)\n"
    "  HASHES  timed hashes per process, 5..100000 (after 3 untimed)\n"
    "  CHASE   dependent loads through a 64 MiB random cycle after each of B's\n"
    "          hashes, timed with it, 0..10000000 (0: A/A)\n"
    "Prints one TSV row: mode pair chase a_cpu b_cpu d_cpu a_wall b_wall d_wall\n"
    "  d_hash_med_cpu d_hash_med_wall (ms; d = ln(B/A))\n"
    "Environment: BG_PERF_RX_THP=on|off (rx_thp.h).  Needs 2 CPUs in the affinity mask.\n"
    "Exit: 0; 2 usage; 3 RandomX, a process or a pipe failed (one line on stderr).\n";

static int usage(const char *why)
{
    return bg_exit_code(bg_fail(BG_E_USAGE, "rx-turns", "%s (see rx-turns --help)", why));
}

static int fail(const char *what)
{
    return bg_exit_code(bg_fail(BG_E_IO, "rx-turns", "%s", what));
}

static double ms_of(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    return sched_setaffinity(0, sizeof s, &s);
}

static int wait_byte(int fd)
{
    char b;
    ssize_t r;
    while ((r = read(fd, &b, 1)) < 0 && errno == EINTR)
        ;
    return r == 1 ? 0 : -1;
}

static int put_byte(int fd)
{
    char b = 1;
    return write(fd, &b, 1) == 1 ? 0 : -1;
}

/* One side: ready -> wait go (my token) -> per hash [take my token] hash
 * [chase] [give the partner's token]; times to `out` (2 * hashes doubles:
 * cpu then wall per hash).  Returns the exit code. */
static int side(int is_b, enum mode m, int cpu, long hashes, long nchase, int ready, int mine,
                int theirs, int out)
{
    static const char key[] = "buildgate rx-turns";
    const randomx_flags f = randomx_get_flags(); /* JIT and hard AES where the host has them */
    if (pin(cpu))
        return fail("sched_setaffinity failed");
    uint64_t *cy = rx_chase_make();
    rx_thp_begin();
    randomx_cache *c = randomx_alloc_cache(f);
    rx_thp_end();
    if (!c || !cy)
        return fail("randomx_alloc_cache or the chase buffer failed");
    randomx_init_cache(c, key, sizeof key - 1);
    randomx_vm *vm = randomx_create_vm(f, c, NULL);
    double *t = malloc((size_t)hashes * 2 * sizeof *t);
    if (!vm || !t)
        return fail("randomx_create_vm or malloc failed");
    uint8_t msg[68] = {0}, h[RANDOMX_HASH_SIZE];
    uint64_t at = 0;
    if (put_byte(ready) || wait_byte(mine))
        return fail("the start pipe failed");
    for (long i = -WARM; i < hashes; i++) {
        if (m >= TURNS && i > -WARM && wait_byte(mine))
            return fail("the turn pipe closed");
        memcpy(msg, &i, sizeof i);
        double c0 = ms_of(CLOCK_THREAD_CPUTIME_ID), w0 = ms_of(CLOCK_MONOTONIC);
        randomx_calculate_hash(vm, msg, sizeof msg, h);
        if (is_b)
            at = rx_chase(cy, at, (uint64_t)nchase);
        double c1 = ms_of(CLOCK_THREAD_CPUTIME_ID), w1 = ms_of(CLOCK_MONOTONIC);
        if (i >= 0)
            t[2 * i] = c1 - c0, t[2 * i + 1] = w1 - w0;
        if (m >= TURNS && put_byte(theirs))
            return fail("the turn pipe failed");
    }
    size_t want = (size_t)hashes * 2 * sizeof *t;
    if (write(out, t, want) != (ssize_t)want)
        return fail("the result pipe failed");
    return at == UINT64_MAX ? 4 : 0; /* keeps the chase */
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc != 5)
        return usage("want MODE PAIR HASHES CHASE");
    static const char *const names[] = {"duet", "shared", "turns", "turns2"};
    enum mode m = DUET;
    while (m <= TURNS2 && strcmp(argv[1], names[m]))
        m++;
    if (m > TURNS2)
        return usage("MODE must be duet, shared, turns or turns2");
    uint64_t u[3];
    if (bg_parse_u64(argv[2], 0, 1000000, &u[0]) || bg_parse_u64(argv[3], 5, 100000, &u[1]) ||
        bg_parse_u64(argv[4], 0, 10000000, &u[2]))
        return usage("PAIR, HASHES or CHASE is not a whole number in its range");
    long pair = (long)u[0], hashes = (long)u[1], nchase = (long)u[2];
    if (rx_thp_policy() < 0)
        return usage("BG_PERF_RX_THP must be on or off");
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) || CPU_COUNT(&mask) < 2)
        return fail("fewer than 2 CPUs in the affinity mask");
    int cpus[2], k = 0;
    for (int i = 0; i < CPU_SETSIZE && k < 2; i++)
        if (CPU_ISSET(i, &mask))
            cpus[k++] = i;
    int ca = cpus[pair % 2], cb = (m == TURNS || m == SHARED) ? ca : cpus[1 - pair % 2];

    int rdy[2], ta[2], tb[2], oa[2], ob[2];
    if (pipe(rdy) || pipe(ta) || pipe(tb) || pipe(oa) || pipe(ob))
        return fail("pipe failed");
    pid_t pa = fork();
    if (pa == 0)
        _exit(side(0, m, ca, hashes, nchase, rdy[1], ta[0], tb[1], oa[1]));
    pid_t pb = pa > 0 ? fork() : -1;
    if (pb == 0)
        _exit(side(1, m, cb, hashes, nchase, rdy[1], tb[0], ta[1], ob[1]));
    if (pa < 0 || pb < 0)
        return fail("fork failed");
    close(oa[1]), close(ob[1]);
    /* both ready, then go: duet starts both; turns starts A, whose first
     * hash passes the token to B */
    if (wait_byte(rdy[0]) || wait_byte(rdy[0]))
        return fail("a process failed before it was ready");
    if (put_byte(ta[1]) || ((m == DUET || m == SHARED) && put_byte(tb[1])))
        return fail("the start pipe failed");
    size_t want = (size_t)hashes * 2 * sizeof(double);
    double *a = malloc(want), *b = malloc(want);
    if (!a || !b)
        return fail("out of memory");
    ssize_t ra = 0, rb = 0, r;
    while ((size_t)ra < want && (r = read(oa[0], (char *)a + ra, want - (size_t)ra)) > 0)
        ra += r;
    while ((size_t)rb < want && (r = read(ob[0], (char *)b + rb, want - (size_t)rb)) > 0)
        rb += r;
    int sa, sb;
    waitpid(pa, &sa, 0), waitpid(pb, &sb, 0);
    if ((size_t)ra != want || (size_t)rb != want || !WIFEXITED(sa) || WEXITSTATUS(sa) ||
        !WIFEXITED(sb) || WEXITSTATUS(sb))
        return fail("a process failed while hashing");
    double *ac = malloc(want / 2), *aw = malloc(want / 2), *bc = malloc(want / 2),
           *bw = malloc(want / 2), *dc = malloc(want / 2), *dw = malloc(want / 2);
    if (!ac || !aw || !bc || !bw || !dc || !dw)
        return fail("out of memory");
    for (long i = 0; i < hashes; i++) {
        ac[i] = a[2 * i], aw[i] = a[2 * i + 1], bc[i] = b[2 * i], bw[i] = b[2 * i + 1];
        dc[i] = log(bc[i] / ac[i]), dw[i] = log(bw[i] / aw[i]);
    }
    double mac = bg_median(ac, (size_t)hashes), mbc = bg_median(bc, (size_t)hashes),
           maw = bg_median(aw, (size_t)hashes), mbw = bg_median(bw, (size_t)hashes);
    printf("%s\t%ld\t%ld\t%.4f\t%.4f\t%.6f\t%.4f\t%.4f\t%.6f\t%.6f\t%.6f\n", argv[1], pair, nchase,
           mac, mbc, log(mbc / mac), maw, mbw, log(mbw / maw), bg_median(dc, (size_t)hashes),
           bg_median(dw, (size_t)hashes));
    return 0;
}
