/* nan-seq-selftest — every check of the generated sequences can fail
 * (tests nan.selftest.seq_<scenario>, label selftest).
 * Usage: nan-seq-selftest SCENARIO NAN_SEQ PROBE FIXTURES_ROOT WORK_DIR RUNNERS_DIR
 *   ddmin            the shrinker alone, on a block that fails exactly when
 *                    steps 3, 17 and 40 are all kept: it must end with those
 *                    three (1-minimal), not more
 *   mutant_copy      runners/seq-mutant-runner.sh copy:maxps:minps (minps run
 *                    as maxps): nan-seq exits 1 with a sequence-state fail,
 *                    and every shrunk reproducer has <= 3 steps including minps
 *   mutant_flags     flags-lost:addps (the MXCSR status flags dropped after
 *                    addps, as a deferred flag check that loses a batch's
 *                    sticky flags): an mxcsr-flags fail, reproducers <= 3
 *                    steps including addps
 *   corrupt_fixture  the fixture with one state digit changed (hash no longer
 *                    matches): exit 5, one line naming the block
 *   known_subset     a known line of a user runner (the guest run natively)
 *                    that the run does not show: over blocks 0..15 only it is
 *                    not judged (exit 0, a note "not judged", no xpass); over
 *                    the fixture's whole range it is xpass (exit 1)
 * mutant_copy also asserts the failing check's expected/observed say the
 * values only (report.md labels them; "expected xmm.. expected .." was
 * doubled) and its details.reproducer lists the shrunk steps.
 * Records one check, nan.selftest.seq_<scenario>.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_cpu.h"
#include "buildgate/bg_file.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_proc.h"
#include "nan_seq_shrink.h"

typedef struct ctx {
    const char *seq, *probe, *fixtures, *work, *runners;
} ctx;

typedef struct verdict {
    bg_verdict v;
    char exp[400], obs[1200];
} verdict;

static int scenario_ddmin(verdict *r)
{
    const uint64_t need = 1ull << 3 | 1ull << 17 | 1ull << 40;
    nan_seq_shrink s;
    nan_seq_shrink_start(&s, 7, (1ull << 50) - 1);
    int fails[NAN_SEQ_SHRINK_CAND];
    while (nan_seq_shrink_propose(&s)) {
        for (int i = 0; i < s.ncand; i++)
            fails[i] = (s.cand[i] & need) == need;
        nan_seq_shrink_answer(&s, fails);
    }
    snprintf(r->exp, sizeof r->exp, "ddmin of a 50-step block failing with steps 3, 17, 40 -> mask %llx",
             (unsigned long long)need);
    snprintf(r->obs, sizeof r->obs, "mask %llx after %d rounds, %d tests", (unsigned long long)s.mask, s.rounds,
             s.tests);
    r->v = s.mask == need ? BG_PASS : BG_FAIL;
    return 0;
}

/* The checks nan-seq recorded (one JSON object a line) as an array; NULL when unreadable. */
static cJSON *read_checks(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (bg_file_read(path, "checks", &text, &len) != BG_OK)
        return NULL;
    cJSON *all = cJSON_CreateArray();
    for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        cJSON *c = cJSON_Parse(line);
        if (c)
            cJSON_AddItemToArray(all, c);
    }
    free(text);
    return all;
}

/* 1 when the fail check of part `part` says its values without the words
 * "expected"/"observed" (report.md adds them) and carries the shrunk
 * reproducer's steps (details.reproducer, naming op); what[n] says what it saw. */
static int fail_entry_ok(const char *checks, const char *part, const char *op, char *what, size_t n)
{
    cJSON *all = read_checks(checks);
    const cJSON *c;
    int ok = 0;
    snprintf(what, n, "no fail check of rule sequence-state, part %s", part);
    cJSON_ArrayForEach(c, all) {
        const char *v = bg_json_str(c, "verdict"), *e = bg_json_str(c, "expected"), *o = bg_json_str(c, "observed");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
        const char *rule = bg_json_str(d, "rule"), *detail = bg_json_str(d, "detail");
        const char *rep = bg_json_str(d, "reproducer");
        if (!v || strcmp(v, "fail") || !rule || strcmp(rule, "sequence-state") || !detail || strcmp(detail, part))
            continue;
        ok = e && o && !strstr(e, "expected") && !strstr(o, "observed") && rep && strstr(rep, "step ") &&
             strstr(rep, op);
        snprintf(what, n, "expected '%.80s', observed '%.80s', reproducer '%.80s'", e ? e : "?", o ? o : "?",
                 rep ? rep : "(none)");
        break;
    }
    cJSON_Delete(all);
    return ok;
}

