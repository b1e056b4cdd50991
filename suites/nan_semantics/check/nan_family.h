/* nan_family.h — op families: named sets of ops of nan_ops.def, so a known
 * deviation line (nan_known.h) can say "minmax-ps" instead of listing ops.
 *
 * A family is "<class>-<shape>", both computed from the op table, never a
 * hand list of ops:
 *   class  the op's nan_class, the props column of nan_ops.def (nan_cases.h:
 *          C_MINMAX -> minmax, C_ARITH -> arith, C_CMP -> cmp, C_COMI -> comi,
 *          C_SQRT, C_ROUND, C_CVT, C_HADD, C_FMA, C_F16C...); a row of class
 *          C_NONE (the x87 rows until x87_ops.def carries the column) -> the
 *          leading letters of its name
 *   shape  from the op's case kind (nan_cases.h): ss (scalar f32), sd (scalar
 *          f64), ps (packed f32), pd (packed f64), si (integer source);
 *          VEX.256 kinds ps256 / pd256 (by source elements); F16C ph2ps,
 *          ph2ps256, ps2ph, ps2ph256 (xmm / ymm forms)
 * e.g. minmax-ps = {minps, maxps}, arith-sd = {addsd, subsd, mulsd, divsd},
 * fma-pd = the twelve vf*pd ops, arith-ps256 = vadd/vsub/vmul/vdiv ps.256,
 * f16c-ps2ph = vcvtps2ph.0 .. vcvtps2ph.4.  A family means every op of nan_ops.def of
 * that class and shape, including ops added to the table later.
 */
#ifndef NAN_FAMILY_H
#define NAN_FAMILY_H

#include <stddef.h>

/* The family of op k (nan_ops index) into buf ("" when k is out of range). */
void nan_family_of(int k, char *buf, size_t n);

/* 1 when name is the family of at least one op. */
int nan_family_known(const char *name);

/* 1 when op `op` (an op name) belongs to family `family`. */
int nan_family_has(const char *family, const char *op);

/* Writes the comma-separated items (op names or other item names; each once,
 * any order) as a sorted comma list into out, replacing every complete
 * family (all its ops present) by the family name.  Returns 0, or -1 when
 * out is too small (out then holds a truncated list). */
int nan_family_compress(const char *const *items, int n_items, char *out, size_t n);

#endif
