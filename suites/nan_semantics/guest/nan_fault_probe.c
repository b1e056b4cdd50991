/* nan_fault_probe.c — context `faults` of nan-probe (nan_faults.def,
 * docs/nan_semantics.md "Faults"); see nan_fault_probe.h.
 *
 * Per row, in a forked child: MXCSR := NAN_FAULT_MXCSR_BEFORE, xmm0 := the
 * row's xmm0, rdi := the operand (16 bytes at an address = 8 mod 16, a
 * 32-bit MXCSR image, or a 16-byte aligned FXSAVE image), then the row's
 * instruction, then STMXCSR and xmm0 (or the 16 bytes at rdi) are recorded.
 * A fault enters the handler instead: it records the signal, si_code and
 * the state saved at the fault (Linux: MXCSR and xmm0 of the signal frame's
 * FXSAVE area; macOS: not read), and siglongjmps back.  The child writes its
 * record into shared memory and exits; a child that dies (the handler never
 * ran, or SIGALRM after NAN_FAULT_ROW_SECONDS) is recorded as killed by its
 * signal.
 */
#define _GNU_SOURCE
#include "nan_fault_probe.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#if !defined(__APPLE__)
#include <ucontext.h>
#endif

#include "nan_faults.h"
#include "nan_ymm.h"

typedef struct fault_io {
    uint64_t xmm0_in[2], xmm0_out[2];
    uint32_t mx_before, mx_after;
    void *operand;
} fault_io;

typedef struct fault_rec {
    int done, skipped, handled, si_code, state_read;
    char sig[24];
    uint32_t mxcsr_after;
    uint64_t dest[2];
} fault_rec;

static fault_rec *recs; /* nan_fault_count records, shared with the children */

/* A row's child is killed by SIGALRM after this long (a row takes
 * milliseconds natively, well under a second under valgrind): the row is
 * then "SIGALRM", handled false, and the others still run. */
#define NAN_FAULT_ROW_SECONDS 30

#define NAN_FAULT(id, name, insn, form, cause, sig, si_code, dest, feat, olo, ohi, xlo, xhi, alo, ahi, sdm, \
                  text)                                                                                  \
    static void fk_##id(fault_io *io)                                                                    \
    {                                                                                                    \
        __asm__ volatile("movups %[x], %%xmm0\n\tldmxcsr %[mb]\n\t" text "\n\t"                          \
                         "stmxcsr %[ma]\n\tmovups %%xmm0, %[xo]"                                         \
                         : [ma] "=m"(io->mx_after), [xo] "=m"(io->xmm0_out)                              \
                         : [x] "m"(io->xmm0_in), [mb] "m"(io->mx_before), "D"(io->operand)               \
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",      \
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");      \
    }
#include "nan_faults.def"
#undef NAN_FAULT

static void (*const kernels[])(fault_io *) = {
#define NAN_FAULT(id, ...) fk_##id,
#include "nan_faults.def"
#undef NAN_FAULT
};

static const char *sig_name(int s)
{
    switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGALRM: return "SIGALRM";
    default: return "another signal";
    }
}

static sigjmp_buf fault_jump;
static fault_rec *current;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    current->handled = 1;
    current->si_code = si->si_code;
    const char *n = sig_name(sig); /* memcpy, strlen: async-signal-safe (POSIX.1-2016) */
    memcpy(current->sig, n, strlen(n) + 1);
#if defined(__linux__)
    const ucontext_t *u = uc;
    if (u->uc_mcontext.fpregs) {
        current->mxcsr_after = u->uc_mcontext.fpregs->mxcsr;
        memcpy(current->dest, u->uc_mcontext.fpregs->_xmm[0].element, 16);
        current->state_read = 1;
    }
#else
    (void)uc; /* macOS: the saved state is not read (docs/nan_semantics.md "Faults") */
#endif
    siglongjmp(fault_jump, 1);
}

