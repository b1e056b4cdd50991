#define _DEFAULT_SOURCE
#include "buildgate/bg_wx.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define PROT_RW (PROT_READ | PROT_WRITE)
#define PROT_RX (PROT_READ | PROT_EXEC)
#define PROT_RWX (PROT_READ | PROT_WRITE | PROT_EXEC)

static size_t page_bytes(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

#if defined(__APPLE__)
/* Apple: what RandomX's allocMemoryPages does (MAP_JIT, RWX). */
void bg_wx_probe(bg_wx *w)
{
    memset(w, 0, sizeof *w);
    size_t n = page_bytes();
    void *p = mmap(NULL, n, PROT_RWX, MAP_ANONYMOUS | MAP_PRIVATE | MAP_JIT, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(w->why_rwx, sizeof w->why_rwx, "mmap PROT_READ|PROT_WRITE|PROT_EXEC MAP_JIT: %s",
                 strerror(errno));
        snprintf(w->why_w_to_x, sizeof w->why_w_to_x, "%s", w->why_rwx);
        return;
    }
    munmap(p, n);
    w->rwx = w->w_to_x = 1;
}
#else
/* Maps one RW page and mprotects it to prot; 1 if allowed, else why[] says. */
static int rw_then(int prot, const char *prot_name, char *why, size_t why_n)
{
    size_t n = page_bytes();
    void *p = mmap(NULL, n, PROT_RW, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(why, why_n, "mmap PROT_READ|PROT_WRITE: %s", strerror(errno));
        return 0;
    }
    ((volatile unsigned char *)p)[0] = 0xc3; /* written first, as a JIT does */
    int ok = mprotect(p, n, prot) == 0;
    if (!ok)
        snprintf(why, why_n, "mprotect PROT_READ|PROT_WRITE -> %s: %s", prot_name, strerror(errno));
    munmap(p, n);
    return ok;
}

void bg_wx_probe(bg_wx *w)
{
    memset(w, 0, sizeof *w);
    size_t n = page_bytes();
    void *p = mmap(NULL, n, PROT_RWX, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
    if (p == MAP_FAILED)
        snprintf(w->why_rwx, sizeof w->why_rwx, "mmap PROT_READ|PROT_WRITE|PROT_EXEC: %s",
                 strerror(errno));
    else
        munmap(p, n);
    w->rwx = p != MAP_FAILED &&
             rw_then(PROT_RWX, "PROT_READ|PROT_WRITE|PROT_EXEC", w->why_rwx, sizeof w->why_rwx);
    w->w_to_x = rw_then(PROT_RX, "PROT_READ|PROT_EXEC", w->why_w_to_x, sizeof w->why_w_to_x);
}
#endif

int bg_wx_why(int secure, char *why, size_t n)
{
    bg_wx w;
    bg_wx_probe(&w);
    if (!secure && !w.rwx)
        snprintf(why, n, "this host forbids W+X memory; the JIT cannot run (%s)", w.why_rwx);
    else if (!w.w_to_x)
        snprintf(why, n,
                 "this host forbids making writable memory executable (W^X switching); the "
                 "%sJIT cannot run (%s)",
                 secure ? "secure " : "", w.why_w_to_x);
    else
        return 1;
    return 0;
}

bg_status bg_wx_require(const char *what, int secure)
{
    char why[400];
    if (bg_wx_why(secure, why, sizeof why))
        return BG_OK;
    return bg_fail(BG_E_UNSUPPORTED, what, "%s", why);
}
