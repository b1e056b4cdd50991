/* bg-digest-check — the checks behind digest.runtime.* tests.
 *
 * Usage:
 *   bg-digest-check --flags LIST [--n N --k K] [--dataset-dir DIR] [--kat F] [--chains F]
 *       One runtime variant: every known answer of kat.json (RandomX
 *       src/tests/tests.cpp), the dataset items in full-memory mode, and the
 *       stored chain of chains.json.  Checks <test>.kat.<id>, <test>.dataset.<i>,
 *       <test>.chain (with the first diverging checkpoint on a mismatch).
 *   bg-digest-check --make-datasets DIR [--init-threads T] [--key K] [--kat F]
 *                   [--dataset-cache CDIR --dataset-cache-id ID] [--items N]
 *       Builds, once, the full-memory datasets every full-memory variant
 *       needs (the chain key and each KAT key), checks their items against
 *       the known answers, and saves them to DIR for --dataset-dir.  With
 *       --dataset-cache: reuses the host cache's verified entries, builds the
 *       others into it, and links them into DIR (dataset_cache.h).  Reports
 *       its progress in $BG_PROGRESS_FILE (bg-run --stall, bg_progress.h).
 *   bg-digest-check --remove-datasets DIR
 *       Deletes the .rxds files in DIR (the fixture cleanup after the full-memory tests).
 *   bg-digest-check --runner NAME [--probe PATH] [--timeout S] --flags LIST [--n N --k K]
 *       The same checks for a light-memory variant computed under a runner of
 *       the registry (bg_runner.h): runs `<runner> PROBE --observe ...` (the
 *       probe, default this program, prints what it computed as one JSON
 *       object) and judges that document here, against the same fixtures.
 *       Checks carry runner and runner_version; a deviation listed in
 *       fixtures/randomx/known/<tool>.tsv is xfail (runner_known.h), one no line
 *       explains fails and proposes a line; a probe that fails under the runner
 *       is the check <test>.run; a runner this host lacks is a skip naming why.
 *   bg-digest-check --observe --flags LIST [--n N --k K]
 *       Computes only: prints {"algorithm","flags","kats":[{"id","hash"
 *       [,"commitment"]}],"chain":{...rx_chain_add_json...,"hashing_seconds"}}
 *       on stdout, records no check (what --runner runs).
 * Options: rx_opts.h.  Exit: 0 pass, 1 a check failed, 2 usage, 5 fixture
 * missing/corrupt/another version (also recorded as a fail check), 7 RandomX
 * failed (a NULL allocation, or an exception/abort inside RandomX caught by
 * bg_guard.h: "buildgate: bg-digest-check: RandomX failed: <call>: <why>",
 * recorded as a fail check), 77 the host cannot run this variant (recorded as
 * a skip check with the reason, e.g. "this host forbids W+X memory; the JIT
 * cannot run" for a JIT variant on a host that forbids W+X memory, bg_wx.h).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_guard.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_hex.h"
#include "build_matrix.h"
#include "dataset_cache.h"
#include "buildgate/bg_progress.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_proc.h"
#include "buildgate/bg_proposed.h"
#include "buildgate/bg_runner.h"
#include "rx_chain.h"
#include "rx_fixture.h"
#include "rx_flags.h"
#include "rx_opts.h"
#include "rx_session.h"
#include "runner_known.h"

#define SUITE "digest_agreement"

static const rx_tool tool = {
    "bg-digest-check", RX_TOOL_DIGEST,
    "--flags LIST [--n N --k K] [--dataset-dir DIR] [--kat FILE] [--chains FILE]\n"
    "       bg-digest-check --make-datasets DIR [--init-threads T] [--key TEXT] [--kat FILE]\n"
    "                       [--dataset-cache CDIR --dataset-cache-id ID] [--items N]\n"
    "       bg-digest-check --remove-datasets DIR",
    "Checks one RandomX runtime variant: every known answer of kat.json, the\n"
    "dataset items in full-memory mode, and the stored chain of chains.json\n"
    "(checks <test>.kat.<id>, <test>.dataset.<i>, <test>.chain, recorded in\n"
    "$BG_CHECKS_FILE).  --make-datasets builds and checks the shared full-memory\n"
    "datasets once (reusing the host's dataset cache with --dataset-cache);\n"
    "--remove-datasets deletes them.\n",
    "Exit: 0 pass; 1 a check failed; 2 usage (one line \"buildgate: bg-digest-check:\n"
    "      ...\"); 5 fixture missing, corrupt or for another version (also a fail\n"
    "      check); 7 RandomX failed (also a fail check); 77 this host cannot run\n"
    "      the variant (a skip check with the reason, e.g. \"this host forbids W+X\n"
    "      memory; the JIT cannot run\").\n"
    "Doc: docs/digest_agreement.md, docs/chain.md.\n",
};

typedef struct ctx {
    bg_checks *c;
    char test[320]; /* check-name prefix: the CTest name, or digest.runtime.<slug> */
    char slug[256];
    const char *variant; /* --variant: the build variant, NULL outside one */
    const char *kat, *chains; /* the fixtures' paths (--kat, --chains or the defaults) */
    const char *kat_rel;      /* kat's place below the fixtures root (rx_kat_rel) */
    const char *algorithm;    /* randomx-v1 / randomx-v2 (rx_algorithm of the flags) */
    const char *runner;       /* --runner: the runner's name, NULL natively */
    char runner_version[160]; /* the registry row's version of the runner */
    char known_tool[64];      /* its known list's tool (bg_runner_known_tool) */
    rk_list known;            /* fixtures/randomx/known/<tool>.tsv */
} ctx;

/* What one runtime variant computed: in this process, or (--runner) read from
 * the probe's --observe document. */
