/* nan_ymm_preload.c — LD_PRELOAD library of the YMM mutant runners
 * (runners/initial-mutant-runner.sh with NAN_YMM_MUTANT set; self-tests
 * nan.selftest.mutant_ymm_*): wraps every handler the guest installs with
 * sigaction(2) in a SA_SIGINFO wrapper that does what a translator with a
 * broken signal path would do to the YMM upper halves (bits 255:128):
 *   NAN_YMM_MUTANT=lose   after the handler, zeroes the upper halves in the
 *                         signal frame's XSAVE area: sigreturn loses them
 *                         (fact ymm_sigreturn_restored);
 *   NAN_YMM_MUTANT=leak   after the handler, writes the live upper halves (the
 *                         handler's) into the frame: sigreturn restores stale
 *                         values, e.g. after a VZEROUPPER the translator
 *                         believed still in force (ymm_sigreturn_restored,
 *                         ymm_vzeroupper_signal);
 *   NAN_YMM_MUTANT=stale  enters the handler with all-ones upper halves
 *                         instead of the init state (ymm_handler_init).
 * The frame: uc_mcontext.fpregs points at the XSAVE image Linux wrote
 * (arch/x86/kernel/fpu/signal.c copy_fpstate_to_sigframe(): the 512-byte
 * FXSAVE area, whose sw_reserved bytes 464.. start with FP_XSTATE_MAGIC1
 * 0x46505853, then the XSAVE header, XSTATE_BV at byte 512); YMM_Hi128's
 * offset is CPUID.(EAX=0DH,ECX=2):EBX (Intel SDM Vol.1 13.4.3).  A frame
 * without the magic is left alone.  x86-64 Linux only (CMakeLists.txt). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

enum { M_NONE, M_LOSE, M_LEAK, M_STALE };

static int mode = -1;
static struct sigaction user[NSIG];
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

static int the_mode(void)
{
    if (mode < 0) {
        const char *m = getenv("NAN_YMM_MUTANT");
        mode = !m ? M_NONE : strcmp(m, "lose") == 0 ? M_LOSE : strcmp(m, "leak") == 0 ? M_LEAK
             : strcmp(m, "stale") == 0 ? M_STALE : M_NONE;
    }
    return mode;
}

/* The YMM_Hi128 area of the frame's XSAVE image, or NULL. */
static uint8_t *hi128(ucontext_t *uc)
{
    uint8_t *x = (uint8_t *)uc->uc_mcontext.fpregs;
    uint32_t magic, a, b, c, d;
    if (!x)
        return NULL;
    memcpy(&magic, x + 464, sizeof magic);
    if (magic != 0x46505853u || !__get_cpuid_count(0xd, 2, &a, &b, &c, &d) || a != 256)
        return NULL;
    uint64_t bv;
    memcpy(&bv, x + 512, sizeof bv);
    bv |= 4; /* XSTATE_BV bit 2: YMM state present, restore it from the image */
    memcpy(x + 512, &bv, sizeof bv);
    return x + b;
}

#define HI(i) "vextractf128 $1, %%ymm" #i ", " #i "*16(%0)\n\t"
#define ONES(i) "vcmptrueps %%ymm" #i ", %%ymm" #i ", %%ymm" #i "\n\t"

static void wrapper(int sig, siginfo_t *si, void *ucv)
{
    const struct sigaction *u = &user[sig];
    if (the_mode() == M_STALE)
        __asm__ volatile(ONES(0) ONES(1) ONES(2) ONES(3) ONES(4) ONES(5) ONES(6) ONES(7) ONES(8)
                         ONES(9) ONES(10) ONES(11) ONES(12) ONES(13) ONES(14) ONES(15)
                         :: : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
    /* found before the handler runs: no code between its return and the
     * stores below may touch the upper halves (a libc call could) */
    uint8_t *hi = the_mode() == M_LOSE || the_mode() == M_LEAK ? hi128(ucv) : NULL;
    if (u->sa_flags & SA_SIGINFO)
        u->sa_sigaction(sig, si, ucv);
    else
        u->sa_handler(sig);
    if (hi && the_mode() == M_LEAK)
        __asm__ volatile(HI(0) HI(1) HI(2) HI(3) HI(4) HI(5) HI(6) HI(7) HI(8) HI(9) HI(10) HI(11)
                         HI(12) HI(13) HI(14) HI(15) :: "r"(hi) : "memory");
    else if (hi)
        memset(hi, 0, 256);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (!real_sigaction)
        real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
    if (!act || sig <= 0 || sig >= NSIG || the_mode() == M_NONE || act->sa_handler == SIG_DFL ||
        act->sa_handler == SIG_IGN)
        return real_sigaction(sig, act, old);
    struct sigaction w = *act;
    user[sig] = *act;
    w.sa_sigaction = wrapper;
    w.sa_flags |= SA_SIGINFO;
    return real_sigaction(sig, &w, old);
}
