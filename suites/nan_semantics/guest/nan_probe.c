/* nan-probe — the x86-64 guest program of nan_semantics.
 * Usage, output document, exit codes: usage_text below (`nan-probe --help`).
 *
 * The guest links libc (and libpthread) only, like memory_order's litmus
 * probe: one x86-64 binary must be buildable on any host with just a C
 * compiler for x86-64 (an arm64 Linux host's x86_64-linux-gnu-gcc, Apple
 * clang -arch x86_64), where no x86-64 cJSON exists.  So its JSON document,
 * whose strings all come from the probe's own tables, is printed with stdio
 * (nan_probe_out.c); nan-check parses it with cJSON.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#if !defined(__APPLE__)
#include <ucontext.h> /* macOS's #errors without _XOPEN_SOURCE; the handler reads no context there */
#endif
#include <unistd.h>

#include "buildgate/bg_error.h"
#include "nan_fault_probe.h"
#include "nan_lig.h"
#include "nan_probe_out.h"
#include "nan_seq_probe.h"
#include "nan_table.h"
#include "nan_x87.h"
#include "nan_ymm.h"

#define MAX_PHASES NAN_MODE_COUNT

typedef struct phase {
    const char *name;
    int mode;          /* nan_modes index, or -1: inherit the control bits */
    uint32_t *mxcsr;   /* MXCSR at the phase's start (shared memory) */
    uint16_t *x87_cw;  /* the x87 control word at the phase's start (shared memory) */
    nan_rec *recs;     /* nan_case_total() records (shared memory) */
} phase;

static phase phases[MAX_PHASES];
static int nphases;
static nan_out out;
static volatile sig_atomic_t sig_count;
static sigjmp_buf jump;

