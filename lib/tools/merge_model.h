/* merge_model.h — the hosts of bg-report --merge and the helpers its checks
 * share (report_merge.c loads and writes; merge_digest.c, merge_nan.c
 * compare).  Internal to bg-report.  Doc: docs/cross-host.md.
 */
#ifndef BG_MERGE_MODEL_H
#define BG_MERGE_MODEL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_check.h"

#define MG_SUITE "agree" /* the suite of every check the merge writes */

/* One host: DIR/<name>/results.json. */
typedef struct mhost {
    char name[256];  /* folder name */
    char label[400]; /* "folder (host key)" */
    char slug[256];  /* folder name with [^A-Za-z0-9_-] as '_', for check names */
    cJSON *doc;      /* its results.json */
    const cJSON *checks;
} mhost;

typedef struct merge {
    mhost *h;
    int n;
    cJSON *checks; /* the agree checks */
} merge;

/* A sorted set of strings (a few hundred at most: linear search). */
typedef struct mg_strset {
    char **s;
    int n, cap;
} mg_strset;

/* 1 when s starts / ends with the given text (s may be NULL for starts). */
int mg_starts(const char *s, const char *prefix);
int mg_ends(const char *s, const char *suffix);

/* A check's verdict ("?" when missing); 1 when it is pass or fail (it ran:
 * skip and inconclusive compare nothing); 1 when it is fail or xpass. */
const char *mg_verdict(const cJSON *c);
int mg_ran(const cJSON *c);
int mg_bad(const cJSON *c);

/* A JSON value as text: a string as it is, anything else printed into buf[n]. */
const char *mg_text(const cJSON *v, char *buf, size_t n);

/* The check of host h named name, or NULL. */
const cJSON *mg_find_check(const mhost *h, const char *name);

/* Another host than h whose check named name ran and is not fail/xpass (the
 * first in folder order), its check in *c; NULL when none: the side of a
 * disagreement that names a host other than h. */
const mhost *mg_other_good(const merge *m, const mhost *h, const char *name, const cJSON **c);

/* The host's run.commit, or NULL when it has none (or "unknown"). */
const char *mg_commit_of(const mhost *h);

/* Set of strings: add (copies; once), has, sort (strcmp), free. */
void mg_strset_add(mg_strset *ss, const char *s);
int mg_strset_has(const mg_strset *ss, const char *s);
void mg_strset_sort(mg_strset *ss);
void mg_strset_free(mg_strset *ss);

/* Appends one check of suite "agree" to m->checks.  details (owned; NULL for
 * none) gets "hosts" ([ref, h], whichever are non-NULL: the reference first)
 * and a "matrix" cell (table "Cross-host agreement", row h or ref, column
 * col: digest, aes, nan, commit). */
void mg_add_check(merge *m, const char *name, bg_verdict v, const char *expected,
                  const char *observed, cJSON *details, const mhost *ref, const mhost *h,
                  const char *col);

/* The agree.* checks (docs/cross-host.md "What must agree"). */
void mg_agree_digest(merge *m); /* agree.digest.<variant>.<host> (merge_digest.c) */
void mg_agree_aes(merge *m);    /* agree.aes.<host> (merge_digest.c) */
void mg_agree_nan(merge *m);    /* agree.nan.<runner>.<host> (merge_nan.c) */

#endif
