/* nan_seq_diff.h — how two final states of a block differ, and a shrunk
 * block as text (the report's reproducer).
 *
 * A deviation is classified by the parts of the state that differ; each part
 * is one deviation group of rule "sequence-state" with the part as detail
 * (known lines: docs/nan_semantics.md, Generated sequences):
 *   registers       xmm8..xmm15 (the file registers the steps compute in)
 *   scratch         ymm0..ymm3 bits 127:0 (the template registers)
 *   ymm-upper       ymm0..ymm3 bits 255:128 (VEX.128 zeroing)
 *   memory          the 128-byte scratch memory
 *   mxcsr-flags     MXCSR bits 5:0, accumulated over the block
 *   mxcsr-control   MXCSR bits 15:6
 *   rax             the integer result register
 */
#ifndef NAN_SEQ_DIFF_H
#define NAN_SEQ_DIFF_H

#include <stddef.h>

#include "nan_seq.h"

#define NAN_SEQ_PARTS 7

/* Part names in bit order (bit p of a diff mask = part p). */
extern const char *const nan_seq_part_names[NAN_SEQ_PARTS];

/* Bit mask of the parts in which e and o differ (0: equal). */
unsigned nan_seq_diff(const nan_seq_state *e, const nan_seq_state *o);

/* The differing fields of part p as "xmm9 expected 7fc00000... observed
 * ffc00000...; ..." (128-bit values high lane first) into buf[n]. */
void nan_seq_diff_text(int p, const nan_seq_state *e, const nan_seq_state *o, char *buf, size_t n);

/* One side of it: NAN_SEQ_EXPECTED "xmm9 7fc00000...; ..." (e's values) or
 * NAN_SEQ_OBSERVED (o's), for a check's expected / observed, which the
 * report labels itself; NAN_SEQ_BOTH is nan_seq_diff_text. */
enum { NAN_SEQ_BOTH, NAN_SEQ_EXPECTED, NAN_SEQ_OBSERVED };
void nan_seq_diff_side(int p, const nan_seq_state *e, const nan_seq_state *o, int side, char *buf, size_t n);

/* The block's steps in mask, one per line ("  step 4: xmm9 = minps xmm8,
 * xmm11"), after the entry values the kept steps read (registers, memory
 * slots, MXCSR), into buf[n]. */
void nan_seq_block_text(const nan_seq *s, uint64_t mask, char *buf, size_t n);

#endif