static const char usage_text[] =
    "Usage: nan-probe --context CONTEXT [--modes base|all|NAME[,NAME...]]\n"
    "\n"
    "The x86-64 guest of nan_semantics: runs the case table (nan_cases.h,\n"
    "nan_ops.def) in one context and prints one JSON document on stdout.\n"
    "  --context CONTEXT  main_thread, pthread, pooled_thread, signal_raise,\n"
    "                     signal_pthread_kill, after_handler, sigaltstack,\n"
    "                     siglongjmp, mxcsr_write, mxcsr_write_pthread, fork, exec,\n"
    "                     trap, initial (the MXCSR and x87 control word the\n"
    "                     process started with, read by a constructor),\n"
    "                     vzeroupper, dispatch_worker (macOS), faults (the\n"
    "                     rows of nan_faults.def, each in a child of its own)\n"
    "  --modes SPEC       main_thread only: the MXCSR modes to run, base (default),\n"
    "                     all (16: RC x FTZ x DAZ), or names, e.g. default,ftz,daz_rz\n"
    "  -h, --help         this text\n"
    "       nan-probe --sequences REQUEST: generated instruction blocks instead\n"
    "                     (the request and output: nan_seq_probe.c)\n"
    "\n"
    "Output: {\"probe\":\"nan_semantics\",\"schema\":1,\"context\":C,\"os\":\"linux\"|\"macos\",\n"
    "  \"case_table\":\"<fnv64 hex>\",\n"
    "  \"features\":{\"sse41\":true|false,\"fma\":true|false,\"avx\":true|false,\n"
    "              \"f16c\":true|false},\n"
    "  \"phases\":[{\"phase\":P,\"mode\":M|null,\"mxcsr\":\"0x1f80\",\"x87_cw\":\"0x037f\",\n"
    "             \"results\":{\"<op>\":\"<records, 68 hex digits each (x87 ops:\n"
    "                        nan_x87.h); VEX ops (VEX.128, VEX.256 and\n"
    "                        F16C) 100: ymm0 bits 255:128 first>\",...},\n"
    "             \"skipped_ops\":[\"<op>: the guest CPU lacks <feature>\",...]}],\n"
    "  \"facts\":{\"<fact>\":true|false,...},  (context-specific)\n"
    "  \"traps\":[{\"exception\":\"IE\",\"delivered\":true,\"si_code\":7,\n"
    "            \"handler_mxcsr\":\"0x1f80\",\"saved_status\":\"0x01\"}],\n"
    "  \"faults\":[{\"case\":\"addps.m128.misaligned\",\"signal\":\"SIGSEGV\"|\"none\"|\"skipped\"\n"
    "             (skipped: \"why\":\"the guest CPU lacks AVX\" and no more),\n"
    "             \"handled\":true,\"si_code\":128,\"mxcsr_after\":\"0x3f80\",\n"
    "             \"dest\":\"<32 hex digits>\"}],  (context faults only; \"\": not read)\n"
    "  \"lig\":{\"ops\":N,\"skipped\":\"<why nothing ran>\",\"deviations\":[...]}}\n"
    "  (main_thread only: the VEX.L=1 encodings of the scalar VEX ops, props P_LIG,\n"
    "  run under the first and the last phase's MXCSR and compared in the probe\n"
    "  with that phase's VEX.L=0 records; \"skipped\" only\n"
    "  when nothing ran; one deviation per op: {\"op\":O,\"raised\":\"SIGILL\"} (the op\n"
    "  raised that signal, caught), {\"op\":O,\"died\":\"SIGABRT\"} (the forked child\n"
    "  running it died), {\"op\":O,\"exit\":N} (it exited non-zero),\n"
    "  or {\"op\":O,\"phase\":P,\"case\":I,\"differ\":N,\"l0\":\"<record>\",\n"
    "  \"l1\":\"<record>\"} (N cases differ; the first one's two records))\n"
    "  (a trap not delivered: \"si_code\":-1 and \"handler_mxcsr\":\"\"; a saved\n"
    "  status not read: \"saved_status\":\"\")\n"
    "A feature is true when the guest CPU runs the table's ops that need it; an op\n"
    "it lacks is in skipped_ops, not in results (nan-check fails a document with\n"
    "records of an op whose feature is false: probe-failed, contradiction).\n"
    "A phase with \"mode\" set runs with that MXCSR mode loaded; otherwise with the\n"
    "control bits it found (\"mxcsr\": the MXCSR read at the phase's start).\n"
    "\n"
    "Exit: 0 printed; 2 usage (one line on stderr); 3 the context could not be set\n"
    "      up (fork/exec/thread failed: one line).\n"
    "Doc: docs/nan_semantics.md (contexts, phases, the MXCSR each must see).\n";

static void die(int code, const char *what, const char *why)
{
    bg_errorf("nan-probe", "%s: %s", what, why);
    exit(code);
}

/* Allocates a phase's records; shared memory so a forked child can fill it. */
static phase *add_phase(const char *name, int mode)
{
    if (nphases >= MAX_PHASES)
        die(3, "phases", "too many");
    phase *p = &phases[nphases++];
    p->name = name, p->mode = mode;
    size_t bytes = 64 + nan_case_total() * sizeof(nan_rec);
    char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        die(3, "mmap", strerror(errno));
    p->mxcsr = (uint32_t *)mem;
    p->x87_cw = (uint16_t *)(mem + 8);
    p->recs = (nan_rec *)(mem + 64);
    return p;
}

/* Async-signal-safe: runs the table in the phase's mode or the inherited one. */
static void run_phase(phase *p)
{
    uint32_t entry = nan_mxcsr_get();
    *p->x87_cw = nan_x87_cw_get(); /* the context's x87 state (the cases load their own) */
    if (p->mode >= 0) {
        nan_mxcsr_set(nan_modes[p->mode].mxcsr);
        *p->mxcsr = nan_mxcsr_get();
    } else {
        *p->mxcsr = entry;
    }
    nan_table_run(*p->mxcsr, p->recs);
    nan_mxcsr_set(entry);
}

static void fact_bool(const char *k, int v) { nan_out_fact(&out, k, v); }

/* The contexts' writes: MXCSR and the x87 control word together (W = 0xFFC0 /
 * 0x0C7F, every control field changed), and back to the defaults.
 * Async-signal-safe. */
