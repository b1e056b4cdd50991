/* nan-seq — runs the generated instruction blocks (nan_seq.h) under one
 * runner, compares every block's final state with the sequences fixture (or,
 * for seeds beyond it, with a native run), shrinks deviating blocks by delta
 * debugging and reports one deviation group per part of the state.
 * Usage, options, exit codes: usage_text below (`nan-seq --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_parse.h"
#include "buildgate/bg_proc.h"
#include "buildgate/bg_runner.h"
#include "nan_cases.h"
#include "nan_fixture.h"
#include "nan_known.h"
#include "nan_report.h"
#include "nan_seq.h"
#include "nan_seq_diff.h"
#include "nan_seq_fixture.h"
#include "nan_seq_shrink.h"

static const char usage_text[] =
    "Usage: nan-seq --runner R [--probe PATH] [--seeds FIRST:COUNT] [--shrink K]\n"
    "               [--fixtures DIR] [--timeout SECONDS] [--report-json FILE]\n"
    "       nan-seq --write-fixture --reason TEXT [--replace] [--count N]\n"
    "               [--probe PATH] [--fixtures DIR]\n"
    "\n"
    "Generated instruction sequences of nan_semantics (docs/nan_semantics.md,\n"
    "Generated sequences): straight-line blocks of 8-64 SSE/AVX/FMA ops with NaN\n"
    "and special operands flowing between them, stores and loads, compares that\n"
    "branch and MXCSR writes, run by nan-probe --sequences under the runner.\n"
    "  --runner R         a runner of x86-64 programs (bg-runner --list)\n"
    "  --probe PATH       the x86-64 guest nan-probe (default: beside nan-seq);\n"
    "                     \"none:<why>\": skip\n"
    "  --seeds F:N        blocks F..F+N-1 (default: the fixture's range); seeds\n"
    "                     beyond the fixture are compared with a native run\n"
    "                     (none here and no block in the fixture: exit 2); known\n"
    "                     lines are judged (xpass) only when every block of the\n"
    "                     fixture ran, otherwise a note says they were not\n"
    "  --shrink K         deviating blocks shrunk per part of the state (0..16,\n"
    "                     default 1)\n"
    "  --fixtures DIR     fixtures root (default $BG_FIXTURES_DIR, else fixtures/);\n"
    "                     the fixture is DIR/nan_semantics/sequences-x86_64.json,\n"
    "                     known deviations DIR/nan_semantics/known/<runner's file>,\n"
    "                     lines of context \"sequences\", rule sequence-state\n"
    "  --timeout SECONDS  limit of each probe run (default 240, at most 86400)\n"
    "  --report-json FILE the deviating blocks and their shrunk reproducers as JSON\n"
    "  --write-fixture    record the fixture from a native run (--count blocks from\n"
    "                     seed 0, default 2048; pool: every op of nan_ops.def but\n"
    "                     dpps/dppd/vdpps/vdppd; the host needs SSE4.1, FMA, AVX)\n"
    "  --reason TEXT      with --write-fixture: why the stored truth is written\n"
    "  --replace          with --write-fixture: overwrite an existing fixture\n"
    "  -h, --help         this text\n"
    "\n"
    "A deviating block is shrunk by delta debugging (ddmin) against a native run\n"
    "to a 1-minimal sub-block; the report prints its steps, the entry values they\n"
    "read and the expected vs observed state.  Checks: one per part of the state\n"
    "that deviates (rule sequence-state; fail, or xfail when a known line lists\n"
    "every op of its reproducers), xpass per unused known line, one summary.\n"
    "Exit: 0 pass; 1 a check failed; 77 skip (runner missing, no guest, the\n"
    "      guest CPU lacks an op of the pool); 2 usage (also --seeds of which no\n"
    "      block can be compared); 3 I/O; 5 fixture or known\n"
    "      list missing or corrupt; 6 fixture exists (--write-fixture without\n"
    "      --replace); 7 the probe failed while writing the fixture.\n"
    "Doc: docs/nan_semantics.md (Generated sequences).\n";

typedef struct opts {
    const char *runner, *probe, *fixtures, *reason, *report_json;
    double timeout;
    int write_fixture, replace, shrink, count, have_seeds;
    uint64_t first;
    int n;
} opts;

static int usage(const char *why)
{
    bg_errorf("nan-seq", "%s (see nan-seq --help)", why);
    return BG_EXIT_USAGE;
}

/* One probe run of blocks (seed[i], mask[i]; mask 0 = every step) or, with
 * nb < 0, of the seed range first..first+count-1.  out[] gets the states in
 * order.  0; 1 not run (why: the guest's not_run reason); -1 failed (why). */
