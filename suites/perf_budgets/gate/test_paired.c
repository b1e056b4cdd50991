/* test_paired.c — unit tests of the paired judge's statistics (perf_paired.h)
 * against values from Hollander & Wolfe (1999), ch. 3 and its table A.4; and
 * of the benchmark-name patterns of budgets.json (perf_name_match, perf_budget.h,
 * perf_gates.h: a "*" segment), which the paired judge's budgets go through; and
 * the variant table's three-way verdict on the paired interval (perf_variants.h:
 * two one-sided tests against a +-2 % margin, its edges). */
#include <math.h>
#include <stdio.h>

#include <string.h>

#include "buildgate/bg_check.h"
#include "perf_budget.h"
#include "perf_gates.h"
#include "perf_paired.h"
#include "perf_variants.h"

static bg_checks *c;

/* One check per property: perf.unit.paired.<name>. */
static void check(int ok, const char *name, const char *what)
{
    char full[160];
    snprintf(full, sizeof full, "perf.unit.paired.%s", name);
    bg_check_emit_str(c, full, ok ? BG_PASS : BG_FAIL, what, ok ? "as expected" : "differs", NULL);
}

/* The variant table's verdicts (perf_variants.h): the margins are strict, a
 * one-sided bound on a margin decides nothing on that side. */
static void tost(void)
{
    const double m = 0.02;
    check(perf_tost_decide(1.021, 1.05, m) == PERF_TOST_GAIN, "tost_gain", "[1.021, 1.05]: gain");
    check(perf_tost_decide(1.02, 1.05, m) == PERF_TOST_UNDECIDED, "tost_gain_edge",
          "[1.02, 1.05]: lo on 1 + m is no gain: undecided");
    check(perf_tost_decide(0.90, 0.979, m) == PERF_TOST_LOSS, "tost_loss", "[0.90, 0.979]: loss");
    check(perf_tost_decide(0.90, 0.98, m) == PERF_TOST_UNDECIDED, "tost_loss_edge",
          "[0.90, 0.98]: hi on 1 - m is no loss: undecided");
    check(perf_tost_decide(0.981, 1.019, m) == PERF_TOST_NO_USEFUL_GAIN, "tost_equivalent",
          "[0.981, 1.019]: inside +-2 %: no useful gain");
    check(perf_tost_decide(0.98, 1.0, m) == PERF_TOST_UNDECIDED && perf_tost_decide(1.0, 1.02, m) == PERF_TOST_UNDECIDED,
          "tost_equivalent_edges", "[0.98, 1.0] and [1.0, 1.02]: an end on a margin is not inside it: undecided");
    check(perf_tost_decide(1.005, 1.03, m) == PERF_TOST_UNDECIDED, "tost_small_gain",
          "[1.005, 1.03]: faster, but maybe by less than the margin: undecided (no gain, no equivalence)");
    check(perf_tost_decide(0.97, 1.03, m) == PERF_TOST_UNDECIDED, "tost_wide", "[0.97, 1.03]: undecided");
    check(perf_tost_decide(NAN, 1.0, m) == PERF_TOST_UNDECIDED && perf_tost_decide(1.0, INFINITY, m) == PERF_TOST_UNDECIDED &&
              perf_tost_decide(1.01, 0.99, m) == PERF_TOST_UNDECIDED && perf_tost_decide(0.995, 1.005, 0) == PERF_TOST_UNDECIDED,
          "tost_nonfinite", "a NaN or infinite bound, lo > hi, or margin 0: undecided");
    check(!strcmp(perf_tost_name(PERF_TOST_NO_USEFUL_GAIN), "no useful gain"), "tost_name", "'no useful gain'");
    /* the pairs: 2^-n <= alpha per side, 5 at alpha 0.05, 7 at 0.01 */
    perf_variant_cfg cfg = {0.02, 0.05, NULL};
    perf_variant_judgement j;
    double e[12];
    for (int i = 0; i < 12; i++)
        e[i] = log(0.5);
    perf_variant_judge(e, 4, &cfg, &j);
    check(j.verdict == PERF_TOST_UNDECIDED && j.min_pairs == 5 && strstr(j.why, "needs at least 5"),
          "tost_4_pairs", "4 pairs at half the speed: undecided, the 90 % interval needs 5 pairs");
    perf_variant_judge(e, 5, &cfg, &j);
    check(j.verdict == PERF_TOST_LOSS && fabs(j.ratio - 0.5) < 1e-12 && fabs(j.level - 0.90) < 1e-12, "tost_5_pairs_loss",
          "5 pairs at half the speed: loss, ratio 0.5, level 0.90");
    for (int i = 0; i < 12; i++)
        e[i] = 0.004 * ((i % 3) - 1); /* -0.4 %, 0, +0.4 % */
    perf_variant_judge(e, 12, &cfg, &j);
    check(j.verdict == PERF_TOST_NO_USEFUL_GAIN && j.lo > 0.98 && j.hi < 1.02, "tost_identical",
          "12 pairs within +-0.4 %: no useful gain");
    for (int i = 0; i < 12; i++)
        e[i] = log(1.25) + 0.01 * ((i % 3) - 1);
    perf_variant_judge(e, 12, &cfg, &j);
    check(j.verdict == PERF_TOST_GAIN && j.lo > 1.2, "tost_fast", "12 pairs 25 % faster: gain");
    e[0] = log(0.5); /* one pair far off: the interval reaches below the margin */
    for (int i = 1; i < 5; i++)
        e[i] = log(1.0 + 0.01 * i);
    perf_variant_judge(e, 5, &cfg, &j);
    check(j.verdict == PERF_TOST_UNDECIDED && strstr(j.why, "margin"), "tost_straddle",
          "5 pairs, one at half the speed: undecided, saying the interval reaches past the margin");
    cfg.alpha = 0.01;
    perf_variant_judge(e, 5, &cfg, &j);
    check(j.min_pairs == 7 && fabs(j.level - 0.98) < 1e-12, "tost_alpha_001", "alpha 0.01: 98 % interval, 7 pairs at least");
    /* budgets.json "variant_table": the opt-in gates and the checks of its values */
    cJSON *b = cJSON_Parse("{\"variant_table\": {\"margin\": 0.03, \"gates\": {\"*/native\": [\"loss\"], "
                           "\"v2/native\": [\"loss\", \"undecided\"]}}}");
    const char *key = NULL;
    check(perf_variant_cfg_load(b, &cfg) == BG_OK && cfg.margin == 0.03 && cfg.alpha == 0.05, "tost_cfg",
          "variant_table: margin 0.03 read, alpha the default 0.05");
    check(perf_variant_gated(&cfg, "v1/native", PERF_TOST_LOSS, &key) && !strcmp(key, "*/native") &&
              !perf_variant_gated(&cfg, "v1/native", PERF_TOST_UNDECIDED, NULL) &&
              perf_variant_gated(&cfg, "v2/native", PERF_TOST_UNDECIDED, &key) && !strcmp(key, "v2/native") &&
              !perf_variant_gated(&cfg, "v1/native_x", PERF_TOST_LOSS, &key) && !key &&
              !perf_variant_gated(&cfg, "v1/release", PERF_TOST_LOSS, NULL),
          "tost_gates", "*/native gates v1/native on loss only, v2/native's own key wins, not native_x or release");
    cJSON_Delete(b);
    static const char *const badcfg[] = {"{\"variant_table\": {\"margin\": 0}}", "{\"variant_table\": {\"alpha\": 0.5}}",
                                         "{\"variant_table\": {\"gates\": {\"*/native\": [\"lose\"]}}}",
                                         "{\"variant_table\": {\"gates\": {\"*/native\": []}}}", "{\"variant_table\": 1}"};
    int refused = 0;
    for (size_t k = 0; k < sizeof badcfg / sizeof badcfg[0]; k++) {
        b = cJSON_Parse(badcfg[k]);
        refused += perf_variant_cfg_load(b, &cfg) == BG_E_PARSE;
        cJSON_Delete(b);
    }
    check(refused == 5, "tost_cfg_bad", "margin 0, alpha 0.5, a verdict 'lose', an empty list, a number: each refused");
}