typedef struct observed {
    uint8_t kat[32][32], com[32][32];
    int have_com[32];
    rx_chain_result chain;
    double init_seconds; /* every light cache initialisation (Argon2, 256 MiB) together */
    int inits;           /* how many */
} observed;

#define KAT_REL x->kat_rel
#define CHAINS_REL "randomx/chains.json"

/* A value that differs from the stored fixture file (its place rel): the
 * hint that a hand edit shows in `git diff` (bg_fixture_hint), as the
 * report's "Next:". */
static void diff_hint(const ctx *x, cJSON *d, const char *file, const char *rel)
{
    if (x->runner)
        return; /* under a runner the native value is the reference: runner_verdict's action */
    char next[9000];
    bg_fixture_hint(BG_FIXTURE_DIFF, file, rel, next, sizeof next);
    cJSON_AddStringToObject(d, "action", next);
}

/* The report-table cell of a check: table "Runtime variants" (row = slug); with
 * --variant NAME (a build variant's probe) table "Build variants", row = NAME,
 * column = "<col> (<slug>)" (build_matrix.h). */
static cJSON *matrix(const ctx *x, const char *col, const char *cell)
{
    cJSON *d = cJSON_CreateObject();
    char c[320];
    snprintf(c, sizeof c, "%s (%s)", col, x->slug);
    if (x->runner) { /* table "Runners", row = runner (and the RandomX version) */
        const char *ver = getenv("BG_RANDOMX_VERSION");
        char row[200];
        snprintf(row, sizeof row, "%s%s%s%s", x->runner, ver && *ver ? " (RandomX " : "",
                 ver && *ver ? ver : "", ver && *ver ? ")" : "");
        cJSON_AddStringToObject(d, "runner", x->runner);
        cJSON_AddStringToObject(d, "runner_version", x->runner_version);
        if (ver && *ver)
            cJSON_AddStringToObject(d, "randomx_version", ver);
        cJSON *m = cJSON_AddObjectToObject(d, "matrix");
        cJSON_AddStringToObject(m, "table", "Digest under runners");
        cJSON_AddStringToObject(m, "row", row);
        cJSON_AddStringToObject(m, "col", c);
        if (cell)
            cJSON_AddStringToObject(m, "cell", cell);
        return d;
    }
    if (build_matrix_cell(d, x->variant, c, cell))
        return d;
    cJSON *m = cJSON_AddObjectToObject(d, "matrix");
    cJSON_AddStringToObject(m, "table", "Runtime variants");
    cJSON_AddStringToObject(m, "row", x->slug);
    cJSON_AddStringToObject(m, "col", col);
    if (cell)
        cJSON_AddStringToObject(m, "cell", cell);
    return d;
}

/* Records a check that the run could not be made (fixture or host) and
 * returns the process exit code for that status. */
static int stop_at(ctx *x, const char *what, bg_status st, const char *file, const char *rel)
{
    char name[400];
    snprintf(name, sizeof name, "%s.%s", x->test, what);
    bg_verdict v = st == BG_E_UNSUPPORTED ? BG_SKIP : BG_FAIL;
    cJSON *d = matrix(x, "run", NULL);
    if (file) { /* the fixture file that did not load: how to restore it */
        char next[9000];
        bg_fixture_hint(BG_FIXTURE_RESTORE, file, rel, next, sizeof next);
        cJSON_AddStringToObject(d, "action", next);
    }
    bg_check_emit_str(x->c, name, v, st == BG_E_UNSUPPORTED ? "a host that runs this variant"
                                                              : "a usable fixture",
                      bg_last_error(), d);
    int rc = bg_checks_close(x->c);
    return st == BG_E_UNSUPPORTED ? rc : bg_exit_code(st);
}

static int stop(ctx *x, const char *what, bg_status st)
{
    return stop_at(x, what, st, NULL, NULL);
}

/* With the default fixture paths, a root that holds no randomx/ fixtures is
 * said as such (bg_fixtures.h), not as a missing kat.json to regenerate. */
static bg_status fixtures_root_ok(const rx_opts *o)
{
    if (o->kat != o->kat_buf && o->chains != o->chains_buf)
        return BG_OK;
    return bg_fixtures_check_root(bg_fixtures_root(), "randomx");
}

/* The verdict of a check whose value differs from the fixture (bad) or agrees.
 * Natively fail/pass.  Under a runner (runner_known.h): a deviation listed for
 * the runner's version is xfail (not seen: xpass, the line is stale); one
 * inferred from the bracket xfail (not seen: pass, noted); any other fails and
 * proposes a known line with the run's version (the nan suite's path). */
static bg_verdict runner_verdict(ctx *x, const char *check, int bad, cJSON *d)
{
    if (!x->runner)
        return bad ? BG_FAIL : BG_PASS;
    const rk_line *l = NULL;
    char note[200], at[4200];
    int k = rk_find(&x->known, x->runner_version, x->algorithm, x->slug, check, &l, note,
                    sizeof note);
    if (l) {
        snprintf(at, sizeof at, "%s:%d", x->known.path, l->lineno);
        cJSON_AddStringToObject(d, "known", l->reference);
        cJSON_AddStringToObject(d, "known_line", at);
    }
    if (k == RK_LISTED) {
        if (!bad)
            cJSON_AddStringToObject(d, "action", "the listed deviation did not happen under this "
                                                 "version: narrow the line's versions or remove it");
        return bad ? BG_XFAIL : BG_XPASS;
    }
    if (k == RK_INFERRED) {
        cJSON_AddStringToObject(d, "inferred", note);
        return bad ? BG_XFAIL : BG_PASS;
    }
    if (!bad)
        return BG_PASS;
    char path[600] = "", extra[300], act[1400];
    snprintf(extra, sizeof extra, "runner %s: %s.%s differs from the native value", x->runner,
             x->slug, check);
    if (rk_propose(x->known_tool, x->runner_version, x->algorithm, x->slug, check, extra, path,
                   sizeof path) == BG_OK && *path)
        cJSON_AddStringToObject(d, "proposed", path);
    snprintf(act, sizeof act,
             "runner %s (%s) computed another value than every native build: a translation bug "
             "(rerun natively to confirm). If it is known upstream, adopt the proposed line with "
             "its reference: %s", x->runner, x->runner_version, BG_PROPOSED_ADOPT);
    cJSON_AddStringToObject(d, "action", act);
    return BG_FAIL;
}

