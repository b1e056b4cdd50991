/* nan_seq_jit.h — running a generated block (nan_seq.h) as straight-line
 * x86-64 machine code (guest side only).
 *
 * Each block (or sub-block: the steps of a keep-mask) is emitted into one
 * executable buffer and called once, so a translator sees one straight-line
 * region with forward branches: its batches, deferred NaN checks and the MXCSR
 * it carries between instructions are what runs.  The op itself is the byte
 * template the assembler made from the op's nan_ops.def text (the same
 * instruction nan_table.c runs, copied out of this file's text section);
 * around it: movaps between the file registers (xmm8..xmm15) and the
 * template registers, movq for the integer ones, movss/movsd/movups to and
 * from the scratch memory ([rdi]), LDMXCSR, Jcc rel32.  The buffer is mapped
 * read+write, filled, switched to read+execute (mprotect, W^X: bg_wx.h) and
 * called; the guest stays an ordinary x86-64 program, which is what
 * Rosetta 2, QEMU and valgrind translate.
 */
#ifndef NAN_SEQ_JIT_H
#define NAN_SEQ_JIT_H

#include <stddef.h>
#include <stdint.h>

#include "nan_seq.h"

/* A deliberate translator bug for the self-tests (env NAN_SEQ_MUTANT, set
 * only by runners/seq-mutant-runner.sh; docs/nan_semantics.md):
 *   copy:FROM:TO     op TO runs FROM's instruction (minps computed as maxps)
 *   flags-lost:OP    the MXCSR status flags are cleared after OP (a deferred
 *                    NaN/flag check that drops the batch's sticky flags) */
typedef struct nan_seq_mutant {
    int kind;         /* 0 none, 1 copy, 2 flags-lost */
    int from, op;     /* nan_ops indices: copy FROM -> op, flags-lost op */
} nan_seq_mutant;

/* Parses spec (NULL or "" = none) into m; -1 with why[n] when malformed. */
int nan_seq_mutant_parse(const char *spec, nan_seq_mutant *m, char *why, size_t n);

/* The machine code the assembler made from op k's nan_ops.def text (a row
 * of nan_ops.def, not x87_ops.def): [*start, *end).  0, or -1 when k has no
 * template. */
int nan_op_template(int k, const uint8_t **start, const uint8_t **end);

/* Maps the code buffer; 0, or -1 with why[n] (mmap refused). */
int nan_seq_jit_init(char *why, size_t n);

/* Emits the steps of s in mask, runs them and fills out.  avx: the block
 * loads and stores ymm0..ymm3 whole (the pool holds VEX ops; the CPU must
 * have AVX).  MXCSR is restored to its value at the call.  0, or -1 with
 * why[n] (the buffer cannot be made executable: W^X policy). */
int nan_seq_jit_run(const nan_seq *s, uint64_t mask, int avx, const nan_seq_mutant *m,
                    nan_seq_state *out, char *why, size_t n);

#endif