int main(void)
{
    c = bg_checks_open("perf_budgets");
    double d[12], est, lo, hi, p;
    /* n = 9, all positive: exact two-sided p = 2 / 2^9 */
    for (int i = 0; i < 9; i++)
        d[i] = 0.01 * (i + 1);
    perf_paired_stats(d, 9, 0.95, &est, &lo, &hi, &p);
    check(fabs(p - 2.0 / 512) < 1e-12, "p_all_positive", "n=9 all positive: p = 2/512");
    check(fabs(est - 0.05) < 1e-12, "hodges_lehmann_9", "n=9 symmetric 0.01..0.09: Hodges-Lehmann = 0.05");
    /* the smallest one negative: T+ = 44, p = 4 / 512 */
    d[0] = -0.01;
    perf_paired_stats(d, 9, 0.95, &est, &lo, &hi, &p);
    check(fabs(p - 4.0 / 512) < 1e-12, "p_smallest_negative", "n=9 smallest negative: p = 4/512");
    /* n = 10, level 0.95: P(T+ <= 8) = 0.0244 (table A.4), so the interval
     * is [W(9), W(47)] of the 55 Walsh averages; d = 1..10 */
    for (int i = 0; i < 10; i++)
        d[i] = i + 1;
    perf_paired_stats(d, 10, 0.95, &est, &lo, &hi, &p);
    /* Walsh averages of 1..10 sorted: 1, 1.5, 2, 2, 2.5, 2.5, 3, 3, 3 (the 9th), ...; W(47) = 11 - W(9) */
    check(fabs(lo - 3) < 1e-12 && fabs(hi - 8) < 1e-12, "interval_n10", "n=10: interval [W(9), W(47)] = [3, 8]");
    check(fabs(est - 5.5) < 1e-12, "hodges_lehmann_10", "n=10: Hodges-Lehmann 5.5");
    /* symmetric around 0: p = 1 */
    double s[4] = {-2, -1, 1, 2};
    perf_paired_stats(s, 4, 0.95, &est, &lo, &hi, &p);
    check(p > 0.99 && fabs(est) < 1e-12, "symmetric", "symmetric: p = 1, estimate 0");
    /* ties among |d|: the normal approximation, still two-sided and <= 1 */
    double t[6] = {1, 1, 1, -1, 2, 2};
    perf_paired_stats(t, 6, 0.95, &est, &lo, &hi, &p);
    check(p > 0 && p <= 1, "ties", "ties: p in (0, 1]");
    check(perf_paired_pairs_for(0.01, 1) == 9, "pairs_for_1", "pairs for alpha 0.01, 1 benchmark: 9");
    check(perf_paired_pairs_for(0.01, 3) == 11, "pairs_for_3", "pairs for alpha 0.01, 3 benchmarks: 11");
    /* the fewest pairs that can reach p < alpha at all: 2^(1-n) < alpha */
    check(perf_paired_pairs_min(0.01) == 8, "pairs_min_01", "alpha 0.01: 8 pairs (2/256 < 0.01 <= 2/128)");
    check(perf_paired_pairs_min(0.05) == 6, "pairs_min_05", "alpha 0.05: 6 pairs (2/64 < 0.05 <= 2/32)");
    check(perf_paired_pairs_min(1.0 / 128) == 9, "pairs_min_edge", "alpha 2/256: 9 pairs (p < alpha is strict)");
    for (int i = 0; i < 8; i++) /* 8 pairs, all one way: p = 2/256, below 0.01 */
        d[i] = 0.01 * (i + 1);
    perf_paired_stats(d, 8, 0.95, &est, &lo, &hi, &p);
    check(p < 0.01 && fabs(p - 2.0 / 256) < 1e-12, "p_8_pairs", "n=8 all positive: p = 2/256 < 0.01");
    perf_paired_stats(d, 7, 0.95, &est, &lo, &hi, &p);
    check(p >= 0.01 && fabs(p - 2.0 / 128) < 1e-12, "p_7_pairs", "n=7 all positive: p = 2/128 >= 0.01");
    check(perf_paired_stats(d, 0, 0.95, &est, &lo, &hi, &p) == BG_E_USAGE, "empty", "n = 0: usage error");
    /* name patterns: a "*" segment is one non-empty segment, nothing more */
    const char *rx = "randomx/v1/release/hash/light-jit-hard";
    check(perf_name_match("randomx/*/*/hash/", rx) == 24, "name_match_star_prefix",
          "randomx/ * / * /hash/ covers 24 characters of randomx/v1/release/hash/light-jit-hard");
    check(perf_name_match("randomx/*/hash/", rx) < 0, "name_match_star_one_segment",
          "one * segment does not cover v1/release");
    check(perf_name_match("randomx/*/*/init/", rx) < 0, "name_match_star_other", "…/init/ does not match …/hash/");
    check(perf_name_match("randomx/*/*/hash/", "randomx//release/hash/x") < 0, "name_match_star_empty",
          "a * segment is never empty");
    check(perf_name_match("synth/chain", "synth/chain") == 11, "name_match_plain", "a plain name matches itself");
    cJSON *b = cJSON_Parse("{\"benchmarks\": {\"randomx/\": {\"band\": 0.2}, \"randomx/*/*/hash/\": {\"band\": 0.05,"
                           " \"ir_iterations\": 2}}, \"gates\": {\"g\": [\"randomx/*/*/hash/light-jit-hard\"]}}");
    perf_budget pb;
    perf_budget_for(b, rx, &pb);
    check(pb.band == 0.05 && pb.ir_iterations == 2, "name_match_budget", "the longest matching key wins: band 0.05");
    const char *g = perf_gates_find(b, rx);
    check(g && strcmp(g, "g") == 0 && !perf_gates_find(b, "randomx/v1/release/hash/light-jit-hard2"), "name_match_gate",
          "an exact gate entry with * segments holds that name, not a longer one");
    char re[200];
    check(perf_gates_filter(b, "g", re, sizeof re) == BG_OK &&
              strcmp(re, "^(randomx/[^/]+/[^/]+/hash/light-jit-hard)$") == 0,
          "name_match_filter", "the gate's filter: ^(randomx/[^/]+/[^/]+/hash/light-jit-hard)$");
    cJSON_Delete(b);
    tost();
    return bg_checks_close(c);
}
