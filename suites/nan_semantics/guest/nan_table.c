/* nan_table.c — the inline-asm kernels, one per op of nan_ops.def (x86-64). */
#include "nan_table.h"

#include <stddef.h>
#include <string.h>

#include "buildgate/bg_cpu.h"
#include "nan_x87.h"

typedef struct nan_raw {
    uint64_t x0[4], x1[2], rax, rcx; /* x0[2..3]: ymm0 bits 255:128 (NAN_VOP kernels only) */
    uint32_t mxcsr;
    uint8_t cf, pf, zf, sf, of;
} nan_raw;

typedef void (*nan_kernel)(const nan_case *c, uint32_t mx, nan_raw *r);

#define NAN_CAT2(a, b) a##b
#define NAN_CAT(a, b) NAN_CAT2(a, b)

/* After the op, both kernels: STMXCSR and the five flags by SETcc into the
 * record (operands: NAN_STATE_OPERANDS). */
#define NAN_STORE_STATE                                                                          \
    "stmxcsr %c[omx](%[rp])\n\t"                                                                \
    "setc %c[ocf](%[rp])\n\t"                                                                   \
    "setp %c[opf](%[rp])\n\t"                                                                   \
    "setz %c[ozf](%[rp])\n\t"                                                                   \
    "sets %c[osf](%[rp])\n\t"                                                                   \
    "seto %c[oof](%[rp])\n\t"
#define NAN_STATE_OPERANDS                                                                       \
    [m] "m"(mx), [rp] "r"(r), [omx] "i"(offsetof(nan_raw, mxcsr)), [ocf] "i"(offsetof(nan_raw, cf)), \
        [opf] "i"(offsetof(nan_raw, pf)), [ozf] "i"(offsetof(nan_raw, zf)),                     \
        [osf] "i"(offsetof(nan_raw, sf)), [oof] "i"(offsetof(nan_raw, of)),                     \
        [ox0] "i"(offsetof(nan_raw, x0)), [ox1] "i"(offsetof(nan_raw, x1))

/* One function per op; __LINE__ of nan_ops.def makes the name unique.  The
 * case and the result are reached through two pointer registers plus
 * constant offsets (%c: the bare number), not one memory operand per field:
 * at -O0 every "m" operand takes an address register of its own and, with
 * rax/rcx/rdx clobbered, GCC runs out of them ("impossible constraints"). */
#define NAN_OP(name, kind, dst, lanes, feat, props, text)                                               \
    static void NAN_CAT(nan_k_, __LINE__)(const nan_case *c, uint32_t mx, nan_raw *r)             \
    {                                                                                            \
        __asm__ volatile("ldmxcsr %[m]\n\t"                                                      \
                         "movdqu %c[oa](%[cp]), %%xmm0\n\t"                                      \
                         "movdqu %c[ob](%[cp]), %%xmm1\n\t"                                      \
                         "movdqu %c[oc](%[cp]), %%xmm2\n\t"                                      \
                         "mov %c[oa](%[cp]), %%rax\n\t"                                          \
                         "mov %c[ob](%[cp]), %%rcx\n\t"                                          \
                         "xor %%edx, %%edx\n\t" text "\n\t" NAN_STORE_STATE                      \
                         "movdqu %%xmm0, %c[ox0](%[rp])\n\t"                                     \
                         "movdqu %%xmm1, %c[ox1](%[rp])\n\t"                                     \
                         "mov %%rax, %c[ora](%[rp])\n\t"                                         \
                         "mov %%rcx, %c[orc](%[rp])\n\t"                                         \
                         :                                                                       \
                         : NAN_STATE_OPERANDS, [cp] "r"(c), [oa] "i"(offsetof(nan_case, a)),     \
                           [ob] "i"(offsetof(nan_case, b)), [oc] "i"(offsetof(nan_case, c)),     \
                           [ora] "i"(offsetof(nan_raw, rax)), [orc] "i"(offsetof(nan_raw, rcx)) \
                         : "rax", "rcx", "rdx", "xmm0", "xmm1", "xmm2", "cc", "memory");        \
    }
