/* nan_table.c — the inline-asm kernels, one per op of nan_ops.def (x86-64). */
#include "nan_table.h"

#include <string.h>

#include "buildgate/bg_cpu.h"

typedef struct nan_raw {
    uint64_t x0[2], x1[2], rax, rcx;
    uint32_t mxcsr;
    uint8_t cf, pf, zf, sf, of;
} nan_raw;

typedef void (*nan_kernel)(const nan_case *c, uint32_t mx, nan_raw *r);

#define NAN_CAT2(a, b) a##b
#define NAN_CAT(a, b) NAN_CAT2(a, b)

/* One function per op; __LINE__ of nan_ops.def makes the name unique. */
#define NAN_OP(name, kind, dst, lanes, feat, text)                                               \
    static void NAN_CAT(nan_k_, __LINE__)(const nan_case *c, uint32_t mx, nan_raw *r)             \
    {                                                                                            \
        __asm__ volatile("ldmxcsr %[m]\n\t"                                                      \
                         "movdqu %[a], %%xmm0\n\t"                                               \
                         "movdqu %[b], %%xmm1\n\t"                                               \
                         "movdqu %[c], %%xmm2\n\t"                                               \
                         "mov %[a0], %%rax\n\t"                                                  \
                         "mov %[b0], %%rcx\n\t"                                                  \
                         "xor %%edx, %%edx\n\t" text "\n\t"                                      \
                         "stmxcsr %[mo]\n\t"                                                     \
                         "setc %[cf]\n\t"                                                        \
                         "setp %[pf]\n\t"                                                        \
                         "setz %[zf]\n\t"                                                        \
                         "sets %[sf]\n\t"                                                        \
                         "seto %[of]\n\t"                                                        \
                         "movdqu %%xmm0, %[x0]\n\t"                                              \
                         "movdqu %%xmm1, %[x1]\n\t"                                              \
                         "mov %%rax, %[ra]\n\t"                                                  \
                         "mov %%rcx, %[rc]\n\t"                                                  \
                         : [x0] "=m"(r->x0), [x1] "=m"(r->x1), [ra] "=m"(r->rax),               \
                           [rc] "=m"(r->rcx), [mo] "=m"(r->mxcsr), [cf] "=m"(r->cf),             \
                           [pf] "=m"(r->pf), [zf] "=m"(r->zf), [sf] "=m"(r->sf), [of] "=m"(r->of) \
                         : [m] "m"(mx), [a] "m"(c->a), [b] "m"(c->b), [c] "m"(c->c),             \
                           [a0] "m"(c->a[0]), [b0] "m"(c->b[0])                                  \
                         : "rax", "rcx", "rdx", "xmm0", "xmm1", "xmm2", "cc", "memory");        \
    }
#include "nan_ops.def"
#undef NAN_OP

static const nan_kernel kernels[] = {
#define NAN_OP(name, kind, dst, lanes, feat, text) NAN_CAT(nan_k_, __LINE__),
#include "nan_ops.def"
#undef NAN_OP
};

_Static_assert(sizeof kernels / sizeof kernels[0] > 0, "op table is empty");

int nan_table_op_supported(int k)
{
    static int detected;
    static bg_cpu_features f;
    if (!detected) {
        bg_cpu_detect(&f);
        detected = 1;
    }
    switch (nan_ops[k].feat) {
    case F_SSE41: return f.sse41;
    case F_FMA: return f.fma;
    default: return 1;
    }
}

uint32_t nan_mxcsr_get(void)
{
    uint32_t v;
    __asm__ volatile("stmxcsr %0" : "=m"(v));
    return v;
}

void nan_mxcsr_set(uint32_t v) { __asm__ volatile("ldmxcsr %0" : : "m"(v)); }

void nan_table_run(uint32_t control, nan_rec *out)
{
    uint32_t mx = control & ~0x3fu;
    for (int k = 0; k < nan_op_count; k++) {
        int n = nan_case_count(k), ok = nan_table_op_supported(k);
        for (int i = 0; i < n; i++, out++) {
            memset(out, 0, sizeof *out);
            if (!ok)
                continue;
            nan_case c;
            nan_raw r;
            nan_case_get(k, i, &c);
            kernels[k](&c, mx, &r);
            int gpr_dst = nan_ops[k].dst == D_GPR32 || nan_ops[k].dst == D_GPR64;
            int gpr_src = nan_ops[k].kind == K_I2F_32 || nan_ops[k].kind == K_I2F_64;
            out->d[0] = gpr_dst ? r.rax : r.x0[0];
            out->d[1] = gpr_dst ? 0 : r.x0[1];
            out->s[0] = gpr_src ? r.rcx : r.x1[0];
            out->s[1] = gpr_src ? 0 : r.x1[1];
            out->flags = (uint8_t)(r.mxcsr & 0x3f);
            out->eflags = (uint8_t)(r.cf | r.pf << 1 | r.zf << 2 | r.sf << 3 | r.of << 4);
        }
    }
    nan_mxcsr_set(mx);
}
