/* nan_seq.c — see nan_seq.h. */
#include "nan_seq.h"

#include <stdio.h>
#include <string.h>

#include "nan_cases.h"

/* splitmix64 (Steele, Lea, Flood 2014): the seeded stream. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n) { return (unsigned)(next(s) % n); }

/* Special operands (IEEE 754-2008 classes, x86 SNaN/QNaN by the top fraction
 * bit): zeros, subnormals, the smallest normals, ones, max finite, infinities,
 * QNaNs and SNaNs of both signs with payloads, the integer-conversion limits,
 * and a few ordinary values so arithmetic also produces rounding. */
static const uint32_t f32s[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x80800000u,
    0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u,
    0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffe00001u, 0x7f800001u, 0xff800002u,
    0x7fa5a5a5u, 0xffbfffffu, 0x4f000000u, 0xcf000000u, 0x5f000000u, 0x3eaaaaabu,
    0x40490fdbu, 0xc0200000u, 0x3fc00000u, 0x00400000u,
};
static const uint64_t f64s[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
    0x0010000000000000ull, 0x8010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff8000000012345ull, 0xfffc000000000001ull,
    0x7ff0000000000001ull, 0xfff0000000000002ull, 0x7ff4a5a5a5a5a5a5ull, 0xfff7ffffffffffffull,
    0x41e0000000000000ull, 0xc1e0000000000000ull, 0x43e0000000000000ull, 0x3fd5555555555555ull,
    0x400921fb54442d18ull, 0xc004000000000000ull, 0x3ff8000000000000ull, 0x0008000000000000ull,
};
#define N_F32 (sizeof f32s / sizeof f32s[0])
#define N_F64 (sizeof f64s / sizeof f64s[0])

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* 16 bytes of special values: four f32 or two f64 lanes. */
static void fill_vec(uint64_t *s, uint8_t *p)
{
    if (below(s, 2)) {
        for (int l = 0; l < 4; l++)
            put32(p + 4 * l, f32s[below(s, N_F32)]);
    } else {
        for (int l = 0; l < 2; l++)
            put64(p + 8 * l, f64s[below(s, N_F64)]);
    }
}

int nan_seq_op_poolable(int k)
{
    /* the operand layouts nan_seq_jit.c knows (K_BIN_S32..K_FMA_S64: the
     * nan_ops.def rows of the legacy and VEX.128 tables); kinds appended later
     * (the x87 table, VEX.256, F16C) wait for the emitter to learn them;
     * P_VENDOR_NAN ops (dpps/dppd and their VEX forms): with two NaN
     * products the NaN returned is vendor-dependent (nan_ops.def) */
    return k >= 0 && k < nan_op_count && nan_ops[k].kind <= K_FMA_S64 && !(nan_ops[k].props & P_VENDOR_NAN);
}

static int is_comis(int k) { return nan_ops[k].dst == D_EFLAGS; }

/* An MXCSR value: any RC, FTZ and DAZ each half the time, every exception
 * masked, and a quarter of the time some status flags already set. */
static uint32_t random_mxcsr(uint64_t *s)
{
    uint32_t v = 0x1f80u | (uint32_t)below(s, 4) << NAN_MXCSR_RC_SHIFT;
    if (below(s, 2))
        v |= NAN_MXCSR_FTZ;
    if (below(s, 2))
        v |= NAN_MXCSR_DAZ;
    if (below(s, 4) == 0)
        v |= (uint32_t)below(s, 64);
    return v;
}

static const uint8_t conds[] = {0x7, 0x3, 0x2, 0x6, 0x4, 0x5, 0xa, 0xb}; /* a ae b be e ne p np */

static void gen_op(uint64_t *s, const nan_seq_pool *pool, int comis_only, int last, nan_seq_step *p)
{
    int k = pool->op[below(s, (unsigned)pool->n)];
    if (comis_only) {
        int tries = 0;
        while (!is_comis(k) && tries++ < 4 * pool->n)
            k = pool->op[below(s, (unsigned)pool->n)];
    }
    p->what = S_OP;
    p->op = (uint16_t)k;
    p->d = (uint8_t)below(s, NAN_SEQ_REGS);
    p->a = (uint8_t)(last >= 0 && below(s, 10) < 7 ? last : (int)below(s, NAN_SEQ_REGS));
    p->b = (uint8_t)below(s, NAN_SEQ_REGS);
    p->c = (uint8_t)below(s, NAN_SEQ_REGS);
}

