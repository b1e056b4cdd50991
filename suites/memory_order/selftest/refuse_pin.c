/* refuse_pin.c — test-only LD_PRELOAD library (Linux): pthread_create fails
 * with EINVAL for a thread whose attributes pin it to one CPU, as a cpuset
 * container does when the CPU is outside its set.  The self-test
 * memory_order.selftest.pin_refused runs litmus-probe under it: the probe
 * must fall back to unpinned threads, say so once, and finish. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    static create_fn real;
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    if (!real)
        return EAGAIN;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (attr && pthread_attr_getaffinity_np(attr, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1)
        return EINVAL;
    return real(th, attr, fn, arg);
}