static int run_blocks(const bg_runner *rn, const opts *o, const char *pool, uint64_t first, int count,
                      const uint64_t *seed, const uint64_t *mask, int nb, nan_seq_state *out,
                      double *wall, char *why, size_t wn)
{
    const char *tmp = getenv("TMPDIR");
    char path[1100];
    snprintf(path, sizeof path, "%s/nan-seq-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(why, wn, "cannot write a request file in %s", tmp && *tmp ? tmp : "/tmp");
        return -1;
    }
    fprintf(f, "pool %s\n", pool);
    if (nb < 0)
        fprintf(f, "seeds %llu %d\n", (unsigned long long)first, count);
    for (int i = 0; i < nb; i++)
        fprintf(f, "block %llu %llx\n", (unsigned long long)seed[i], (unsigned long long)mask[i]);
    int werr = fclose(f) != 0;
    int want = nb < 0 ? count : nb;
    char *guest[] = {(char *)o->probe, "--sequences", path, NULL};
    char *argv[BG_RUNNER_MAX_ARGS + 8];
    bg_runner_argv(rn, guest, argv, sizeof argv / sizeof argv[0]);
    bg_proc_result pr;
    int rc = -1;
    if (werr || bg_proc_run(argv, rn->env, o->timeout, (size_t)512 << 20, &pr) != BG_OK) {
        snprintf(why, wn, "cannot run the probe under %s", rn->name);
        unlink(path);
        return -1;
    }
    unlink(path);
    if (wall)
        *wall += pr.wall_s;
    cJSON *doc = bg_proc_ok(&pr) ? cJSON_ParseWithLength(pr.out, pr.out_len) : NULL;
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(doc, "results");
    const char *nr = bg_json_str(doc, "not_run");
    if (!doc) {
        bg_proc_explain(&pr, o->timeout, why, wn);
    } else if (nr && cJSON_GetArraySize(res) == 0) {
        snprintf(why, wn, "%s", nr);
        rc = 1;
    } else if (cJSON_GetArraySize(res) != want) {
        snprintf(why, wn, "the probe returned %d of %d blocks%s%s", cJSON_GetArraySize(res), want,
                 nr ? ": " : "", nr ? nr : "");
    } else {
        int i = 0;
        const cJSON *r;
        rc = 0;
        cJSON_ArrayForEach(r, res) {
            const cJSON *h = cJSON_GetArrayItem(r, 2);
            if (!cJSON_IsString(h) || nan_seq_state_parse(h->valuestring, &out[i]) != 0) {
                snprintf(why, wn, "block %d: malformed state", i);
                rc = -1;
                break;
            }
            i++;
        }
    }
    cJSON_Delete(doc);
    bg_proc_result_free(&pr);
    return rc;
}

/* ---- shrinking: every chosen block, all at once, one probe run per side and round ---- */
typedef struct shrink_job {
    nan_seq_shrink s;
    int part;
    int ok;                       /* 1: shrunk against the reference */
    nan_seq_state exp, obs;       /* of the final mask */
} shrink_job;

/* Runs the candidates of every job under both runners; fails[] per candidate. */
static int run_pair(const bg_runner *rn, const bg_runner *ref, const opts *o, const char *pool,
                    const uint64_t *seed, const uint64_t *mask, int nb, nan_seq_state *ro,
                    nan_seq_state *re, char *why, size_t wn)
{
    if (run_blocks(rn, o, pool, 0, 0, seed, mask, nb, ro, NULL, why, wn) != 0)
        return -1;
    return run_blocks(ref, o, pool, 0, 0, seed, mask, nb, re, NULL, why, wn) != 0 ? -1 : 0;
}

