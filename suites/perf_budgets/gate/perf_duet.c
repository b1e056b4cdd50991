/* perf_duet.c — see perf_duet.h. */
#if defined(__linux__)
#define _GNU_SOURCE /* cpu_set_t, sched_getaffinity, sched_setaffinity */
#elif defined(__APPLE__)
#define _DARWIN_C_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#else
#define _DEFAULT_SOURCE
#endif
#include "perf_duet.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sched.h>
#endif

void perf_cpus_probe(perf_cpus *c)
{
    *c = (perf_cpus){.n = 0, .cpu = {-1, -1}, .pinnable = 0};
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        c->pinnable = 1;
        for (int i = 0; i < CPU_SETSIZE; i++)
            if (CPU_ISSET(i, &set)) {
                if (c->n < 2)
                    c->cpu[c->n] = i;
                c->n++;
            }
        return;
    }
#endif
    /* macOS (no pinning API) and anything without sched_getaffinity */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    c->n = online > 0 ? (int)online : 1;
}

#if defined(__linux__)
static int pin_thread(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}
#endif

bg_status perf_pin_self(int cpu, perf_pin_saved *saved)
{
    saved->valid = 0;
#if defined(__linux__)
    cpu_set_t old;
    if (sizeof old > sizeof saved->mask || sched_getaffinity(0, sizeof old, &old) != 0)
        return bg_fail(BG_E_IO, "bg-perf", "cannot read the CPU affinity mask");
    if (pin_thread(cpu) != 0)
        return bg_fail(BG_E_IO, "bg-perf", "cannot pin to CPU %d (sched_setaffinity refused)", cpu);
    memcpy(saved->mask, &old, sizeof old);
    saved->valid = 1;
    return BG_OK;
#else
    (void)cpu;
    return BG_E_UNSUPPORTED;
#endif
}

void perf_pin_restore(const perf_pin_saved *saved)
{
#if defined(__linux__)
    if (saved->valid) {
        cpu_set_t old;
        memcpy(&old, saved->mask, sizeof old);
        sched_setaffinity(0, sizeof old, &old);
    }
#else
    (void)saved;
#endif
}

typedef struct duet_side {
    perf_duet_fn fn;
    void *arg;
    int cpu, rc, pinned_ok;
    int ready_fd, go_fd;
} duet_side;

static void *side_main(void *p)
{
    duet_side *s = p;
    s->pinned_ok = 1;
#if defined(__linux__)
    if (s->cpu >= 0 && pin_thread(s->cpu) != 0)
        s->pinned_ok = 0;
#endif
    char b = 1, g;
    if (write(s->ready_fd, &b, 1) != 1)
        s->pinned_ok = 0;
    /* the barrier: returns 0 (EOF) when the caller closes the write end */
    while (read(s->go_fd, &g, 1) > 0) {
    }
    if (s->pinned_ok)
        s->rc = s->fn(s->arg);
    return NULL;
}

bg_status perf_duet_run2(perf_duet_fn fn, void *a, int cpu_a, void *b, int cpu_b, int *rc_a, int *rc_b)
{
    int ready[2], go[2];
    if (pipe(ready) != 0)
        return bg_fail(BG_E_IO, "bg-perf", "duet: cannot make the barrier pipe");
    if (pipe(go) != 0) {
        close(ready[0]), close(ready[1]);
        return bg_fail(BG_E_IO, "bg-perf", "duet: cannot make the barrier pipe");
    }
    duet_side s[2] = {{fn, a, cpu_a, 0, 0, ready[1], go[0]}, {fn, b, cpu_b, 0, 0, ready[1], go[0]}};
    pthread_t t[2];
    int started = 0;
    for (; started < 2; started++)
        if (pthread_create(&t[started], NULL, side_main, &s[started]) != 0)
            break;
    char c;
    for (int i = 0; i < started; i++) /* both pinned (or failed to) */
        if (read(ready[0], &c, 1) != 1)
            break;
    if (started < 2) /* release the one that started: it must not run alone */
        s[0].pinned_ok = 0;
    close(go[1]); /* release both at once */
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    close(go[0]), close(ready[0]), close(ready[1]);
    if (started < 2)
        return bg_fail(BG_E_IO, "bg-perf", "duet: cannot start a thread");
    for (int i = 0; i < 2; i++)
        if (!s[i].pinned_ok)
            return bg_fail(BG_E_IO, "bg-perf", "duet: cannot pin to CPU %d (sched_setaffinity refused)", s[i].cpu);
    *rc_a = s[0].rc;
    *rc_b = s[1].rc;
    return BG_OK;
}