/* Runs nan-seq under the mutant runner; checks the exit code and the report. */
static int scenario_mutant(const ctx *c, const char *mutation, const char *part, const char *op, verdict *r)
{
    if (strcmp(bg_cpu_arch(), "x86_64") != 0) { /* the mutant runner runs the guest natively */
        r->v = BG_SKIP;
        snprintf(r->exp, sizeof r->exp, "an x86-64 host (the mutant runner runs the guest natively)");
        snprintf(r->obs, sizeof r->obs, "this host is %s", bg_cpu_arch());
        return 0;
    }
    char checks[1200], report[1200], e1[1300], e2[1300], e3[2600];
    snprintf(checks, sizeof checks, "%s/checks.jsonl", c->work);
    snprintf(report, sizeof report, "%s/report.json", c->work);
    unlink(checks), unlink(report);
    snprintf(e1, sizeof e1, "BG_CHECKS_FILE=%s", checks);
    snprintf(e2, sizeof e2, "BG_FIXTURES_DIR=%s", c->fixtures);
    snprintf(e3, sizeof e3, "BG_X86_RUNNERS=seqmut=%s/seq-mutant-runner.sh %s", c->runners, mutation);
    char *env[] = {e1, e2, e3, "BG_TEST_NAME=nan.selftest.inner", NULL};
    char *argv[] = {(char *)c->seq, "--runner", "seqmut", "--probe", (char *)c->probe, "--seeds", "0:512",
                    "--report-json", report, NULL};
    bg_proc_result pr;
    if (bg_proc_run(argv, env, 110, 0, &pr) != BG_OK)
        return -1;
    int code = pr.exited ? pr.code : -1;
    bg_proc_result_free(&pr);
    snprintf(r->exp, sizeof r->exp, "exit 1; part %s deviates; every shrunk reproducer has 1..3 steps "
             "and contains %s", part, op);
    cJSON *doc = NULL;
    if (code == 77) {
        r->v = BG_SKIP;
        snprintf(r->obs, sizeof r->obs, "nan-seq skipped (no guest or CPU feature here)");
        return 0;
    }
    if (bg_json_load(report, "report", &doc) != BG_OK) {
        snprintf(r->obs, sizeof r->obs, "exit %d, no report", code);
        return 0;
    }
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "parts"), part);
    const cJSON *reps = cJSON_GetObjectItemCaseSensitive(p, "reproducers"), *rep;
    int n = 0, bad = 0, max_steps = 0;
    char ops_seen[600] = "";
    cJSON_ArrayForEach(rep, reps) {
        int steps = (int)bg_json_num(rep, "steps", 99), has = 0;
        const cJSON *o;
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(rep, "ops")) {
            has |= cJSON_IsString(o) && strcmp(o->valuestring, op) == 0;
            size_t len = strlen(ops_seen);
            snprintf(ops_seen + len, sizeof ops_seen - len, "%s%s", len ? "," : "", o->valuestring);
        }
        max_steps = steps > max_steps ? steps : max_steps;
        bad += steps < 1 || steps > 3 || !has;
        n++;
    }
    char entry[300];
    int entry_ok = fail_entry_ok(checks, part, op, entry, sizeof entry);
    snprintf(r->obs, sizeof r->obs, "exit %d; %s: %g deviating seeds, %d reproducers, longest %d steps, ops %s; "
             "fail check: %s", code, part, bg_json_num(p, "seeds", 0), n, max_steps, *ops_seen ? ops_seen : "-",
             entry);
    snprintf(r->exp + strlen(r->exp), sizeof r->exp - strlen(r->exp), "; its fail check's expected/observed "
             "without the words expected/observed, details.reproducer with the steps and %s", op);
    r->v = code == 1 && n > 0 && !bad && entry_ok ? BG_PASS : BG_FAIL;
    cJSON_Delete(doc);
    return 0;
}