static int shrink_all(const bg_runner *rn, const bg_runner *ref, const opts *o, const char *pool,
                      shrink_job *jobs, int nj, char *why, size_t wn)
{
    size_t cap = (size_t)nj * NAN_SEQ_SHRINK_CAND + 1;
    uint64_t *seed = calloc(cap, sizeof *seed), *mask = calloc(cap, sizeof *mask);
    nan_seq_state *ro = calloc(cap, sizeof *ro), *re = calloc(cap, sizeof *re);
    int *fails = calloc(cap, sizeof *fails), rc = 0;
    if (!seed || !mask || !ro || !re || !fails) {
        snprintf(why, wn, "out of memory");
        rc = -1;
    }
    for (int round = 0; rc == 0; round++) {
        int nb = 0;
        for (int j = 0; j < nj; j++) {
            if (round == 0) { /* confirm: the whole block deviates against the reference too */
                seed[nb] = jobs[j].s.seed, mask[nb++] = jobs[j].s.mask;
                continue;
            }
            if (!jobs[j].ok)
                continue;
            nan_seq_shrink_propose(&jobs[j].s);
            for (int c = 0; c < jobs[j].s.ncand; c++)
                seed[nb] = jobs[j].s.seed, mask[nb++] = jobs[j].s.cand[c];
        }
        if (nb == 0)
            break;
        if (run_pair(rn, ref, o, pool, seed, mask, nb, ro, re, why, wn) != 0) {
            rc = -1;
            break;
        }
        for (int i = 0; i < nb; i++)
            fails[i] = 0;
        int at = 0;
        for (int j = 0; j < nj; j++) {
            shrink_job *jb = &jobs[j];
            if (round == 0) {
                jb->ok = (nan_seq_diff(&re[at], &ro[at]) >> jb->part & 1) != 0;
                jb->exp = re[at], jb->obs = ro[at];
                at++;
                continue;
            }
            if (!jb->ok || jb->s.ncand == 0)
                continue;
            for (int c = 0; c < jb->s.ncand; c++)
                fails[at + c] = (nan_seq_diff(&re[at + c], &ro[at + c]) >> jb->part & 1) != 0;
            nan_seq_shrink_answer(&jb->s, fails + at);
            at += jb->s.ncand;
        }
    }
    if (rc == 0) { /* the final states of the reproducers */
        int nb = 0;
        for (int j = 0; j < nj; j++)
            if (jobs[j].ok)
                seed[nb] = jobs[j].s.seed, mask[nb++] = jobs[j].s.mask;
        if (nb && run_pair(rn, ref, o, pool, seed, mask, nb, ro, re, why, wn) != 0)
            rc = -1;
        for (int j = 0, at = 0; rc == 0 && j < nj; j++)
            if (jobs[j].ok)
                jobs[j].exp = re[at], jobs[j].obs = ro[at], at++;
    }
    free(seed), free(mask), free(ro), free(re), free(fails);
    return rc;
}

/* ---- the check run ---- */
static cJSON *reproducer_json(const nan_seq_pool *pool, const shrink_job *jb, char *block, size_t bn)
{
    static nan_seq s;
    nan_seq_generate(jb->s.seed, pool, &s);
    cJSON *r = cJSON_CreateObject();
    char hex[32], diff[2048];
    cJSON_AddNumberToObject(r, "seed", (double)jb->s.seed);
    snprintf(hex, sizeof hex, "%llx", (unsigned long long)jb->s.mask);
    cJSON_AddStringToObject(r, "mask", hex);
    cJSON_AddNumberToObject(r, "steps", nan_seq_mask_count(jb->s.mask));
    cJSON_AddNumberToObject(r, "block_steps", s.n);
    cJSON_AddNumberToObject(r, "ddmin_rounds", jb->s.rounds);
    cJSON_AddNumberToObject(r, "ddmin_tests", jb->s.tests);
    cJSON *ops = cJSON_AddArrayToObject(r, "ops");
    for (int i = 0; i < s.n; i++)
        if ((jb->s.mask >> i & 1) && s.step[i].what == S_OP)
            cJSON_AddItemToArray(ops, cJSON_CreateString(nan_ops[s.step[i].op].name));
    nan_seq_block_text(&s, jb->s.mask, block, bn);
    cJSON_AddStringToObject(r, "block", block);
    nan_seq_diff_text(jb->part, &jb->exp, &jb->obs, diff, sizeof diff);
    cJSON_AddStringToObject(r, "difference", diff);
    char es[NAN_SEQ_STATE_HEX + 1], os[NAN_SEQ_STATE_HEX + 1];
    nan_seq_state_hex(&jb->exp, es), nan_seq_state_hex(&jb->obs, os);
    cJSON_AddStringToObject(r, "expected_state", es);
    cJSON_AddStringToObject(r, "observed_state", os);
    return r;
}