void nan_seq_generate(uint64_t seed, const nan_seq_pool *pool, nan_seq *out)
{
    uint64_t st = seed ^ 0x6e616e5f73657121ull, *s = &st;
    memset(out, 0, sizeof *out);
    out->seed = seed;
    for (int r = 0; r < NAN_SEQ_REGS; r++)
        fill_vec(s, out->reg0[r]);
    for (int r = 0; r < NAN_SEQ_SCRATCH; r++) {
        fill_vec(s, out->scratch0[r]);
        for (int i = 16; i < 32; i++) /* bits 255:128: a marker per register */
            out->scratch0[r][i] = (uint8_t)(0xa0 + 16 * r + (i & 15));
    }
    for (int m = 0; m < NAN_SEQ_SLOTS; m++)
        fill_vec(s, out->mem0 + 16 * m);
    out->mxcsr0 = below(s, 2) ? 0x1f80u : random_mxcsr(s);
    out->rax0 = next(s), out->rcx0 = next(s);
    int n = NAN_SEQ_MIN + (int)below(s, NAN_SEQ_MAX - NAN_SEQ_MIN + 1), last = -1;
    for (int i = 0; i < n; i++) {
        nan_seq_step *p = &out->step[i];
        unsigned r = below(s, 100);
        if (r < 64 || (r < 72 && i + 2 < n)) {
            gen_op(s, pool, r >= 64, last, p);
            if (!is_comis(p->op))
                last = p->d;
            else if (i + 1 < n) { /* a compare that branches */
                nan_seq_step *b = &out->step[++i];
                b->what = S_BRANCH;
                b->cond = conds[below(s, sizeof conds)];
                int t = i + 2 + (int)below(s, 5);
                b->target = (uint8_t)(t > n ? n : t);
            }
        } else if (r < 84) {
            static const uint8_t widths[] = {4, 8, 16};
            p->what = r < 78 ? S_STORE : S_LOAD;
            p->width = widths[below(s, 3)];
            p->slot = (uint8_t)below(s, NAN_SEQ_SLOTS);
            p->off = (uint8_t)(p->width == 16 ? 0 : p->width * below(s, 16 / p->width));
            p->a = (uint8_t)(last >= 0 && below(s, 2) ? last : (int)below(s, NAN_SEQ_REGS));
            p->d = (uint8_t)below(s, NAN_SEQ_REGS);
            if (p->what == S_LOAD)
                last = p->d;
        } else {
            p->what = S_MXCSR;
            p->mxcsr = random_mxcsr(s);
        }
    }
    out->n = n;
}

