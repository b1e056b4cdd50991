/* nan_fixture.c — see nan_fixture.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"

static bg_status bad(const char *path, const char *why)
{
    return bg_fail(BG_E_FIXTURE, "nan-check", "fixture %s: %s", path, why);
}

int nan_results_decode(const cJSON *results, nan_rec *recs, int *present)
{
    for (int k = 0; k < nan_op_count; k++) {
        present[k] = 0;
        const char *s = bg_json_str(results, nan_ops[k].name);
        if (!s)
            continue;
        int n = nan_case_count(k);
        size_t len = (size_t)nan_rec_hex(k);
        if (strlen(s) != (size_t)n * len)
            return k;
        nan_rec *r = recs + nan_case_offset(k);
        for (int i = 0; i < n; i++)
            if (nan_rec_decode(k, s + (size_t)i * len, &r[i]) != 0)
                return k;
        present[k] = 1;
    }
    return -1;
}

static bg_status apply_diff(const char *path, const char *mode, const cJSON *diff, nan_rec *recs)
{
    char why[256];
    const cJSON *op;
    cJSON_ArrayForEach(op, diff) {
        int k = nan_op_find(op->string);
        if (k < 0 || !cJSON_IsObject(op)) {
            snprintf(why, sizeof why, "mode %s: unknown op '%s' in diff", mode, op->string);
            return bad(path, why);
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, op) {
            char *end = NULL;
            long i = strtol(e->string, &end, 10);
            if (!end || *end || i < 0 || i >= nan_case_count(k) || !cJSON_IsString(e) ||
                strlen(e->valuestring) != (size_t)nan_rec_hex(k) ||
                nan_rec_decode(k, e->valuestring, &recs[nan_case_offset(k) + (size_t)i]) != 0) {
                snprintf(why, sizeof why, "mode %s op %s case '%s': malformed diff entry", mode,
                         op->string, e->string);
                return bad(path, why);
            }
        }
    }
    return BG_OK;
}

/* The records' digest (nan_fixture.h "records_digest"): FNV-1a 64 over
 * "skipped_ops" and "modes" as cJSON prints them unformatted, 16 hex digits
 * into out[20]; 0 out of memory. */
static int records_digest(const cJSON *doc, char out[20])
{
    static const char *const parts[] = {"skipped_ops", "modes"};
    uint64_t h = NAN_FNV64_START;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, parts[i]);
        char *text = item ? cJSON_PrintUnformatted(item) : NULL;
        if (item && !text)
            return 0;
        h = nan_fnv64(h, text ? text : "null", text ? strlen(text) + 1 : 5);
        free(text);
    }
    snprintf(out, 20, "%016llx", (unsigned long long)h);
    return 1;
}