static int scenario_corrupt(const ctx *c, verdict *r)
{
    char src[1200], dir[1200], dst[1300], known[1300];
    snprintf(src, sizeof src, "%s/nan_semantics/sequences-x86_64.json", c->fixtures);
    snprintf(dir, sizeof dir, "%s/nan_semantics", c->work);
    snprintf(known, sizeof known, "%s/known", dir);
    mkdir(c->work, 0777), mkdir(dir, 0777), mkdir(known, 0777);
    /* a fixtures root holds the golden fixture (bg_fixtures_check_root): link the real one */
    char golden[1300], golden_src[1300];
    snprintf(golden_src, sizeof golden_src, "%s/nan_semantics/golden-x86_64.json", c->fixtures);
    snprintf(golden, sizeof golden, "%s/golden-x86_64.json", dir);
    unlink(golden);
    if (symlink(golden_src, golden) != 0)
        return -1;
    snprintf(dst, sizeof dst, "%s/sequences-x86_64.json", dir);
    char *text = NULL;
    size_t len = 0;
    if (bg_file_read(src, "sequences fixture", &text, &len) != BG_OK)
        return -1;
    char *blocks = strstr(text, "\"blocks\"");
    char *q = blocks ? strchr(blocks, ',') : NULL; /* after the first block's hash */
    q = q ? strchr(q, '"') : NULL;
    if (!q || !q[1]) {
        free(text);
        return -1;
    }
    q[1] = q[1] == '0' ? '1' : '0';
    FILE *f = fopen(dst, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        free(text);
        return -1;
    }
    free(text);
    char checks[1300], e1[1400];
    snprintf(checks, sizeof checks, "%s/checks.jsonl", c->work);
    snprintf(e1, sizeof e1, "BG_CHECKS_FILE=%s", checks);
    char *env[] = {e1, NULL};
    char *argv[] = {(char *)c->seq, "--runner", "native", "--probe", (char *)c->probe, "--fixtures",
                    (char *)c->work, NULL};
    bg_proc_result pr;
    if (bg_proc_run(argv, env, 60, 0, &pr) != BG_OK)
        return -1;
    int code = pr.exited ? pr.code : -1;
    snprintf(r->exp, sizeof r->exp, "exit 5 and one line 'buildgate: nan-seq: fixture ...: block 0 (seed 0): "
             "hash ... does not match its state'");
    snprintf(r->obs, sizeof r->obs, "exit %d: %.1000s", code, pr.err);
    r->v = code == 5 && strstr(pr.err, "block 0 (seed 0): hash") ? BG_PASS : BG_FAIL;
    bg_proc_result_free(&pr);
    return 0;
}

/* One nan-seq run for known_subset; its exit code, -1 when it could not run. */
static int run_subset(const ctx *c, const char *root, const char *seeds, const char *checks)
{
    char e1[1300], e2[1300];
    unlink(checks);
    snprintf(e1, sizeof e1, "BG_CHECKS_FILE=%s", checks);
    snprintf(e2, sizeof e2, "BG_FIXTURES_DIR=%s", root);
    char *env[] = {e1, e2, "BG_X86_RUNNERS=seqsub=env", "BG_TEST_NAME=nan.selftest.inner", NULL};
    char *argv[] = {(char *)c->seq, "--runner", "seqsub", "--probe", (char *)c->probe, "--shrink", "0",
                    seeds ? "--seeds" : NULL, (char *)seeds, NULL}; /* no --seeds: the fixture's range */
    bg_proc_result pr;
    if (bg_proc_run(argv, env, 110, 0, &pr) != BG_OK)
        return -1;
    int code = pr.exited ? pr.code : -1;
    bg_proc_result_free(&pr);
    return code;
}

/* The number of xpass checks of known lines (<test>.known.<rule>: the
 * summary is xpass too then); *not_judged = 1 when a check's notes say known
 * lines were not judged. */
static int count_xpass(const char *checks, int *not_judged)
{
    cJSON *all = read_checks(checks);
    const cJSON *c;
    int n = 0;
    *not_judged = 0;
    cJSON_ArrayForEach(c, all) {
        const char *v = bg_json_str(c, "verdict"), *name = bg_json_str(c, "name");
        n += v && strcmp(v, "xpass") == 0 && name && strstr(name, ".known.");
        char *notes = cJSON_PrintUnformatted(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "details"), "notes"));
        *not_judged |= notes && strstr(notes, "known line(s) not judged") != NULL;
        free(notes);
    }
    cJSON_Delete(all);
    return n;
}