static void check_hash(ctx *x, const char *check, const uint8_t want[32], const uint8_t got[32],
                       cJSON *details)
{
    char w[65], g[65], name[400];
    snprintf(name, sizeof name, "%s.%s", x->test, check);
    bg_hex_encode(want, 32, w);
    bg_hex_encode(got, 32, g);
    int differs = memcmp(want, got, 32) != 0;
    if (differs)
        diff_hint(x, details, x->kat, KAT_REL);
    bg_check_emit_str(x->c, name, runner_verdict(x, check, differs, details), w, g, details);
}

/* Computes every known answer's hash (and v2 commitment) into ob. */
static bg_status compute_kats(rx_session *s, const rx_kat_set *kats, observed *ob)
{
    char last_key[128] = "";
    for (int i = 0; i < kats->nvectors; i++) {
        const rx_kat *k = &kats->vectors[i];
        if (strcmp(last_key, k->key)) {
            bg_status st = rx_session_rekey(s, k->key, k->key_len);
            if (st)
                return st;
            ob->init_seconds += s->init_seconds;
            ob->inits++;
            snprintf(last_key, sizeof last_key, "%s", k->key);
        }
        bg_guard_region_begin("RandomX", "randomx_calculate_hash");
        randomx_calculate_hash(s->vm, k->input, k->input_len, ob->kat[i]);
        bg_guard_region_end();
#if defined(BG_RANDOMX_HAS_V2)
        if (k->has_commitment) {
            randomx_calculate_commitment(k->input, k->input_len, ob->kat[i], ob->com[i]);
            ob->have_com[i] = 1;
        }
#endif
    }
    return BG_OK;
}

/* Checks <test>.kat.<id> (and .commitment) of what ob holds. */
static void judge_kats(ctx *x, const rx_kat_set *kats, const observed *ob)
{
    for (int i = 0; i < kats->nvectors; i++) {
        const rx_kat *k = &kats->vectors[i];
        char check[64];
        snprintf(check, sizeof check, "kat.%s", k->id);
        cJSON *d = matrix(x, "KAT", NULL);
        cJSON_AddStringToObject(d, "key", k->key);
        check_hash(x, check, k->hash, ob->kat[i], d);
        if (k->has_commitment) { /* check <test>.kat.<id>.commitment (RandomX v2 API) */
            snprintf(check + strlen(check), sizeof check - strlen(check), ".commitment");
            if (ob->have_com[i]) {
                check_hash(x, check, k->commitment, ob->com[i], matrix(x, "KAT", NULL));
            } else {
                char name[400];
                snprintf(name, sizeof name, "%s.%s", x->test, check);
                bg_check_emit_str(x->c, name, BG_SKIP, "randomx_calculate_commitment",
                                  "this RandomX library has no commitment API (needs RandomX 2.0)",
                                  NULL);
            }
        }
    }
}

/* The known dataset items of key: from s's dataset memory, or (s NULL) from
 * the dataset file path (a reused cache entry); items past rx_dataset_items()
 * (a partial stand-in build) are not there to check. */
static void check_dataset_items(ctx *x, rx_session *s, const char *path, const rx_kat_set *kats,
                                const char *key)
{
    const uint8_t *mem = s ? randomx_get_dataset_memory(s->dataset) : NULL;
    for (int i = 0; i < kats->nitems; i++) {
        const rx_dataset_kat *d = &kats->items[i];
        if (strcmp(d->key, key) || d->item >= rx_dataset_items())
            continue;
        uint64_t got = 0;
        if (mem) {
            for (int b = 7; b >= 0; b--) /* item words are little-endian (RandomX specs 7.3) */
                got = got << 8 | mem[(size_t)d->item * 64 + (size_t)b];
        } else if (rx_dscache_item_word(path, d->item, &got) != BG_OK) {
            got = 0; /* said as the observed value; the checksum passed, so unlikely */
        }
        char name[400], w[24], g[24];
        snprintf(name, sizeof name, "%s.dataset.%lu", x->test, d->item);
        snprintf(w, sizeof w, "0x%016" PRIx64, d->first_u64);
        snprintf(g, sizeof g, "0x%016" PRIx64, got);
        cJSON *det = matrix(x, "dataset", NULL);
        cJSON_AddStringToObject(det, "key", key);
        if (got != d->first_u64)
            diff_hint(x, det, x->kat, KAT_REL);
        bg_check_emit_str(x->c, name, got == d->first_u64 ? BG_PASS : BG_FAIL, w, g, det);
    }
}

