/* nan_seq_shrink.c — see nan_seq_shrink.h. */
#include "nan_seq_shrink.h"

#include <string.h>

int nan_seq_mask_count(uint64_t mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

void nan_seq_shrink_start(nan_seq_shrink *s, uint64_t seed, uint64_t mask)
{
    memset(s, 0, sizeof *s);
    s->seed = seed, s->mask = mask, s->gran = 2;
    s->done = nan_seq_mask_count(mask) <= 1;
}

/* Chunk c of gran chunks of the set bits of mask (ddmin's partition:
 * consecutive runs of nearly equal size). */
static uint64_t chunk(uint64_t mask, int gran, int c)
{
    int n = nan_seq_mask_count(mask), lo = n * c / gran, hi = n * (c + 1) / gran, i = 0;
    uint64_t out = 0;
    for (int b = 0; b < 64; b++) {
        if (!(mask >> b & 1))
            continue;
        if (i >= lo && i < hi)
            out |= 1ull << b;
        i++;
    }
    return out;
}

int nan_seq_shrink_propose(nan_seq_shrink *s)
{
    s->ncand = 0;
    if (s->done)
        return 0;
    for (int c = 0; c < s->gran; c++)
        s->cand[s->ncand++] = chunk(s->mask, s->gran, c);
    if (s->gran > 2)
        for (int c = 0; c < s->gran; c++)
            s->cand[s->ncand++] = s->mask & ~chunk(s->mask, s->gran, c);
    return s->ncand;
}

void nan_seq_shrink_answer(nan_seq_shrink *s, const int *fails)
{
    int n = nan_seq_mask_count(s->mask);
    s->rounds++;
    s->tests += s->ncand;
    for (int i = 0; i < s->gran; i++) {
        if (fails[i] && s->cand[i]) { /* reduce to subset */
            s->mask = s->cand[i];
            s->gran = 2;
            s->done = nan_seq_mask_count(s->mask) <= 1;
            return;
        }
    }
    for (int i = s->gran; i < s->ncand; i++) {
        if (fails[i]) { /* reduce to complement */
            s->mask = s->cand[i];
            s->gran = s->gran - 1 > 2 ? s->gran - 1 : 2;
            s->done = nan_seq_mask_count(s->mask) <= 1;
            return;
        }
    }
    if (s->gran >= n) {
        s->done = 1;
        return;
    }
    s->gran = 2 * s->gran < n ? 2 * s->gran : n;
}
