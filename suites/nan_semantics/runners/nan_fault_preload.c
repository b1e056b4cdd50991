/* nan_fault_preload.c — LD_PRELOAD library of the fault mutants
 * (runners/initial-mutant-runner.sh, self-tests nan.selftest.mutant_fault_*):
 * translators that get a #GP wrong.  It interposes sigaction(): the guest's
 * own SIGSEGV/SIGBUS handlers are kept aside and a handler of its own takes
 * each #GP (SIGSEGV with si_code SI_KERNEL) as NAN_FAULT_MUTANT says:
 *   swallow (default)  steps the saved RIP over the faulting instruction and
 *                      returns: no signal, the instruction has no effect
 *                      (a translator that drops the fault)
 *   state              passes the fault on with the signal frame's MXCSR and
 *                      xmm0 scrambled (what valgrind's frame holds)
 *   sigbus             passes it on as SIGBUS, si_code BUS_ADRALN (a
 *                      translator reporting an alignment fault)
 * Any other SIGSEGV/SIGBUS goes to the guest's handler unchanged.
 * x86-64 Linux only (CMakeLists.txt builds it there). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static struct sigaction guest_segv, guest_bus;

/* The length of the x86-64 instruction at p: legacy prefixes and REX, the
 * 0F / 0F38 / 0F3A maps or a VEX prefix, ModRM with SIB and displacement,
 * and the 0F3A map's imm8 (what SSE/AVX instructions with a memory
 * operand need); 0 when it is none of those. */
static int insn_length(const uint8_t *p)
{
    int n = 0, map = 0;
    while (p[n] == 0x66 || p[n] == 0xf2 || p[n] == 0xf3 || (p[n] & 0xf0) == 0x40)
        n++;
    if (p[n] == 0xc5) {
        n += 2, map = 1;
    } else if (p[n] == 0xc4) {
        map = p[n + 1] & 0x1f;
        n += 3;
    } else if (p[n] == 0x0f) {
        n++, map = 1;
        if (p[n] == 0x38 || p[n] == 0x3a)
            map = p[n] == 0x38 ? 2 : 3, n++;
    } else {
        return 0;
    }
    n++; /* opcode */
    uint8_t modrm = p[n++], mod = modrm >> 6, rm = modrm & 7;
    if (mod != 3 && rm == 4) {
        uint8_t sib = p[n++];
        if (mod == 0 && (sib & 7) == 5)
            n += 4;
    }
    if (mod == 0 && rm == 5)
        n += 4;
    n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
    return n + (map == 3);
}

static void pass_on(const struct sigaction *to, int sig, siginfo_t *si, void *uc)
{
    if (to->sa_flags & SA_SIGINFO)
        to->sa_sigaction(sig, si, uc);
    else if (to->sa_handler != SIG_DFL && to->sa_handler != SIG_IGN)
        to->sa_handler(sig);
    else {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static void swallow(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    if (sig == SIGSEGV && si->si_code == 0x80 /* SI_KERNEL: a #GP */) {
        const char *mode = getenv("NAN_FAULT_MUTANT");
        if (mode && strcmp(mode, "state") == 0) {
            if (uc->uc_mcontext.fpregs) {
                uc->uc_mcontext.fpregs->mxcsr ^= 0x6000; /* RC changed */
                uc->uc_mcontext.fpregs->_xmm[0].element[0] ^= 0xffffffffu;
            }
        } else if (mode && strcmp(mode, "sigbus") == 0) {
            si->si_signo = SIGBUS;
            si->si_code = BUS_ADRALN;
            pass_on(&guest_bus, SIGBUS, si, ucv);
            return;
        } else {
            int len = insn_length((const uint8_t *)uc->uc_mcontext.gregs[REG_RIP]);
            if (len > 0) {
                uc->uc_mcontext.gregs[REG_RIP] += len;
                return;
            }
        }
    }
    pass_on(sig == SIGSEGV ? &guest_segv : &guest_bus, sig, si, ucv);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    static sigaction_fn real;
    if (!real)
        real = (sigaction_fn)(uintptr_t)dlsym(RTLD_NEXT, "sigaction");
    if (sig != SIGSEGV && sig != SIGBUS)
        return real(sig, act, old);
    struct sigaction *keep = sig == SIGSEGV ? &guest_segv : &guest_bus;
    if (old)
        *old = *keep;
    if (act) {
        *keep = *act;
        struct sigaction mine;
        memset(&mine, 0, sizeof mine);
        mine.sa_sigaction = swallow;
        mine.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&mine.sa_mask);
        return real(sig, &mine, NULL);
    }
    return 0;
}
