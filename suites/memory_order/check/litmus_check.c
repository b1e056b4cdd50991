/* litmus-check — runs the litmus probe under a runner and records verdicts.
 * Usage, options, checks, exit codes: usage_text below (`litmus-check --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_proposed.h"
#include "buildgate/bg_runner.h"
#include "buildgate/bg_fragment.h"
#include "buildgate/bg_cpu.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_parse.h"
#include "buildgate/bg_proc.h"
#include "buildgate/bg_runner.h"
#include "litmus_access.h"
#include "litmus_expect.h"
#include "litmus_verdict.h"

#define MAX_ITERATIONS 100000000000ULL

static const char usage_text[] =
    "Usage: litmus-check --test T --access plain|tso|sc --runner NAME --probe PATH\n"
    "                    [--arch x86_64|arm64] [--mutant drop-fence|tso-relaxed]\n"
    "                    [--iterations N] [--control-iterations N] [--time-budget S]\n"
    "                    [--timeout S] [--sync auto|user|none] [--as NAME]\n"
    "                    [--affinity incr[:N]|random|none]\n"
    "       litmus-check --test T --access A --runner NAME --skip \"REASON\"\n"
    "\n"
    "Runs `RUNNER... PATH [--time-budget S] [--sync X] T:ACCESS:N [CONTROL:plain:M]`\n"
    "(see litmus-probe --help) and records verdicts in $BG_CHECKS_FILE (bg_check.h).\n"
    "  --test T              a test of probe/litmus_tests.def: SB, MP, IRIW, ...\n"
    "  --access A            how the thread bodies access memory: plain, tso or sc\n"
    "                        (probe/litmus_access.h)\n"
    "  --runner NAME         a runner of the runner registry (`bg-runner --list`,\n"
    "                        or a BG_X86_RUNNERS name) for --arch programs; one\n"
    "                        this host lacks is a skip check with the reason\n"
    "  --as NAME             the runner's name in the check names (default: --runner;\n"
    "                        e.g. native-deep)\n"
    "  --probe PATH          the litmus-probe binary\n"
    "  --arch A              the probe's architecture, x86_64 or arm64 (default:\n"
    "                        this build's); the probe must report the same\n"
    "  --mutant M            drop-fence (access plain) or tso-relaxed (access tso)\n"
    "  --iterations N        copies of the test, 1..10^11 (default 1000000)\n"
    "  --control-iterations N  copies of the power control (default min(N, 200000))\n"
    "  --time-budget S       whole seconds per run inside the probe, 1..86400\n"
    "                        (default 20)\n"
    "  --timeout S           whole seconds before the probe is killed, 1..86400\n"
    "                        (default 120)\n"
    "  --sync X              per-copy rendezvous, passed to the probe\n"
    "  --affinity M          thread placement, passed to the probe (litmus-probe\n"
    "                        --help: incr[:N], random, none; default incr:1)\n"
    "  --skip REASON         record a skip check and run nothing\n"
    "  -h, --help            this text\n"
    "\n"
    "Checks:\n"
    "  memory_order.<runner>.<access>.<test>.forbidden  pass/fail (litmus_verdict.h)\n"
    "  memory_order.<runner>.<access>.<test>.power      pass/inconclusive\n"
    "  memory_order.<runner>.<access>.<test>.probe      fail, only when the probe\n"
    "      crashed, hung past --timeout, or printed no histogram\n"
    "A forbidden outcome no known deviation covers also proposes a line in\n"
    "<checks-dir>/proposed-known/memory_order/TOOL.tsv (runner versions access test\n"
    "rate_per_million reference), adopted after review by\n"
    "ci/adopt-known --approve \"<reason>\" <dir>.\n"
    "with details {iterations, histogram {key: {count, per_million}}, upper bound,\n"
    "matrix}, and a Markdown fragment memory_order--<name>.md next to\n"
    "$BG_CHECKS_FILE.  Expectations: $BG_FIXTURES_DIR/memory_order/expectations.json.\n"
    "\n"
    "Exit: 0 pass/inconclusive; 1 a check failed; 77 skipped; 2 bad argument\n"
    "      (an unknown runner);\n"
    "      5 bad fixture (one line \"buildgate: litmus-check: ...\" on stderr).\n"
    "Doc: docs/memory_order.md.\n";

typedef struct opts {
    const char *test, *access, *runner, *use, *as, *probe, *mutant, *skip, *sync, *arch, *affinity;
    char known[64];        /* the runner's known list: its registry known file, no .tsv */
    char version[160];     /* the runner's version line ("" when none) */
    unsigned long long iterations, control_iterations, time_budget, timeout;
    char probe_access[32]; /* the access the probe runs: the --access, or the mutant */
    char name[192];
} opts;

