/* nan_x87_table.c — the x87 kernels, one per row of x87_ops.def (guest,
 * x86-64; async-signal-safe like nan_table.c). */
#include "nan_x87.h"

#include <stddef.h>

typedef struct x87_in {
    uint64_t a[2], b[2]; /* 80-bit operands (16-byte slots) */
    uint32_t mx; /* MXCSR while the op runs: the other RC (nan_x87_mxcsr_during) */
    uint16_t cw;
} x87_in;

typedef struct x87_raw {
    uint64_t st0[2]; /* FSTP m80 of ST0 after the op */
    uint64_t st1[2]; /* then of ST1 (XT_ST1 rows record it) */
    uint64_t slot;   /* the store slot (marker before) */
    uint16_t sw, cw;
    uint8_t cf, pf, zf, sf, of;
} x87_raw;

typedef void (*x87_kernel)(const x87_in *c, x87_raw *r);

#define NAN_CAT2(a, b) a##b
#define NAN_CAT(a, b) NAN_CAT2(a, b)

/* FNINIT (empty stack, clear status), FLDCW, LDMXCSR (the other RC, written
 * last: a translator whose one host mode follows the latest write shows),
 * FLD b, FLD a, the op; then the flags by SETcc, FNSTSW / FNSTCW, ST0 and ST1
 * stored whole, FNINIT (empty stack). */
#define NAN_XOP(name, kind, dst, mem, pc, pc_rule, traits, vendor_bits, text)                    \
    static void NAN_CAT(nan_x_, __LINE__)(const x87_in *c, x87_raw *r)                           \
    {                                                                                            \
        __asm__ volatile("fninit\n\t"                                                            \
                         "fldcw %c[icw](%[cp])\n\t"                                              \
                         "ldmxcsr %c[imx](%[cp])\n\t"                                            \
                         "fldt %c[ib](%[cp])\n\t"                                                \
                         "fldt %c[ia](%[cp])\n\t"                                                \
                         "xor %%edx, %%edx\n\t" text "\n\t"                                      \
                         "setc %c[ocf](%[rp])\n\t"                                               \
                         "setp %c[opf](%[rp])\n\t"                                               \
                         "setz %c[ozf](%[rp])\n\t"                                               \
                         "sets %c[osf](%[rp])\n\t"                                               \
                         "seto %c[oof](%[rp])\n\t"                                               \
                         "fnstsw %c[osw](%[rp])\n\t"                                             \
                         "fnstcw %c[ocw](%[rp])\n\t"                                             \
                         "fstpt %c[ost](%[rp])\n\t"                                              \
                         "fstpt %c[ost1](%[rp])\n\t"                                             \
                         "fninit\n\t"                                                            \
                         :                                                                       \
                         : [cp] "r"(c), [rp] "r"(r), [mp] "r"(&r->slot),                         \
                           [ia] "i"(offsetof(x87_in, a)), [ib] "i"(offsetof(x87_in, b)),         \
                           [icw] "i"(offsetof(x87_in, cw)), [ocf] "i"(offsetof(x87_raw, cf)),    \
                           [imx] "i"(offsetof(x87_in, mx)), [ost1] "i"(offsetof(x87_raw, st1)),  \
                           [opf] "i"(offsetof(x87_raw, pf)), [ozf] "i"(offsetof(x87_raw, zf)),   \
                           [osf] "i"(offsetof(x87_raw, sf)), [oof] "i"(offsetof(x87_raw, of)),   \
                           [osw] "i"(offsetof(x87_raw, sw)), [ocw] "i"(offsetof(x87_raw, cw)),   \
                           [ost] "i"(offsetof(x87_raw, st0))                                     \
                         : "rdx", "cc", "memory", "st", "st(1)", "st(2)", "st(3)", "st(4)",      \
                           "st(5)", "st(6)", "st(7)");                                           \
    }
#include "x87_ops.def"
#undef NAN_XOP

static const x87_kernel kernels[] = {
#define NAN_XOP(name, kind, dst, mem, pc, pc_rule, traits, vendor_bits, text) NAN_CAT(nan_x_, __LINE__),
#include "x87_ops.def"
#undef NAN_XOP
};

uint16_t nan_x87_cw_get(void)
{
    uint16_t cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    return cw;
}

void nan_x87_cw_set(uint16_t cw) { __asm__ volatile("fldcw %0" : : "m"(cw)); }

void nan_x87_run(int k, const nan_case *c, uint32_t mx, nan_rec *out)
{
    int first = nan_op_count - (int)(sizeof kernels / sizeof kernels[0]);
    x87_in in = {{c->a[0], c->a[1]}, {c->b[0], c->b[1]}, nan_x87_mxcsr_during(mx), nan_x87_cw(k, mx)};
    x87_raw r = {{0, 0}, {0, 0}, NAN_X87_SLOT_MARK, 0, 0, 0, 0, 0, 0, 0};
    uint16_t saved = nan_x87_cw_get();
    uint32_t saved_mx;
    __asm__ volatile("stmxcsr %0" : "=m"(saved_mx));
    kernels[k - first](&in, &r);
    __asm__ volatile("ldmxcsr %0" : : "m"(saved_mx));
    nan_x87_cw_set(saved);
    if (nan_ops[k].dst == D_X87)
        out->d[0] = r.st0[0], out->d[1] = r.st0[1] & 0xffff;
    else
        out->d[0] = r.slot, out->d[1] = 0;
    out->s[0] = (uint64_t)r.sw | (uint64_t)(uint16_t)(r.cw ^ in.cw) << 16; /* CW bits the op changed */
    out->s[1] = 0;
    if (nan_x87_op_of(k)->traits & XT_ST1)
        out->s[0] |= (r.st1[1] & 0xffff) << 32, out->s[1] = r.st1[0];
    out->u[0] = out->u[1] = 0;
    out->flags = (uint8_t)(r.sw & 0x3f);
    out->eflags = (uint8_t)(r.cf | r.pf << 1 | r.zf << 2 | r.sf << 3 | r.of << 4);
}
