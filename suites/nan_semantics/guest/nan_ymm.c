/* nan_ymm.c — see nan_ymm.h.  x86-64 only (the guest); AVX instructions are
 * executed only after nan_ymm_available() said yes. */
#define _GNU_SOURCE
#include "nan_ymm.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "buildgate/bg_cpu.h"

typedef uint64_t ymm_file[16][4]; /* YMM0-15, 64-bit words low to high: [2..3] = bits 255:128 */

/* One YMM register from / to base + 32 * i (inline asm, named operand b). */
#define Y_LD(i, b) "vmovdqu " #i "*32(%[" b "]), %%ymm" #i "\n\t"
#define Y_ST(i, b) "vmovdqu %%ymm" #i ", " #i "*32(%[" b "])\n\t"
#define LOAD16(b)                                                                                 \
    Y_LD(0, b) Y_LD(1, b) Y_LD(2, b) Y_LD(3, b) Y_LD(4, b) Y_LD(5, b) Y_LD(6, b) Y_LD(7, b)     \
    Y_LD(8, b) Y_LD(9, b) Y_LD(10, b) Y_LD(11, b) Y_LD(12, b) Y_LD(13, b) Y_LD(14, b) Y_LD(15, b)
#define STORE16(b)                                                                                \
    Y_ST(0, b) Y_ST(1, b) Y_ST(2, b) Y_ST(3, b) Y_ST(4, b) Y_ST(5, b) Y_ST(6, b) Y_ST(7, b)     \
    Y_ST(8, b) Y_ST(9, b) Y_ST(10, b) Y_ST(11, b) Y_ST(12, b) Y_ST(13, b) Y_ST(14, b) Y_ST(15, b)
#define YMM_CLOBBERS                                                                              \
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",      \
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* The raw syscalls (kill this thread with SIGUSR2; fork; exit): the asm
 * cannot call libc without giving up the registers it checks. */
#if defined(__APPLE__)
#define NAN_SYM(x) "_" #x
/* XNU __pthread_kill(thread_port, sig): bsd/kern/syscalls.master 328.  A
 * thread-directed signal, like Linux's tgkill: kill(2) is process-directed
 * and may run the handler on another thread, whose registers are not the
 * ones this check loaded. */
#define SYS_KILL_NR 0x2000148L
#define SYS_FORK_NR "0x2000002" /* XNU fork: rdx = 1 in the child (libSystem's fork wrapper) */
#define SYS_EXIT_NR "0x2000001"
#else
#define NAN_SYM(x) #x
#define SYS_KILL_NR ((long)SYS_tgkill) /* tgkill(tgid, tid, sig) */
#define SYS_FORK_NR "57"               /* SYS_fork, arch/x86/entry/syscalls/syscall_64.tbl */
#define SYS_EXIT_NR "231"              /* SYS_exit_group */
#endif

int nan_ymm_available(void)
{
    bg_cpu_features f;
    bg_cpu_detect(&f);
    return f.avx;
}

/* Pattern of register i: every 64-bit word different, none zero, the low
 * lanes of ymm0/ymm1 the f32 operands of the vaddps/addps check. */
static void fill_pattern(ymm_file p, uint64_t salt)
{
    for (int i = 0; i < 16; i++)
        for (int q = 0; q < 4; q++)
            p[i][q] = salt ^ ((uint64_t)(i + 1) << 40) ^ ((uint64_t)(q + 1) << 32) ^ 0x9e3779b9u;
    /* lanes 0..3 of ymm0 (first source) and ymm1: QNaN+1, 1+SNaN, 1+2, -QNaN+2
     * (one NaN per lane: which of two NaNs wins is the op table's business) */
    p[0][0] = 0x3f8000007fc12345ull, p[0][1] = 0xffc0beef3f800000ull;
    p[1][0] = 0x7f8abcde3f800000ull, p[1][1] = 0x4000000040000000ull;
}

/* vaddps ymm0 + ymm1 after vzeroupper: lane 0 the first source's QNaN, lane 1
 * the SNaN quieted, lane 2 3.0, lane 3 the QNaN (Intel SDM
 * Vol.1 4.8.3.5, Table 4-7); lanes 4-7 0 + 0 = +0. */
static const uint64_t vadd_low[2] = {0x7fcabcde7fc12345ull, 0xffc0beef40400000ull};

static int file_equal(const ymm_file a, const ymm_file b) { return memcmp(a, b, sizeof(ymm_file)) == 0; }

/* Bits 255:128 of all sixteen zero, and (when low) bits 127:0 equal low's. */
static int uppers_zero(const ymm_file a, const ymm_file low)
{
    for (int i = 0; i < 16; i++) {
        if (a[i][2] || a[i][3])
            return 0;
        if (low && (a[i][0] != low[i][0] || a[i][1] != low[i][1]))
            return 0;
    }
    return 1;
}