/* VEX kernels (NAN_VOP; NAN_YOP rows, VEX.256 and F16C, use them too:
 * nan_ops.def defaults NAN_YOP to NAN_VOP): ymm0-ymm3 loaded whole from nan_vex_images (so bits
 * 255:128 hold markers), rax = the old-destination marker (GPR destinations:
 * a 32-bit write must zero-extend it), rcx = b[0] (vcvtsi2ss/sd's integer),
 * the op, then ymm0, rax and rcx stored; vzeroupper last, as compiled AVX
 * code does before returning to SSE code. */
typedef struct nan_vex_in {
    uint64_t img[4][4], rax, rcx;
} nan_vex_in;
#define NAN_VOP(name, kind, dst, lanes, feat, props, text)                                              \
    static void NAN_CAT(nan_k_, __LINE__)(const nan_case *c, uint32_t mx, nan_raw *r)             \
    {                                                                                            \
        nan_vex_in in = {.rax = nan_vex_dst_mark[0], .rcx = c->b[0]};                            \
        nan_vex_images(kind, c, in.img);                                                         \
        __asm__ volatile("ldmxcsr %[m]\n\t"                                                      \
                         "vmovdqu 0(%[ip]), %%ymm0\n\t"                                          \
                         "vmovdqu 32(%[ip]), %%ymm1\n\t"                                         \
                         "vmovdqu 64(%[ip]), %%ymm2\n\t"                                         \
                         "vmovdqu 96(%[ip]), %%ymm3\n\t"                                         \
                         "mov %c[ira](%[ip]), %%rax\n\t"                                         \
                         "mov %c[irc](%[ip]), %%rcx\n\t"                                         \
                         "xor %%edx, %%edx\n\t" text "\n\t" NAN_STORE_STATE                      \
                         "vmovdqu %%ymm0, %c[ox0](%[rp])\n\t"                                    \
                         "vmovdqu %%xmm1, %c[ox1](%[rp])\n\t"                                    \
                         "mov %%rax, %c[ora](%[rp])\n\t"                                         \
                         "mov %%rcx, %c[orc](%[rp])\n\t"                                         \
                         "vzeroupper\n\t"                                                        \
                         :                                                                       \
                         : NAN_STATE_OPERANDS, [ip] "r"(&in), [ira] "i"(offsetof(nan_vex_in, rax)), \
                           [irc] "i"(offsetof(nan_vex_in, rcx)), [ora] "i"(offsetof(nan_raw, rax)), \
                           [orc] "i"(offsetof(nan_raw, rcx))                                     \
                         : "rax", "rcx", "rdx", "xmm0", "xmm1", "xmm2", "xmm3", "cc", "memory"); \
    }
#include "nan_ops.def"
#undef NAN_OP
#undef NAN_VOP