bg_status nan_fixture_load(const char *path, nan_fixture *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    cJSON *doc = NULL;
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return bad(path, "cannot open (generate it: nan-check --write-fixture --reason TEXT)");
    fclose(probe);
    /* bg_json_load prints its own line on a parse error; keep it to one line. */
    if (bg_json_load(path, "nan-check: fixture", &doc) != BG_OK)
        return BG_E_FIXTURE;
    char why[256];
    bg_status st = BG_OK;
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(doc, "provenance");
    const cJSON *modes = cJSON_GetObjectItemCaseSensitive(doc, "modes");
    const char *digest = bg_json_str(doc, "case_table");
    char mine[20];
    snprintf(mine, sizeof mine, "%016llx", (unsigned long long)nan_case_table_digest());
    if (bg_json_num(doc, "schema", 0) != 1) {
        st = bad(path, "\"schema\" is not 1");
    } else if (!cJSON_IsObject(prov) || !bg_json_str(prov, "command") || !bg_json_str(prov, "date") ||
               !bg_json_str(prov, "reason") || !bg_json_str(prov, "source") ||
               !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(prov, "host"))) {
        st = bad(path, "\"provenance\" lacks command, host, date, source or reason");
    } else if (!digest || strcmp(digest, mine) != 0) {
        snprintf(why, sizeof why, "case table %s does not match this build's %s: the op/operand "
                 "table changed; regenerate with --write-fixture --replace --reason", digest ? digest : "(none)", mine);
        st = bad(path, why);
    } else if (!cJSON_IsObject(modes) ||
               !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
                   cJSON_GetObjectItemCaseSensitive(modes, "default"), "results"))) {
        st = bad(path, "\"modes.default.results\" missing");
    }
    if (st == BG_OK) {
        const cJSON *host = cJSON_GetObjectItemCaseSensitive(prov, "host");
        snprintf(f->cpu_model, sizeof f->cpu_model, "%s", bg_json_str(host, "cpu_model") ? bg_json_str(host, "cpu_model") : "?");
        snprintf(f->date, sizeof f->date, "%s", bg_json_str(prov, "date"));
        size_t total = nan_case_total();
        int m0 = nan_mode_find("default");
        f->exp[m0] = calloc(total, sizeof(nan_rec));
        if (!f->exp[m0]) {
            st = BG_E_NOMEM;
        } else {
            int badk = nan_results_decode(cJSON_GetObjectItemCaseSensitive(
                                              cJSON_GetObjectItemCaseSensitive(modes, "default"), "results"),
                                          f->exp[m0], f->has_op);
            if (badk >= 0) {
                snprintf(why, sizeof why, "mode default op %s: record string has the wrong length "
                         "or a non-hex digit (truncated?)", nan_ops[badk].name);
                st = bad(path, why);
            }
        }
        for (int m = 0; st == BG_OK && m < NAN_MODE_COUNT; m++) {
            const cJSON *mo = cJSON_GetObjectItemCaseSensitive(modes, nan_modes[m].name);
            if (m == m0 || !mo)
                continue;
            const cJSON *diff = cJSON_GetObjectItemCaseSensitive(mo, "diff");
            if (!cJSON_IsObject(diff)) {
                snprintf(why, sizeof why, "mode %s has no \"diff\" object", nan_modes[m].name);
                st = bad(path, why);
                break;
            }
            int b = nan_mode_base(m);
            if (!f->exp[b]) {
                snprintf(why, sizeof why, "mode %s: its base mode %s is missing", nan_modes[m].name,
                         nan_modes[b].name);
                st = bad(path, why);
                break;
            }
            f->exp[m] = malloc(total * sizeof(nan_rec));
            if (!f->exp[m]) {
                st = BG_E_NOMEM;
                break;
            }
            memcpy(f->exp[m], f->exp[b], total * sizeof(nan_rec));
            st = apply_diff(path, nan_modes[m].name, diff, f->exp[m]);
        }
        /* complete: every MXCSR mode, and every op of nan_ops.def unless the
         * recording host lacked its feature (skipped_ops): a deleted op or
         * mode would otherwise silently drop out of every comparison */
        for (int m = 0; st == BG_OK && m < NAN_MODE_COUNT; m++)
            if (!f->exp[m]) {
                snprintf(why, sizeof why, "mode %s is missing (all %d MXCSR modes are recorded)",
                         nan_modes[m].name, NAN_MODE_COUNT);
                st = bad(path, why);
            }
        const cJSON *skipped = cJSON_GetObjectItemCaseSensitive(doc, "skipped_ops"), *e;
        for (int k = 0; st == BG_OK && k < nan_op_count; k++) {
            int listed = 0;
            cJSON_ArrayForEach(e, skipped)
                listed |= cJSON_IsString(e) && strcmp(e->valuestring, nan_ops[k].name) == 0;
            if (!f->has_op[k] && !listed) {
                snprintf(why, sizeof why, "op %s has no records and is not in \"skipped_ops\"",
                         nan_ops[k].name);
                st = bad(path, why);
            }
        }
    }
    /* last: a record edited by hand is well formed, so only its digest tells
       (it would read as a CPU deviation of the native run otherwise) */
    const char *stored = bg_json_str(doc, "records_digest");
    char computed[20];
    if (st == BG_OK && !records_digest(doc, computed))
        st = BG_E_NOMEM;
    if (st == BG_OK && (!stored || strcmp(stored, computed) != 0))
        st = bg_fail(BG_E_FIXTURE, "nan-check", "fixture corrupted: %s: %s (computed %s): a record was "
                     "changed after nan-check --write-fixture wrote it; restore the file, or re-record it "
                     "(--write-fixture --replace --reason)", path,
                     stored ? "its records do not match \"records_digest\"" : "no \"records_digest\"",
                     computed);
    cJSON_Delete(doc);
    if (st != BG_OK)
        nan_fixture_free(f);
    return st;
}

void nan_fixture_free(nan_fixture *f)
{
    for (int m = 0; m < NAN_MODE_COUNT; m++) {
        free(f->exp[m]);
        f->exp[m] = NULL;
    }
}

void nan_fixture_command(int argc, char **argv, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(buf);
        int quote = strchr(argv[i], ' ') != NULL;
        snprintf(buf + len, n - len, "%s%s%s%s", i ? " " : "", quote ? "'" : "", argv[i], quote ? "'" : "");
    }
}

cJSON *nan_fixture_provenance(const char *command, const char *reason, const char *source)
{
    bg_host h;
    bg_host_probe(&h);
    char key[160], now[32];
    bg_host_key(&h, key, sizeof key);
    bg_utc_now(now);
    struct utsname u;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "command", command);
    cJSON *host = cJSON_AddObjectToObject(p, "host");
    cJSON_AddStringToObject(host, "cpu_model", h.cpu_model);
    cJSON_AddStringToObject(host, "os", h.os);
    cJSON_AddStringToObject(host, "kernel", uname(&u) == 0 ? u.release : "?");
    cJSON_AddStringToObject(host, "key", key);
    cJSON_AddStringToObject(p, "date", now);
    cJSON_AddStringToObject(p, "source", source);
    cJSON_AddStringToObject(p, "reason", reason);
    return p;
}

/* 1 when the probe reported every mode once. */
static int bp_ok(const cJSON *phases)
{
    for (int m = 0; m < NAN_MODE_COUNT; m++) {
        int seen = 0;
        const cJSON *ph;
        cJSON_ArrayForEach(ph, phases) {
            const char *mode = bg_json_str(ph, "mode");
            seen += mode && strcmp(mode, nan_modes[m].name) == 0;
        }
        if (seen != 1)
            return 0;
    }
    return 1;
}

