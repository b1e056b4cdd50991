/* litmus_sc.h — the sequentially consistent outcomes of a litmus test.
 *
 * Enumerates every interleaving of the test's ops (Lamport, "How to Make a
 * Multiprocessor Computer That Correctly Executes Multiprocess Programs",
 * IEEE TC 1979: one memory, ops of each thread in program order) and marks the
 * outcomes they reach.  At most 4 threads x 3 ops: a few thousand paths.
 * Computed by the x86-TSO machine of litmus_tso.c with every store flushed to
 * memory at once (one enumerator for both models); an op kind it cannot
 * execute leaves every entry 0. */
#ifndef LITMUS_SC_H
#define LITMUS_SC_H

#include "litmus_catalog.h"

/* reachable[o] = 1 for each SC-reachable outcome index o, else 0;
 * reachable has litmus_outcome_count(t) entries. */
void litmus_sc_outcomes(const litmus_test *t, unsigned char *reachable);

#endif
