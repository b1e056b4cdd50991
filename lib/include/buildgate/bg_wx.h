/* bg_wx.h — does this host let a program make memory writable and executable?
 *
 * A JIT compiler writes machine code and then runs it.  Some hosts forbid
 * that: systemd MemoryDenyWriteExecute=yes (seccomp refuses mmap/mprotect
 * with PROT_WRITE|PROT_EXEC and any mprotect adding PROT_EXEC), SELinux
 * without the execmem permission, PaX/grsecurity MPROTECT, hardened
 * containers.  Two abilities are probed on one anonymous page each, in this
 * process (the calls only fail with an errno, so no child is needed):
 *   rwx     a page mapped PROT_READ|PROT_WRITE|PROT_EXEC at once (mmap), and a
 *           PROT_READ|PROT_WRITE page switched to PROT_READ|PROT_WRITE|PROT_EXEC
 *           (mprotect) — RandomX's non-secure JIT VM (setPagesRWX);
 *   w_to_x  a PROT_READ|PROT_WRITE page switched to PROT_READ|PROT_EXEC
 *           (mprotect) — the W^X switching of RandomX's secure JIT and of
 *           every JIT cache (setPagesRW / setPagesRX, RandomX
 *           src/virtual_memory.c, src/dataset.cpp initCacheCompile).
 * macOS (__APPLE__): RandomX maps its JIT buffer RWX with MAP_JIT and
 * switches with pthread_jit_write_protect_np instead of mprotect; both
 * abilities are then the one mmap(RWX, MAP_JIT) probe.
 */
#ifndef BG_WX_H
#define BG_WX_H

#include <stddef.h>

#include "buildgate/bg_error.h"

typedef struct bg_wx {
    int rwx;             /* 1: writable+executable pages allowed */
    int w_to_x;          /* 1: writable pages may become executable (W^X switching) */
    char why_rwx[128];   /* when !rwx: the refused call and its errno text */
    char why_w_to_x[128];
} bg_wx;

/* Probes the host (a few system calls, well under a millisecond). */
void bg_wx_probe(bg_wx *w);

/* BG_OK when a JIT can run here; else prints one line
 *     buildgate: <what>: this host forbids W+X memory; the JIT cannot run (<call>: <errno>)
 * (or, when only writable-to-executable switching is refused: "this host
 * forbids making writable memory executable (W^X switching); the [secure]
 * JIT cannot run (...)") and returns BG_E_UNSUPPORTED (a skip).
 * secure = 0: the JIT needs both abilities (RandomX without
 * RANDOMX_FLAG_SECURE); secure = 1: only W^X switching. */
bg_status bg_wx_require(const char *what, int secure);

/* bg_wx_require without printing: 1 when the JIT can run; else 0 with the
 * reason (the same text, without "buildgate: <what>: ") in why[n]. */
int bg_wx_why(int secure, char *why, size_t n);

#endif