static void check_chain(ctx *x, const rx_opts *o, const rx_chain_result *want,
                        const rx_chain_result *got)
{
    char name[400], w[65], g[65], cell[48];
    snprintf(name, sizeof name, "%s.chain", x->test);
    bg_hex_encode(want->digest, 32, w);
    bg_hex_encode(got->digest, 32, g);
    double hs = got->seconds > 0 ? got->n / got->seconds : 0;
    snprintf(cell, sizeof cell, "%.1f H/s", hs);
    cJSON *d = matrix(x, "chain", cell);
    cJSON_AddNumberToObject(d, "hashes_per_second", hs);
    cJSON_AddNumberToObject(d, "hashing_seconds", got->seconds);
    /* the observed chain in full (key, n, k, digest, checkpoints), which
     * bg-report --merge compares across hosts (docs/cross-host.md) */
    rx_chain_add_json(d, o->key_text, o->key, o->key_len, got);
    /* the first checkpoint where the chain left the fixture, if any */
    size_t i = 0;
    while (i < got->ncheckpoints && i < want->ncheckpoints &&
           !memcmp(got->checkpoints[i], want->checkpoints[i], 32))
        i++;
    int cp_differs = i < got->ncheckpoints || got->ncheckpoints != want->ncheckpoints;
    int same = !cp_differs && memcmp(want->digest, got->digest, 32) == 0;
    if (!same) {
        diff_hint(x, d, x->chains, CHAINS_REL);
        cJSON *div = cJSON_AddObjectToObject(d, "first_divergent_checkpoint");
        if (cp_differs && i < got->ncheckpoints && i < want->ncheckpoints) {
            char cw[65], cg[65];
            bg_hex_encode(want->checkpoints[i], 32, cw);
            bg_hex_encode(got->checkpoints[i], 32, cg);
            cJSON_AddNumberToObject(div, "checkpoint", (double)(i + 1));
            cJSON_AddNumberToObject(div, "hash_index", (double)((i + 1) * got->k - 1));
            cJSON_AddStringToObject(div, "expected", cw);
            cJSON_AddStringToObject(div, "observed", cg);
            /* lead with where the chain left the fixture, then the final digest */
            char ew[200], og[200];
            snprintf(ew, sizeof ew, "checkpoint %zu (hash %llu) %s; digest %s", i + 1,
                     (unsigned long long)((i + 1) * got->k - 1), cw, w);
            snprintf(og, sizeof og, "checkpoint %zu (hash %llu) %s; digest %s", i + 1,
                     (unsigned long long)((i + 1) * got->k - 1), cg, g);
            bg_check_emit_str(x->c, name, runner_verdict(x, "chain", 1, d), ew, og, d);
            return;
        } else {
            /* every checkpoint agrees: only the final digest differs */
            cJSON_AddStringToObject(div, "checkpoint", "final digest");
            cJSON_AddNumberToObject(div, "hash_index", (double)(got->n - 1));
            cJSON_AddStringToObject(div, "expected", w);
            cJSON_AddStringToObject(div, "observed", g);
        }
    }
    bg_check_emit_str(x->c, name, runner_verdict(x, "chain", !same, d), w, g, d);
}

/* --observe: what was computed, as one JSON object on stdout (runner_known.h
 * and the usage above name its fields). */
static int print_observed(const rx_opts *o, const rx_kat_set *kats, const observed *ob)
{
    cJSON *doc = cJSON_CreateObject();
    char hex[65];
    cJSON_AddStringToObject(doc, "algorithm", rx_algorithm((int)o->flags));
    cJSON_AddNumberToObject(doc, "flags", (double)o->flags);
    cJSON_AddNumberToObject(doc, "cache_inits", ob->inits);
    cJSON_AddNumberToObject(doc, "cache_init_seconds", ob->init_seconds);
    cJSON *arr = cJSON_AddArrayToObject(doc, "kats");
    for (int i = 0; i < kats->nvectors; i++) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "id", kats->vectors[i].id);
        bg_hex_encode(ob->kat[i], 32, hex);
        cJSON_AddStringToObject(k, "hash", hex);
        if (ob->have_com[i]) {
            bg_hex_encode(ob->com[i], 32, hex);
            cJSON_AddStringToObject(k, "commitment", hex);
        }
        cJSON_AddItemToArray(arr, k);
    }
    cJSON *ch = cJSON_AddObjectToObject(doc, "chain");
    rx_chain_add_json(ch, o->key_text, o->key, o->key_len, &ob->chain);
    cJSON_AddNumberToObject(ch, "hashing_seconds", ob->chain.seconds);
    char *txt = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!txt)
        return bg_exit_code(bg_fail(BG_E_NOMEM, "--observe", "out of memory"));
    int ok = puts(txt) >= 0 && fflush(stdout) == 0;
    cJSON_free(txt);
    return ok ? 0 : bg_exit_code(bg_fail(BG_E_IO, "--observe", "cannot write stdout"));
}

/* One hex digest field of a document into out; 0 when absent or malformed. */
static int hex32(const cJSON *obj, const char *key, uint8_t out[32])
{
    const char *h = bg_json_str(obj, key);
    size_t n = 0;
    return h && bg_hex_decode(h, out, 32, &n) == BG_OK && n == 32;
}

/* Reads the probe's --observe document into ob; 0 with why[n] when it is not
 * one for these vectors and this chain. */