/* A forbidden outcome no known deviation covers: appends a proposed
 * expectations.json known_deviations line (bg_proposed.h) and says in the
 * check's details where it is and how to adopt it. */
static void propose(const opts *o, double rate_pm, char *obs, size_t obs_n, cJSON *details)
{
    char range[64], ref[600], line[900], path[4200], extra[200], observed[40];
    bg_proposed_range(o->version, range, sizeof range);
    bg_proposed_observed(o->version, observed, sizeof observed);
    snprintf(extra, sizeof extra, "test %s", o->name);
    bg_proposed_reference(*o->version ? o->version : "no version", extra, ref, sizeof ref);
    /* the 7th column: the version measured (the entry's "observed"), when one can be read */
    snprintf(line, sizeof line, "%s\t%s\t%s\t%s\t%.0f\t%s%s%s", o->known, range, o->probe_access, o->test,
             rate_pm < 1 ? 1 : rate_pm, ref, *observed ? "\t" : "", observed);
    if (bg_proposed_append("memory_order", o->known, line, path, sizeof path) != BG_OK ||
        !*path)
        return;
    cJSON_AddStringToObject(details, "proposed", path);
    size_t len = strlen(obs);
    snprintf(obs + len, obs_n - len, "; proposed line in proposed-known/memory_order/%s.tsv",
             o->known);
    cJSON_AddStringToObject(details, "action", "no known deviation covers this outcome for this "
                            "runner version: review the proposed line, then " BG_PROPOSED_ADOPT
                            " (docs/memory_order.md#runner-versions)");
}

static int parse_ull(const char *s, unsigned long long lo, unsigned long long hi,
                     unsigned long long *out)
{
    uint64_t v;
    if (bg_parse_u64(s, lo, hi, &v) != BG_OK)
        return -1;
    *out = v;
    return 0;
}