static void fpu_write(void)
{
    nan_mxcsr_set(NAN_MXCSR_WRITTEN);
    nan_x87_cw_set(NAN_X87_CW_WRITTEN);
}

static void fpu_default(void)
{
    nan_mxcsr_set(NAN_MXCSR_DEFAULT);
    nan_x87_cw_set(NAN_X87_CW_DEFAULT);
}

/* ---- signal contexts ---- */
static phase *handler_phase;
static char *alt_lo, *alt_hi;
static volatile sig_atomic_t on_alt;

/* Handler entry stubs: record rsp % 16 at entry (the SysV ABI and the Linux
 * signal frame give 8: rsp + 8 is 16-byte aligned), then jump to the C
 * handler, which realigns its own frame (force_align_arg_pointer) so a
 * runner that misaligns the handler's stack is reported as a fact instead of
 * crashing the probe on the first movaps. */
volatile int nan_sig_rsp_mod = -1;
#if defined(__APPLE__)
#define NAN_SYM(x) "_" #x /* Mach-O prefixes C symbols with '_' */
#else
#define NAN_SYM(x) #x
#endif
#define NAN_STUB(stub, target)                                                                   \
    __asm__(".text\n\t.p2align 4\n" NAN_SYM(stub) ":\n\t"                                      \
            "movq %rsp, %rax\n\tandl $15, %eax\n\t"                                              \
            "movl %eax, " NAN_SYM(nan_sig_rsp_mod) "(%rip)\n\tjmp " NAN_SYM(target) "\n");        \
    void stub(int)
#define NAN_HANDLER __attribute__((force_align_arg_pointer, used))

static void record_alignment(void) { fact_bool("handler_stack_aligned", nan_sig_rsp_mod == 8); }

/* YMM upper halves across a signal (nan_ymm.h): facts ymm_handler_init
 * (when entry) and ymm_sigreturn_restored.  Without AVX no fact is
 * recorded: nan-check notes them as not measured (features.avx false). */
static void ymm_signal_facts(int sa_flags, int entry)
{
    int init = 0, restored = 0;
    if (!nan_ymm_available())
        return;
    nan_ymm_signal(sa_flags, &init, &restored);
    if (entry)
        fact_bool("ymm_handler_init", init);
    fact_bool("ymm_sigreturn_restored", restored);
}

NAN_HANDLER void nan_on_usr1_run(int sig);
NAN_HANDLER void nan_on_usr1_scribble(int sig);
NAN_HANDLER void nan_on_usr1_jump(int sig);
NAN_HANDLER void nan_on_fpe(int sig, siginfo_t *si, void *uc);
NAN_STUB(nan_stub_usr1_run, nan_on_usr1_run);
NAN_STUB(nan_stub_usr1_scribble, nan_on_usr1_scribble);
NAN_STUB(nan_stub_usr1_jump, nan_on_usr1_jump);
NAN_STUB(nan_stub_fpe, nan_on_fpe);

NAN_HANDLER void nan_on_usr1_run(int sig)
{
    (void)sig;
    char here;
    on_alt = alt_lo && &here >= alt_lo && &here < alt_hi;
    run_phase(handler_phase);
    sig_count++;
}

NAN_HANDLER void nan_on_usr1_scribble(int sig) /* changes MXCSR; sigreturn must restore */
{
    (void)sig;
    nan_mxcsr_set(nan_modes[nan_mode_find("daz")].mxcsr);
    nan_x87_cw_set(0x027F); /* 53-bit precision: neither W nor the default */
    sig_count++;
}

NAN_HANDLER void nan_on_usr1_jump(int sig)
{
    (void)sig;
    sig_count++;
    siglongjmp(jump, 1);
}

static void handle(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0)
        die(3, "sigaction", strerror(errno));
}

static void ctx_signal_raise(void)
{
    handler_phase = add_phase("handler", -1);
    handle(SIGUSR1, nan_stub_usr1_run, 0);
    fpu_write();
    raise(SIGUSR1);
    fpu_default();
    fact_bool("handler_ran", sig_count == 1);
    record_alignment();
    ymm_signal_facts(0, 1);
}