static int scenario_known_subset(const ctx *c, verdict *r)
{
    if (strcmp(bg_cpu_arch(), "x86_64") != 0) { /* the runner runs the guest natively */
        r->v = BG_SKIP;
        snprintf(r->exp, sizeof r->exp, "an x86-64 host (the runner runs the guest natively)");
        snprintf(r->obs, sizeof r->obs, "this host is %s", bg_cpu_arch());
        return 0;
    }
    static const char line[] = "seqsub\t*\tsequences\taddps\tsequence-state\tregisters\tself-test: never seen\n";
    static const char *const files[] = {"golden-x86_64.json", "sequences-x86_64.json"};
    char root[1200], dir[1300], p[1400], src[1400], checks[1300];
    snprintf(root, sizeof root, "%s/root", c->work);
    snprintf(dir, sizeof dir, "%s/nan_semantics", root);
    mkdir(root, 0777), mkdir(dir, 0777);
    for (int i = 0; i < 2; i++) {
        snprintf(src, sizeof src, "%s/nan_semantics/%s", c->fixtures, files[i]);
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
        if (symlink(src, p) != 0)
            return -1;
    }
    snprintf(p, sizeof p, "%s/known", dir);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/known/seqsub.tsv", dir);
    FILE *f = fopen(p, "w");
    if (!f || fputs(line, f) == EOF || fclose(f) != 0)
        return -1;
    snprintf(checks, sizeof checks, "%s/checks.jsonl", c->work);
    int nj1 = 0, nj2 = 0;
    int part = run_subset(c, root, "0:16", checks);
    int xp1 = count_xpass(checks, &nj1);
    int whole = run_subset(c, root, NULL, checks);
    int xp2 = count_xpass(checks, &nj2);
    snprintf(r->exp, sizeof r->exp, "a known line the run does not show: blocks 0..15 -> exit 0, no xpass, a "
             "note 'known line(s) not judged'; the fixture's whole range -> exit 1 and one xpass of the line");
    snprintf(r->obs, sizeof r->obs, "0:16 -> exit %d, %d xpass, note %s; whole -> exit %d, %d xpass", part, xp1,
             nj1 ? "present" : "absent", whole, xp2);
    if (part == 77 || whole == 77) {
        r->v = BG_SKIP;
        return 0;
    }
    r->v = part == 0 && xp1 == 0 && nj1 && whole == 1 && xp2 == 1 ? BG_PASS : BG_FAIL;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        bg_errorf("nan-seq-selftest", "usage: nan-seq-selftest SCENARIO NAN_SEQ PROBE FIXTURES_ROOT WORK_DIR "
                  "RUNNERS_DIR");
        return BG_EXIT_USAGE;
    }
    ctx c = {.seq = argv[2], .probe = argv[3], .fixtures = argv[4], .work = argv[5], .runners = argv[6]};
    mkdir(c.work, 0777);
    verdict r = {.v = BG_FAIL};
    const char *s = argv[1];
    int rc;
    if (strcmp(s, "ddmin") == 0)
        rc = scenario_ddmin(&r);
    else if (strcmp(s, "mutant_copy") == 0)
        rc = scenario_mutant(&c, "copy:maxps:minps", "registers", "minps", &r);
    else if (strcmp(s, "mutant_flags") == 0)
        rc = scenario_mutant(&c, "flags-lost:addps", "mxcsr-flags", "addps", &r);
    else if (strcmp(s, "corrupt_fixture") == 0)
        rc = scenario_corrupt(&c, &r);
    else if (strcmp(s, "known_subset") == 0)
        rc = scenario_known_subset(&c, &r);
    else {
        bg_errorf("nan-seq-selftest", "unknown scenario '%s'", s);
        return BG_EXIT_USAGE;
    }
    if (rc != 0) {
        r.v = BG_FAIL;
        snprintf(r.exp, sizeof r.exp, "scenario %s set up in %s", s, c.work);
        snprintf(r.obs, sizeof r.obs, "could not prepare or run it");
    }
    bg_checks *chk = bg_checks_open("nan_semantics");
    if (!chk)
        return BG_EXIT_IO;
    char name[200];
    snprintf(name, sizeof name, "nan.selftest.seq_%s", s);
    bg_check_emit_str(chk, name, r.v, r.exp, r.obs, NULL);
    return bg_checks_close(chk);
}