typedef struct part_stats {
    long seeds;
    uint64_t first_seed[16];
    int nfirst;
} part_stats;

static int check_run(const opts *o, int argc_unused)
{
    (void)argc_unused;
    int report_failed = 0; /* --report-json could not be written: exit 3 */
    char why[600], fixture[1200];
    snprintf(fixture, sizeof fixture, "%s/nan_semantics/sequences-x86_64.json", o->fixtures);
    bg_runner rn, ref;
    bg_status st = bg_runner_resolve(o->runner, "x86_64", &rn, why, sizeof why);
    if (st == BG_E_USAGE || st == BG_E_NOMEM || st == BG_E_PARSE) /* PARSE: no version (bg_runner.h) */
        return bg_exit_code(bg_fail(st, "nan-seq", "%s", why));
    bg_checks *c = bg_checks_open("nan_semantics");
    if (!c)
        return BG_EXIT_IO;
    char fallback[200], tool[64];
    snprintf(fallback, sizeof fallback, "nan.%s.sequences", o->runner);
    const char *test = bg_test_name(fallback);
    if (st != BG_OK || strncmp(o->probe, "none:", 5) == 0 || access(o->probe, X_OK) != 0) {
        const char *reason = st != BG_OK ? why : strncmp(o->probe, "none:", 5) == 0 ? o->probe + 5 : NULL;
        if (st == BG_OK)
            bg_runner_free(&rn);
        if (reason) {
            bg_check_emit_str(c, test, BG_SKIP, "runner and guest available", reason, NULL);
        } else {
            snprintf(why, sizeof why, "the x86-64 guest %s was not built", o->probe);
            bg_check_emit_str(c, test, BG_FAIL, "the x86-64 guest built", why, NULL);
        }
        return bg_checks_close(c);
    }
    bg_runner_known_tool(&rn, tool, sizeof tool);
    nan_seq_fixture fx;
    if ((st = nan_seq_fixture_load(fixture, &fx)) != BG_OK) {
        bg_runner_free(&rn);
        snprintf(why, sizeof why, "%s.fixture", test);
        return bg_checks_fail_fixture(c, why, "a valid sequences fixture (docs/nan_semantics.md)", st,
                                      o->fixtures, "nan_semantics/sequences-x86_64.json");
    }
    nan_known kd;
    if ((st = nan_known_load_runner(o->fixtures, &rn, NAN_CONTEXT_SEQUENCES, &kd)) != BG_OK) {
        nan_seq_fixture_free(&fx);
        snprintf(why, sizeof why, "%s.known", test);
        char kfile[300];
        snprintf(kfile, sizeof kfile, "nan_semantics/known/%s", rn.known);
        bg_runner_free(&rn);
        return bg_checks_fail_fixture(c, why, "a valid known-deviation list (docs/nan_semantics.md)", st,
                                      o->fixtures, kfile);
    }
    uint64_t first = o->have_seeds ? o->first : fx.first;
    int n = o->have_seeds ? o->n : fx.count;
    uint64_t fx_end = fx.first + (uint64_t)fx.count;
    /* the reference: a native run, on an x86-64 host whose runner is not native */
    int have_ref = strcmp(rn.name, "native") != 0 &&
                   bg_runner_resolve("native", "x86_64", &ref, why, sizeof why) == BG_OK;
    if (!have_ref && (first >= fx_end || first + (uint64_t)n <= fx.first)) {
        /* nothing could be compared: one clear error, not a pass over no block */
        bg_fail(BG_E_USAGE, "nan-seq", "--seeds %llu:%d: seeds beyond the fixture's %d blocks (%llu..%llu) "
                "and no native x86-64 reference to compare them with (%s)", (unsigned long long)first, n,
                fx.count, (unsigned long long)fx.first, (unsigned long long)(fx_end - 1),
                strcmp(rn.name, "native") == 0 ? "runner native is that reference" : "none on this host");
        nan_known_free(&kd);
        nan_seq_fixture_free(&fx);
        bg_runner_free(&rn);
        snprintf(why, sizeof why, "%s.seeds", test);
        return bg_checks_fail_stored(c, why, "seeds within the fixture, or a native reference", BG_E_USAGE,
                                     NULL);
    }
    /* the known lines were measured on the fixture's blocks (their reference
       says so): judged "not observed" (xpass) only by a run covering them all */
    char unjudged[300] = "";
    if (first > fx.first || first + (uint64_t)n < fx_end)
        snprintf(unjudged, sizeof unjudged, "this run covered blocks %llu..%llu, not all of the fixture's "
                 "%llu..%llu the known lines were measured on", (unsigned long long)first,
                 (unsigned long long)(first + (uint64_t)n - 1), (unsigned long long)fx.first,
                 (unsigned long long)(fx_end - 1));
    nan_seq_state *obs = calloc((size_t)n, sizeof *obs), *exp = calloc((size_t)n, sizeof *exp);
    nan_run_info ri = {.test = test, .runner = o->runner, .known_list = tool, .version = rn.version,
                       .context = NAN_CONTEXT_SEQUENCES, .known_context = NAN_CONTEXT_SEQUENCES,
                       .probe_ok = 1, .known_unjudged = *unjudged ? unjudged : NULL};
    nan_groups gs = {0};
    int rc = obs && exp ? run_blocks(&rn, o, fx.pool_text, first, n, NULL, NULL, -1, obs, &ri.probe_wall_s,
                                     why, sizeof why)
                        : -1;
    int outside = 0, not_compared = 0;
    for (int i = 0; i < n; i++)
        outside += first + (uint64_t)i < fx.first || first + (uint64_t)i >= fx.first + (uint64_t)fx.count;
    if (rc == 0 && outside) { /* expected states beyond the fixture: a native run */
        if (have_ref)
            rc = run_blocks(&ref, o, fx.pool_text, first, n, NULL, NULL, -1, exp, NULL, why, sizeof why);
        else
            not_compared = outside;
    }
    if (rc == 1) {
        bg_check_emit_str(c, test, BG_SKIP, "the guest CPU runs every op of the pool", why, NULL);
        goto done;
    }
    if (rc < 0) {
        ri.probe_ok = 0;
        nan_group *g = nan_groups_add(&gs, "probe-failed", why, NAN_CONTEXT_SEQUENCES, &(int){0});
        if (g)
            snprintf(g->expected, sizeof g->expected, "exit status 0 and %d block states", n);
        if (g)
            snprintf(g->observed, sizeof g->observed, "%.255s", why);
        fprintf(stderr, "buildgate: nan-seq: runner %s: %s\n", rn.name, why);
    }
    part_stats ps[NAN_SEQ_PARTS] = {{0}};
    long deviating = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        uint64_t sd = first + (uint64_t)i;
        int in_fx = sd >= fx.first && sd < fx.first + (uint64_t)fx.count;
        if (!in_fx && !have_ref)
            continue;
        gs.checked++;
        unsigned d = nan_seq_diff(in_fx ? &fx.state[sd - fx.first] : &exp[i], &obs[i]);
        deviating += d != 0;
        for (int p = 0; p < NAN_SEQ_PARTS; p++) {
            if (!(d >> p & 1))
                continue;
            ps[p].seeds++;
            if (ps[p].nfirst < 16)
                ps[p].first_seed[ps[p].nfirst++] = sd;
        }
    }
    gs.skipped = not_compared;
    /* shrink the first K deviating blocks of every part */
    shrink_job *jobs = calloc((size_t)NAN_SEQ_PARTS * (size_t)(o->shrink > 0 ? o->shrink : 1), sizeof *jobs);
    int nj = 0;
    for (int p = 0; rc == 0 && jobs && p < NAN_SEQ_PARTS; p++)
        for (int k = 0; k < ps[p].nfirst && k < o->shrink; k++) {
            static nan_seq s;
            nan_seq_generate(ps[p].first_seed[k], &fx.pool, &s);
            nan_seq_shrink_start(&jobs[nj].s, ps[p].first_seed[k], nan_seq_full_mask(s.n));
            jobs[nj++].part = p;
        }
    char shrink_note[700] = "";
    if (nj && !have_ref)
        snprintf(shrink_note, sizeof shrink_note, "deviating blocks not shrunk: %s",
                 strcmp(rn.name, "native") == 0 ? "the runner is the native reference itself (the fixture "
                                                  "host's CPU differs from this one)"
                                                : "no native x86-64 reference on this host");
    else if (nj && shrink_all(&rn, &ref, o, fx.pool_text, jobs, nj, why, sizeof why) != 0)
        snprintf(shrink_note, sizeof shrink_note, "shrinking stopped: %s", why);
    if (*shrink_note) {
        gs.notes = gs.notes ? gs.notes : cJSON_CreateArray();
        cJSON_AddItemToArray(gs.notes, cJSON_CreateString(shrink_note));
    }
    cJSON *report = cJSON_CreateObject();
    cJSON_AddNumberToObject(report, "blocks", (double)gs.checked);
    cJSON_AddNumberToObject(report, "deviating", (double)deviating);
    cJSON *rparts = cJSON_AddObjectToObject(report, "parts");
    static char block[16384];
    for (int p = 0; p < NAN_SEQ_PARTS; p++) {
        if (!ps[p].seeds)
            continue;
        cJSON *rp = cJSON_AddObjectToObject(rparts, nan_seq_part_names[p]);
        cJSON_AddNumberToObject(rp, "seeds", (double)ps[p].seeds);
        cJSON *reps = cJSON_AddArrayToObject(rp, "reproducers");
        nan_group *g = NULL;
        int fresh = 0, shown = 0;
        for (int j = 0; j < nj; j++) {
            if (jobs[j].part != p || !jobs[j].ok)
                continue;
            cJSON *r = reproducer_json(&fx.pool, &jobs[j], block, sizeof block);
            const cJSON *op;
            cJSON_ArrayForEach(op, cJSON_GetObjectItemCaseSensitive(r, "ops"))
                g = nan_groups_add(&gs, "sequence-state", nan_seq_part_names[p], op->valuestring, &fresh);
            if (!g) /* a reproducer without ops (stores, loads, LDMXCSR only) */
                g = nan_groups_add(&gs, "sequence-state", nan_seq_part_names[p], "sequences", &fresh);
            if (g && !shown++) {
                /* each side alone: the report labels them "expected" / "observed" */
                nan_seq_diff_side(p, &jobs[j].exp, &jobs[j].obs, NAN_SEQ_EXPECTED, g->expected,
                                  sizeof g->expected);
                nan_seq_diff_side(p, &jobs[j].exp, &jobs[j].obs, NAN_SEQ_OBSERVED, g->observed,
                                  sizeof g->observed);
                cJSON_Delete(g->example);
                g->example = cJSON_Duplicate(r, 1);
                /* the shrunk reproducer's steps, shown in report.md's failure entry */
                static char rep[sizeof block + 200];
                snprintf(rep, sizeof rep, "seed %llu mask %llx (%d of %d steps):\n%s",
                         (unsigned long long)jobs[j].s.seed, (unsigned long long)jobs[j].s.mask,
                         nan_seq_mask_count(jobs[j].s.mask), (int)bg_json_num(r, "block_steps", 0), block);
                cJSON_AddStringToObject(g->example, "reproducer", rep);
            }
            printf("nan-seq: %s: seed %llu shrunk from %d to %d step(s) (ddmin: %d rounds, %d tests):\n%s"
                   "  difference: %s\n",
                   nan_seq_part_names[p], (unsigned long long)jobs[j].s.seed,
                   (int)bg_json_num(r, "block_steps", 0), nan_seq_mask_count(jobs[j].s.mask), jobs[j].s.rounds,
                   jobs[j].s.tests, block, bg_json_str(r, "difference"));
            cJSON_AddItemToArray(reps, r);
        }
        if (!shown) { /* no reproducer: the group still shows, with its first seed */
            g = nan_groups_add(&gs, "sequence-state", nan_seq_part_names[p], "sequences", &fresh);
            if (g) {
                snprintf(g->expected, sizeof g->expected, "seed %llu: the fixture's state",
                         (unsigned long long)ps[p].first_seed[0]);
                snprintf(g->observed, sizeof g->observed, "a different %s", nan_seq_part_names[p]);
            }
        }
        if (g)
            g->count = ps[p].seeds;
    }
    report_failed = o->report_json && bg_json_write_atomic(o->report_json, report) != BG_OK;
    cJSON_Delete(report);
    free(jobs);
    char t[300];
    snprintf(t, sizeof t, "%ld of %ld blocks deviate (seeds %llu..%llu); fixture from %s, %s", deviating,
             gs.checked, (unsigned long long)first, (unsigned long long)(first + (uint64_t)n - 1), fx.cpu_model,
             fx.date);
    gs.notes = gs.notes ? gs.notes : cJSON_CreateArray();
    cJSON_AddItemToArray(gs.notes, cJSON_CreateString(t));
    if (not_compared) {
        snprintf(t, sizeof t, "%d blocks beyond the fixture not compared: no native reference here", not_compared);
        cJSON_AddItemToArray(gs.notes, cJSON_CreateString(t));
    }
    nan_report_emit(c, &ri, &gs, &kd);