static pthread_t main_thread;
static void *killer(void *arg)
{
    (void)arg;
    pthread_kill(main_thread, SIGUSR1);
    return NULL;
}

static void ctx_signal_pthread_kill(void)
{
    handler_phase = add_phase("handler", -1);
    handle(SIGUSR1, nan_stub_usr1_run, 0);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    main_thread = pthread_self();
    fpu_write();
    pthread_t t;
    if (pthread_create(&t, NULL, killer, NULL) != 0)
        die(3, "pthread_create", "failed");
    sigset_t wait_mask = old;
    sigdelset(&wait_mask, SIGUSR1);
    while (sig_count == 0)
        sigsuspend(&wait_mask);
    fpu_default();
    pthread_join(t, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    fact_bool("handler_ran", sig_count == 1);
    record_alignment();
}

static void ctx_after_handler(void)
{
    phase *p = add_phase("after_handler", -1);
    handle(SIGUSR1, nan_stub_usr1_scribble, 0);
    fpu_write();
    raise(SIGUSR1);
    run_phase(p);
    fpu_default();
    fact_bool("handler_ran", sig_count == 1);
    record_alignment();
    ymm_signal_facts(0, 0);
}

static void ctx_sigaltstack(void)
{
    handler_phase = add_phase("handler", -1);
    size_t size = 1 << 18;
    stack_t ss = {.ss_sp = malloc(size), .ss_size = size, .ss_flags = 0};
    if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0)
        die(3, "sigaltstack", strerror(errno));
    alt_lo = ss.ss_sp, alt_hi = alt_lo + size;
    handle(SIGUSR1, nan_stub_usr1_run, SA_ONSTACK);
    fpu_write();
    raise(SIGUSR1);
    fpu_default();
    fact_bool("handler_ran", sig_count == 1);
    record_alignment();
    fact_bool("on_altstack", on_alt);
    ymm_signal_facts(SA_ONSTACK, 1);
}

static void ctx_siglongjmp(void)
{
    phase *p = add_phase("after_siglongjmp", -1);
    handle(SIGUSR1, nan_stub_usr1_jump, 0);
    fpu_write();
    if (sigsetjmp(jump, 1) == 0) {
        raise(SIGUSR1);
        fact_bool("jumped", 0);
    } else {
        fact_bool("jumped", 1);
        record_alignment();
    }
    run_phase(p);
    fpu_default();
}

/* ---- initial: the FPU control state the runner starts the guest with ----
 * Read by the first constructor, before main and before the probe writes
 * anything (glibc's start-up code does not write MXCSR or the x87 control
 * word; the kernel's execve gives 0x1F80 / 0x037F, Intel SDM Vol.1 8.1.5
 * and 10.2.3, Linux fpu_flush_thread()).  Every other context writes MXCSR
 * before it looks, so a runner that starts guests with FTZ|DAZ set shows only
 * here directly. */
static uint32_t entry_mxcsr;
static uint16_t entry_x87_cw;

__attribute__((constructor(101))) static void read_entry_state(void)
{
    entry_mxcsr = nan_mxcsr_get();
    __asm__ volatile("fnstcw %0" : "=m"(entry_x87_cw));
}

static void ctx_initial(void)
{
    phase *p = add_phase("initial", -1);
    nan_mxcsr_set(entry_mxcsr); /* as found at entry, even if start-up code changed it since */
    run_phase(p);
    nan_mxcsr_set(NAN_MXCSR_DEFAULT);
    fact_bool("x87_cw_default", entry_x87_cw == 0x037f);
}

/* ---- threads, writes, fork, exec ---- */
static void *thread_main(void *arg)
{
    run_phase(arg);
    return NULL;
}

static void in_thread(phase *p)
{
    pthread_t t;
    if (pthread_create(&t, NULL, thread_main, p) != 0)
        die(3, "pthread_create", "failed");
    pthread_join(t, NULL);
}

static void ctx_mxcsr_write(void)
{
    phase *w = add_phase("written", -1), *r = add_phase("restored", -1);
    fpu_write();
    run_phase(w);
    fpu_default();
    run_phase(r);
}