static int parse_observed(const char *txt, const rx_opts *o, const rx_kat_set *kats, observed *ob,
                          char *why, size_t n)
{
    cJSON *doc = cJSON_Parse(txt);
    const char *alg = bg_json_str(doc, "algorithm");
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "kats");
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(doc, "chain");
    const char *bad = NULL;
    uint64_t cn = 0, ck = 0;
    if (!doc || !alg || !cJSON_IsArray(arr) || !cJSON_IsObject(ch))
        bad = "no JSON object with algorithm, kats and chain";
    else if (strcmp(alg, rx_algorithm((int)o->flags)))
        bad = "another algorithm than the flags'";
    else if (cJSON_GetArraySize(arr) != kats->nvectors)
        bad = "another number of known answers than the fixture";
    for (int i = 0; !bad && i < kats->nvectors; i++) {
        const cJSON *k = cJSON_GetArrayItem(arr, i);
        const char *id = bg_json_str(k, "id");
        if (!id || strcmp(id, kats->vectors[i].id) || !hex32(k, "hash", ob->kat[i]))
            bad = "a known answer without its id or a 64-digit hash";
        else
            ob->have_com[i] = hex32(k, "commitment", ob->com[i]);
    }
    const cJSON *cps = cJSON_GetObjectItemCaseSensitive(ch, "checkpoints");
    if (!bad && (!bg_json_u64(ch, "n", &cn) || !bg_json_u64(ch, "k", &ck) || cn != o->n ||
                 ck != o->k || !hex32(ch, "digest", ob->chain.digest) || !cJSON_IsArray(cps)))
        bad = "a chain without this n, k, digest and checkpoints";
    if (!bad) {
        ob->inits = (int)bg_json_num(doc, "cache_inits", 0);
        ob->init_seconds = bg_json_num(doc, "cache_init_seconds", 0);
        ob->chain.n = cn;
        ob->chain.k = ck;
        ob->chain.seconds = bg_json_num(ch, "hashing_seconds", 0);
        ob->chain.ncheckpoints = (size_t)cJSON_GetArraySize(cps);
        ob->chain.checkpoints = calloc(ob->chain.ncheckpoints + 1, 32);
        for (size_t i = 0; !bad && i < ob->chain.ncheckpoints; i++) {
            const cJSON *c = cJSON_GetArrayItem(cps, (int)i);
            size_t got = 0;
            if (!ob->chain.checkpoints || !cJSON_IsString(c) ||
                bg_hex_decode(c->valuestring, ob->chain.checkpoints[i], 32, &got) != BG_OK || got != 32)
                bad = "a chain checkpoint that is not 64 hex digits";
        }
    }
    cJSON_Delete(doc);
    if (bad)
        snprintf(why, n, "the probe's --observe output: %s", bad);
    return !bad;
}

/* The check <test>.run: the probe could not be run under the runner, or what
 * it printed is no observation.  A crash of a translator is a deviation of the
 * runner like a wrong digest (runner_verdict, check "run"); a timeout is not
 * (BG_INCONCLUSIVE in: a fail that proposes no known line, the load named). */
static int run_failed(ctx *x, const char *why, bg_verdict v)
{
    char name[400];
    snprintf(name, sizeof name, "%s.run", x->test);
    cJSON *d = matrix(x, "run", NULL);
    if (v == BG_FAIL)
        v = runner_verdict(x, "run", 1, d);
    else if (v == BG_INCONCLUSIVE) { /* timed out: the host, not the translation */
        v = BG_FAIL;
        cJSON_AddStringToObject(d, "action", "the run timed out: no known line is proposed for a "
                                             "timeout; raise --timeout (the load is named) or rerun");
    }
    bg_check_emit_str(x->c, name, v, "the probe computes the variant under the runner", why, d);
    return bg_checks_close(x->c);
}

/* --runner: `<runner> <probe> --observe ...` and its document read into ob.
 * Returns -1 when ob holds the observation, else the process exit code (the
 * run's check recorded). */