/* The child's part: one row, its record in r. */
static void run_row(int k, fault_rec *r)
{
    const nan_fault *f = &nan_faults[k];
    static _Alignas(64) unsigned char buf[64];
    static _Alignas(64) unsigned char image[512];
    fault_io io = {.xmm0_in = {f->xmm0[0], f->xmm0[1]}, .mx_before = NAN_FAULT_MXCSR_BEFORE};
    unsigned char *mem = buf + 8; /* = 8 mod 16 */
    memcpy(mem, f->operand, 16);
    io.operand = mem;
    if (f->form == FF_M512) {
        __asm__ volatile("fxsave64 %0" : "=m"(image));
        uint32_t mx = (uint32_t)f->operand[0];
        uint64_t x0[2] = {0x3f0000003f000000ull, 0x3f0000003f000000ull}; /* NAN_FAULT_PS_M */
        memcpy(image + 24, &mx, 4); /* FXSAVE layout, Intel SDM Vol.1 Table 10-2 */
        memcpy(image + 160, x0, 16);
        io.operand = image;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    current = r;
    snprintf(r->sig, sizeof r->sig, "none");
    r->si_code = -1;
    if (sigsetjmp(fault_jump, 1) == 0) {
        kernels[k](&io);
        r->mxcsr_after = io.mx_after;
        memcpy(r->dest, io.xmm0_out, 16);
        r->state_read = 1;
    }
    if (f->dest == FD_MEM) /* the memory is read after the fault on every OS */
        memcpy(r->dest, mem, 16), r->state_read |= 2;
    r->done = 1;
}

int nan_fault_probe_run(void)
{
    size_t bytes = (size_t)nan_fault_count * sizeof *recs;
    recs = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (recs == MAP_FAILED)
        return -1;
    memset(recs, 0, bytes);
    int avx = nan_ymm_available();
    for (int k = 0; k < nan_fault_count; k++) {
        fault_rec *r = &recs[k];
        if (nan_faults[k].feat == F_AVX && !avx) {
            r->skipped = 1;
            continue;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0)
            return -1;
        if (pid == 0) {
            alarm(NAN_FAULT_ROW_SECONDS); /* a runner that re-runs the faulting instruction forever */
            run_row(k, r);
            _exit(0);
        }
        int st = 0;
        if (waitpid(pid, &st, 0) < 0)
            return -1;
        if (!r->done) { /* the child died before recording: the handler never ran */
            r->handled = 0, r->si_code = -1, r->state_read = 0;
            if (WIFSIGNALED(st))
                snprintf(r->sig, sizeof r->sig, "%s", sig_name(WTERMSIG(st)));
            else
                snprintf(r->sig, sizeof r->sig, "exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        }
    }
    return 0;
}

void nan_fault_probe_print(FILE *f)
{
    fputs(",\"faults\":[", f);
    for (int k = 0; recs && k < nan_fault_count; k++) {
        const fault_rec *r = &recs[k];
        fprintf(f, "%s{\"case\":\"%s\"", k ? "," : "", nan_faults[k].name);
        if (r->skipped) {
            fputs(",\"signal\":\"skipped\",\"why\":\"the guest CPU lacks AVX\"}", f);
            continue;
        }
        fprintf(f, ",\"signal\":\"%s\",\"handled\":%s,\"si_code\":%d", r->sig, r->handled ? "true" : "false",
                r->si_code);
        int reg_read = (r->state_read & 1) != 0, dest_read = nan_faults[k].dest == FD_MEM ? (r->state_read & 2) != 0
                                                                                            : reg_read;
        if (reg_read)
            fprintf(f, ",\"mxcsr_after\":\"0x%04x\"", (unsigned)r->mxcsr_after);
        else
            fputs(",\"mxcsr_after\":\"\"", f);
        if (dest_read)
            fprintf(f, ",\"dest\":\"%016llx%016llx\"}", (unsigned long long)r->dest[1],
                    (unsigned long long)r->dest[0]);
        else
            fputs(",\"dest\":\"\"}", f);
    }
    fputc(']', f);
}