bg_status nan_fixture_precheck(const char *path, const char *reason, int replace)
{
    if (!reason || !*reason)
        return bg_fail(BG_E_USAGE, "nan-check", "--write-fixture needs --reason TEXT (recorded in the fixture)");
    if (!replace && access(path, F_OK) == 0)
        return bg_fail(BG_E_EXISTS, "nan-check", "fixture %s exists: pass --replace with --reason to "
                       "overwrite it", path);
    return BG_OK;
}

bg_status nan_fixture_write(const char *path, const cJSON *probe_doc, const char *command,
                            const char *reason, int replace)
{
    bg_status pre = nan_fixture_precheck(path, reason, replace);
    if (pre != BG_OK)
        return pre;
    const cJSON *phases = cJSON_GetObjectItemCaseSensitive(probe_doc, "phases");
    const cJSON *def = NULL, *ph;
    cJSON_ArrayForEach(ph, phases) {
        const char *mode = bg_json_str(ph, "mode");
        if (mode && strcmp(mode, "default") == 0)
            def = ph;
    }
    if (!bp_ok(phases) || !def)
        return bg_fail(BG_E_TARGET, "nan-check", "the probe did not report all %d modes", NAN_MODE_COUNT);
    size_t total = nan_case_total();
    nan_rec *base = calloc(total, sizeof *base), *cur = calloc(total, sizeof *cur);
    int has[NAN_OP_MAX], has2[NAN_OP_MAX];
    cJSON *doc = cJSON_CreateObject();
    if (!base || !cur || !doc) {
        free(base), free(cur), cJSON_Delete(doc);
        return BG_E_NOMEM;
    }
    cJSON_AddNumberToObject(doc, "schema", 1);
    cJSON_AddItemToObject(doc, "provenance", nan_fixture_provenance(command, reason,
                            "nan-probe --context main_thread --modes all, run natively (runner native) "
                            "on real x86-64 hardware"));
    cJSON_AddStringToObject(doc, "case_table", bg_json_str(probe_doc, "case_table"));
    cJSON_AddStringToObject(doc, "record", "68 hex digits: dst[127:0] src[127:0] mxcsr-status eflags (nan_cases.h)");
    cJSON_AddItemToObject(doc, "skipped_ops",
                          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(def, "skipped_ops"), 1));
    cJSON *modes = cJSON_AddObjectToObject(doc, "modes");
    for (int m = 0; m < NAN_MODE_COUNT; m++) {
        const cJSON *p = NULL;
        cJSON_ArrayForEach(ph, phases) {
            const char *mode = bg_json_str(ph, "mode");
            if (mode && strcmp(mode, nan_modes[m].name) == 0)
                p = ph;
        }
        if (!p)
            continue;
        cJSON *mo = cJSON_AddObjectToObject(modes, nan_modes[m].name);
        cJSON_AddStringToObject(mo, "mxcsr", bg_json_str(p, "mxcsr") ? bg_json_str(p, "mxcsr") : "?");
        if (p == def) {
            cJSON_AddItemToObject(mo, "results",
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(p, "results"), 1));
            continue;
        }
        /* the base mode's records, then this mode's: store the differences */
        const cJSON *bp = NULL;
        cJSON_ArrayForEach(ph, phases) {
            const char *mode = bg_json_str(ph, "mode");
            if (mode && strcmp(mode, nan_modes[nan_mode_base(m)].name) == 0)
                bp = ph;
        }
        nan_results_decode(cJSON_GetObjectItemCaseSensitive(bp, "results"), base, has);
        nan_results_decode(cJSON_GetObjectItemCaseSensitive(p, "results"), cur, has2);
        cJSON_AddStringToObject(mo, "base", nan_modes[nan_mode_base(m)].name);
        cJSON *diff = cJSON_AddObjectToObject(mo, "diff");
        for (int k = 0; k < nan_op_count; k++) {
            if (!has[k] || !has2[k])
                continue;
            cJSON *od = NULL;
            for (int i = 0; i < nan_case_count(k); i++) {
                size_t at = nan_case_offset(k) + (size_t)i;
                if (nan_rec_equal(&base[at], &cur[at]))
                    continue;
                char idx[16], rec[NAN_REC_HEX_YMM + 1];
                snprintf(idx, sizeof idx, "%d", i);
                nan_rec_encode(k, &cur[at], rec);
                rec[nan_rec_hex(k)] = '\0';
                if (!od)
                    od = cJSON_AddObjectToObject(diff, nan_ops[k].name);
                cJSON_AddStringToObject(od, idx, rec);
            }
        }
    }
    free(base), free(cur);
    char digest[20];
    if (!records_digest(doc, digest)) {
        cJSON_Delete(doc);
        return BG_E_NOMEM;
    }
    cJSON_AddStringToObject(doc, "records_digest", digest);
    bg_status st = bg_json_write_atomic(path, doc);
    cJSON_Delete(doc);
    return st;
}