static int observe_under_runner(ctx *x, const rx_opts *o, const rx_kat_set *kats, observed *ob)
{
    char why[1100];
    bg_runner rn;
    bg_status st = bg_runner_resolve(o->runner, "x86_64", &rn, why, sizeof why);
    if (st == BG_E_UNSUPPORTED) {
        char name[400];
        snprintf(name, sizeof name, "%s.run", x->test);
        bg_check_emit_str(x->c, name, BG_SKIP, "a runner to run the probe", why,
                          matrix(x, "run", NULL));
        return bg_checks_close(x->c);
    }
    if (st != BG_OK) {
        bg_checks_free(x->c);
        return bg_exit_code(bg_fail(st, "--runner", "%s", why));
    }
    snprintf(x->runner_version, sizeof x->runner_version, "%s", rn.version);
    bg_runner_known_tool(&rn, x->known_tool, sizeof x->known_tool);
    if ((st = rk_load(bg_fixtures_root(), x->known_tool, &x->known))) {
        bg_runner_free(&rn);
        char name[400];
        snprintf(name, sizeof name, "%s.known", x->test);
        return bg_checks_fail_stored(x->c, name, "a valid known list (docs/digest_agreement.md "
                                                 "\"Under runners\")", st, NULL);
    }
    char self[4096], nb[32], kb[32], keyhex[520];
    const char *probe = o->probe;
    struct stat pst;
    if (probe && (stat(probe, &pst) != 0 || !S_ISREG(pst.st_mode) || access(probe, X_OK) != 0)) {
        bg_checks_free(x->c); /* the user's input, not the runner: no check, no proposed line */
        return bg_exit_code(bg_fail(BG_E_USAGE, "--probe", "%s is not an executable file", probe));
    }
    if (!probe) { /* this program (Linux: /proc/self/exe; else argv[0] as found) */
        if (!realpath("/proc/self/exe", self) && bg_proc_which(o->argv0, self, sizeof self))
            snprintf(self, sizeof self, "%s", o->argv0);
        probe = self;
    }
    snprintf(nb, sizeof nb, "%llu", (unsigned long long)o->n);
    snprintf(kb, sizeof kb, "%llu", (unsigned long long)o->k);
    char *av[BG_RUNNER_MAX_ARGS + 20];
    int n = 0;
    for (int i = 0; i < rn.argc; i++)
        av[n++] = rn.argv[i];
    av[n++] = (char *)probe;
    av[n++] = "--observe";
    av[n++] = "--flags";
    av[n++] = (char *)o->flags_text;
    av[n++] = "--n";
    av[n++] = nb;
    av[n++] = "--k";
    av[n++] = kb;
    av[n++] = "--kat";
    av[n++] = (char *)x->kat;
    av[n++] = "--chains";
    av[n++] = (char *)x->chains;
    if (o->key_text) {
        av[n++] = "--key";
        av[n++] = (char *)o->key_text;
    } else {
        bg_hex_encode(o->key, o->key_len, keyhex);
        av[n++] = "--key-hex";
        av[n++] = keyhex;
    }
    av[n] = NULL;
    bg_proc_opts po = {.env = rn.env, .timeout_s = (double)o->timeout, .max_out = (size_t)1 << 20};
    bg_proc_result r;
    st = bg_proc_spawn(av, &po, &r);
    bg_runner_free(&rn);
    if (st)
        return run_failed(x, bg_last_error(), BG_FAIL);
    int rc = -1;
    if (r.exited && r.code == 77) { /* the probe says this host cannot run the variant */
        bg_proc_stderr_tail(&r, BG_PROC_TAIL_LINES, why, sizeof why);
        rc = run_failed(x, why, BG_SKIP);
    } else if (!bg_proc_ok(&r)) {
        char how[700], tail[300] = "";
        bg_proc_explain(&r, (double)o->timeout, how, sizeof how);
        bg_proc_stderr_tail(&r, 3, tail, sizeof tail);
        snprintf(why, sizeof why, "%.600s under runner %.40s (%.120s)%s%.300s", how, o->runner,
                 x->runner_version, *tail ? "; stderr: " : "", tail);
        rc = run_failed(x, why, r.timed_out ? BG_INCONCLUSIVE : BG_FAIL);
    } else if (!parse_observed(r.out, o, kats, ob, why, sizeof why)) {
        rc = run_failed(x, why, BG_FAIL);
    } else {
        char name[400], w[300];
        snprintf(name, sizeof name, "%s.run", x->test);
        snprintf(w, sizeof w, "%.1f s wall, %.1f s CPU; %d cache inits %.1f s, %llu hashes %.1f s",
                 r.wall_s, r.cpu_s, ob->inits, ob->init_seconds,
                 (unsigned long long)ob->chain.n, ob->chain.seconds);
        cJSON *d = matrix(x, "run", w);
        cJSON_AddNumberToObject(d, "wall_seconds", r.wall_s);
        cJSON_AddNumberToObject(d, "cpu_seconds", r.cpu_s);
        cJSON_AddNumberToObject(d, "cache_inits", ob->inits);
        cJSON_AddNumberToObject(d, "cache_init_seconds", ob->init_seconds);
        cJSON_AddNumberToObject(d, "hashing_seconds", ob->chain.seconds);
        char load[64];
        bg_host_load_describe(load, sizeof load);
        cJSON_AddStringToObject(d, "load", load); /* at the end of the run */
        bg_check_emit_str(x->c, name, BG_PASS, "the probe computes the variant under the runner",
                          w, d);
    }
    bg_proc_result_free(&r);
    return rc;
}

static int variant_run(ctx *x, const rx_opts *o)
{
    /* DigestTests.cmake names the tests; the slug here comes from the flags:
     * they must agree, or the report would file results under a wrong name. */
    const char *prefix = "digest.runtime.";
    if (!o->observe && !strncmp(x->test, prefix, strlen(prefix)) &&
        strcmp(x->test + strlen(prefix), x->slug)) {
        char name[400];
        snprintf(name, sizeof name, "%s.name", x->test);
        bg_check_emit_str(x->c, name, BG_FAIL, x->test + strlen(prefix), x->slug,
                          cJSON_CreateString("test name vs the slug of its --flags"));
    }
    rx_kat_set kats;
    bg_status st = fixtures_root_ok(o);
    if (st)
        return o->observe ? bg_exit_code(st) : stop(x, "fixture", st);
    if ((st = rx_kat_load(o->kat, rx_algorithm((int)o->flags), &kats)))
        return o->observe ? bg_exit_code(st) : stop_at(x, "fixture", st, o->kat, KAT_REL);
    rx_chain_result want;
    memset(&want, 0, sizeof want);
    int no_entry;
    if (!o->observe) {
        st = rx_chain_fixture_find(o->chains, rx_algorithm((int)o->flags), (const char *)o->key,
                                   o->n, o->k, &want, &no_entry);
        if (st) /* a sound file without this chain has nothing to restore: the error says record one */
            return stop_at(x, "fixture", st, no_entry ? NULL : o->chains, CHAINS_REL);
    }
    observed *ob = calloc(1, sizeof *ob);
    if (!ob) {
        rx_chain_free(&want);
        return stop(x, "run", bg_fail(BG_E_NOMEM, "bg-digest-check", "out of memory"));
    }
    if (o->runner) {
        int rc = observe_under_runner(x, o, &kats, ob);
        if (rc >= 0) {
            rx_chain_free(&ob->chain);
            free(ob);
            rx_chain_free(&want);
            rk_free(&x->known);
            return rc;
        }
    } else {
        rx_session s;
        /* open with the first KAT key; the chain key comes last */
        const rx_kat *k0 = &kats.vectors[0];
        st = rx_session_open(&s, o->flags, k0->key, k0->key_len, o->init_threads, o->dataset_dir);
        if (st) {
            rx_chain_free(&want);
            free(ob);
            return o->observe ? bg_exit_code(st) : stop(x, "variant", st);
        }
        st = compute_kats(&s, &kats, ob);
        if (!st && !o->observe)
            judge_kats(x, &kats, ob);
        if (!st && (o->flags & RANDOMX_FLAG_FULL_MEM))
            for (int i = 0; i < kats.nvectors; i++)
                if (i == 0 || strcmp(kats.vectors[i].key, kats.vectors[i - 1].key)) {
                    st = rx_session_rekey(&s, kats.vectors[i].key, kats.vectors[i].key_len);
                    if (st)
                        break;
                    if (!o->observe)
                        check_dataset_items(x, &s, NULL, &kats, kats.vectors[i].key);
                }
        if (!st)
            st = rx_session_rekey(&s, o->key, o->key_len);
        if (!st) {
            ob->init_seconds += s.init_seconds;
            ob->inits++;
            st = rx_chain_run(s.vm, o->n, o->k, NULL, &ob->chain);
        }
        rx_session_close(&s);
        if (st) {
            rx_chain_free(&ob->chain);
            rx_chain_free(&want);
            free(ob);
            return o->observe ? bg_exit_code(st) : stop(x, "run", st);
        }
        if (o->observe) {
            int rc = print_observed(o, &kats, ob);
            rx_chain_free(&ob->chain);
            free(ob);
            bg_checks_free(x->c);
            return rc;
        }
    }
    if (o->runner)
        judge_kats(x, &kats, ob);
    check_chain(x, o, &want, &ob->chain);
    rx_chain_free(&ob->chain);
    rx_chain_free(&want);
    rk_free(&x->known);
    free(ob);
    return bg_checks_close(x->c);
}

