/* nan_seq_jit.c — see nan_seq_jit.h.  Encodings: Intel SDM Vol.2 (MOVAPS
 * 0F 28 /r, MOVQ 66 REX.W 0F 6E/7E /r, MOVUPS/MOVSS/MOVSD 0F 10/11 /r with
 * no/F3/F2 prefix, LDMXCSR/STMXCSR 0F AE /2 /3, Jcc 0F 8x rel32, VMOVDQU
 * VEX.256.F3.0F 6F/7F, VZEROUPPER VEX.128.0F 77). */
#define _GNU_SOURCE /* MAP_ANONYMOUS (glibc with -std=c11) */
#include "nan_seq_jit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "buildgate/bg_wx.h"
#include "nan_cases.h"
#include "nan_table.h"

/* ---- the op templates: each op's instruction, assembled in place and
 * jumped over; the function returns where its bytes are ---- */
typedef void (*nan_tpl_fn)(const uint8_t **start, const uint8_t **end);
#define NAN_CAT2(a, b) a##b
#define NAN_CAT(a, b) NAN_CAT2(a, b)
#define NAN_OP(name, kind, dst, lanes, feat, props, text)                                               \
    static void NAN_CAT(nan_tpl_, __LINE__)(const uint8_t **start, const uint8_t **end)          \
    {                                                                                            \
        const uint8_t *s, *e;                                                                    \
        __asm__ volatile("jmp 2f\n1:\n\t" text "\n2:\n\tlea 1b(%%rip), %0\n\tlea 2b(%%rip), %1"   \
                         : "=r"(s), "=r"(e));                                                    \
        *start = s, *end = e;                                                                    \
    }
#define NAN_VOP NAN_OP
#include "nan_ops.def"
#undef NAN_OP
#undef NAN_VOP

static const nan_tpl_fn templates[] = {
#define NAN_OP(name, kind, dst, lanes, feat, props, text) NAN_CAT(nan_tpl_, __LINE__),
#define NAN_VOP NAN_OP
#include "nan_ops.def"
#undef NAN_OP
#undef NAN_VOP
};

int nan_op_template(int k, const uint8_t **start, const uint8_t **end)
{
    if (k < 0 || k >= (int)(sizeof templates / sizeof templates[0]))
        return -1;
    templates[k](start, end);
    return 0;
}

/* ---- what the emitted code reads and writes through rsi ---- */
typedef struct aux {
    uint8_t reg0[NAN_SEQ_REGS][16];
    uint8_t scratch0[NAN_SEQ_SCRATCH][32];
    uint8_t reg[NAN_SEQ_REGS][16];
    uint8_t scratch[NAN_SEQ_SCRATCH][32];
    uint32_t mxcsr0, mxcsr, tmp;
    uint64_t rax0, rcx0, rax;
    uint32_t mx[NAN_SEQ_MAX];
} aux;

#define CODE_BYTES 65536
static uint8_t *code;

typedef struct buf {
    uint8_t *p;
    size_t n;
} buf;

static void b1(buf *b, unsigned v)
{
    if (b->n < CODE_BYTES)
        b->p[b->n] = (uint8_t)v;
    b->n++;
}

static void b32(buf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b1(b, (v >> (8 * i)) & 0xff);
}

static unsigned modrm(unsigned mod, unsigned reg, unsigned rm) { return mod << 6 | (reg & 7) << 3 | (rm & 7); }