done:
    nan_groups_free(&gs);
    free(obs), free(exp);
    nan_known_free(&kd);
    nan_seq_fixture_free(&fx);
    if (have_ref)
        bg_runner_free(&ref);
    bg_runner_free(&rn);
    int ex = bg_checks_close(c);
    return report_failed ? 3 : ex; /* the line is printed; the verdicts stand, the exit says I/O */
}

static int write_fixture(const opts *o, int argc, char **argv)
{
    char path[1200], why[600];
    snprintf(path, sizeof path, "%s/nan_semantics/sequences-x86_64.json", o->fixtures);
    bg_status st = nan_seq_fixture_precheck(path, o->reason, o->replace);
    if (st != BG_OK)
        return bg_exit_code(st);
    static nan_seq_pool pool;
    static char pool_text[8192];
    for (int k = 0; k < nan_op_count; k++)
        if (nan_seq_op_poolable(k) && pool.n < NAN_SEQ_POOL_MAX)
            pool.op[pool.n++] = (uint16_t)k;
    if (nan_seq_pool_text(&pool, pool_text, sizeof pool_text) != 0)
        return bg_exit_code(bg_fail(BG_E_NOMEM, "nan-seq", "the op pool does not fit %zu bytes", sizeof pool_text));
    bg_runner rn;
    if ((st = bg_runner_resolve("native", "x86_64", &rn, why, sizeof why)) != BG_OK)
        return bg_exit_code(bg_fail(st, "nan-seq", "--write-fixture: %s", why));
    nan_seq_state *states = calloc((size_t)o->count, sizeof *states);
    int rc = states ? run_blocks(&rn, o, pool_text, 0, o->count, NULL, NULL, -1, states, NULL, why, sizeof why) : -1;
    bg_runner_free(&rn);
    if (rc != 0) {
        free(states);
        bg_errorf("nan-seq", "--write-fixture: the native probe run: %s", states ? why : "out of memory");
        return BG_EXIT_TARGET;
    }
    char cmd[2048];
    nan_fixture_command(argc, argv, cmd, sizeof cmd);
    int avx = 0;
    for (int i = 0; i < pool.n; i++)
        avx |= nan_ops[pool.op[i]].feat == F_AVX || nan_ops[pool.op[i]].feat == F_FMA;
    st = nan_seq_fixture_write(path, cmd, o->reason, o->replace, pool_text, avx, 0, o->count, states);
    free(states);
    if (st == BG_OK)
        printf("nan-seq: wrote %s (%d blocks)\n", path, o->count);
    return bg_exit_code(st);
}