static void ctx_fork(void)
{
    phase *p = add_phase("child", -1);
    fpu_write();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die(3, "fork", strerror(errno));
    if (pid == 0) {
        run_phase(p);
        _exit(0);
    }
    fpu_default();
    int st = 0;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        die(3, "fork", "the child did not exit 0");
    if (nan_ymm_available())
        fact_bool("ymm_fork_inherited", nan_ymm_fork());
}

static void ctx_exec(const char *self)
{
    if (!strchr(self, '/'))
        die(3, "exec", "argv[0] must be a path to re-execute the probe");
    fpu_write();
    char *argv[] = {(char *)self, "--context", "exec_child", NULL};
    execv(self, argv);
    die(3, "exec", strerror(errno));
}

/* ---- unmasked exceptions (Intel SDM Vol.1 11.5.1: #XM -> SIGFPE) ---- */
static volatile sig_atomic_t trap_code, trap_hits;
static volatile uint32_t trap_mxcsr, trap_saved;

NAN_HANDLER void nan_on_fpe(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    trap_hits++;
    trap_code = si->si_code;
    trap_mxcsr = nan_mxcsr_get();
#if defined(__linux__)
    ucontext_t *u = uc;
    trap_saved = u->uc_mcontext.fpregs ? u->uc_mcontext.fpregs->mxcsr : 0xffffffffu;
#else
    (void)uc;
    trap_saved = 0xffffffffu;
#endif
    siglongjmp(jump, 1);
}

static void one_trap(const char *exc, uint32_t unmask, uint32_t a, uint32_t b, int div)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = (void (*)(int, siginfo_t *, void *))(void (*)(void))nan_stub_fpe;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGFPE, &sa, NULL);
    trap_hits = 0, trap_code = 0, trap_mxcsr = 0, trap_saved = 0;
    uint32_t mx = NAN_MXCSR_DEFAULT & ~unmask;
    volatile int delivered = 0;
    if (sigsetjmp(jump, 1) == 0) {
        uint32_t x = a;
        if (div)
            __asm__ volatile("ldmxcsr %[m]\n\tmovd %[x], %%xmm0\n\tmovd %[y], %%xmm1\n\t"
                             "divss %%xmm1, %%xmm0\n\tmovd %%xmm0, %[x]"
                             : [x] "+r"(x) : [m] "m"(mx), [y] "r"(b) : "xmm0", "xmm1");
        else
            __asm__ volatile("ldmxcsr %[m]\n\tmovd %[x], %%xmm0\n\tmovd %[y], %%xmm1\n\t"
                             "addss %%xmm1, %%xmm0\n\tmovd %%xmm0, %[x]"
                             : [x] "+r"(x) : [m] "m"(mx), [y] "r"(b) : "xmm0", "xmm1");
        nan_mxcsr_set(NAN_MXCSR_DEFAULT);
    } else {
        delivered = 1;
    }
    nan_mxcsr_set(NAN_MXCSR_DEFAULT);
    nan_out_trap(&out, exc, delivered, trap_code, trap_mxcsr,
                 trap_saved == 0xffffffffu ? -1 : (int)(trap_saved & 0x3f));
}

static const char *self_path;

static void ctx_pthread(void)
{
    in_thread(add_phase("thread", -1));
    if (nan_ymm_available())
        fact_bool("ymm_thread_private", nan_ymm_thread_private());
}

/* A pooled worker: one thread created once runs two jobs.  The first job
 * leaves the written MXCSR behind (as a task that changes the mode and does
 * not restore it); the second job, on the reused thread, must see it: MXCSR
 * is per-thread state that nothing resets between jobs (Intel SDM Vol.1
 * 10.2.3; a pool such as libdispatch's reuses its threads as they are). */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;
static phase *pool_job;
static int pool_done;

