/* nan_seq_shrink.h — delta debugging (Zeller and Hildebrandt, "Simplifying
 * and Isolating Failure-Inducing Input", IEEE TSE 28(2), 2002: ddmin) of
 * generated blocks, many at once.
 *
 * Each shrink starts from a failing keep-mask and ends with a 1-minimal one:
 * removing any single remaining step makes the failure go away.  ddmin's
 * rounds are batched: a round proposes every subset and complement of the
 * current partition of every unfinished shrink, the caller runs them all
 * (one probe run under the runner, one under the reference) and answers
 * which fail; the round then takes the first failing subset (granularity 2),
 * else the first failing complement (granularity - 1), else doubles the
 * granularity, as ddmin does sequentially.  The result is the one sequential
 * ddmin reaches; only the number of tests differs.
 */
#ifndef NAN_SEQ_SHRINK_H
#define NAN_SEQ_SHRINK_H

#include <stdint.h>

#define NAN_SEQ_SHRINK_CAND 130 /* candidates per shrink and round: 2 x 64 + 2 */

typedef struct nan_seq_shrink {
    uint64_t seed;
    uint64_t mask;    /* current failing mask; the result when done */
    int gran;         /* ddmin's n */
    int done;
    int rounds, tests;
    uint64_t cand[NAN_SEQ_SHRINK_CAND];
    int ncand;
} nan_seq_shrink;

/* Starts a shrink of seed from failing mask. */
void nan_seq_shrink_start(nan_seq_shrink *s, uint64_t seed, uint64_t mask);

/* Fills s->cand[0..ncand-1] with this round's candidates; 0 when s is done. */
int nan_seq_shrink_propose(nan_seq_shrink *s);

/* Takes the round's answers: fails[i] = 1 when candidate i still fails. */
void nan_seq_shrink_answer(nan_seq_shrink *s, const int *fails);

/* Steps in a mask. */
int nan_seq_mask_count(uint64_t mask);

#endif
