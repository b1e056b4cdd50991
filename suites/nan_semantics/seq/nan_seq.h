/* nan_seq.h — generated instruction sequences (issue 13 item 3): the
 * deterministic generator, the final state a block leaves, and the request
 * the checker hands the guest.  Shared by the guest (nan-probe --sequences,
 * which emits and runs the blocks: nan_seq_jit.h) and the checker (nan-seq,
 * which compares final states and shrinks a deviating block), so both agree
 * on what block (seed, keep-mask) is.  libc only (the guest links no cJSON).
 *
 * A block is 8..64 steps drawn from a pool of nan_ops.def ops (the pool is
 * stored with the fixture, so ops appended to the table later do not change
 * the blocks of an existing fixture).  Register dataflow: eight file
 * registers r0..r7 (xmm8..xmm15 when run), each op reads one to three of
 * them and writes one, the first source is usually the last result.  Steps:
 *   op      rD = OP(rA, rB, rC) through the op's template registers
 *           (nan_ops.def: legacy xmm0 = rA, xmm1 = rB, xmm2 = rC, rax = rA,
 *           rcx = rB; VEX: ymm1 = rA, ymm2 = rB, ymm3 = rC, ymm0 = the old
 *           destination; VEX FMA: ymm0 = rA, ymm1 = rB, ymm2 = rC); result
 *           xmm0 -> rD (128 bits), or rax -> rD (movq, bits 127:64 zeroed),
 *           or EFLAGS (comis: no register written)
 *   store   bytes 0..w-1 of rA -> memory slot S at byte offset O (w 4, 8, 16;
 *           movss / movsd / movups)
 *   load    slot S at O -> rD (movss / movsd zero the rest of rD, movups)
 *   mxcsr   LDMXCSR v: a rounding mode, FTZ, DAZ and sometimes status flags;
 *           every exception stays masked (an unmasked one traps: the `trap`
 *           context covers that, not sequences)
 *   branch  Jcc forward to step T (after a comis: the flags of NaN compares
 *           decide which steps run)
 * MXCSR is loaded once at block entry and never reset between steps, so the
 * status flags accumulate over the block (Intel SDM Vol.1 10.2.3.1).
 *
 * Sub-blocks (the shrinker's candidates): the same block with only the steps
 * whose bit is set in a 64-bit keep-mask; a branch to a dropped step goes to
 * the next kept step (or the end).
 */
#ifndef NAN_SEQ_H
#define NAN_SEQ_H

#include <stddef.h>
#include <stdint.h>

#define NAN_SEQ_MIN 8
#define NAN_SEQ_MAX 64
#define NAN_SEQ_REGS 8     /* file registers r0..r7 = xmm8..xmm15 */
#define NAN_SEQ_SCRATCH 4  /* template registers ymm0..ymm3 */
#define NAN_SEQ_SLOTS 8    /* 16-byte memory slots */
#define NAN_SEQ_MEM (NAN_SEQ_SLOTS * 16)
#define NAN_SEQ_POOL_MAX 512

typedef enum nan_seq_what { S_OP, S_STORE, S_LOAD, S_MXCSR, S_BRANCH } nan_seq_what;

typedef struct nan_seq_step {
    uint8_t what;      /* nan_seq_what */
    uint8_t d, a, b, c; /* file registers (op: dst, sources; store: a; load: d) */
    uint8_t slot, off, width; /* store/load: slot, byte offset in it, bytes */
    uint8_t cond;      /* branch: x86 condition code (0x7 ja, 0x2 jb, 0x4 je, 0xa jp ...) */
    uint8_t target;    /* branch: first step index run when taken (n = the end) */
    uint16_t op;       /* op: nan_ops index */
    uint32_t mxcsr;    /* mxcsr: the value loaded */
} nan_seq_step;

typedef struct nan_seq {
    uint64_t seed;
    int n;                                  /* steps */
    nan_seq_step step[NAN_SEQ_MAX];
    uint8_t reg0[NAN_SEQ_REGS][16];         /* r0..r7 at entry */
    uint8_t scratch0[NAN_SEQ_SCRATCH][32];  /* ymm0..ymm3 at entry (bits 255:128: markers) */
    uint8_t mem0[NAN_SEQ_MEM];              /* memory at entry */
    uint32_t mxcsr0;                        /* MXCSR at entry */
    uint64_t rax0, rcx0;
} nan_seq;

/* The final state of a block: what the fixture stores (as hex, field order
 * as declared, integers little-endian) and the hash of those bytes.
 * scratch: ymm0..ymm3 whole on an AVX guest, else the low 128 bits and zeros. */
typedef struct nan_seq_state {
    uint8_t reg[NAN_SEQ_REGS][16];
    uint8_t scratch[NAN_SEQ_SCRATCH][32];
    uint8_t mem[NAN_SEQ_MEM];
    uint32_t mxcsr;
    uint64_t rax;
} nan_seq_state;

#define NAN_SEQ_STATE_BYTES (NAN_SEQ_REGS * 16 + NAN_SEQ_SCRATCH * 32 + NAN_SEQ_MEM + 4 + 8)
#define NAN_SEQ_STATE_HEX (2 * NAN_SEQ_STATE_BYTES)

/* The op pool: indices into nan_ops[], in the fixture's order. */
typedef struct nan_seq_pool {
    int n;
    uint16_t op[NAN_SEQ_POOL_MAX];
} nan_seq_pool;

/* 1 when op k may be drawn into a pool: an op of the layouts the emitter
 * knows (K_BIN_S32..K_FMA_S64) but dpps/dppd, whose NaN with two NaN products
 * differs between vendors (nan_ops.def comment). */
int nan_seq_op_poolable(int k);

/* Fills block s for seed from pool (pool->n > 0). Deterministic: the same
 * seed and pool give the same block on every host. */
void nan_seq_generate(uint64_t seed, const nan_seq_pool *pool, nan_seq *s);

/* All steps: the keep-mask of an n-step block. */
uint64_t nan_seq_full_mask(int n);

/* State <-> bytes (NAN_SEQ_STATE_BYTES) <-> hex (NAN_SEQ_STATE_HEX digits + NUL). */
void nan_seq_state_bytes(const nan_seq_state *st, uint8_t *out);
void nan_seq_state_hex(const nan_seq_state *st, char *out);
/* 0 on success, -1 when hex is not NAN_SEQ_STATE_HEX hex digits. */
int nan_seq_state_parse(const char *hex, nan_seq_state *st);

/* FNV-1a 64 of the state bytes. */
uint64_t nan_seq_state_hash(const nan_seq_state *st);

/* One step as text ("xmm9 = addps xmm8, xmm11"), for reports. */
void nan_seq_step_text(const nan_seq_step *p, char *buf, size_t n);

/* Pool as text: op names comma-separated (buf[n]; returns -1 when it does not
 * fit), and back: -1 with the bad name in bad[nb] when a name is unknown or
 * not poolable. */
int nan_seq_pool_text(const nan_seq_pool *pool, char *buf, size_t n);
int nan_seq_pool_parse(const char *text, nan_seq_pool *pool, char *bad, size_t nb);

#endif
