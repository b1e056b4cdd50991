/* merge_digest.c — agree.digest.<variant>.<host> and agree.aes.<host> of
 * bg-report --merge (merge_model.h, docs/cross-host.md). */
#define _POSIX_C_SOURCE 200809L
#include "merge_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"

/* The variant of a digest check (name minus "digest." and its kind suffix)
 * into out; kind: "chain", "KAT" or "dataset item"; sub: the KAT id or dataset
 * item ("" for a chain).  0 when c is not one. */
static int digest_variant_sub(const cJSON *c, char *out, size_t n, const char **kind,
                              const char **sub)
{
    const char *name = bg_json_str(c, "name");
    if (!mg_starts(name, "digest.") || mg_starts(name, "digest.selftest."))
        return 0;
    const char *body = name + strlen("digest."), *cut = NULL;
    if (mg_ends(body, ".chain")) {
        cut = body + strlen(body) - strlen(".chain");
        *kind = "chain";
        *sub = "";
    } else {
        const char *kinds[] = {".kat.", ".dataset."};
        for (int i = 0; i < 2 && !cut; i++) {
            const char *p = body, *last = NULL;
            while ((p = strstr(p, kinds[i])) != NULL)
                last = p++;
            if (last) {
                cut = last;
                *kind = kinds[i][1] == 'k' ? "KAT" : "dataset item";
                *sub = last + strlen(kinds[i]);
            }
        }
    }
    if (!cut || cut == body)
        return 0;
    snprintf(out, n, "%.*s", (int)(cut - body), body);
    return 1;
}

static int digest_variant(const cJSON *c, char *out, size_t n, const char **kind)
{
    const char *sub;
    return digest_variant_sub(c, out, n, kind, &sub);
}

/* 1 when host h ran (pass/fail) at least one check of variant v. */
static int runs_variant(const mhost *h, const char *v)
{
    const cJSON *c;
    char cv[512];
    const char *kind;
    cJSON_ArrayForEach(c, h->checks) {
        if (digest_variant(c, cv, sizeof cv, &kind) && mg_ran(c) && !strcmp(cv, v))
            return 1;
    }
    return 0;
}

/* 1 when every check of variant v on host h passes. */
static int variant_passes(const mhost *h, const char *v)
{
    const cJSON *c;
    char cv[512];
    const char *kind;
    cJSON_ArrayForEach(c, h->checks) {
        if (digest_variant(c, cv, sizeof cv, &kind) && !strcmp(cv, v) &&
            strcmp(mg_verdict(c), "pass"))
            return 0;
    }
    return 1;
}

/* The first difference found between two hosts for one variant. */
typedef struct ddiff {
    int count;        /* differing checks */
    char check[512];  /* the first one's name */
    char where[160];  /* "checkpoint 3 (hash 23)", "KAT 5", "final digest" */
    char a[600], b[600];
    cJSON *detail;    /* details.first_difference */
} ddiff;

static void ddiff_note(ddiff *dd, const char *check, const char *where, const char *a,
                       const char *b, long index, long hash_index)
{
    if (dd->count++)
        return;
    snprintf(dd->check, sizeof dd->check, "%s", check);
    snprintf(dd->where, sizeof dd->where, "%s", where);
    snprintf(dd->a, sizeof dd->a, "%s", a);
    snprintf(dd->b, sizeof dd->b, "%s", b);
    dd->detail = cJSON_CreateObject();
    cJSON_AddStringToObject(dd->detail, "check", check);
    cJSON_AddStringToObject(dd->detail, "where", where);
    if (index >= 0)
        cJSON_AddNumberToObject(dd->detail, "checkpoint", (double)index);
    if (hash_index >= 0)
        cJSON_AddNumberToObject(dd->detail, "hash_index", (double)hash_index);
    cJSON_AddStringToObject(dd->detail, "reference", a);
    cJSON_AddStringToObject(dd->detail, "observed", b);
}

/* Compares two chain checks: key, n, k, then checkpoint by checkpoint, then
 * the final digest (details written by bg-digest-check, rx_chain_add_json);
 * without checkpoints in the details, their observed values. */
