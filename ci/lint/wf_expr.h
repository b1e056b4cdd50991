/* wf_expr.h — GitHub Actions expressions (${{ ... }}), the subset buildgate's
 * workflows use, for bg-workflow-run (wf_expr.c lists what is covered). */
#ifndef WF_EXPR_H
#define WF_EXPR_H

#include <stddef.h>

#include <cjson/cJSON.h>

typedef struct wf_expr_env {
    const cJSON *contexts; /* object: github, env, inputs, matrix, strategy,
                              steps, needs, runner, job (names without case) */
    int failed;            /* status of the scope: failure() true, success() false */
    int blocked;           /* success() false too (a job whose needs did not all
                              succeed: one was skipped), failure() unchanged */
} wf_expr_env;

/* Evaluates the expression expr[0..n) to a new value (caller deletes), or
 * NULL with one line of why in err. */
cJSON *wf_eval(const char *expr, size_t n, const wf_expr_env *env, char *err, size_t errsz);

/* s with every ${{ expr }} replaced by its value as text (null "", booleans
 * true/false, whole numbers without a point, objects as JSON); caller frees.
 * NULL with err on a bad expression. */
char *wf_interpolate(const char *s, const wf_expr_env *env, char *err, size_t errsz);

/* An if: condition (NULL: success()), with or without ${{ }}; a condition
 * that calls no status function is success() && (cond).  1 run, 0 skip,
 * -1 a bad expression (err). */
int wf_eval_if(const char *cond, const wf_expr_env *env, char *err, size_t errsz);

/* Truthiness: false, 0, NaN, '' and null are false, the rest true. */
int wf_truthy(const cJSON *v);

/* A value as text, as interpolation writes it; caller frees. */
char *wf_to_str(const cJSON *v);

#endif