static bg_status parse_args(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->mutant = "none";
    o->iterations = 1000000;
    o->time_budget = 20;
    o->timeout = 120;
    unsigned seen = 0; /* bit k: names[k] given */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        static const char *const names[] = {
            "--test", "--access", "--runner", "--as", "--probe", "--arch", "--mutant", "--skip",
            "--sync", "--iterations", "--control-iterations", "--time-budget", "--timeout",
            "--affinity", NULL};
        if (!bg_option_in(a, names)) {
            bg_help_unknown_option(a);
            return BG_E_USAGE;
        }
        if (!v) {
            bg_help_missing_value(a);
            return BG_E_USAGE;
        }
        for (int k = 0; names[k]; k++) /* every option takes one value: a second is a mistake */
            if (strcmp(a, names[k]) == 0 && (seen & (1u << k))) {
                bg_help_bad_value(a, "given twice");
                return BG_E_USAGE;
            } else if (strcmp(a, names[k]) == 0)
                seen |= 1u << k;
        i++;
        if (strcmp(a, "--test") == 0)
            o->test = v;
        else if (strcmp(a, "--access") == 0)
            o->access = v;
        else if (strcmp(a, "--runner") == 0)
            o->runner = v;
        else if (strcmp(a, "--as") == 0)
            o->as = v;
        else if (strcmp(a, "--probe") == 0)
            o->probe = v;
        else if (strcmp(a, "--arch") == 0)
            o->arch = v;
        else if (strcmp(a, "--mutant") == 0)
            o->mutant = v;
        else if (strcmp(a, "--skip") == 0)
            o->skip = v;
        else if (strcmp(a, "--sync") == 0)
            o->sync = v;
        else if (strcmp(a, "--affinity") == 0) {
            unsigned long long k; /* litmus-probe's grammar: refused here, not as a probe failure */
            if (strcmp(v, "random") && strcmp(v, "none") && strcmp(v, "incr") &&
                (strncmp(v, "incr:", 5) || parse_ull(v + 5, 1, 1024, &k)))
                return bg_fail(BG_E_USAGE, "litmus-check", "--affinity '%s': want incr, incr:N (N in "
                               "1..1024), random or none (see litmus-check --help)", v);
            o->affinity = v;
        }
        else if (strcmp(a, "--iterations") == 0) {
            if (parse_ull(v, 1, MAX_ITERATIONS, &o->iterations))
                return bg_fail(BG_E_USAGE, "litmus-check", "--iterations '%s': want an integer in "
                               "1..100000000000", v);
        } else if (strcmp(a, "--control-iterations") == 0) {
            if (parse_ull(v, 1, MAX_ITERATIONS, &o->control_iterations))
                return bg_fail(BG_E_USAGE, "litmus-check", "--control-iterations '%s': want an "
                               "integer in 1..100000000000", v);
        } else if (strcmp(a, "--time-budget") == 0) {
            if (parse_ull(v, 1, 86400, &o->time_budget))
                return bg_fail(BG_E_USAGE, "litmus-check", "--time-budget '%s': want whole "
                               "seconds in 1..86400", v);
        } else if (strcmp(a, "--timeout") == 0) {
            if (parse_ull(v, 1, 86400, &o->timeout))
                return bg_fail(BG_E_USAGE, "litmus-check", "--timeout '%s': want whole seconds "
                               "in 1..86400", v);
        }
    }
    if (!o->test || !o->access || !o->runner)
        return bg_fail(BG_E_USAGE, "litmus-check", "--test, --access and --runner are required");
    o->use = o->runner;
    if (o->as)
        o->runner = o->as;
    if (!litmus_find(o->test)) {
        char names[2048];
        litmus_names(names, sizeof names);
        return bg_fail(BG_E_USAGE, "litmus-check", "unknown test '%s' (known: %s)", o->test, names);
    }
    if (strcmp(o->access, "plain") && strcmp(o->access, "tso") && strcmp(o->access, "sc"))
        return bg_fail(BG_E_USAGE, "litmus-check", "unknown access '%s' (known: plain tso sc)",
                       o->access);
    if (strcmp(o->mutant, "none") == 0)
        snprintf(o->probe_access, sizeof o->probe_access, "%s", o->access);
    else if (strcmp(o->mutant, "drop-fence") == 0 && strcmp(o->access, "plain") == 0)
        snprintf(o->probe_access, sizeof o->probe_access, "mutant-drop-fence");
    else if (strcmp(o->mutant, "tso-relaxed") == 0 && strcmp(o->access, "tso") == 0)
        snprintf(o->probe_access, sizeof o->probe_access, "mutant-tso-relaxed");
    else
        return bg_fail(BG_E_USAGE, "litmus-check", "mutant '%s' with access '%s': want none, "
                       "drop-fence (access plain) or tso-relaxed (access tso)", o->mutant, o->access);
    if (o->sync && strcmp(o->sync, "auto") && strcmp(o->sync, "user") && strcmp(o->sync, "none"))
        return bg_fail(BG_E_USAGE, "litmus-check", "--sync '%s': want auto, user or none", o->sync);
    if (!o->skip && !o->probe)
        return bg_fail(BG_E_USAGE, "litmus-check", "--probe is required (or --skip REASON)");
    if (!o->arch)
        o->arch = bg_cpu_arch();
    if (strcmp(o->arch, "x86_64") && strcmp(o->arch, "arm64"))
        return bg_fail(BG_E_USAGE, "litmus-check", "--arch '%s': want x86_64 or arm64", o->arch);
    if (!o->control_iterations)
        o->control_iterations = o->iterations < 200000 ? o->iterations : 200000;
    snprintf(o->name, sizeof o->name, "memory_order.%s.%s.%s", o->runner, o->probe_access, o->test);
    return BG_OK;
}

/* "1.0M", "200k", "999" */
static void fmt_n(unsigned long long n, char *buf, size_t len)
{
    if (n >= 1000000)
        snprintf(buf, len, "%.1fM", (double)n / 1e6);
    else if (n >= 1000)
        snprintf(buf, len, "%.0fk", (double)n / 1e3);
    else
        snprintf(buf, len, "%llu", n);
}