/* Progress of the dataset builds, for bg-run --stall (bg_progress.h):
 * items built over every key; key progress_key is being built. */
static int progress_key;
static void build_progress(void *arg, unsigned long done, unsigned long total, const char *phase)
{
    int nk = *(const int *)arg;
    char unit[160] = "dataset items built";
    if (phase)
        snprintf(unit, sizeof unit, "dataset items built (%s)", phase);
    bg_progress_report((unsigned long long)progress_key * total + done,
                       (unsigned long long)nk * total, unit, 1.0);
}

/* While another tree holds the cache entry's lock: waiting is progress here
 * (that tree's own bg-run stops it when it stalls, which frees the lock). */
static void lock_wait(void *arg, int seconds)
{
    const char *name = strrchr((const char *)arg, '/') ? strrchr((const char *)arg, '/') + 1
                                                        : (const char *)arg;
    size_t len = strlen(name); /* the end names the key: entries share their start */
    char note[160];
    snprintf(note, sizeof note, "dataset items built (waiting %d s for another tree's build of "
             "%s%s)", seconds, len > 60 ? "..." : "", len > 60 ? name + len - 57 : name);
    bg_progress_report(0, 0, note, 0);
}

/* digest.runtime.dataset: one build per key, shared through files; with
 * --dataset-cache, through the host's dataset cache (dataset_cache.h). */
static int make_datasets(ctx *x, const rx_opts *o)
{
    rx_kat_set kats;
    bg_status st = fixtures_root_ok(o);
    if (st)
        return stop(x, "fixture", st);
    if ((st = rx_kat_load(o->kat, rx_algorithm((int)o->flags), &kats)))
        return stop_at(x, "fixture", st, o->kat, KAT_REL);
    const char *keys[34];
    size_t lens[34];
    int nk = 0;
    keys[nk] = (const char *)o->key;
    lens[nk++] = o->key_len;
    for (int i = 0; i < kats.nvectors; i++) {
        int seen = 0;
        for (int j = 0; j < nk; j++)
            seen |= lens[j] == kats.vectors[i].key_len &&
                    !memcmp(keys[j], kats.vectors[i].key, lens[j]);
        if (!seen) {
            keys[nk] = kats.vectors[i].key;
            lens[nk++] = kats.vectors[i].key_len;
        }
    }
    if ((st = rx_dataset_dir_check(o->make_datasets)) != BG_OK)
        return stop(x, "dataset", st); /* before minutes of dataset building */
    rx_dataset_build_options(o->items, build_progress, &nk);
    char cache_dir[4096] = "", cache_note[700] = "";
    if (o->dataset_cache) { /* an unusable cache is said, and the tree builds its own */
        if (rx_dscache_mkdir(o->dataset_cache) != BG_OK || !realpath(o->dataset_cache, cache_dir)) {
            snprintf(cache_note, sizeof cache_note, "; dataset cache not used: %s",
                     bg_last_error());
            cache_dir[0] = '\0';
        }
    }
    randomx_flags f = (randomx_flags)((int)o->flags | RANDOMX_FLAG_FULL_MEM);
    rx_session s;
    memset(&s, 0, sizeof s);
    int opened = 0;
    for (int i = 0; i < nk && !st; i++) {
        progress_key = i;
        char key[130], entry[4600] = "", why[600] = "", obs[1600];
        snprintf(key, sizeof key, "%.*s", (int)lens[i], keys[i]);
        int lock = -1, reused = 0;
        double t0 = rx_now();
        if (cache_dir[0]) {
            rx_dscache_entry(cache_dir, o->dataset_cache_id, f, keys[i], lens[i], entry,
                             sizeof entry);
            lock = rx_dscache_lock(entry, lock_wait, entry);
            int v = rx_dscache_verify(entry, o->dataset_cache_id, f, keys[i], lens[i], why,
                                      sizeof why);
            reused = v == 0;
            if (v == 2) { /* never used: said, removed, rebuilt */
                fprintf(stderr, "bg-digest-check: dataset cache entry %s not used: %s: rebuilding it\n",
                        entry, why);
                rx_dscache_remove(entry);
            }
        }
        if (reused) {
            build_progress(&nk, rx_dataset_items(), rx_dataset_items(), "reused");
            check_dataset_items(x, NULL, entry, &kats, key);
            st = rx_dscache_link(entry, o->make_datasets, keys[i], lens[i]);
            snprintf(obs, sizeof obs,
                     "reused from the dataset cache %s in %.1f s (verified: checksum and %d "
                     "items re-derived)", entry, rx_now() - t0, RX_DSCACHE_SAMPLES);
        } else {
            fprintf(stderr, "bg-digest-check: building dataset %d/%d (%d threads)\n", i + 1, nk,
                    o->init_threads);
            st = !opened ? rx_session_open(&s, f, keys[i], lens[i], o->init_threads, NULL)
                         : rx_session_rekey(&s, keys[i], lens[i]);
            opened = !st;
            if (st)
                break;
            check_dataset_items(x, &s, NULL, &kats, key);
            if (entry[0]) {
                st = rx_dscache_publish(&s, entry, o->dataset_cache_id, keys[i], lens[i]);
                if (!st)
                    st = rx_dscache_link(entry, o->make_datasets, keys[i], lens[i]);
            } else {
                st = rx_dataset_save(&s, o->make_datasets, keys[i], lens[i]);
            }
            int k = snprintf(obs, sizeof obs, "built in %.1f s with %d threads, saved", s.init_seconds,
                             o->init_threads);
            if (entry[0] && k > 0 && (size_t)k < sizeof obs)
                snprintf(obs + k, sizeof obs - (size_t)k, " in the dataset cache %s%s%s", entry,
                         strcmp(why, "absent") ? " (the entry there was not used: " : "",
                         strcmp(why, "absent") ? why : "");
            if (entry[0] && strcmp(why, "absent") && strlen(obs) + 2 < sizeof obs)
                strcat(obs, ")");
            else if (!entry[0] && strlen(obs) + strlen(cache_note) < sizeof obs)
                strcat(obs, cache_note);
        }
        rx_dscache_unlock(lock);
        char name[400];
        snprintf(name, sizeof name, "%s.build.%d", x->test, i + 1);
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "key", key);
        cJSON_AddStringToObject(d, "dataset_cache", reused ? "reused" : entry[0] ? "built" : "not used");
        if (!reused)
            cJSON_AddNumberToObject(d, "init_seconds", s.init_seconds);
        if (!st)
            bg_check_emit_str(x->c, name, BG_PASS,
                              reused ? "dataset reused and verified" : "dataset built and saved",
                              obs, d);
        else
            cJSON_Delete(d);
    }
    rx_session_close(&s);
    if (st)
        return stop(x, "dataset", st);
    return bg_checks_close(x->c);
}