/* REX with R = reg bit 3, B = rm bit 3, W; omitted when 0x40 and !force. */
static void rex(buf *b, int w, unsigned reg, unsigned rm, int force)
{
    unsigned r = 0x40 | (w ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((rm >> 3) & 1);
    if (r != 0x40 || force)
        b1(b, r);
}

static void movaps(buf *b, unsigned dst, unsigned src)
{
    rex(b, 0, dst, src, 0);
    b1(b, 0x0f), b1(b, 0x28), b1(b, modrm(3, dst, src));
}

/* movq between xmm and a GPR (0: rax, 1: rcx): to_gpr 66 REX.W 0F 7E, else 0F 6E. */
static void movq(buf *b, unsigned xmm, unsigned gpr, int to_gpr)
{
    b1(b, 0x66);
    rex(b, 1, xmm, gpr, 1);
    b1(b, 0x0f), b1(b, to_gpr ? 0x7e : 0x6e), b1(b, modrm(3, xmm, gpr));
}

/* movss/movsd/movups (width 4/8/16) between xmm and [rdi + disp8]. */
static void mem_move(buf *b, unsigned xmm, unsigned width, unsigned disp, int store)
{
    if (width != 16)
        b1(b, width == 4 ? 0xf3 : 0xf2);
    rex(b, 0, xmm, 0, 0);
    b1(b, 0x0f), b1(b, store ? 0x11 : 0x10), b1(b, modrm(1, xmm, 7)), b1(b, disp);
}

/* [rsi + disp32] operand of opcode bytes already written, with /reg. */
static void aux_operand(buf *b, unsigned reg, size_t off)
{
    b1(b, modrm(2, reg, 6));
    b32(b, (uint32_t)off);
}

static void aux_xmm(buf *b, unsigned xmm, size_t off, int store) /* movups */
{
    rex(b, 0, xmm, 0, 0);
    b1(b, 0x0f), b1(b, store ? 0x11 : 0x10);
    aux_operand(b, xmm, off);
}

static void aux_ymm(buf *b, unsigned ymm, size_t off, int store) /* vmovdqu, ymm0..7 */
{
    b1(b, 0xc5), b1(b, 0xfe), b1(b, store ? 0x7f : 0x6f);
    aux_operand(b, ymm, off);
}

static void mxcsr_op(buf *b, unsigned sub, size_t off) /* 2 ldmxcsr, 3 stmxcsr */
{
    b1(b, 0x0f), b1(b, 0xae);
    aux_operand(b, sub, off);
}

static void aux_gpr(buf *b, unsigned gpr, size_t off, int store) /* mov r64 <-> [rsi+d32] */
{
    rex(b, 1, gpr, 0, 1);
    b1(b, store ? 0x89 : 0x8b);
    aux_operand(b, gpr, off);
}

#define XF(r) (8u + (r)) /* file register r -> xmm8+r */

static int is_fma(nan_kind k) { return k == K_FMA_P32 || k == K_FMA_P64 || k == K_FMA_S32 || k == K_FMA_S64; }

static void emit_op(buf *b, const nan_seq_step *p, const nan_seq_mutant *m)
{
    const nan_op *o = &nan_ops[p->op];
    int k = p->op;
    if (o->ymm && !is_fma(o->kind)) {
        movaps(b, 1, XF(p->a)), movaps(b, 2, XF(p->b)), movaps(b, 3, XF(p->c));
    } else {
        movaps(b, 0, XF(p->a)), movaps(b, 1, XF(p->b)), movaps(b, 2, XF(p->c));
    }
    if (o->kind == K_I2F_32 || o->kind == K_I2F_64)
        movq(b, XF(p->b), 1, 1);
    if (o->dst == D_GPR32 || o->dst == D_GPR64 || o->dst == D_SIGNMASK)
        movq(b, XF(p->a), 0, 1);
    if (m->kind == 1 && m->op == k)
        k = m->from;
    if (k >= (int)(sizeof templates / sizeof templates[0]))
        return; /* not a nan_ops.def row: nan_seq_op_poolable keeps it out of every pool */
    const uint8_t *s, *e;
    templates[k](&s, &e);
    for (; s < e; s++)
        b1(b, *s);
    if (m->kind == 2 && m->op == p->op) { /* stmxcsr; and $~0x3f; ldmxcsr */
        mxcsr_op(b, 3, offsetof(aux, tmp));
        b1(b, 0x81);
        aux_operand(b, 4, offsetof(aux, tmp));
        b32(b, ~0x3fu);
        mxcsr_op(b, 2, offsetof(aux, tmp));
    }
    if (o->dst == D_GPR32 || o->dst == D_GPR64 || o->dst == D_SIGNMASK)
        movq(b, XF(p->d), 0, 0);
    else if (o->dst != D_EFLAGS)
        movaps(b, XF(p->d), 0);
}

int nan_seq_mutant_parse(const char *spec, nan_seq_mutant *m, char *why, size_t n)
{
    memset(m, 0, sizeof *m);
    if (!spec || !*spec)
        return 0;
    char a[64] = "", c[64] = "";
    if (sscanf(spec, "copy:%63[^:]:%63s", a, c) == 2) {
        m->kind = 1, m->from = nan_op_find(a), m->op = nan_op_find(c);
        if (m->from < 0 || m->op < 0 || nan_ops[m->from].ymm != nan_ops[m->op].ymm ||
            nan_ops[m->from].dst != nan_ops[m->op].dst) {
            snprintf(why, n, "copy:%s:%s: two known ops of the same encoding and destination kind", a, c);
            return -1;
        }
        return 0;
    }
    if (sscanf(spec, "flags-lost:%63s", a) == 1) {
        m->kind = 2, m->op = nan_op_find(a);
        if (m->op < 0) {
            snprintf(why, n, "flags-lost:%s: unknown op", a);
            return -1;
        }
        return 0;
    }
    snprintf(why, n, "'%s' is not copy:FROM:TO or flags-lost:OP", spec);
    return -1;
}

int nan_seq_jit_init(char *why, size_t n)
{
    if (code)
        return 0;
    void *p = mmap(NULL, CODE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(why, n, "mmap of the code buffer: %s", strerror(errno));
        return -1;
    }
    code = p;
    return 0;
}

/* Emits the block; returns the code size (> CODE_BYTES: did not fit). */
static size_t emit(const nan_seq *s, uint64_t mask, int avx, const nan_seq_mutant *m, aux *x)
{
    buf b = {code, 0};
    size_t at[NAN_SEQ_MAX + 1], fix[NAN_SEQ_MAX];
    int fix_to[NAN_SEQ_MAX], nfix = 0;
    for (int r = 0; r < NAN_SEQ_SCRATCH; r++)
        avx ? aux_ymm(&b, (unsigned)r, offsetof(aux, scratch0) + 32u * (unsigned)r, 0)
            : aux_xmm(&b, (unsigned)r, offsetof(aux, scratch0) + 32u * (unsigned)r, 0);
    for (int r = 0; r < NAN_SEQ_REGS; r++)
        aux_xmm(&b, XF(r), offsetof(aux, reg0) + 16u * (unsigned)r, 0);
    aux_gpr(&b, 0, offsetof(aux, rax0), 0);
    aux_gpr(&b, 1, offsetof(aux, rcx0), 0);
    mxcsr_op(&b, 2, offsetof(aux, mxcsr0));
    b1(&b, 0x31), b1(&b, 0xd2); /* xor edx, edx: ZF=PF=1 before any compare */
    for (int i = 0; i < s->n; i++) {
        at[i] = b.n;
        if (!(mask >> i & 1))
            continue;
        const nan_seq_step *p = &s->step[i];
        switch (p->what) {
        case S_OP: emit_op(&b, p, m); break;
        case S_STORE: mem_move(&b, XF(p->a), p->width, 16u * p->slot + p->off, 1); break;
        case S_LOAD: mem_move(&b, XF(p->d), p->width, 16u * p->slot + p->off, 0); break;
        case S_MXCSR:
            x->mx[i] = p->mxcsr;
            mxcsr_op(&b, 2, offsetof(aux, mx) + 4u * (unsigned)i);
            break;
        default:
            b1(&b, 0x0f), b1(&b, 0x80 | (p->cond & 15));
            fix[nfix] = b.n, fix_to[nfix++] = p->target;
            b32(&b, 0);
            break;
        }
    }
    at[s->n] = b.n;
    for (int r = 0; r < NAN_SEQ_REGS; r++)
        aux_xmm(&b, XF(r), offsetof(aux, reg) + 16u * (unsigned)r, 1);
    for (int r = 0; r < NAN_SEQ_SCRATCH; r++)
        avx ? aux_ymm(&b, (unsigned)r, offsetof(aux, scratch) + 32u * (unsigned)r, 1)
            : aux_xmm(&b, (unsigned)r, offsetof(aux, scratch) + 32u * (unsigned)r, 1);
    mxcsr_op(&b, 3, offsetof(aux, mxcsr));
    aux_gpr(&b, 0, offsetof(aux, rax), 1);
    if (avx)
        b1(&b, 0xc5), b1(&b, 0xf8), b1(&b, 0x77); /* vzeroupper */
    b1(&b, 0xc3);
    /* a branch to a dropped step lands on the next step emitted (at[] of a
     * dropped step is where the next kept one starts) */
    for (int f = 0; f < nfix && b.n <= CODE_BYTES; f++) {
        int32_t rel = (int32_t)(at[fix_to[f]] - (fix[f] + 4));
        for (int i = 0; i < 4; i++)
            code[fix[f] + (size_t)i] = (uint8_t)((uint32_t)rel >> (8 * i));
    }
    return b.n;
}

int nan_seq_jit_run(const nan_seq *s, uint64_t mask, int avx, const nan_seq_mutant *m,
                    nan_seq_state *out, char *why, size_t n)
{
    static aux x;
    uint8_t mem[NAN_SEQ_MEM];
    if (!code && nan_seq_jit_init(why, n) != 0)
        return -1;
    if (mprotect(code, CODE_BYTES, PROT_READ | PROT_WRITE) != 0) {
        snprintf(why, n, "mprotect(read+write): %s", strerror(errno));
        return -1;
    }
    memset(&x, 0, sizeof x);
    memcpy(x.reg0, s->reg0, sizeof x.reg0);
    memcpy(x.scratch0, s->scratch0, sizeof x.scratch0);
    x.mxcsr0 = s->mxcsr0, x.rax0 = s->rax0, x.rcx0 = s->rcx0;
    memcpy(mem, s->mem0, sizeof mem);
    if (emit(s, mask, avx, m, &x) > CODE_BYTES) {
        snprintf(why, n, "seed %llu: the block does not fit the %d-byte buffer",
                 (unsigned long long)s->seed, CODE_BYTES);
        return -1;
    }
    if (mprotect(code, CODE_BYTES, PROT_READ | PROT_EXEC) != 0) {
        char wx[160];
        int err = errno; /* before bg_wx_why's own probes */
        snprintf(why, n, "%s", bg_wx_why(1, wx, sizeof wx) ? strerror(err) : wx);
        return -1;
    }
    uint32_t entry = nan_mxcsr_get();
    void (*fn)(uint8_t *, aux *);
    void *entry_point = code;
    memcpy(&fn, &entry_point, sizeof fn); /* object -> function pointer (POSIX dlsym idiom) */
    __asm__ volatile("" ::: "memory");
    fn(mem, &x);
    nan_mxcsr_set(entry);
    memcpy(out->reg, x.reg, sizeof out->reg);
    memcpy(out->scratch, x.scratch, sizeof out->scratch);
    memcpy(out->mem, mem, sizeof out->mem);
    out->mxcsr = x.mxcsr, out->rax = x.rax;
    return 0;
}
