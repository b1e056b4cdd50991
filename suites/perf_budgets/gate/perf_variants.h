/* perf_variants.h — the variant table: each RandomX build variant's speed
 * against the shipped variant's, as a three-way verdict (bg-perf variants,
 * docs/perf_budgets.md "The variant table").
 *
 * The quantity: r = H/s(variant) / H/s(reference), > 1 is faster.  Per pair k
 * (one variant and one reference process that ran together, perf_duet.h),
 * e_k = ln(H/s of the variant's process / H/s of the reference's) (the
 * processes' medians).  The statistics are the paired judge's (perf_paired.h:
 * Hodges-Lehmann estimate, the signed-rank interval) at level 1 - 2 alpha:
 * each bound of that interval is a one-sided test at alpha (Schuirmann,
 * "A comparison of the two one-sided tests procedure ...", J. Pharmacokinet.
 * Biopharm. 15, 1987: equivalence when the 1 - 2 alpha interval lies inside
 * the margin).  With margin m (0.02 = +-2 %) and [lo, hi] that interval of r:
 *   gain            lo > 1 + m         (H0 r <= 1 + m rejected at alpha)
 *   loss            hi < 1 - m         (H0 r >= 1 - m rejected at alpha)
 *   no useful gain  1 - m < lo and hi < 1 + m   (both one-sided tests of
 *                   equivalence rejected: within +-m, TOST)
 *   undecided       none of these: the interval reaches past a margin (a
 *                   noisy run, or a true change close to m); also fewer
 *                   pairs than the interval needs to have its level at all
 *                   (perf_paired_pairs_min(2 alpha): 5 at alpha 0.05), and a
 *                   ratio or bound that is no finite number.
 * The bounds are strict: an interval ending exactly on a margin decides
 * nothing on that side.
 *
 * budgets.json (perf_budget.h) "variant_table", all optional:
 *   {"margin": 0.02, "alpha": 0.05,
 *    "gates": {"<version>/<variant>": ["loss", "undecided", ...], ...}}
 * margin in (0, 0.5), alpha in (0, 0.25]; a gates key is matched like a
 * budgets key (perf_name_match: a "*" segment holds any one segment, "*\/native"
 * every version's native); its list names the verdicts that fail.  Without a
 * gate the table informs: a decided row is a pass, an undecided one
 * inconclusive.
 */
#ifndef PERF_VARIANTS_H
#define PERF_VARIANTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

typedef enum perf_tost {
    PERF_TOST_GAIN,
    PERF_TOST_LOSS,
    PERF_TOST_NO_USEFUL_GAIN,
    PERF_TOST_UNDECIDED
} perf_tost;

#define PERF_TOST_COUNT 4

/* "gain", "loss", "no useful gain", "undecided". */
const char *perf_tost_name(perf_tost v);

/* The verdict of [lo, hi] (the 1 - 2 alpha interval of r) with margin m, as
 * above; undecided for a NaN or infinite bound or lo > hi. */
perf_tost perf_tost_decide(double lo, double hi, double margin);

/* The table's settings (budgets "variant_table", else the defaults). */
typedef struct perf_variant_cfg {
    double margin, alpha;
    const cJSON *gates; /* the "gates" object, or NULL */
} perf_variant_cfg;

#define PERF_VARIANT_MARGIN 0.02
#define PERF_VARIANT_ALPHA 0.05

/* Reads "variant_table" of budgets (NULL: defaults).  BG_E_PARSE, one line,
 * for a value out of range, a gates entry that is no array of verdict names. */
bg_status perf_variant_cfg_load(const cJSON *budgets, perf_variant_cfg *cfg);

/* 1 when budgets gate the row "<version>/<variant>" on verdict v (its gates
 * entry lists v); *key the matching key (longest match), else NULL. */
int perf_variant_gated(const perf_variant_cfg *cfg, const char *row, perf_tost v, const char **key);

/* One row's judgement from e[0..n-1] (the per-pair log ratios of H/s,
 * variant over reference).  ratio = exp(Hodges-Lehmann), [lo, hi] at level
 * 1 - 2 alpha, p = two-sided signed-rank p, verdict; why says what left it
 * undecided ("" otherwise). */
typedef struct perf_variant_judgement {
    size_t pairs, min_pairs;
    double ratio, lo, hi, level, p;
    perf_tost verdict;
    char why[256];
} perf_variant_judgement;

bg_status perf_variant_judge(const double *e, size_t n, const perf_variant_cfg *cfg,
                             perf_variant_judgement *out);

#endif