static const nan_kernel kernels[] = {
#define NAN_OP(name, kind, dst, lanes, feat, props, text) NAN_CAT(nan_k_, __LINE__),
#define NAN_VOP NAN_OP
#include "nan_ops.def"
#undef NAN_OP
#undef NAN_VOP
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
    case F_AVX: return f.avx;
    case F_F16C: return f.f16c;
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

/* The record of op k from a kernel's raw state. */
static void to_record(int k, const nan_raw *r, nan_rec *out)
{
    int gpr_dst = nan_ops[k].dst == D_GPR32 || nan_ops[k].dst == D_GPR64 || nan_ops[k].dst == D_SIGNMASK;
    int gpr_src = nan_ops[k].kind == K_I2F_32 || nan_ops[k].kind == K_I2F_64;
    if (nan_ops[k].ymm)
        out->u[0] = r->x0[2], out->u[1] = r->x0[3];
    out->d[0] = gpr_dst ? r->rax : r->x0[0];
    out->d[1] = gpr_dst ? 0 : r->x0[1];
    out->s[0] = gpr_src ? r->rcx : r->x1[0];
    out->s[1] = gpr_src ? 0 : r->x1[1];
    out->flags = (uint8_t)(r->mxcsr & 0x3f);
    out->eflags = (uint8_t)(r->cf | r->pf << 1 | r->zf << 2 | r->sf << 3 | r->of << 4);
}

void nan_table_run(uint32_t control, nan_rec *out)
{
    uint32_t mx = control & ~0x3fu;
    uint16_t x87_saved = nan_x87_cw_get();
    nan_x87_cw_set(nan_x87_cw_during_sse(mx)); /* the SSE ops run with the other x87 RC (nan_x87.h) */
    for (int k = 0; k < nan_op_count; k++) {
        int n = nan_case_count(k), ok = nan_table_op_supported(k);
        for (int i = 0; i < n; i++, out++) {
            memset(out, 0, sizeof *out);
            if (!ok)
                continue;
            nan_case c;
            nan_raw r;
            nan_case_get(k, i, &c);
            if (nan_ops[k].x87) { /* x87_ops.def rows: nan_x87_table.c */
                nan_x87_run(k, &c, mx, out);
                continue;
            }
            kernels[k](&c, mx, &r);
            to_record(k, &r, out);
        }
    }
    nan_mxcsr_set(mx);
    nan_x87_cw_set(x87_saved);
}

/* The NAN_VOP kernel with the instruction called instead of inlined: the
 * same register images, MXCSR and EFLAGS set-up and the same stores; the
 * red zone stepped over with LEA (it leaves EFLAGS alone), CALL and RET
 * change neither EFLAGS nor MXCSR. */
static void vex_code_kernel(const nan_case *c, const void *code, nan_kind kind, uint32_t mx, nan_raw *r)
{
    nan_vex_in in = {.rax = nan_vex_dst_mark[0], .rcx = c->b[0]};
    nan_vex_images(kind, c, in.img);
    __asm__ volatile("ldmxcsr %[m]\n\t"
                     "vmovdqu 0(%[ip]), %%ymm0\n\t"
                     "vmovdqu 32(%[ip]), %%ymm1\n\t"
                     "vmovdqu 64(%[ip]), %%ymm2\n\t"
                     "vmovdqu 96(%[ip]), %%ymm3\n\t"
                     "mov %c[ira](%[ip]), %%rax\n\t"
                     "mov %c[irc](%[ip]), %%rcx\n\t"
                     "xor %%edx, %%edx\n\t"
                     "lea -128(%%rsp), %%rsp\n\t"
                     "call *%[fn]\n\t"
                     "lea 128(%%rsp), %%rsp\n\t" NAN_STORE_STATE
                     "vmovdqu %%ymm0, %c[ox0](%[rp])\n\t"
                     "vmovdqu %%xmm1, %c[ox1](%[rp])\n\t"
                     "mov %%rax, %c[ora](%[rp])\n\t"
                     "mov %%rcx, %c[orc](%[rp])\n\t"
                     "vzeroupper\n\t"
                     :
                     : NAN_STATE_OPERANDS, [ip] "r"(&in), [fn] "r"(code), [ira] "i"(offsetof(nan_vex_in, rax)),
                       [irc] "i"(offsetof(nan_vex_in, rcx)), [ora] "i"(offsetof(nan_raw, rax)),
                       [orc] "i"(offsetof(nan_raw, rcx))
                     : "rax", "rcx", "rdx", "xmm0", "xmm1", "xmm2", "xmm3", "cc", "memory");
}

void nan_table_run_code(int k, const void *code, uint32_t control, nan_rec *out)
{
    uint32_t mx = control & ~0x3fu;
    for (int i = 0; i < nan_case_count(k); i++, out++) {
        nan_case c;
        nan_raw r;
        memset(out, 0, sizeof *out);
        nan_case_get(k, i, &c);
        vex_code_kernel(&c, code, nan_ops[k].kind, mx, &r);
        to_record(k, &r, out);
    }
    nan_mxcsr_set(mx);
}