/* Fixture cleanup: removes the dataset files (2 GiB each) of this run. */
static int remove_datasets(ctx *x, const char *dir)
{
    DIR *d = opendir(dir);
    int removed = 0, failed = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 6 || !strstr(e->d_name, ".rxds")) /* also .rxds.tmp.<pid> of an interrupted save */
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (remove(path) == 0)
            removed++;
        else
            failed++;
    }
    if (d)
        closedir(d);
    char name[400], obs[64];
    snprintf(name, sizeof name, "%s.removed", x->test);
    snprintf(obs, sizeof obs, "%d removed, %d not removable", removed, failed);
    bg_check_emit_str(x->c, name, failed ? BG_FAIL : BG_PASS, "every dataset file removed", obs,
                      NULL);
    return bg_checks_close(x->c);
}

int main(int argc, char **argv)
{
    bg_guard_set_tool("bg-digest-check");
    rx_opts o;
    bg_status st = rx_opts_parse_tool(argc, argv, &tool, &o);
    if (st || o.help)
        return bg_exit_code(st);
    if (o.validate_known) { /* the tool is the file's name: <tool>.tsv */
        rk_list kl;
        struct stat sb;
        if (stat(o.validate_known, &sb) != 0)
            return bg_exit_code(bg_fail(BG_E_FIXTURE, o.validate_known, "missing"));
        /* the known answers its kat ids name: those of the fixtures root the
           list lies in (<root>/randomx/known/<tool>.tsv), else bg_fixtures_root() */
        char root[4096];
        snprintf(root, sizeof root, "%s", o.validate_known);
        char *in = strstr(root, "/randomx/known/");
        if (in && !strchr(in + strlen("/randomx/known/"), '/'))
            *in = '\0';
        else
            snprintf(root, sizeof root, "%s", bg_fixtures_root());
        if ((st = rk_load_path(o.validate_known, root, &kl)))
            return bg_exit_code(st);
        printf("%s: %d known digest deviation line(s) valid\n", o.validate_known, kl.n);
        rk_free(&kl);
        return 0;
    }
    ctx x;
    x.variant = o.variant;
    x.kat = o.kat;
    x.kat_rel = rx_kat_rel(rx_algorithm((int)o.flags));
    x.chains = o.chains;
    x.algorithm = rx_algorithm((int)o.flags);
    x.runner = o.runner;
    x.runner_version[0] = x.known_tool[0] = '\0';
    memset(&x.known, 0, sizeof x.known);
    x.c = o.observe ? NULL : bg_checks_open(SUITE);
    if (o.observe)
        return variant_run(&x, &o);
    if (!x.c)
        return BG_EXIT_IO;
    rx_flags_slug(o.flags, !o.dataset_dir, x.slug, sizeof x.slug);
    const char *test = getenv("BG_TEST_NAME");
    if (test && *test)
        snprintf(x.test, sizeof x.test, "%s", test);
    else
        snprintf(x.test, sizeof x.test, "digest.runtime.%s", o.make_datasets ? "dataset" : x.slug);
    if (o.remove_datasets)
        return remove_datasets(&x, o.remove_datasets);
    if (o.make_datasets) {
        snprintf(x.slug, sizeof x.slug, "dataset (shared by the full-memory variants)");
        return make_datasets(&x, &o);
    }
    return variant_run(&x, &o);
}