static const cJSON *find_run(const cJSON *probe, const char *test, const char *access)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(probe, "runs")) {
        const char *t = bg_json_str(r, "test"), *m = bg_json_str(r, "access");
        if (t && m && strcmp(t, test) == 0 && strcmp(m, access) == 0)
            return r;
    }
    return NULL;
}

static cJSON *matrix(const opts *o, const char *cell)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "table", "litmus: runner.access x test (forbidden seen / iterations; \"T n/M\": T's allowed relaxed outcome per million; \"no power\": the control never relaxed)");
    char row[96];
    snprintf(row, sizeof row, "%s.%s", o->runner, o->probe_access);
    cJSON_AddStringToObject(m, "row", row);
    cJSON_AddStringToObject(m, "col", o->test);
    cJSON_AddStringToObject(m, "cell", cell);
    return m;
}

typedef struct analysis {
    const litmus_test *t;
    const cJSON *run;
    uint64_t counts[82];
    uint64_t total, forbidden;
    unsigned worst;
    unsigned char allowed[81];
} analysis;

static bg_status analyse(const cJSON *run, const litmus_test *t, unsigned exists, int ex_ok,
                         analysis *a)
{
    memset(a, 0, sizeof *a);
    a->t = t;
    a->run = run;
    bg_status st = litmus_histogram_parse(t, cJSON_GetObjectItemCaseSensitive(run, "histogram"),
                                          a->counts, &a->total);
    if (st != BG_OK)
        return st;
    if ((double)a->total != bg_json_num(run, "iterations", -1))
        return BG_E_PARSE;
    litmus_allowed(t, exists, ex_ok, a->allowed);
    a->forbidden = litmus_forbidden(t, a->counts, a->allowed, &a->worst);
    return BG_OK;
}

static cJSON *histogram_json(const analysis *a)
{
    cJSON *h = cJSON_CreateObject();
    unsigned count = litmus_outcome_count(a->t);
    for (unsigned o = 0; o <= count; o++) {
        if (!a->counts[o])
            continue;
        char key[96];
        litmus_outcome_key(a->t, o, key, sizeof key);
        cJSON *e = cJSON_AddObjectToObject(h, key);
        cJSON_AddNumberToObject(e, "count", (double)a->counts[o]);
        cJSON_AddNumberToObject(e, "per_million", litmus_per_million(a->counts[o], a->total));
    }
    return h;
}

static cJSON *run_details(const opts *o, const cJSON *probe, const analysis *a,
                          const litmus_expect *e, const char *cell)
{
    cJSON *d = cJSON_CreateObject();
    char key[96];
    cJSON_AddStringToObject(d, "runner", o->runner);
    cJSON_AddStringToObject(d, "arch", bg_json_str(probe, "arch"));
    cJSON_AddStringToObject(d, "access", o->access);
    cJSON_AddStringToObject(d, "probe_access", o->probe_access);
    cJSON_AddStringToObject(d, "memory_model", e->model);
    cJSON_AddStringToObject(d, "test", o->test);
    litmus_outcome_key(a->t, e->exists, key, sizeof key);
    cJSON_AddStringToObject(d, "exists", key);
    cJSON_AddStringToObject(d, "exists_verdict", e->allowed ? "allowed" : "forbidden");
    cJSON_AddNumberToObject(d, "exists_count", (double)a->counts[e->exists]);
    static const char *const copy[] = {"requested", "iterations", "rounds", "instances",
                                       "seconds", "threads"};
    for (size_t i = 0; i < sizeof copy / sizeof copy[0]; i++)
        cJSON_AddNumberToObject(d, copy[i], bg_json_num(a->run, copy[i], 0));
    cJSON_AddNumberToObject(d, "ncpu", bg_json_num(probe, "ncpu", 0));
    cJSON_AddStringToObject(d, "sync", bg_json_str(a->run, "sync"));
    cJSON_AddStringToObject(d, "stopped_by", bg_json_str(a->run, "stopped_by"));
    if (bg_json_str(a->run, "affinity")) /* placement of the threads (litmus-probe --affinity) */
        cJSON_AddStringToObject(d, "affinity", bg_json_str(a->run, "affinity"));
    const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(a->run, "cpus");
    if (cJSON_IsArray(cpus))
        cJSON_AddItemToObject(d, "cpus", cJSON_Duplicate(cpus, 1));
    cJSON_AddBoolToObject(d, "pinned",
                          cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a->run, "pinned")));
    cJSON_AddBoolToObject(d, "oversubscribed", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                                                   a->run, "oversubscribed")));
    cJSON_AddItemToObject(d, "histogram", histogram_json(a));
    cJSON_AddNumberToObject(d, "upper95_per_million", litmus_upper95_per_million(a->total));
    if (e->source)
        cJSON_AddStringToObject(d, "source", e->source);
    cJSON_AddItemToObject(d, "matrix", matrix(o, cell));
    return d;
}

