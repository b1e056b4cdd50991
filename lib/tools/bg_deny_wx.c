/* bg_deny_wx.c (bg-deny-wx) — test-only LD_PRELOAD library (Linux): a host that forbids W+X memory.
 *
 * Interposes mmap/mmap64/mprotect and refuses, with EACCES (as SELinux
 * execmem does; systemd's MemoryDenyWriteExecute seccomp filter gives
 * EPERM), what the environment variable BG_DENY_WX names:
 *   exec (default)  PROT_WRITE|PROT_EXEC together (mmap, mprotect) and any
 *                   mprotect with PROT_EXEC: no W+X and
 *                   no W^X switching (systemd MemoryDenyWriteExecute=yes,
 *                   SELinux without execmem, PaX MPROTECT)
 *   rwx             PROT_WRITE|PROT_EXEC together only; switching a writable
 *                   page to PROT_READ|PROT_EXEC is allowed (what RandomX's
 *                   secure JIT needs, not its default JIT)
 *   big             PROT_EXEC in mprotect only for regions larger than 64 KiB:
 *                   the page-sized bg_wx.h probe passes, RandomX's JIT buffer
 *                   is refused — a RandomX failure no probe predicted
 * Used by suites/digest_agreement/selftest/wx_host.sh and perf_budgets'
 * perf.selftest.wx_host_* tests.  The system calls are made with syscall(2),
 * so nothing is looked up with dlsym.  Not built on other systems.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

enum { DENY_EXEC, DENY_RWX, DENY_BIG };

static int mode(void)
{
    const char *m = getenv("BG_DENY_WX");
    if (m && !strcmp(m, "rwx"))
        return DENY_RWX;
    if (m && !strcmp(m, "big"))
        return DENY_BIG;
    return DENY_EXEC;
}

static int wx(int prot) { return (prot & PROT_WRITE) && (prot & PROT_EXEC); }

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (mode() != DENY_BIG && wx(prot)) {
        errno = EACCES;
        return MAP_FAILED;
    }
    return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return mmap(addr, len, prot, flags, fd, off);
}

int mprotect(void *addr, size_t len, int prot)
{
    int m = mode();
    if ((m == DENY_EXEC && (prot & PROT_EXEC)) || (m == DENY_RWX && wx(prot)) ||
        (m == DENY_BIG && (prot & PROT_EXEC) && len > 65536)) {
        errno = EACCES;
        return -1;
    }
    return (int)syscall(SYS_mprotect, addr, len, prot);
}
