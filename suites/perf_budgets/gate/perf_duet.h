/* perf_duet.h — running base and head at the same time (duet runs) and
 * pinning benchmark processes to CPUs of the inherited affinity mask.
 *
 * Duet benchmarking (Bulej, Horky, Tuma, Farquet, Prokopec, "Duet
 * Benchmarking: Improving Measurement Accuracy in the Cloud", ICPE 2020):
 * the two versions run concurrently, so that what disturbs one (other
 * tenants, frequency changes, a loader) disturbs the other at the same
 * moment, and the per-pair ratio cancels it.  The paper gives each its own
 * CPU; bg-perf's default puts both on ONE CPU (cpu_a == cpu_b), because two
 * vCPUs' speeds differ and drift apart (docs/perf_budgets.md "Duet runs").
 *
 * How here: two threads, each pins itself to its CPU (Linux
 * sched_setaffinity on the thread; a child forked by that thread inherits
 * the mask), reports ready, and waits on a pipe that the caller closes once
 * both are ready (the barrier); then each runs its job (perf_run_bench, which
 * spawns through bg_proc) and the caller waits for both.
 * macOS has no CPU pinning API: the two run concurrently, unpinned
 * (perf_cpus.pinnable = 0 says so).
 */
#ifndef PERF_DUET_H
#define PERF_DUET_H

#include "buildgate/bg_error.h"

/* The CPUs available: n = CPUs in the inherited affinity mask (Linux
 * sched_getaffinity; elsewhere the online CPUs), cpu[0], cpu[1] = the two
 * lowest of them (-1 when absent), pinnable = 1 when threads can be pinned. */
typedef struct perf_cpus {
    int n;
    int cpu[2];
    int pinnable;
} perf_cpus;

void perf_cpus_probe(perf_cpus *c);

/* A job of a duet: returns its result code (e.g. perf_run_bench's). */
typedef int (*perf_duet_fn)(void *arg);

/* Runs fn(a) and fn(b) at the same time, fn(a) pinned to cpu_a and fn(b) to
 * cpu_b (-1 or not pinnable: unpinned), both released by one barrier; their
 * results into *rc_a and *rc_b.  BG_E_IO (one line) when a thread or the
 * barrier pipe cannot be made, or a pin is refused (then nothing ran). */
bg_status perf_duet_run2(perf_duet_fn fn, void *a, int cpu_a, void *b, int cpu_b, int *rc_a, int *rc_b);

/* Pins the calling thread to cpu until perf_pin_restore (processes spawned
 * meanwhile inherit it): the --pin noise control of interleaved runs.
 * BG_E_UNSUPPORTED without a pinning API (macOS), BG_E_IO when refused. */
typedef struct perf_pin_saved {
    int valid;
    unsigned char mask[128]; /* a cpu_set_t (Linux) */
} perf_pin_saved;

bg_status perf_pin_self(int cpu, perf_pin_saved *saved);
void perf_pin_restore(const perf_pin_saved *saved);

#endif