uint64_t nan_seq_full_mask(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

void nan_seq_state_bytes(const nan_seq_state *st, uint8_t *out)
{
    uint8_t *p = out;
    memcpy(p, st->reg, sizeof st->reg), p += sizeof st->reg;
    memcpy(p, st->scratch, sizeof st->scratch), p += sizeof st->scratch;
    memcpy(p, st->mem, sizeof st->mem), p += sizeof st->mem;
    put32(p, st->mxcsr), p += 4;
    put64(p, st->rax);
}

void nan_seq_state_hex(const nan_seq_state *st, char *out)
{
    uint8_t b[NAN_SEQ_STATE_BYTES];
    nan_seq_state_bytes(st, b);
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof b; i++)
        out[2 * i] = digits[b[i] >> 4], out[2 * i + 1] = digits[b[i] & 15];
    out[NAN_SEQ_STATE_HEX] = '\0';
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

int nan_seq_state_parse(const char *hex, nan_seq_state *st)
{
    uint8_t b[NAN_SEQ_STATE_BYTES];
    if (strlen(hex) != NAN_SEQ_STATE_HEX)
        return -1;
    for (size_t i = 0; i < sizeof b; i++) {
        int h = nibble(hex[2 * i]), l = nibble(hex[2 * i + 1]);
        if (h < 0 || l < 0)
            return -1;
        b[i] = (uint8_t)(h << 4 | l);
    }
    const uint8_t *p = b;
    memcpy(st->reg, p, sizeof st->reg), p += sizeof st->reg;
    memcpy(st->scratch, p, sizeof st->scratch), p += sizeof st->scratch;
    memcpy(st->mem, p, sizeof st->mem), p += sizeof st->mem;
    st->mxcsr = 0, st->rax = 0;
    for (int i = 3; i >= 0; i--)
        st->mxcsr = st->mxcsr << 8 | p[i];
    for (int i = 11; i >= 4; i--)
        st->rax = st->rax << 8 | p[i];
    return 0;
}

uint64_t nan_seq_state_hash(const nan_seq_state *st)
{
    uint8_t b[NAN_SEQ_STATE_BYTES];
    nan_seq_state_bytes(st, b);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < sizeof b; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

void nan_seq_step_text(const nan_seq_step *p, char *buf, size_t n)
{
    static const char *const sizes[17] = {[4] = "32", [8] = "64", [16] = "128"};
    switch (p->what) {
    case S_OP: {
        const nan_op *o = &nan_ops[p->op];
        int fma = o->kind == K_FMA_P32 || o->kind == K_FMA_P64 || o->kind == K_FMA_S32 ||
                  o->kind == K_FMA_S64;
        if (o->dst == D_EFLAGS)
            snprintf(buf, n, "EFLAGS = %s xmm%d, xmm%d", o->name, 8 + p->a, 8 + p->b);
        else if (fma)
            snprintf(buf, n, "xmm%d = %s xmm%d, xmm%d, xmm%d", 8 + p->d, o->name, 8 + p->a, 8 + p->b,
                     8 + p->c);
        else
            snprintf(buf, n, "xmm%d = %s xmm%d, xmm%d", 8 + p->d, o->name, 8 + p->a, 8 + p->b);
        break;
    }
    case S_STORE:
        snprintf(buf, n, "mem[%d] = store%s xmm%d", 16 * p->slot + p->off, sizes[p->width], 8 + p->a);
        break;
    case S_LOAD:
        snprintf(buf, n, "xmm%d = load%s mem[%d]", 8 + p->d, sizes[p->width], 16 * p->slot + p->off);
        break;
    case S_MXCSR:
        snprintf(buf, n, "ldmxcsr 0x%04x (RC=%s%s%s%s)", (unsigned)p->mxcsr,
                 (const char *const[]){"nearest", "down", "up", "zero"}[(p->mxcsr >> 13) & 3],
                 (p->mxcsr & NAN_MXCSR_FTZ) ? " FTZ" : "", (p->mxcsr & NAN_MXCSR_DAZ) ? " DAZ" : "",
                 (p->mxcsr & 0x3f) ? " +status flags" : "");
        break;
    default: {
        static const char *const cc[16] = {[2] = "jb", [3] = "jae", [4] = "je", [5] = "jne",
                                           [6] = "jbe", [7] = "ja", [0xa] = "jp", [0xb] = "jnp"};
        snprintf(buf, n, "%s -> step %d", cc[p->cond & 15] ? cc[p->cond & 15] : "j?", p->target);
        break;
    }
    }
}

int nan_seq_pool_text(const nan_seq_pool *pool, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < pool->n; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? "," : "", nan_ops[pool->op[i]].name);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return 0;
}

int nan_seq_pool_parse(const char *text, nan_seq_pool *pool, char *bad, size_t nb)
{
    pool->n = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",\n");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        int k = nan_op_find(name);
        if (!nan_seq_op_poolable(k) || pool->n >= NAN_SEQ_POOL_MAX || len == 0) {
            snprintf(bad, nb, "%s", name);
            return -1;
        }
        pool->op[pool->n++] = (uint16_t)k;
        p += len;
        if (*p != ',')
            break;
        p++;
    }
    if (pool->n == 0) {
        snprintf(bad, nb, "(empty)");
        return -1;
    }
    return 0;
}
