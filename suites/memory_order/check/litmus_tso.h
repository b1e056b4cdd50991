/* litmus_tso.h — the x86-TSO outcomes of a litmus test.
 *
 * The operational x86-TSO abstract machine of Sewell, Sarkar, Owens, Zappa
 * Nardelli, Myreen, "x86-TSO: A Rigorous and Usable Programmer's Model for x86
 * Multiprocessors", CACM 53(7), 2010 (section 3, Fig. 3):
 *   - each thread has a FIFO store buffer; a store (ST) enters its thread's
 *     buffer, not memory;
 *   - a load (LD) reads the newest entry for its location in its own thread's
 *     buffer, else shared memory;
 *   - at any time the oldest entry of any non-empty buffer may be written to
 *     memory (one step; the nondeterminism that makes SB's outcome reachable);
 *   - MFENCE (FENCE) proceeds only when its thread's buffer is empty;
 *   - the final state is taken once every op has run and every buffer has
 *     drained.
 *   - a locked instruction (XCHG, LOCK ADD/XADD/CMPXCHG: litmus_catalog.h)
 *     proceeds only when its thread's buffer is empty and reads and writes
 *     memory in one step (the paper's LOCK'd instructions: atomic, and a
 *     full fence).
 * An op of any other kind is refused, not guessed at.  Every interleaving of
 * ops and flushes is enumerated, depth first: at most 4 threads x 4 ops.
 *
 * Built with LITMUS_TSO_MUTANT_EAGER_FLUSH, a store goes to memory at once
 * (buffers never hold anything: sequential consistency), the mutant that the
 * self-test memory_order.selftest.tso-mutant-eager-flush expects the unit test
 * to catch. */
#ifndef LITMUS_TSO_H
#define LITMUS_TSO_H

#include <stddef.h>

#include "litmus_catalog.h"

/* reachable[o] = 1 for each x86-TSO-reachable outcome index o, else 0;
 * reachable has litmus_outcome_count(t) entries.  Returns 0; or 1 when thread
 * *bad_thread's op *bad_op has a kind this model cannot execute (reachable is
 * then all 0; bad_thread and bad_op may be NULL). */
int litmus_tso_outcomes(const litmus_test *t, unsigned char *reachable, int *bad_thread,
                        int *bad_op);

/* One x86-TSO execution reaching outcome index o, as text into buf[n], e.g.
 * "T0 st x=1 (buffered), T0 ld y=0 (memory), ..., T1 flush y=1"; returns 1,
 * or 0 (buf "") when no execution reaches o or an op kind is refused. */
int litmus_tso_witness(const litmus_test *t, unsigned o, char *buf, size_t n);

#endif
