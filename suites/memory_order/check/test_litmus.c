/* test_litmus.c — unit tests of the checker's pure parts (label unit).
 *
 * Usage: test-litmus sc|tso [VERDICTS.tsv]|verdict|histogram
 *   sc         the SC enumeration gives each catalogue test the SC outcomes
 *              worked out by hand from its program (and never its exists)
 *   tso        the x86-TSO enumerator gives every test the x86 verdict of its
 *              relaxed outcome: herdtools7's published verdict for the
 *              converted catalogue (VERDICTS.tsv, tools/litmus-import), the
 *              literature's for the others (not the fixture); hand-derived
 *              outcome sets; the fixture check refuses what it must (three
 *              checks)
 *   verdict    litmus_forbidden_verdict's table, the rule-of-three bound
 *   histogram  unknown keys land in the impossible bucket; bad counts refused
 * One check per group (tso: three), expected vs observed as text.  Exit: bg_checks_close().
 */
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "litmus_expect.h"
#include "litmus_sc.h"
#include "litmus_tso.h"
#include "litmus_verdict.h"

/* Writes the outcomes marked in r as "key|key|..." into buf. */
static void keys_of(const litmus_test *t, const unsigned char *r, char *buf, size_t n)
{
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

typedef void (*enumerator)(const litmus_test *t, unsigned char *reachable);

static void tso_only(const litmus_test *t, unsigned char *reachable)
{
    litmus_tso_outcomes(t, reachable, NULL, NULL);
}

/* Appends "name: key|key|..." for each want[i] = {test, hand-derived keys} to
 * exp (the hand-derived set) and obs (what fn enumerates), " / " between. */
static void compare_sets(const char *const (*want)[2], size_t nwant, enumerator fn, char *exp,
                         char *obs, size_t cap)
{
    for (size_t i = 0; i < nwant; i++) {
        const litmus_test *t = litmus_find(want[i][0]);
        unsigned char r[81];
        char got[512];
        fn(t, r);
        keys_of(t, r, got, sizeof got);
        size_t ue = strlen(exp), uo = strlen(obs);
        snprintf(exp + ue, cap - ue, "%s%s: %s", ue ? " / " : "", want[i][0], want[i][1]);
        snprintf(obs + uo, cap - uo, "%s%s: %s", uo ? " / " : "", want[i][0], got);
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
    compare_sets(want, sizeof want / sizeof want[0], litmus_sc_outcomes, exp, obs, sizeof exp);
    return bg_check_emit_str(c, "memory_order.unit.sc.outcomes", strcmp(exp, obs) ? BG_FAIL : BG_PASS,
                             exp, obs, NULL);
}

/* x86 verdicts from the literature of the tests herdtools7's catalogue lacks
 * or that are hand-written (the catalogue's come from its kinds file through
 * tools/litmus-import: fixtures/memory_order/herdtools7/verdicts.tsv).
 * CACM 2010: only a store followed by a load of another location may appear
 * reordered; MFENCE and LOCK'd instructions forbid it; coherence and IRIW
 * keep their SC behaviour; a locked RMW is atomic, split or not (Intel SDM
 * Vol.3A 9.1.2.2, 9.2.2).  The exists keys are the .def's. */
static const char *const tso_literature[][3] = {
    {"IRIW", "2:r0=1; 2:r1=0; 3:r0=1; 3:r1=0;", "forbidden"},
    {"CoRR", "1:r0=1; 1:r1=0;", "forbidden"},
    {"CoWR", "0:r0=2; x=1;", "forbidden"},
    {"SB+lockadds", "0:r0=0; 1:r0=0;", "forbidden"},
    {"SB+xadds", "0:r0=0; 1:r0=0;", "forbidden"},
    {"SB+xchg-fences", "0:r0=0; 1:r0=0;", "forbidden"},
    {"SB+cmpxchgs", "0:r0=0; 1:r0=0;", "forbidden"},
    {"SB+xchgs", "0:r0=0; 1:r0=0;", "forbidden"},
    {"RMW-ADD", "x=1;", "forbidden"},
    {"RMW-XADD", "0:r0=0; 1:r0=0;", "forbidden"},
    {"RMW-XCHG", "0:r0=0; 1:r0=0;", "forbidden"},
    {"RMW-CMPXCHG", "0:r0=0; 1:r0=0;", "forbidden"},
    {"RMW-ADD+split", "x=1;", "forbidden"},
    {"RMW-XADD+split", "0:r0=0; 1:r0=0; x=1;", "forbidden"},
    {"RMW-XCHG+split", "0:r0=0; 1:r0=0; x=2;", "forbidden"},
    {"RMW-CMPXCHG+split", "0:r0=0; 1:r0=0; x=2;", "forbidden"},
    {"CoRR+split", "1:r0=1; 1:r1=0;", "forbidden"},
};

#define MAX_PUBLISHED 128
typedef struct published {
    char name[64], exists[96], verdict[16], source[128];
} published;

/* Reads verdicts.tsv (tools/litmus-import: name, exists, x86-tso, source,
 * ...; '#' lines are comments) into p; returns the count, or -1 with why. */
static int read_published(const char *path, published *p, char *why, size_t wn)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, wn, "cannot read %s", path);
        return -1;
    }
    char line[1024];
    int n = 0, ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *col[4];
        char *s = line;
        int k = 0;
        for (; k < 4; k++) {
            col[k] = s;
            char *tab = strchr(s, '\t');
            if (!tab)
                break;
            *tab = '\0';
            s = tab + 1;
        }
        if (k < 4 || n == MAX_PUBLISHED) {
            snprintf(why, wn, "%s:%d: want name, exists, x86-tso, source (tab-separated)", path, ln);
            fclose(f);
            return -1;
        }
        col[3][strcspn(col[3], "\t\n")] = '\0';
        snprintf(p[n].name, sizeof p[n].name, "%s", col[0]);
        snprintf(p[n].exists, sizeof p[n].exists, "%s", col[1]);
        snprintf(p[n].verdict, sizeof p[n].verdict, "%s", col[2]);
        snprintf(p[n].source, sizeof p[n].source, "%s", col[3]);
        n++;
    }
    fclose(f);
    return n;
}