static void write_fragment(const opts *o, const analysis *a, const litmus_expect *e,
                           const char *fverdict, const char *pverdict, const char *pnote)
{
    FILE *f = bg_fragment_open("memory_order", o->name);
    if (!f)
        return;
    int over = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a->run, "oversubscribed"));
    int by_time = strcmp(bg_json_str(a->run, "stopped_by"), "time") == 0;
    fprintf(f, "<details><summary><code>%s</code>: forbidden <b>%s</b>, power <b>%s</b>, "
               "%.0f iterations</summary>\n\n",
            o->name, fverdict, pverdict, (double)a->total);
    fprintf(f, "Memory model %s%s%s. %.2f s, %s threads, sync %s%s%s. Power: %s\n\n", e->model,
            strcmp(o->mutant, "none") ? ", mutant " : "",
            strcmp(o->mutant, "none") ? o->mutant : "", bg_json_num(a->run, "seconds", 0),
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a->run, "pinned")) ? "pinned" : "unpinned",
            bg_json_str(a->run, "sync"), over ? ", oversubscribed (power reduced)" : "",
            by_time ? ", stopped by the time budget" : "", pnote);
    fprintf(f, "| outcome | count | per million | |\n|---|---:|---:|---|\n");
    unsigned count = litmus_outcome_count(a->t);
    for (unsigned k = 0; k <= count; k++) {
        if (!a->counts[k])
            continue;
        char key[96];
        litmus_outcome_key(a->t, k, key, sizeof key);
        const char *what = k == e->exists ? (e->allowed ? "relaxed, allowed" : "relaxed, FORBIDDEN")
                           : k < count && a->allowed[k] ? "SC"
                                                        : "FORBIDDEN";
        fprintf(f, "| `%s` | %llu | %.1f | %s |\n", key, (unsigned long long)a->counts[k],
                litmus_per_million(a->counts[k], a->total), what);
    }
    fprintf(f, "\n</details>\n");
    fclose(f);
}