/* ---- the SIGUSR2 handler: stores what it was entered with, dirties all ---- */
__attribute__((used)) ymm_file nan_ymm_entry, nan_ymm_dirty;
__attribute__((used)) volatile uint32_t nan_ymm_hits;

#define T_ST(i) "vmovdqu %ymm" #i ", " #i "*32(%rax)\n\t"
#define T_LD(i) "vmovdqu " #i "*32(%rax), %ymm" #i "\n\t"
__asm__(".text\n\t.p2align 4\n" NAN_SYM(nan_ymm_stub) ":\n\t"
        "leaq " NAN_SYM(nan_ymm_entry) "(%rip), %rax\n\t"
        T_ST(0) T_ST(1) T_ST(2) T_ST(3) T_ST(4) T_ST(5) T_ST(6) T_ST(7)
        T_ST(8) T_ST(9) T_ST(10) T_ST(11) T_ST(12) T_ST(13) T_ST(14) T_ST(15)
        "leaq " NAN_SYM(nan_ymm_dirty) "(%rip), %rax\n\t"
        T_LD(0) T_LD(1) T_LD(2) T_LD(3) T_LD(4) T_LD(5) T_LD(6) T_LD(7)
        T_LD(8) T_LD(9) T_LD(10) T_LD(11) T_LD(12) T_LD(13) T_LD(14) T_LD(15)
        "lock incl " NAN_SYM(nan_ymm_hits) "(%rip)\n\tret\n");
void nan_ymm_stub(int sig);

static int install(int sa_flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = nan_ymm_stub;
    sa.sa_flags = sa_flags;
    sigemptyset(&sa.sa_mask);
    fill_pattern(nan_ymm_dirty, 0xd1d1d1d100000000ull);
    memset(nan_ymm_entry, 0x55, sizeof nan_ymm_entry);
    nan_ymm_hits = 0;
    return sigaction(SIGUSR2, &sa, NULL);
}

/* Arguments of the raw thread-directed kill of this thread with SIGUSR2. */
static void kill_args(long a[3])
{
#if defined(__APPLE__)
    a[0] = (long)pthread_mach_thread_np(pthread_self()), a[1] = SIGUSR2, a[2] = 0;
#else
    a[0] = getpid(), a[1] = syscall(SYS_gettid), a[2] = SIGUSR2;
#endif
}

int nan_ymm_signal(int sa_flags, int *entry_init, int *restored)
{
    static ymm_file pat, after;
    *entry_init = *restored = 0;
    fill_pattern(pat, 0x5a5a5a5a00000000ull);
    if (install(sa_flags) != 0)
        return -1;
    long a[3], nr = SYS_KILL_NR;
    uint32_t seen = 0;
    kill_args(a);
    __asm__ volatile(LOAD16("in") "syscall\n\t"
                     "movl (%[hits]), %%r10d\n\tmovl %%r10d, (%[seen])\n\t" STORE16("out")
                     : "+a"(nr)
                     : "D"(a[0]), "S"(a[1]), "d"(a[2]), [in] "r"(pat), [out] "r"(after),
                       [hits] "r"(&nan_ymm_hits), [seen] "r"(&seen)
                     : "rcx", "r10", "r11", "memory", "cc", YMM_CLOBBERS);
    __asm__ volatile("vzeroupper" ::: "memory", YMM_CLOBBERS);
    signal(SIGUSR2, SIG_DFL);
    if (seen != 1)
        return -1;
    *entry_init = uppers_zero(nan_ymm_entry, NULL);
    *restored = file_equal(after, pat);
    return 0;
}

void nan_ymm_vzero(int facts[4])
{
    static ymm_file pat, a, b, c;
    static uint64_t r1[4], r2[4], r3[4];
    fill_pattern(pat, 0x3c3c3c3c00000000ull);
    __asm__ volatile(LOAD16("in") "vzeroupper\n\t" STORE16("a")
                     "vaddps %%ymm1, %%ymm0, %%ymm2\n\tvmovdqu %%ymm2, (%[r1])\n\t"
                     "addps %%xmm1, %%xmm0\n\tvmovdqu %%ymm0, (%[r2])\n\t"
                     "vzeroall\n\t" STORE16("b")
                     :
                     : [in] "r"(pat), [a] "r"(a), [b] "r"(b), [r1] "r"(r1), [r2] "r"(r2)
                     : "memory", YMM_CLOBBERS);
    static const ymm_file zero;
    facts[0] = uppers_zero(a, pat);
    facts[1] = r1[0] == vadd_low[0] && r1[1] == vadd_low[1] && !r1[2] && !r1[3] &&
               r2[0] == vadd_low[0] && r2[1] == vadd_low[1] && !r2[2] && !r2[3];
    facts[2] = file_equal(b, zero);
    facts[3] = 0;
    if (install(0) != 0)
        return;
    long k[3], nr = SYS_KILL_NR;
    uint32_t seen = 0;
    kill_args(k);
    __asm__ volatile(LOAD16("in") "vzeroupper\n\tsyscall\n\t"
                     "movl (%[hits]), %%r10d\n\tmovl %%r10d, (%[seen])\n\t" STORE16("c")
                     "vaddps %%ymm1, %%ymm0, %%ymm2\n\tvmovdqu %%ymm2, (%[r3])\n\tvzeroupper\n\t"
                     : "+a"(nr)
                     : "D"(k[0]), "S"(k[1]), "d"(k[2]), [in] "r"(pat), [c] "r"(c), [r3] "r"(r3),
                       [hits] "r"(&nan_ymm_hits), [seen] "r"(&seen)
                     : "rcx", "r10", "r11", "memory", "cc", YMM_CLOBBERS);
    signal(SIGUSR2, SIG_DFL);
    facts[3] = seen == 1 && uppers_zero(c, pat) && memcmp(r3, r1, sizeof r1) == 0;
}