/* Every test's x86-TSO verdict from the enumerator against its independent
 * verdict: the literature table above, or the published verdict of the
 * converted herdtools7 catalogue (verdicts.tsv).  A test with neither, a
 * published test the catalogue lacks, or a disagreement fails the check,
 * naming the test. */
static int tso_verdicts(bg_checks *c, const char *tsv)
{
    static published pub[MAX_PUBLISHED];
    char why[512] = "";
    int npub = tsv ? read_published(tsv, pub, why, sizeof why) : 0;
    if (npub < 0)
        return bg_check_emit_str(c, "memory_order.unit.tso.verdicts", BG_FAIL,
                                 "a readable verdicts.tsv", why, NULL);
    static char exp[16384], obs[16384];
    size_t n;
    const litmus_test *all = litmus_tests(&n);
    snprintf(exp, sizeof exp, "%zu tests, each with a verdict:", n);
    snprintf(obs, sizeof obs, "%zu tests, each with a verdict:", n);
    for (size_t i = 0; i < n; i++) {
        const litmus_test *t = &all[i];
        const char *key = NULL, *want = NULL;
        for (size_t k = 0; k < sizeof tso_literature / sizeof tso_literature[0]; k++)
            if (strcmp(tso_literature[k][0], t->name) == 0)
                key = tso_literature[k][1], want = tso_literature[k][2];
        for (int k = 0; !key && k < npub; k++)
            if (strcmp(pub[k].name, t->name) == 0)
                key = pub[k].exists, want = pub[k].verdict;
        unsigned char r[81];
        int idx = key ? litmus_outcome_parse(t, key) : -1;
        const char *got = !key ? "(no verdict)" : idx < 0 ? "(exists is no outcome)" : "?";
        if (idx >= 0 && litmus_tso_outcomes(t, r, NULL, NULL) == 0)
            got = r[idx] ? "allowed" : "forbidden";
        size_t ue = strlen(exp), uo = strlen(obs);
        snprintf(exp + ue, sizeof exp - ue, " %s=%s", t->name, want ? want : "(a verdict)");
        snprintf(obs + uo, sizeof obs - uo, " %s=%s", t->name, got);
    }
    for (int k = 0; k < npub; k++)
        if (!litmus_find(pub[k].name)) {
            size_t ue = strlen(exp), uo = strlen(obs);
            snprintf(exp + ue, sizeof exp - ue, " %.63s in the catalogue", pub[k].name);
            snprintf(obs + uo, sizeof obs - uo, " %.63s missing from litmus_tests.def", pub[k].name);
        }
    return bg_check_emit_str(c, "memory_order.unit.tso.verdicts", strcmp(exp, obs) ? BG_FAIL : BG_PASS,
                             exp, obs, NULL);
}