static int probe_failed(bg_checks *c, const opts *o, const char *why)
{
    char name[256];
    snprintf(name, sizeof name, "%s.probe", o->name);
    bg_check_emit_str(c, name, BG_FAIL, "probe exits 0 and prints a histogram whose total is "
                      "its iteration count", why, NULL);
    return bg_checks_close(c);
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    opts o;
    bg_status st = parse_args(argc, argv, &o);
    if (st != BG_OK)
        return bg_exit_code(st);
    bg_checks *c = bg_checks_open("memory_order");
    if (!c)
        return BG_EXIT_IO;
    char name[256];
    if (o.skip) {
        snprintf(name, sizeof name, "%s.run", o.name);
        bg_check_emit_str(c, name, BG_SKIP, "a runner to run the probe", o.skip, NULL);
        return bg_checks_close(c);
    }
    char why[512];
    bg_runner rn;
    st = bg_runner_resolve(o.use, o.arch, &rn, why, sizeof why);
    if (st == BG_E_UNSUPPORTED) {
        snprintf(name, sizeof name, "%s.run", o.name);
        bg_check_emit_str(c, name, BG_SKIP, "a runner to run the probe", why, NULL);
        return bg_checks_close(c);
    }
    if (st != BG_OK) {
        bg_checks_free(c);
        return bg_exit_code(bg_fail(st, "litmus-check", "%s", why));
    }
    const char *fx = bg_fixtures_root();
    cJSON *doc = NULL;
    int root_ok = (st = bg_fixtures_check_root(fx, "memory_order")) == BG_OK;
    if (root_ok)
        st = litmus_expect_load(fx, &doc);
    if (st != BG_OK) {
        bg_runner_free(&rn);
        snprintf(name, sizeof name, "%s.fixture", o.name);
        if (!root_ok) /* the line says where to point BG_FIXTURES_DIR: nothing to restore */
            return bg_checks_fail_stored(c, name, "valid expectations (fixtures/memory_order/expectations.json)", st,
                                         NULL);
        return bg_checks_fail_fixture(c, name, "valid expectations (fixtures/memory_order/expectations.json)",
                                      st, fx, "memory_order/expectations.json");
    }

    /* runner prefix + probe + runs */
    char budget[32], run_main[96], run_ctl[96];
    snprintf(budget, sizeof budget, "%llu", o.time_budget);
    snprintf(run_main, sizeof run_main, "%s:%s:%llu", o.test, o.probe_access, o.iterations);
    char *av[BG_RUNNER_MAX_ARGS + 12];
    int n = 0;
    for (int i = 0; i < rn.argc; i++)
        av[n++] = rn.argv[i];
    av[n++] = (char *)o.probe;
    av[n++] = "--time-budget";
    av[n++] = budget;
    if (o.sync) {
        av[n++] = "--sync";
        av[n++] = (char *)o.sync;
    }
    if (o.affinity) {
        av[n++] = "--affinity";
        av[n++] = (char *)o.affinity;
    }
    av[n++] = run_main;
    av[n] = NULL;

    /* the power control of the probe's architecture (fixture "controls") */
    const cJSON *controls = cJSON_GetObjectItemCaseSensitive(doc, "controls");
    const cJSON *ctl = cJSON_GetObjectItemCaseSensitive(controls, o.arch);
    const char *ctest = bg_json_str(ctl, "test"), *caccess = bg_json_str(ctl, "access");
    int same = ctest && caccess && strcmp(ctest, o.test) == 0 && strcmp(caccess, o.probe_access) == 0;
    if (ctest && caccess && !same) {
        snprintf(run_ctl, sizeof run_ctl, "%s:%s:%llu", ctest, caccess, o.control_iterations);
        av[n++] = run_ctl;
        av[n] = NULL;
    }
    /* the known list and version the registry row gives (known_deviations'
       "runner" and "versions"; rows of one tool share its list) */
    bg_runner_known_tool(&rn, o.known, sizeof o.known);
    snprintf(o.version, sizeof o.version, "%s", rn.version);
    bg_proc_opts po = {.env = rn.env, .timeout_s = (double)o.timeout, .max_out = (size_t)64 << 20};
    bg_proc_result xr;
    st = bg_proc_spawn(av, &po, &xr);
    bg_runner_free(&rn);
    if (st != BG_OK) {
        cJSON_Delete(doc);
        return probe_failed(c, &o, st == BG_E_TARGET ? "the probe printed over 64 MiB"
                                                     : "could not fork the runner (out of processes or memory)");
    }
    if (!bg_proc_ok(&xr)) {
        char how[400];
        bg_proc_explain(&xr, (double)o.timeout, how, sizeof how);
        snprintf(why, sizeof why, "%s under runner %s", how, o.runner);
        bg_proc_result_free(&xr);
        cJSON_Delete(doc);
        return probe_failed(c, &o, why);
    }
    cJSON *probe = cJSON_ParseWithLength(xr.out, xr.out_len);
    char bad[400] = "";
    if (!probe) /* quotes a stray first line (a runner that logs to stdout) */
        bg_json_explain_invalid(xr.out, xr.out_len, bad, sizeof bad);
    bg_proc_result_free(&xr);
    const char *arch = bg_json_str(probe, "arch");
    litmus_expect e;
    if (!probe || !arch || strcmp(arch, o.arch) != 0) {
        if (*bad)
            snprintf(why, sizeof why, "the probe's %s", bad);
        else
            snprintf(why, sizeof why, "the probe printed no JSON object with \"arch\": \"%s\" "
                     "(found %s)", o.arch, arch ? arch : "none");
        cJSON_Delete(probe);
        cJSON_Delete(doc);
        return probe_failed(c, &o, why);
    }
    st = litmus_expect_get(doc, o.test, arch, o.access, &e);
    if (st != BG_OK) {
        cJSON_Delete(probe);
        cJSON_Delete(doc);
        bg_checks_free(c);
        return bg_exit_code(st);
    }
    analysis a, ca;
    const cJSON *mrun = find_run(probe, o.test, o.probe_access);
    const char *skipped = bg_json_str(mrun, "skipped");
    if (skipped) { /* a SPLIT test this host or runner cannot run (litmus-probe --help) */
        snprintf(name, sizeof name, "%s.run", o.name);
        bg_check_emit_str(c, name, BG_SKIP, "a host that runs locked accesses across a cache line",
                          skipped, NULL);
        cJSON_Delete(probe);
        cJSON_Delete(doc);
        return bg_checks_close(c);
    }
    const cJSON *crun = find_run(probe, e.control_test, e.control_access);
    const litmus_test *ct = litmus_find(e.control_test);
    litmus_expect ce;
    if (!mrun || !crun || litmus_expect_get(doc, e.control_test, arch, e.control_access, &ce) != BG_OK ||
        analyse(mrun, e.test, e.exists, e.allowed, &a) != BG_OK ||
        analyse(crun, ct, ce.exists, ce.allowed, &ca) != BG_OK) {
        cJSON_Delete(probe);
        cJSON_Delete(doc);
        return probe_failed(c, &o, "the probe's runs are missing or their histogram totals differ "
                                   "from their iteration counts");
    }

    /* forbidden check */
    char key[96], ekey[96], nbuf[32], cell[64], exp[256], obs[420];
    litmus_outcome_key(e.test, e.exists, ekey, sizeof ekey);
    fmt_n(a.total, nbuf, sizeof nbuf);
    snprintf(exp, sizeof exp, "no outcome outside SC%s%s (%s %s %s)", e.allowed ? " and " : "",
             e.allowed ? ekey : "", e.model, e.allowed ? "allows" : "forbids", ekey);
    double dev_rate = 0;
    const char *dev_why = NULL;
    char bracket[160];
    int dev = litmus_expect_deviation(doc, o.known, o.version, o.probe_access, o.test, &dev_rate,
                                      &dev_why, bracket, sizeof bracket);
    bg_verdict fv = (bg_verdict)litmus_forbidden_verdict(
        a.forbidden, a.forbidden == a.counts[e.exists], dev, dev_rate, a.total);
    /* an inferred deviation (a version between two measured ones) that does not
       happen is information, not an xpass: this version differs from its bracket */
    int differs = *bracket && (fv == BG_XPASS || fv == BG_INCONCLUSIVE);
    if (differs)
        fv = BG_PASS;
    if (a.forbidden) {
        litmus_outcome_key(e.test, a.worst, key, sizeof key);
        snprintf(obs, sizeof obs, "%s x %llu in %llu (%.1f per million; %llu forbidden in all)%s",
                 key, (unsigned long long)a.counts[a.worst], (unsigned long long)a.total,
                 litmus_per_million(a.counts[a.worst], a.total),
                 (unsigned long long)a.forbidden,
                 fv == BG_XFAIL ? (*bracket ? "; known deviation, inferred from the measured bracket" : "; known deviation") : "");
        snprintf(cell, sizeof cell, "%llu/%s%s", (unsigned long long)a.forbidden, nbuf,
                 fv == BG_XFAIL ? " known deviation" : "");
    } else {
        snprintf(obs, sizeof obs, "0 forbidden in %llu (95%% upper bound %.3g per million)%s",
                 (unsigned long long)a.total, litmus_upper95_per_million(a.total),
                 differs                 ? "; not seen: this version differs from its bracket here"
                 : fv == BG_XPASS        ? "; the known deviation is gone: its recorded rate "
                                           "predicts at least 20"
                 : fv == BG_INCONCLUSIVE ? "; a known deviation is recorded here, and this run "
                                           "is too short to call it gone"
                                         : "");
        if (e.allowed)
            snprintf(cell, sizeof cell, "0/%s, %s %.0f/M", nbuf, o.test,
                     litmus_per_million(a.counts[e.exists], a.total));
        else
            snprintf(cell, sizeof cell, "0/%s", nbuf);
    }
    snprintf(name, sizeof name, "%s.forbidden", o.name);
    cJSON *fd = run_details(&o, probe, &a, &e, cell);
    if (dev) {
        cJSON *kd = cJSON_AddObjectToObject(fd, "known_deviation");
        cJSON_AddNumberToObject(kd, "rate_per_million", dev_rate);
        cJSON_AddStringToObject(kd, "why", dev_why ? dev_why : "");
    }
    if (*bracket) {
        char cause[400];
        snprintf(cause, sizeof cause, "%s %s: its verdicts are inferred from that bracket", o.known, bracket);
        cJSON *inf = cJSON_AddObjectToObject(fd, "inferred");
        cJSON_AddStringToObject(inf, "cause", cause);
        cJSON_AddStringToObject(inf, "bracket", bracket);
        cJSON_AddStringToObject(inf, "action", "measure and adopt it: run this test's runner row and "
                                "adopt its proposed lines with " BG_PROPOSED_ADOPT
                                " (docs/memory_order.md#runner-versions)");
        if (differs)
            cJSON_AddStringToObject(fd, "note", "the forbidden outcome measured at both ends of the "
                                    "bracket was not seen: this version differs from its bracket here "
                                    "(information, not an xpass)");
        printf("cause:       %s\n", cause);
    }
    if (*o.version)
        cJSON_AddStringToObject(fd, "runner_version", o.version);
    if (fv == BG_FAIL && a.forbidden && strcmp(o.mutant, "none") == 0)
        propose(&o, litmus_per_million(a.forbidden, a.total), obs, sizeof obs, fd);
    bg_check_emit_str(c, name, fv, exp, obs, fd);

    /* power check */
    litmus_outcome_key(ct, ce.exists, key, sizeof key);
    int over = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(mrun, "oversubscribed"));
    int ncpu = (int)bg_json_num(probe, "ncpu", 1);
    bg_verdict pv;
    char note[600], pcell[96];
    snprintf(exp, sizeof exp, "control %s %s shows its relaxed outcome %s at least once%s",
             e.control_test, e.control_access, key,
             e.test->nthreads > 2 ? ", and every thread has its own CPU" : "");
    if (!ca.counts[ce.exists] || ncpu <= 1) {
        char reason[300];
        litmus_no_power_reason(o.runner, arch, bg_cpu_arch(), ncpu, reason, sizeof reason);
        pv = BG_INCONCLUSIVE;
        if (ca.counts[ce.exists]) /* one CPU: what the control showed is no race */
            snprintf(note, sizeof note, "%s seen %llu in %llu: %s", key,
                     (unsigned long long)ca.counts[ce.exists], (unsigned long long)ca.total,
                     reason);
        else
            snprintf(note, sizeof note, "%s not seen in %llu: %s", key,
                     (unsigned long long)ca.total, reason);
        snprintf(pcell, sizeof pcell, "%s, no power", cell);
    } else if (over) {
        pv = BG_INCONCLUSIVE;
        snprintf(note, sizeof note, "power reduced: %d threads share %d CPUs, so all of %s's "
                 "threads rarely run at once (control %s seen %llu in %llu)",
                 e.test->nthreads, ncpu, o.test, key, (unsigned long long)ca.counts[ce.exists],
                 (unsigned long long)ca.total);
        snprintf(pcell, sizeof pcell, "%s, oversubscribed", cell);
    } else {
        pv = BG_PASS;
        snprintf(note, sizeof note, "%s seen %llu in %llu (%.1f per million)", key,
                 (unsigned long long)ca.counts[ce.exists], (unsigned long long)ca.total,
                 litmus_per_million(ca.counts[ce.exists], ca.total));
        snprintf(pcell, sizeof pcell, "%s", cell);
    }
    cJSON *pd = cJSON_CreateObject();
    cJSON_AddStringToObject(pd, "control", e.control_test);
    cJSON_AddStringToObject(pd, "control_access", e.control_access);
    cJSON_AddStringToObject(pd, "why", e.control_why ? e.control_why : "");
    cJSON_AddItemToObject(pd, "control_histogram", histogram_json(&ca));
    cJSON_AddNumberToObject(pd, "control_iterations", (double)ca.total);
    cJSON_AddItemToObject(pd, "matrix", matrix(&o, pcell));
    snprintf(name, sizeof name, "%s.power", o.name);
    bg_check_emit_str(c, name, pv, exp, note, pd);

    write_fragment(&o, &a, &e, bg_verdict_name(fv), bg_verdict_name(pv), note);
    cJSON_Delete(probe);
    cJSON_Delete(doc);
    return bg_checks_close(c);
}
