/* test_litmus.c — unit tests of the checker's pure parts (label unit).
 *
 * Usage: test-litmus sc|verdict|histogram
 *   sc         the SC enumeration gives each catalogue test the SC outcomes
 *              worked out by hand from its program (and never its exists)
 *   verdict    litmus_forbidden_verdict's table, the rule-of-three bound
 *   histogram  unknown keys land in the impossible bucket; bad counts refused
 * One check per group, expected vs observed as text.  Exit: bg_checks_close().
 */
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "litmus_expect.h"
#include "litmus_sc.h"
#include "litmus_verdict.h"

/* Writes the SC outcomes of test name as "key|key|..." into buf. */
static void sc_keys(const char *name, char *buf, size_t n)
{
    const litmus_test *t = litmus_find(name);
    unsigned char r[81];
    litmus_sc_outcomes(t, r);
    buf[0] = '\0';
    for (unsigned o = 0; o < litmus_outcome_count(t); o++) {
        if (!r[o])
            continue;
        char k[96];
        litmus_outcome_key(t, o, k, sizeof k);
        size_t u = strlen(buf);
        snprintf(buf + u, n - u, "%s%s", u ? "|" : "", k);
    }
}

static int group_sc(bg_checks *c)
{
    /* by hand: SB has 3 SC outcomes (not 0/0); MP 3 (not r0=1,r1=0);
     * CoWR: (r0=1,x=1) (r0=1,x=2) (r0=2,x=2), never (r0=2,x=1) */
    static const char *const want[][2] = {
        {"SB", "0:r0=0; 1:r0=1;|0:r0=1; 1:r0=0;|0:r0=1; 1:r0=1;"},
        {"MP", "1:r0=0; 1:r1=0;|1:r0=0; 1:r1=1;|1:r0=1; 1:r1=1;"},
        {"CoWR", "0:r0=1; x=1;|0:r0=1; x=2;|0:r0=2; x=2;"},
        {"2+2W", "x=1; y=1;|x=1; y=2;|x=2; y=1;"},
    };
    char exp[1024] = "", obs[1024] = "";
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char got[512];
        sc_keys(want[i][0], got, sizeof got);
        size_t ue = strlen(exp), uo = strlen(obs);
        snprintf(exp + ue, sizeof exp - ue, "%s%s: %s", ue ? " / " : "", want[i][0], want[i][1]);
        snprintf(obs + uo, sizeof obs - uo, "%s%s: %s", uo ? " / " : "", want[i][0], got);
    }
    return bg_check_emit_str(c, "memory_order.unit.sc.outcomes", strcmp(exp, obs) ? BG_FAIL : BG_PASS,
                             exp, obs, NULL);
}

static int group_verdict(bg_checks *c)
{
    char obs[256];
    snprintf(obs, sizeof obs, "%s %s %s %s %s %s ub=%.1f",
             bg_verdict_name(litmus_forbidden_verdict(5, 1, 0, 0, 1000000)),
             bg_verdict_name(litmus_forbidden_verdict(5, 1, 1, 100, 1000000)),
             bg_verdict_name(litmus_forbidden_verdict(5, 0, 1, 100, 1000000)),
             bg_verdict_name(litmus_forbidden_verdict(0, 0, 0, 0, 1000000)),
             bg_verdict_name(litmus_forbidden_verdict(0, 0, 1, 100, 1000000)),
             bg_verdict_name(litmus_forbidden_verdict(0, 0, 1, 100, 100000)),
             litmus_upper95_per_million(1000000));
    const char *exp = "fail xfail fail pass xpass inconclusive ub=3.0";
    return bg_check_emit_str(c, "memory_order.unit.verdict.table",
                             strcmp(exp, obs) ? BG_FAIL : BG_PASS, exp, obs, NULL);
}

static int group_histogram(bg_checks *c)
{
    const litmus_test *t = litmus_find("SB");
    uint64_t counts[10], bad_counts[10], total = 0, bad_total = 0;
    cJSON *h = cJSON_Parse("{\"0:r0=0; 1:r0=0;\":7,\"0:r0=5;\":2}");
    bg_status st1 = litmus_histogram_parse(t, h, counts, &total);
    cJSON_Delete(h);
    unsigned char allowed[9];
    litmus_allowed(t, 0, 1, allowed); /* SB's relaxed outcome (index 0) allowed */
    unsigned worst = 0;
    uint64_t forb = litmus_forbidden(t, counts, allowed, &worst);
    h = cJSON_Parse("{\"0:r0=0; 1:r0=0;\":-1}");
    bg_status st2 = litmus_histogram_parse(t, h, bad_counts, &bad_total);
    cJSON_Delete(h);
    char obs[160], exp[160];
    snprintf(obs, sizeof obs, "parse=%d total=%llu relaxed=%llu impossible=%llu forbidden=%llu "
             "worst=%u negative=%d", st1, (unsigned long long)total,
             (unsigned long long)counts[0], (unsigned long long)counts[9],
             (unsigned long long)forb, worst, st2);
    /* "0:r0=5;" is no SB key: it counts as impossible (bucket 9), forbidden */
    snprintf(exp, sizeof exp, "parse=0 total=9 relaxed=7 impossible=2 forbidden=2 worst=9 "
             "negative=%d", BG_E_PARSE);
    return bg_check_emit_str(c, "memory_order.unit.histogram.buckets",
                             strcmp(exp, obs) ? BG_FAIL : BG_PASS, exp, obs, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return bg_exit_code(bg_fail(BG_E_USAGE, "test-litmus", "want one group: sc, verdict, histogram"));
    bg_checks *c = bg_checks_open("memory_order");
    if (!c)
        return BG_EXIT_IO;
    if (strcmp(argv[1], "sc") == 0)
        group_sc(c);
    else if (strcmp(argv[1], "verdict") == 0)
        group_verdict(c);
    else if (strcmp(argv[1], "histogram") == 0)
        group_histogram(c);
    else {
        bg_checks_free(c);
        return bg_exit_code(bg_fail(BG_E_USAGE, "test-litmus", "unknown group '%s'", argv[1]));
    }
    return bg_checks_close(c);
}