static void diff_chain(const cJSON *ca, const cJSON *cb, ddiff *dd)
{
    const char *name = bg_json_str(ca, "name");
    const cJSON *da = cJSON_GetObjectItemCaseSensitive(ca, "details");
    const cJSON *db = cJSON_GetObjectItemCaseSensitive(cb, "details");
    const cJSON *pa = cJSON_GetObjectItemCaseSensitive(da, "checkpoints");
    const cJSON *pb = cJSON_GetObjectItemCaseSensitive(db, "checkpoints");
    char a[600], b[600], ta[600], tb[600];
    if (cJSON_IsArray(pa) != cJSON_IsArray(pb)) {
        /* one host carries the chain, the other not: nothing shows they agree */
        ddiff_note(dd, name, "chain details (checkpoints on one host only: not comparable)",
                   cJSON_IsArray(pa) ? "checkpoints" : "(none)",
                   cJSON_IsArray(pb) ? "checkpoints" : "(none)", -1, -1);
        return;
    }
    if (!cJSON_IsArray(pa)) {
        const char *oa = mg_text(cJSON_GetObjectItemCaseSensitive(ca, "observed"), ta, sizeof ta);
        const char *ob = mg_text(cJSON_GetObjectItemCaseSensitive(cb, "observed"), tb, sizeof tb);
        if (strcmp(oa, ob))
            ddiff_note(dd, name, "chain (observed; no checkpoints in details)", oa, ob, -1, -1);
        return;
    }
    const char *ka = bg_json_str(da, "key"), *kb = bg_json_str(db, "key");
    double na = bg_json_num(da, "n", 0), nb = bg_json_num(db, "n", 0);
    double ka_k = bg_json_num(da, "k", 0), kb_k = bg_json_num(db, "k", 0);
    if ((ka && kb && strcmp(ka, kb)) || na != nb || ka_k != kb_k) {
        snprintf(a, sizeof a, "key %s, n %.0f, k %.0f", ka ? ka : "?", na, ka_k);
        snprintf(b, sizeof b, "key %s, n %.0f, k %.0f", kb ? kb : "?", nb, kb_k);
        ddiff_note(dd, name, "chain parameters (not the same chain)", a, b, -1, -1);
        return;
    }
    int np = cJSON_GetArraySize(pa), nq = cJSON_GetArraySize(pb);
    for (int i = 0; i < np || i < nq; i++) {
        const char *ha = cJSON_GetStringValue(cJSON_GetArrayItem(pa, i));
        const char *hb = cJSON_GetStringValue(cJSON_GetArrayItem(pb, i));
        if (ha && hb && !strcmp(ha, hb))
            continue;
        char where[160];
        long hash = (long)((i + 1) * ka_k - 1);
        snprintf(where, sizeof where, "checkpoint %d (hash %ld)", i + 1, hash);
        ddiff_note(dd, name, where, ha ? ha : "(none)", hb ? hb : "(none)", i + 1, hash);
        return;
    }
    const char *ga = bg_json_str(da, "digest"), *gb = bg_json_str(db, "digest");
    if ((ga || gb) && (!ga || !gb || strcmp(ga, gb)))
        ddiff_note(dd, name, "final digest", ga ? ga : "(none)", gb ? gb : "(none)", -1,
                   (long)na - 1);
}

/* Compares every check of variant v that both hosts ran; chain first. */
static void diff_variant(const mhost *ha, const mhost *hb, const char *v, ddiff *dd)
{
    for (int pass = 0; pass < 2; pass++) {
        const cJSON *ca;
        cJSON_ArrayForEach(ca, ha->checks) {
            char cv[512], ta[600], tb[600];
            const char *kind, *sub;
            if (!digest_variant_sub(ca, cv, sizeof cv, &kind, &sub) || strcmp(cv, v) || !mg_ran(ca) ||
                (pass == 0) != !strcmp(kind, "chain"))
                continue;
            const char *name = bg_json_str(ca, "name");
            const cJSON *cb = mg_find_check(hb, name);
            if (!cb || !mg_ran(cb))
                continue;
            if (pass == 0) {
                diff_chain(ca, cb, dd);
                continue;
            }
            const char *oa = mg_text(cJSON_GetObjectItemCaseSensitive(ca, "observed"), ta, sizeof ta);
            const char *ob = mg_text(cJSON_GetObjectItemCaseSensitive(cb, "observed"), tb, sizeof tb);
            if (strcmp(oa, ob) || strcmp(mg_verdict(ca), mg_verdict(cb))) {
                char where[600];
                snprintf(where, sizeof where, "%s %s", kind, sub);
                ddiff_note(dd, name, where, oa, ob, -1, -1);
            }
        }
    }
}

void mg_agree_digest(merge *m)
{
    mg_strset vs = {0};
    for (int i = 0; i < m->n; i++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, m->h[i].checks) {
            char v[512];
            const char *kind;
            if (digest_variant(c, v, sizeof v, &kind) && mg_ran(c))
                mg_strset_add(&vs, v);
        }
    }
    mg_strset_sort(&vs);
    for (int k = 0; k < vs.n; k++) {
        const char *v = vs.s[k];
        /* the reference: the first host whose every check of v passes
         * (it matches the fixtures), else the first that ran v */
        const mhost *ref = NULL;
        int nran = 0;
        for (int i = 0; i < m->n; i++) {
            if (!runs_variant(&m->h[i], v))
                continue;
            nran++;
            if (!ref || (!variant_passes(ref, v) && variant_passes(&m->h[i], v)))
                ref = &m->h[i];
        }
        char name[700], e[2400], o[2400];
        if (nran == 1) {
            snprintf(name, sizeof name, "agree.digest.%s.%s", v, ref->slug);
            snprintf(o, sizeof o, "only %s ran it", ref->label);
            mg_add_check(m, name, BG_SKIP, "the variant run on two or more hosts", o, NULL, ref,
                      NULL, "digest");
            continue;
        }
        for (int i = 0; i < m->n; i++) {
            const mhost *h = &m->h[i];
            if (h == ref || !runs_variant(h, v))
                continue;
            ddiff dd = {0};
            diff_variant(ref, h, v, &dd);
            snprintf(name, sizeof name, "agree.digest.%s.%s", v, h->slug);
            cJSON *d = cJSON_CreateObject();
            cJSON_AddStringToObject(d, "variant", v);
            cJSON_AddStringToObject(d, "reference_host", ref->name);
            cJSON_AddStringToObject(d, "host", h->name);
            cJSON_AddNumberToObject(d, "differing_checks", dd.count);
            if (dd.count) {
                cJSON_AddItemToObject(d, "first_difference", dd.detail);
                snprintf(e, sizeof e, "%s: %s %s", ref->label, dd.where, dd.a);
                snprintf(o, sizeof o, "%s: %s %s (%d differing check%s, first %s)", h->label,
                         dd.where, dd.b, dd.count, dd.count == 1 ? "" : "s", dd.check);
            } else {
                snprintf(e, sizeof e, "%s: chain, KAT and dataset results", ref->label);
                snprintf(o, sizeof o, "%s: the same", h->label);
            }
            mg_add_check(m, name, dd.count ? BG_FAIL : BG_PASS, e, o, d, ref, h, "digest");
        }
    }
    mg_strset_free(&vs);
}

