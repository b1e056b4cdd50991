/* nan_lig.c — see nan_lig.h. */
#define _GNU_SOURCE /* MAP_ANONYMOUS (glibc with -std=c11) */
#include "nan_lig.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nan_seq_jit.h"
#include "nan_table.h"

/* Shared with the children: which op runs now, and each op's outcome
 * (done: 1 ran, 2 raised a signal the child caught). */
typedef struct slot {
    int done, signal, differ, phase, kase;
    nan_rec l0, l1;
} slot;

/* A fault the op raises (#UD -> SIGILL) is caught in the child, which goes
 * on with the next op: one fork for the whole table unless the runner itself
 * dies (QEMU's assertion). */
static sigjmp_buf fault_jump;
static volatile sig_atomic_t fault_sig;

static void on_fault(int sig)
{
    fault_sig = sig;
    siglongjmp(fault_jump, 1);
}

/* The op's bytes with VEX.L = 1 and a RET, at code + *len; -1 when the
 * template is not one VEX instruction. */
static int emit(int k, uint8_t *code, size_t cap, size_t *len)
{
    const uint8_t *s, *e;
    if (nan_op_template(k, &s, &e) != 0 || e - s < 3 || (s[0] != 0xc4 && s[0] != 0xc5) ||
        *len + (size_t)(e - s) + 1 > cap)
        return -1;
    memcpy(code + *len, s, (size_t)(e - s));
    code[*len + (s[0] == 0xc5 ? 1 : 2)] |= 0x04; /* VEX.L */
    *len += (size_t)(e - s);
    code[(*len)++] = 0xc3; /* RET */
    return 0;
}

static void child(int from, int nlig, const int *ops, const size_t *at, const uint8_t *code, int nphases,
                  const uint32_t *control, nan_rec *const *recs, volatile int *cur, slot *slots, int maxn)
{
    nan_rec *l1 = malloc(sizeof *l1 * (size_t)maxn);
    if (!l1)
        _exit(3);
    static const int faults[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    for (unsigned f = 0; f < sizeof faults / sizeof faults[0]; f++)
        sigaction(faults[f], &sa, NULL);
    uint32_t entry = nan_mxcsr_get();
    for (volatile int j = from; j < nlig; j++) {
        int k = ops[j], n = nan_case_count(k);
        *cur = j;
        if (sigsetjmp(fault_jump, 1)) { /* the op raised fault_sig; the signal mask is restored */
            nan_mxcsr_set(entry);
            slots[j].signal = fault_sig;
            slots[j].done = 2;
            continue;
        }
        for (int p = 0; p < nphases; p++) {
            nan_table_run_code(k, code + at[j], control[p], l1);
            const nan_rec *l0 = recs[p] + nan_case_offset(k);
            for (int i = 0; i < n; i++) {
                if (nan_rec_equal(&l0[i], &l1[i]))
                    continue;
                if (!slots[j].differ++)
                    slots[j].phase = p, slots[j].kase = i, slots[j].l0 = l0[i], slots[j].l1 = l1[i];
            }
        }
        slots[j].done = 1;
    }
    free(l1);
    _exit(0);
}

void nan_lig_check(int nphases, const uint32_t *control, nan_rec *const *recs, nan_lig_run *run)
{
    memset(run, 0, sizeof *run);
    int ops[NAN_OP_MAX], nlig = 0, maxn = 1;
    for (int k = 0; k < nan_op_count; k++)
        if ((nan_ops[k].props & P_LIG) && nan_table_op_supported(k)) {
            ops[nlig++] = k;
            maxn = nan_case_count(k) > maxn ? nan_case_count(k) : maxn;
        }
    run->ops = nlig;
    if (nlig == 0)
        return;
    size_t cap = 16u * (size_t)nlig + 4096u, at[NAN_OP_MAX], len = 0;
    uint8_t *code = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t shared_bytes = 64 + sizeof(slot) * (size_t)nlig;
    char *shared = mmap(NULL, shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    run->res = calloc((size_t)nlig, sizeof *run->res);
    if (code == MAP_FAILED || shared == MAP_FAILED || !run->res) {
        snprintf(run->skipped, sizeof run->skipped, "mmap of the code or result buffer: %s", strerror(errno));
        run->ops = 0;
        return;
    }
    for (int j = 0; j < nlig; j++) {
        at[j] = len;
        if (emit(ops[j], code, cap, &len) != 0) {
            snprintf(run->skipped, sizeof run->skipped, "%s: its template is not one VEX instruction",
                     nan_ops[ops[j]].name);
            run->ops = 0;
            return;
        }
    }
    if (mprotect(code, cap, PROT_READ | PROT_EXEC) != 0) { /* W^X: bg_wx.h */
        snprintf(run->skipped, sizeof run->skipped, "mprotect(read+exec) of the code buffer: %s", strerror(errno));
        run->ops = 0;
        return;
    }
    volatile int *cur = (volatile int *)shared;
    slot *slots = (slot *)(shared + 64);
    fflush(NULL); /* the child leaves with _exit: nothing buffered twice */
    for (int from = 0; from < nlig;) {
        *cur = -1;
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(run->skipped, sizeof run->skipped, "fork: %s", strerror(errno));
            run->ops = 0;
            return;
        }
        if (pid == 0)
            child(from, nlig, ops, at, code, nphases, control, recs, cur, slots, maxn);
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            break;
        int j = *cur < from ? from : *cur; /* the op the child was running */
        nan_lig_result *r = &run->res[run->nres++];
        r->op = ops[j], r->differ = 0, r->phase = r->kase = -1, r->caught = 0;
        r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        slots[j].done = -1;
        from = j + 1;
    }
    for (int j = 0; j < nlig; j++) {
        if (slots[j].done == 2) {
            nan_lig_result *r = &run->res[run->nres++];
            r->op = ops[j], r->signal = slots[j].signal, r->caught = 1, r->status = -1, r->differ = 0;
            r->phase = r->kase = -1;
            continue;
        }
        if (slots[j].done != 1 || !slots[j].differ)
            continue;
        nan_lig_result *r = &run->res[run->nres++];
        r->op = ops[j], r->signal = 0, r->caught = 0, r->status = -1, r->differ = slots[j].differ;
        r->phase = slots[j].phase, r->kase = slots[j].kase, r->l0 = slots[j].l0, r->l1 = slots[j].l1;
    }
    munmap(code, cap);
    munmap(shared, shared_bytes);
}