/* --seeds FIRST:COUNT: both whole decimal numbers, 1 <= COUNT <= 1000000. */
static int parse_seeds(const char *v, opts *o)
{
    char first[32];
    const char *colon = strchr(v, ':');
    uint64_t f, n;
    if (!colon || (size_t)(colon - v) >= sizeof first)
        return -1;
    snprintf(first, sizeof first, "%.*s", (int)(colon - v), v);
    if (bg_parse_u64(first, 0, UINT64_MAX - 1000000, &f) != BG_OK || bg_parse_u64(colon + 1, 1, 1000000, &n) != BG_OK)
        return -1;
    o->first = f, o->n = (int)n, o->have_seeds = 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    opts o = {.timeout = 240, .shrink = 1, .count = 2048, .fixtures = getenv("BG_FIXTURES_DIR")};
    static const char *const value_options[] = {"--runner", "--probe", "--fixtures", "--reason", "--seeds",
                                                "--shrink", "--timeout", "--count", "--report-json", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u = 0;
        if (bg_option_in(a, value_options) && !v)
            return bg_help_missing_value(a);
        if (strcmp(a, "--runner") == 0) o.runner = argv[++i];
        else if (strcmp(a, "--probe") == 0) o.probe = argv[++i];
        else if (strcmp(a, "--fixtures") == 0) o.fixtures = argv[++i];
        else if (strcmp(a, "--reason") == 0) o.reason = argv[++i];
        else if (strcmp(a, "--report-json") == 0) o.report_json = argv[++i];
        else if (strcmp(a, "--timeout") == 0) {
            char *end;
            o.timeout = strtod(argv[++i], &end);
            if (end == v || *end || !(o.timeout > 0 && o.timeout <= 86400))
                return bg_help_bad_value(a, "'%s' is not a number of seconds in (0, 86400]", v);
        } else if (strcmp(a, "--shrink") == 0) {
            if (bg_parse_u64(argv[++i], 0, 16, &u) != BG_OK) /* part_stats keeps 16 seeds a part */
                return bg_help_bad_value(a, "'%s' is not a whole number in 0..16", v);
            o.shrink = (int)u;
        } else if (strcmp(a, "--count") == 0) {
            if (bg_parse_u64(argv[++i], 1, 1000000, &u) != BG_OK)
                return bg_help_bad_value(a, "'%s' is not a whole number in 1..1000000", v);
            o.count = (int)u;
        } else if (strcmp(a, "--seeds") == 0) {
            if (parse_seeds(argv[++i], &o) != 0)
                return bg_help_bad_value(a, "'%s' is not FIRST:COUNT (whole numbers, COUNT 1..1000000)", v);
        } else if (strcmp(a, "--write-fixture") == 0) o.write_fixture = 1;
        else if (strcmp(a, "--replace") == 0) o.replace = 1;
        else
            return bg_help_unknown_option(a);
    }
    char beside[1100];
    if (!o.probe && strrchr(argv[0], '/')) {
        snprintf(beside, sizeof beside, "%.*s/nan-probe", (int)(strrchr(argv[0], '/') - argv[0]), argv[0]);
        o.probe = beside;
    }
    if (!o.probe)
        return usage("--probe is required (no nan-probe beside nan-seq)");
    if (!o.fixtures || !*o.fixtures)
        o.fixtures = bg_fixtures_root();
    if (o.write_fixture) {
        if (strncmp(o.probe, "none:", 5) == 0)
            return bg_exit_code(bg_fail(BG_E_UNSUPPORTED, "nan-seq", "%s", o.probe + 5));
        return write_fixture(&o, argc, argv);
    }
    if (!o.runner)
        return usage("--runner is required");
    bg_status fst = bg_fixtures_check_root(o.fixtures, "nan_semantics");
    if (fst != BG_OK)
        return bg_exit_code(fst);
    return check_run(&o, argc);
}
