/* test_cgfile.c — unit tests of the callgrind file reader and the
 * per-function difference (perf_cgfile.h), check perf.unit.cgfile.<name>:
 *   a real file: selftest/data/cgfix-3.19.out, as valgrind 3.19 writes it (name
 *     compression, `calls=` lines, recursion levels "rec'2", a two-function call
 *     cycle ping/pong), its costs against callgrind_annotate's (selftest/data/README);
 *   a file in the format specification's shapes written here: names without
 *     compression, relative and "*" positions, two position columns, missing
 *     trailing costs, two call sites of one pair merged, totals:;
 *   the difference: head = base with one function's self cost grown, named first
 *     with share 1; bad input (no events:, an undefined id) refused.
 * Usage: perf-cgfile-tests DATA_DIR WORK_DIR. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "perf_cgfile.h"

static bg_checks *c;

static void check(int ok, const char *name, const char *what, double got)
{
    char full[160], obs[120];
    snprintf(full, sizeof full, "perf.unit.cgfile.%s", name);
    snprintf(obs, sizeof obs, ok ? "as expected (%.17g)" : "differs: %.17g", got);
    bg_check_emit_str(c, full, ok ? BG_PASS : BG_FAIL, what, obs, NULL);
}

static const perf_cg_fn *fn(const perf_cg_profile *p, const char *name)
{
    for (size_t i = 0; i < p->nfn; i++)
        if (!strcmp(p->fn[i].name, name))
            return &p->fn[i];
    return NULL;
}

static double self_ir(const perf_cg_profile *p, const char *name)
{
    const perf_cg_fn *f = fn(p, name);
    return f ? f->self[PERF_CG_IR] : NAN;
}

static double incl_ir(const perf_cg_profile *p, const char *name)
{
    const perf_cg_fn *f = fn(p, name);
    return f ? f->incl[PERF_CG_IR] : NAN;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "buildgate: perf-cgfile-tests: want DATA_DIR WORK_DIR\n");
        return 2;
    }
    c = bg_checks_open("perf_budgets");
    char path[4096];
    perf_cg_profile p;
    snprintf(path, sizeof path, "%s/cgfix-3.19.out", argv[1]);
    bg_status st = perf_cg_read(path, &p);
    check(st == BG_OK, "real_read", "callgrind 3.19's file is read", st);
    if (st == BG_OK) {
        double sum = 0;
        for (size_t i = 0; i < p.nfn; i++)
            sum += p.fn[i].self[PERF_CG_IR];
        check(p.total[PERF_CG_IR] == 12319, "real_summary", "summary: Ir 12319", p.total[PERF_CG_IR]);
        check(sum == 12319, "real_self_sum", "the self costs add up to the summary (12319)", sum);
        check(self_ir(&p, "leaf") == 11925, "real_leaf_self", "leaf self Ir 11925 (callgrind_annotate)",
              self_ir(&p, "leaf"));
        check(incl_ir(&p, "mid") == 9015, "real_mid_inclusive", "mid inclusive Ir 9015 (callgrind_annotate)",
              incl_ir(&p, "mid"));
        check(incl_ir(&p, "main") == 12319, "real_main_inclusive", "main inclusive Ir 12319", incl_ir(&p, "main"));
        check(incl_ir(&p, "rec") == 1634, "real_recursion",
              "rec and its recursion level rec'2 are one function, inclusive Ir 1634 (callgrind_annotate's rec; "
              "its rec'2 says 16300, the recursion counted at every level)", incl_ir(&p, "rec"));
        check(fn(&p, "rec'2") == NULL, "real_recursion_level_merged", "no function named rec'2", 0);
        check(incl_ir(&p, "ping") + incl_ir(&p, "pong") == 1657, "real_call_cycle",
              "the cycle ping <-> pong counted once: ping + pong inclusive = main's call into it, 1657 "
              "(callgrind_annotate's ping)", incl_ir(&p, "ping") + incl_ir(&p, "pong"));
        check(perf_cg_has_cache(&p), "real_cache_events", "the cache simulation's events are found", 0);
        check(perf_cg_cycles(p.total) == 12319 + 10 * (3 + 0 + 1) + 100 * (3 + 0 + 0), "real_cycles",
              "estimated cycles = Ir + 10 L1m + 100 LLm = 12659", perf_cg_cycles(p.total));
        perf_cg_free(&p);
    }
    /* the specification's other shapes */
    snprintf(path, sizeof path, "%s/spec.out", argv[2]);
    write_file(path, "# callgrind format\nversion: 1\npositions: instr line\nevents: Ir D1mr DLmr\n"
                     "fl=a.c\nfn=main\n0x10 3 5\n+2 +1 1\ncfl=a.c\ncfn=work\ncalls=2 0x40 9\n* * 40 2 1\n"
                     "cfn=work\ncalls=1 0x40 9\n0x14 -1 20 1\n"
                     "fn=work\n0x40 9 60 3 1\n\ntotals: 66 4 1\n");
    st = perf_cg_read(path, &p);
    check(st == BG_OK, "spec_read", "a file in the specification's shapes is read", st);
    if (st == BG_OK) {
        check(self_ir(&p, "main") == 6, "spec_self", "main self Ir 5 + 1 (missing costs are 0)",
              self_ir(&p, "main"));
        check(incl_ir(&p, "main") == 66, "spec_inclusive", "main inclusive 6 + 40 + 20", incl_ir(&p, "main"));
        check(p.ncall == 1, "spec_call_sites_merged", "two call sites of main -> work: one edge", (double)p.ncall);
        const perf_cg_fn *w = fn(&p, "work");
        check(w && w->self[PERF_CG_DLMR] == 1 && w->self[PERF_CG_D1MR] == 3, "spec_events",
              "work: D1mr 3, DLmr 1 by the events: line", w ? w->self[PERF_CG_D1MR] : NAN);
        check(p.total[PERF_CG_IR] == 66, "spec_totals", "totals: Ir 66", p.total[PERF_CG_IR]);
        /* the difference: head = base with work's self cost grown by 30 per iteration */
        perf_cg_profile h = p, half = p;
        perf_cg_fn hf[8], zf[8];
        memcpy(hf, p.fn, p.nfn * sizeof *hf);
        memset(zf, 0, sizeof zf);
        for (size_t i = 0; i < p.nfn; i++)
            zf[i].name = p.fn[i].name;
        perf_cg_call zc[4];
        memset(zc, 0, sizeof zc);
        for (size_t i = 0; i < p.nfn; i++)
            if (!strcmp(hf[i].name, "work")) {
                hf[i].self[PERF_CG_IR] += 30;
                hf[i].incl[PERF_CG_IR] += 30;
            } else if (!strcmp(hf[i].name, "main"))
                hf[i].incl[PERF_CG_IR] += 30;
        h.fn = hf;
        half.fn = zf;
        half.call = zc;
        cJSON *d = perf_cg_function_diff(&p, &half, &h, &half, 1, PERF_CG_M_IR, 10, 100);
        const cJSON *top = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "self"), 0);
        const cJSON *tf = cJSON_GetObjectItemCaseSensitive(top, "function");
        const cJSON *sh = cJSON_GetObjectItemCaseSensitive(top, "share");
        check(cJSON_IsString(tf) && !strcmp(tf->valuestring, "work") && cJSON_IsNumber(sh) &&
                  fabs(sh->valuedouble - 1) < 1e-12,
              "diff_top", "the grown function first, share 1", cJSON_IsNumber(sh) ? sh->valuedouble : NAN);
        char line[400];
        perf_cg_top_line(d, line, sizeof line);
        check(strstr(line, "top function by self change: work +30 Ir") != NULL, "diff_top_line",
              "the observed text names work +30 Ir", 0);
        cJSON_Delete(d);
        perf_cg_free(&p);
    }
    snprintf(path, sizeof path, "%s/noevents.out", argv[2]);
    write_file(path, "version: 1\nfn=main\n");
    st = perf_cg_read(path, &p);
    check(st == BG_E_PARSE, "bad_no_events", "no events: line: BG_E_PARSE", st);
    snprintf(path, sizeof path, "%s/undefined.out", argv[2]);
    write_file(path, "events: Ir\nfn=(7)\n1 5\n");
    st = perf_cg_read(path, &p);
    check(st == BG_E_PARSE, "bad_undefined_id", "a compressed id used before it is defined: BG_E_PARSE", st);
    return bg_checks_close(c);
}