/* ---- agree.aes ---- */

static int is_aes_check(const cJSON *c)
{
    const char *n = bg_json_str(c, "name");
    return n && (!strcmp(n, "digest.aes_flags") || (mg_starts(n, "digest.build.") &&
                                                      mg_ends(n, ".aes_flags")));
}

void mg_agree_aes(merge *m)
{
    for (int i = 0; i < m->n; i++) {
        const mhost *h = &m->h[i];
        const cJSON *feat = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(h->doc, "host"), "features");
        const cJSON *host_aes = cJSON_GetObjectItemCaseSensitive(feat, "aes");
        char name[400], e[1200] = "", o[1200] = "", buf[600];
        int nrun = 0, nbad = 0;
        const cJSON *c;
        const mhost *other = NULL; /* the host the first bad check is compared with */
        snprintf(name, sizeof name, "agree.aes.%s", h->slug);
        cJSON *d = cJSON_CreateObject();
        cJSON *list = cJSON_AddArrayToObject(d, "not_pass");
        cJSON_ArrayForEach(c, h->checks) {
            if (!is_aes_check(c) || !strcmp(mg_verdict(c), "skip"))
                continue;
            nrun++;
            const cJSON *det = cJSON_GetObjectItemCaseSensitive(c, "details");
            const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(det, "cpu_aes");
            int mismatch = cJSON_IsBool(cpu) && cJSON_IsBool(host_aes) &&
                           cJSON_IsTrue(cpu) != cJSON_IsTrue(host_aes);
            if (!strcmp(mg_verdict(c), "pass") && !mismatch)
                continue;
            const char *cn = bg_json_str(c, "name");
            cJSON_AddItemToArray(list, cJSON_CreateString(cn));
            if (nbad++)
                continue;
            /* the other side is the host that passed this check, else the
             * check's own expectation: never this host against itself */
            const cJSON *oc = NULL;
            const mhost *oh = mismatch ? NULL : mg_other_good(m, h, cn, &oc);
            other = oh;
            if (mismatch) {
                snprintf(e, sizeof e, "bg-host on the same host: CPU AES %s",
                         cJSON_IsTrue(host_aes) ? "yes" : "no");
                snprintf(o, sizeof o, "%s: %s judged against CPU AES %s", h->label, cn,
                         cJSON_IsTrue(cpu) ? "yes" : "no");
            } else {
                if (oh)
                    snprintf(e, sizeof e, "%s: %s %s: %s", oh->label, cn, mg_verdict(oc),
                             mg_text(cJSON_GetObjectItemCaseSensitive(oc, "observed"), buf,
                                     sizeof buf));
                else
                    snprintf(e, sizeof e, "%s %s (CPU AES %s)", cn,
                             mg_text(cJSON_GetObjectItemCaseSensitive(c, "expected"), buf,
                                     sizeof buf),
                             cJSON_IsBool(cpu) ? (cJSON_IsTrue(cpu) ? "yes" : "no") : "unknown");
                snprintf(o, sizeof o, "%s: %s %s: %s", h->label, cn, mg_verdict(c),
                         mg_text(cJSON_GetObjectItemCaseSensitive(c, "observed"), buf, sizeof buf));
            }
        }
        if (nbad > 1) {
            size_t l = strlen(o);
            snprintf(o + l, sizeof o - l, " (and %d more AES checks)", nbad - 1);
        }
        if (!nbad) {
            snprintf(e, sizeof e, "HARD_AES exactly when the CPU has AES");
            if (nrun)
                snprintf(o, sizeof o, "%s: %d AES check%s", h->label, nrun,
                         nrun == 1 ? " passes" : "s pass");
            else
                snprintf(o, sizeof o, "%s: no digest.aes_flags check ran (digest suite not run)",
                         h->label);
        }
        mg_add_check(m, name, nbad ? BG_FAIL : nrun ? BG_PASS : BG_SKIP, e, o, d, other, h, "aes");
    }
}