static void *pool_worker(void *arg)
{
    (void)arg;
    for (int jobs = 0; jobs < 2; jobs++) {
        pthread_mutex_lock(&pool_lock);
        while (!pool_job)
            pthread_cond_wait(&pool_cond, &pool_lock);
        phase *p = pool_job;
        pthread_mutex_unlock(&pool_lock);
        run_phase(p);
        if (jobs == 0)
            fpu_write();
        else if (nan_ymm_available()) /* the reused worker against a peer thread */
            fact_bool("ymm_thread_private", nan_ymm_thread_private());
        pthread_mutex_lock(&pool_lock);
        pool_job = NULL;
        pool_done++;
        pthread_cond_broadcast(&pool_cond);
        pthread_mutex_unlock(&pool_lock);
    }
    return NULL;
}

static void pool_submit(phase *p)
{
    pthread_mutex_lock(&pool_lock);
    int target = pool_done + 1;
    pool_job = p;
    pthread_cond_broadcast(&pool_cond);
    while (pool_done < target)
        pthread_cond_wait(&pool_cond, &pool_lock);
    pthread_mutex_unlock(&pool_lock);
}

static void ctx_pooled_thread(void)
{
    phase *first = add_phase("first_job", -1), *reused = add_phase("reused", -1);
    pthread_t t;
    if (pthread_create(&t, NULL, pool_worker, NULL) != 0)
        die(3, "pthread_create", "failed");
    pool_submit(first);
    pool_submit(reused);
    pthread_join(t, NULL);
}

static void ctx_mxcsr_write_pthread(void)
{
    phase *p = add_phase("thread", -1);
    fpu_write();
    in_thread(p);
    fpu_default();
}

static void ctx_exec_self(void) { ctx_exec(self_path); }

/* vzeroupper / vzeroall (nan_ymm_vzero): facts only, no table (the table's
 * VEX kernels load ymm0-3 whole before each case, so the state vzeroupper
 * leaves would not reach them). */
static void ctx_vzeroupper(void)
{
    nan_mxcsr_set(NAN_MXCSR_DEFAULT);
    if (nan_ymm_available()) {
        int f[4];
        nan_ymm_vzero(f);
        fact_bool("ymm_vzeroupper_zero", f[0]);
        fact_bool("ymm_vzeroupper_ops", f[1]);
        fact_bool("ymm_vzeroall_zero", f[2]);
        fact_bool("ymm_vzeroupper_signal", f[3]);
        nan_mxcsr_set(NAN_MXCSR_DEFAULT); /* clear the flags the checks' vaddps set */
    }
}

/* macOS: a job dispatch_async'ed to a global queue runs on one of
 * libdispatch's own worker threads (created by the kernel's workqueue, not
 * by pthread_create): the table there, and the YMM state is that thread's
 * own.  Elsewhere there is no libdispatch: nan-check skips this context
 * with that reason before it runs the probe. */
#if defined(__APPLE__)
#include <dispatch/dispatch.h>

static dispatch_semaphore_t dispatch_done;

static void dispatch_job(void *arg)
{
    run_phase(arg);
    if (nan_ymm_available())
        fact_bool("ymm_thread_private", nan_ymm_thread_private());
    fact_bool("on_dispatch_worker", !pthread_main_np());
    dispatch_semaphore_signal(dispatch_done);
}

static void ctx_dispatch_worker(void)
{
    phase *p = add_phase("worker", -1);
    dispatch_done = dispatch_semaphore_create(0);
    dispatch_async_f(dispatch_get_global_queue(QOS_CLASS_DEFAULT, 0), p, dispatch_job);
    dispatch_semaphore_wait(dispatch_done, DISPATCH_TIME_FOREVER);
    dispatch_release(dispatch_done);
}
#else
static void ctx_dispatch_worker(void)
{
    die(2, "--context dispatch_worker", "macOS only (libdispatch's worker threads)");
}
#endif

static void ctx_exec_child(void) { run_phase(add_phase("exec_child", -1)); }

/* Contexts that run the table in phases: nan_contexts.def (main_thread and
 * trap, run 0 there, are handled in main), and exec's child. */
static const struct {
    const char *name;
    void (*run)(void);
} contexts[] = {
#define NAN_CONTEXT(name, run) {#name, run},
#include "nan_contexts.def"
#undef NAN_CONTEXT
    {"exec_child", ctx_exec_child},
};

