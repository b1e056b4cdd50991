/* test_paired.c — unit tests of the paired judge's statistics (perf_paired.h)
 * against values from Hollander & Wolfe (1999), ch. 3 and its table A.4; and
 * of the benchmark-name patterns of budgets.json (perf_name_match, perf_budget.h,
 * perf_gates.h: a "*" segment), which the paired judge's budgets go through. */
#include <math.h>
#include <stdio.h>

#include <string.h>

#include "buildgate/bg_check.h"
#include "perf_budget.h"
#include "perf_gates.h"
#include "perf_paired.h"

static bg_checks *c;

/* One check per property: perf.unit.paired.<name>. */
static void check(int ok, const char *name, const char *what)
{
    char full[160];
    snprintf(full, sizeof full, "perf.unit.paired.%s", name);
    bg_check_emit_str(c, full, ok ? BG_PASS : BG_FAIL, what, ok ? "as expected" : "differs", NULL);
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
    return bg_checks_close(c);
}