static int tso_outcomes(bg_checks *c)
{
    /* by hand: SB reaches all four (0/0 by both loads passing both buffered
     * stores); MP exactly its three SC outcomes; R its three SC outcomes plus
     * (r0=0, y=2): T1's y=2 still buffered when it loads x=0, flushed last;
     * CoWR its SC outcomes (a thread reads its own buffered store) */
    static const char *const want[][2] = {
        {"SB", "0:r0=0; 1:r0=0;|0:r0=0; 1:r0=1;|0:r0=1; 1:r0=0;|0:r0=1; 1:r0=1;"},
        {"MP", "1:r0=0; 1:r1=0;|1:r0=0; 1:r1=1;|1:r0=1; 1:r1=1;"},
        {"R", "1:r0=0; y=1;|1:r0=0; y=2;|1:r0=1; y=1;|1:r0=1; y=2;"},
        {"CoWR", "0:r0=1; x=1;|0:r0=1; x=2;|0:r0=2; x=2;"},
    };
    char exp[1024] = "", obs[1024] = "";
    compare_sets(want, sizeof want / sizeof want[0], tso_only, exp, obs, sizeof exp);
    /* SB's witness: both stores buffered past both loads */
    char w[512];
    const litmus_test *sb = litmus_find("SB");
    litmus_tso_witness(sb, (unsigned)litmus_outcome_parse(sb, "0:r0=0; 1:r0=0;"), w, sizeof w);
    size_t ue = strlen(exp), uo = strlen(obs);
    snprintf(exp + ue, sizeof exp - ue, " / SB witness: T0 st x=1 (buffered), T0 ld y=0 (memory), "
             "T1 st y=1 (buffered), T1 ld x=0 (memory), T0 flush x=1, T1 flush y=1");
    snprintf(obs + uo, sizeof obs - uo, " / SB witness: %s", w);
    return bg_check_emit_str(c, "memory_order.unit.tso.outcomes", strcmp(exp, obs) ? BG_FAIL : BG_PASS,
                             exp, obs, NULL);
}

static int tso_refusals(bg_checks *c)
{
    /* an op kind the model lacks (none is: LITMUS_OP_KINDS is past the last): SB with T1 load replaced */
    litmus_test odd = *litmus_find("SB");
    odd.ops[1][1].kind = LITMUS_OP_KINDS;
    unsigned char r[81];
    int th = -1, op = -1, rc = litmus_tso_outcomes(&odd, r, &th, &op);
    char exp[1024], obs[1024];
    snprintf(exp, sizeof exp, "odd kind: rc=1 at T1 op 1");
    snprintf(obs, sizeof obs, "odd kind: rc=%d at T%d op %d", rc, th, op);
    /* fixture columns: the status and whether the line says why (text in it) */
    static const struct {
        const char *label, *test, *exists, *tso, *armv8, *why;
    } cases[] = {
        {"SB", "SB", "0:r0=0; 1:r0=0;", "allowed", "allowed", ""},
        {"MP", "MP", "1:r0=1; 1:r1=0;", "forbidden", "allowed", ""},
        {"MP-tso-allowed", "MP", "1:r0=1; 1:r1=0;", "allowed", "allowed", "test MP: x86-tso says \"allowed\""},
        {"SB-tso-forbidden", "SB", "0:r0=0; 1:r0=0;", "forbidden", "allowed", "T1 ld x=0 (memory)"},
        {"SB-armv8-forbidden", "SB", "0:r0=0; 1:r0=0;", "allowed", "forbidden", "but armv8 says \"forbidden\""},
        /* an exists that is not SB's relaxed outcome leaves 0/0 stray */
        {"SB-exists-1/1", "SB", "0:r0=1; 1:r0=1;", "allowed", "allowed", "also reaches '0:r0=0; 1:r0=0;'"},
        {"MP-tso-missing", "MP", "1:r0=1; 1:r1=0;", NULL, "allowed", "x86-tso is \"(missing)\""},
        {"MP-armv8-maybe", "MP", "1:r0=1; 1:r1=0;", "forbidden", "maybe", "armv8 is \"maybe\""},
        {"odd-kind", "odd", "0:r0=0; 1:r0=0;", "allowed", "allowed", "op kind 8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const litmus_test *t = strcmp(cases[i].test, "odd") ? litmus_find(cases[i].test) : &odd;
        bg_status st = litmus_expect_check_tso(t, (unsigned)litmus_outcome_parse(t, cases[i].exists),
                                               cases[i].tso, cases[i].armv8, "unit");
        int says = st == BG_OK || strstr(bg_last_error(), cases[i].why) != NULL;
        size_t ue = strlen(exp), uo = strlen(obs);
        snprintf(exp + ue, sizeof exp - ue, ", %s %s", cases[i].label,
                 cases[i].why[0] ? "refused, says why" : "ok");
        snprintf(obs + uo, sizeof obs - uo, ", %s %s", cases[i].label,
                 st == BG_OK ? "ok" : st != BG_E_FIXTURE ? "wrong status" : says ? "refused, says why"
                                                                                : "refused, not why");
    }
    return bg_check_emit_str(c, "memory_order.unit.tso.refusals", strcmp(exp, obs) ? BG_FAIL : BG_PASS,
                             exp, obs, NULL);
}

static int group_tso(bg_checks *c, const char *tsv)
{
    tso_verdicts(c, tsv);
    tso_outcomes(c);
    return tso_refusals(c);
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
    if (argc < 2 || argc > 3)
        return bg_exit_code(bg_fail(BG_E_USAGE, "test-litmus", "want one group: sc, tso [VERDICTS.tsv], "
                                    "verdict, histogram"));
    bg_checks *c = bg_checks_open("memory_order");
    if (!c)
        return BG_EXIT_IO;
    if (strcmp(argv[1], "sc") == 0)
        group_sc(c);
    else if (strcmp(argv[1], "tso") == 0)
        group_tso(c, argc == 3 ? argv[2] : NULL);
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