static int parse_modes(const char *spec)
{
    for (int m = 0; m < NAN_MODE_COUNT; m++) {
        if (strcmp(spec, "all") == 0 || (strcmp(spec, "base") == 0 && nan_modes[m].base))
            add_phase(nan_modes[m].name, m);
    }
    if (nphases > 0)
        return 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", spec);
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int m = nan_mode_find(t);
        if (m < 0)
            return -1;
        add_phase(nan_modes[m].name, m);
    }
    return nphases > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *context = NULL, *modes = "base";
    if (argc == 3 && strcmp(argv[1], "--sequences") == 0)
        return nan_seq_probe_main(argv[2]);
    for (int i = 1; i < argc; i++) { /* libc-only guest: no bg_help (NanGuest.cmake) */
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return fputs(usage_text, stdout) < 0 ? 3 : 0;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--context") == 0 && i + 1 < argc)
            context = argv[++i];
        else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc)
            modes = argv[++i];
        else if (strcmp(argv[i], "--context") == 0 || strcmp(argv[i], "--modes") == 0)
            die(2, argv[i], "missing value (see nan-probe --help)");
        else {
            bg_errorf("nan-probe", "unknown option '%s' (see nan-probe --help)", argv[i]);
            exit(2);
        }
    }
    if (!context)
        die(2, "--context", "is required (see nan-probe --help)");
    (void)nan_table_op_supported(0); /* CPUID once, outside any handler */
    const char *shown = strcmp(context, "exec_child") == 0 ? "exec" : context;
    if (strcmp(context, "main_thread") == 0) {
        if (parse_modes(modes) != 0)
            die(2, "--modes", "not base, all or a list of known mode names (see nan-probe --help)");
        for (int i = 0; i < nphases; i++)
            run_phase(&phases[i]);
        /* the VEX.L = 1 encodings of the P_LIG ops in forked children
         * (nan_lig.h), under the first and the last phase's MXCSR (base:
         * default and ftz_daz_rz, every control field set both ways): how an
         * emulator decodes VEX.L does not depend on the mode, and each phase
         * costs the 120 ops' cases again (valgrind) */
        static nan_lig_run lig;
        uint32_t control[2];
        nan_rec *recs[2];
        int sel[2] = {0, nphases - 1}, nsel = nphases > 1 ? 2 : 1;
        for (int i = 0; i < nsel; i++)
            control[i] = *phases[sel[i]].mxcsr, recs[i] = phases[sel[i]].recs;
        nan_lig_check(nsel, control, recs, &lig);
        for (int i = 0; i < lig.nres; i++) /* back to the document's phase index */
            if (lig.res[i].phase >= 0)
                lig.res[i].phase = sel[lig.res[i].phase];
        out.lig = &lig;
    } else if (strcmp(context, "trap") == 0) {
        one_trap("IE", 0x0080, 0x7f800001u, 0x3f800000u, 0); /* SNaN + 1, IM clear */
        one_trap("ZE", 0x0200, 0x3f800000u, 0x00000000u, 1); /* 1 / 0, ZM clear */
    } else if (strcmp(context, "faults") == 0) { /* nan_faults.def: each row in a child of its own */
        if (nan_fault_probe_run() != 0)
            die(3, "faults", strerror(errno));
        out.extra = nan_fault_probe_print;
    } else {
        self_path = argv[0];
        unsigned i = 0;
        while (i < sizeof contexts / sizeof contexts[0] &&
               (strcmp(contexts[i].name, context) != 0 || !contexts[i].run))
            i++;
        if (i == sizeof contexts / sizeof contexts[0])
            die(2, "--context", "unknown context (see nan-probe --help)");
        contexts[i].run();
    }
    for (int i = 0; i < nphases; i++) {
        nan_out_phase(&out, phases[i].name, phases[i].mode, *phases[i].mxcsr, phases[i].recs);
        nan_out_phase_x87(&out, *phases[i].x87_cw);
    }
    return nan_out_print(&out, stdout, shown) == 0 ? 0 : 3;
}