/* ---- per-thread state: two threads hold patterns of their own at once ---- */
static volatile uint32_t tp_flag;
static ymm_file tp_mine, tp_peer, tp_mine_after, tp_peer_after;
static volatile uint64_t tp_left_peer;

/* Spin (PAUSE) until *flag >= K, at most 2^30 rounds; rcx: rounds left. */
#define SPIN(k, l1, l2)                                                                           \
    "movq $0x40000000, %%rcx\n" l1 ":\n\tcmpl $" #k ", (%[f])\n\tjae " l2 "f\n\tpause\n\t"      \
    "decq %%rcx\n\tjnz " l1 "b\n" l2 ":\n\t"

static void *tp_peer_main(void *arg)
{
    (void)arg;
    uint64_t left1 = 0, left2 = 0;
    __asm__ volatile(SPIN(1, "1", "2") "movq %%rcx, (%[l1])\n\t" LOAD16("in")
                     "movl $2, (%[f])\n\t" SPIN(3, "3", "4") "movq %%rcx, (%[l2])\n\t" STORE16("out") "vzeroupper\n\t"
                     :
                     : [f] "r"(&tp_flag), [in] "r"(tp_peer), [out] "r"(tp_peer_after), [l1] "r"(&left1),
                       [l2] "r"(&left2)
                     : "rcx", "memory", "cc", YMM_CLOBBERS);
    tp_left_peer = left1 && left2;
    return NULL;
}

int nan_ymm_thread_private(void)
{
    fill_pattern(tp_mine, 0x7171717100000000ull);
    fill_pattern(tp_peer, 0x2929292900000000ull);
    memset(tp_mine_after, 0, sizeof tp_mine_after);
    memset(tp_peer_after, 0, sizeof tp_peer_after);
    tp_flag = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, tp_peer_main, NULL) != 0)
        return 0;
    uint64_t left = 0;
    __asm__ volatile(LOAD16("in") "movl $1, (%[f])\n\t" SPIN(2, "1", "2") "movq %%rcx, (%[l])\n\t"
                     STORE16("out") "movl $3, (%[f])\n\tvzeroupper\n\t"
                     :
                     : [f] "r"(&tp_flag), [in] "r"(tp_mine), [out] "r"(tp_mine_after), [l] "r"(&left)
                     : "rcx", "memory", "cc", YMM_CLOBBERS);
    pthread_join(t, NULL);
    return left && tp_left_peer && file_equal(tp_mine_after, tp_mine) && file_equal(tp_peer_after, tp_peer);
}

/* ---- fork: the child's registers right after the syscall ---- */
int nan_ymm_fork(void)
{
    static ymm_file pat, parent;
    fill_pattern(pat, 0x4b4b4b4b00000000ull);
    ymm_file *child = mmap(NULL, sizeof(ymm_file), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (child == MAP_FAILED)
        return 0;
    memset(child, 0, sizeof(ymm_file));
    long ret = 0, in_child = 0;
    __asm__ volatile(LOAD16("in") "movl $" SYS_FORK_NR ", %%eax\n\txorl %%edx, %%edx\n\tsyscall\n\t"
#if defined(__APPLE__)
                     "testl %%edx, %%edx\n\tjz 1f\n\t"
#else
                     "testq %%rax, %%rax\n\tjnz 1f\n\t"
#endif
                     STORE16("kid") "movl $" SYS_EXIT_NR ", %%eax\n\txorl %%edi, %%edi\n\tsyscall\n\tud2\n"
                     "1:\n\t" STORE16("out") "vzeroupper\n\t"
                     : "=&a"(ret), "=&d"(in_child)
                     : [in] "r"(pat), [out] "r"(parent), [kid] "r"(*child)
                     : "rcx", "rdi", "r11", "memory", "cc", YMM_CLOBBERS);
    (void)in_child;
    int st = 0, ok = 0;
    if (ret > 0 && waitpid((pid_t)ret, &st, 0) == (pid_t)ret && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        ok = file_equal(*child, pat) && file_equal(parent, pat);
    munmap(child, sizeof(ymm_file));
    return ok;
}
