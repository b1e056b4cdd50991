/* wf_expr.c — the GitHub Actions expression language, the part buildgate's
 * workflows use (wf_expr.h).  Values are cJSON items.  Semantics follow
 * GitHub Docs "Evaluate expressions in workflows and actions": literals
 * (null, booleans, numbers, 'strings' with '' as the quote), property access
 * (a.b, a['b'], a[0]; a missing property is null, property names compare
 * without case), ! == != < <= > >= && || and parentheses (&& and || yield
 * an operand, not a boolean), loose equality (strings without case, other
 * mixed types as numbers), truthiness (false, 0, '', null are false), and
 * the functions success() failure() always() cancelled() contains()
 * startsWith() endsWith() format() join() toJSON() fromJSON(); hashFiles()
 * is not evaluated (a fixed text: no cache is emulated). */
#define _POSIX_C_SOURCE 200809L
#include "wf_expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct parser {
    const char *p;
    const wf_expr_env *env;
    char *err;
    size_t errsz;
    int failed;
} parser;

static cJSON *perr(parser *ps, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static cJSON *perr(parser *ps, const char *fmt, ...)
{
    if (!ps->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err, ps->errsz, fmt, ap);
        va_end(ap);
    }
    ps->failed = 1;
    return NULL;
}

static void ws(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int eat(parser *ps, const char *tok)
{
    ws(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n))
        return 0;
    ps->p += n;
    return 1;
}

int wf_truthy(const cJSON *v)
{
    if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v))
        return 0;
    if (cJSON_IsNumber(v))
        return v->valuedouble != 0 && !isnan(v->valuedouble);
    if (cJSON_IsString(v))
        return v->valuestring[0] != 0;
    return 1;
}

static double to_num(const cJSON *v)
{
    if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v))
        return 0;
    if (cJSON_IsTrue(v))
        return 1;
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            return 0;
        char *end;
        double d = strtod(s, &end);
        while (isspace((unsigned char)*end))
            end++;
        return *end ? NAN : d;
    }
    return NAN;
}

char *wf_to_str(const cJSON *v)
{
    char buf[64];
    if (!v || cJSON_IsNull(v))
        return strdup("");
    if (cJSON_IsBool(v))
        return strdup(cJSON_IsTrue(v) ? "true" : "false");
    if (cJSON_IsString(v))
        return strdup(v->valuestring);
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < 1e15)
            snprintf(buf, sizeof buf, "%.0f", d);
        else
            snprintf(buf, sizeof buf, "%.15g", d);
        return strdup(buf);
    }
    char *s = cJSON_Print(v);
    return s ? s : strdup("");
}

static int loose_eq(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsString(a) && cJSON_IsString(b))
        return strcasecmp(a->valuestring, b->valuestring) == 0;
    if ((cJSON_IsObject(a) || cJSON_IsArray(a)) || (cJSON_IsObject(b) || cJSON_IsArray(b)))
        return a == b;
    if (cJSON_IsNull(a) && cJSON_IsNull(b))
        return 1;
    if (cJSON_IsBool(a) && cJSON_IsBool(b))
        return cJSON_IsTrue(a) == cJSON_IsTrue(b);
    double x = to_num(a), y = to_num(b);
    return x == y;
}

static cJSON *parse_or(parser *ps);

static cJSON *call(parser *ps, const char *name, cJSON **args, int n)
{
    const wf_expr_env *e = ps->env;
    if (!strcasecmp(name, "success") && n == 0)
        return cJSON_CreateBool(!e->failed && !e->blocked);
    if (!strcasecmp(name, "failure") && n == 0)
        return cJSON_CreateBool(e->failed);
    if (!strcasecmp(name, "always") && n == 0)
        return cJSON_CreateTrue();
    if (!strcasecmp(name, "cancelled") && n == 0)
        return cJSON_CreateFalse(); /* nothing is cancelled here */
    if (!strcasecmp(name, "hashFiles"))
        return cJSON_CreateString("hashfiles-not-emulated");
    if ((!strcasecmp(name, "startsWith") || !strcasecmp(name, "endsWith") || !strcasecmp(name, "contains")) &&
        n == 2) {
        if (!strcasecmp(name, "contains") && cJSON_IsArray(args[0])) {
            const cJSON *it;
            cJSON_ArrayForEach(it, args[0]) if (loose_eq(it, args[1])) return cJSON_CreateTrue();
            return cJSON_CreateFalse();
        }
        char *a = wf_to_str(args[0]), *b = wf_to_str(args[1]);
        size_t la = strlen(a), lb = strlen(b);
        int r = 0;
        if (!strcasecmp(name, "startsWith"))
            r = la >= lb && !strncasecmp(a, b, lb);
        else if (!strcasecmp(name, "endsWith"))
            r = la >= lb && !strcasecmp(a + la - lb, b);
        else
            for (size_t i = 0; i + lb <= la && !r; i++)
                r = !strncasecmp(a + i, b, lb);
        free(a);
        free(b);
        return cJSON_CreateBool(r);
    }
    if (!strcasecmp(name, "format") && n >= 1) {
        char *f = wf_to_str(args[0]);
        size_t cap = strlen(f) + 64, len = 0;
        char *out = malloc(cap);
        for (const char *q = f; out && *q; q++) {
            char *piece = NULL;
            const char *lit = q;
            size_t litn = 1;
            if ((q[0] == '{' && q[1] == '{') || (q[0] == '}' && q[1] == '}')) {
                q++;
            } else if (q[0] == '{' && isdigit((unsigned char)q[1])) {
                int k = atoi(q + 1);
                const char *close = strchr(q, '}');
                if (close && k + 1 < n) {
                    piece = wf_to_str(args[k + 1]);
                    q = close;
                }
            }
            const char *add = piece ? piece : lit;
            size_t addn = piece ? strlen(piece) : litn;
            if (len + addn + 1 > cap) {
                cap = (len + addn + 1) * 2;
                char *o2 = realloc(out, cap);
                if (!o2) {
                    free(out);
                    out = NULL;
                    free(piece);
                    break;
                }
                out = o2;
            }
            memcpy(out + len, add, addn);
            len += addn;
            free(piece);
        }
        free(f);
        if (!out)
            return perr(ps, "out of memory");
        out[len] = 0;
        cJSON *r = cJSON_CreateString(out);
        free(out);
        return r;
    }
    if (!strcasecmp(name, "join") && (n == 1 || n == 2)) {
        char *sep = n == 2 ? wf_to_str(args[1]) : strdup(",");
        if (!cJSON_IsArray(args[0])) {
            free(sep);
            char *s = wf_to_str(args[0]);
            cJSON *r = cJSON_CreateString(s);
            free(s);
            return r;
        }
        size_t cap = 1;
        const cJSON *it;
        cJSON_ArrayForEach(it, args[0]) {
            char *s = wf_to_str(it);
            cap += strlen(s) + strlen(sep);
            free(s);
        }
        char *out = calloc(1, cap);
        int first = 1;
        cJSON_ArrayForEach(it, args[0]) {
            char *s = wf_to_str(it);
            if (out) {
                if (!first)
                    strcat(out, sep);
                strcat(out, s);
            }
            first = 0;
            free(s);
        }
        free(sep);
        cJSON *r = cJSON_CreateString(out ? out : "");
        free(out);
        return r;
    }
    if (!strcasecmp(name, "toJSON") && n == 1) {
        char *s = cJSON_Print(args[0]);
        cJSON *r = cJSON_CreateString(s ? s : "null");
        free(s);
        return r;
    }
    if (!strcasecmp(name, "fromJSON") && n == 1) {
        char *s = wf_to_str(args[0]);
        cJSON *r = cJSON_Parse(s);
        free(s);
        return r ? r : perr(ps, "fromJSON: not JSON");
    }
    return perr(ps, "function %s() with %d argument(s) is not emulated", name, n);
}

static cJSON *parse_primary(parser *ps)
{
    ws(ps);
    const char *p = ps->p;
    if (*p == '(') {
        ps->p++;
        cJSON *v = parse_or(ps);
        if (!eat(ps, ")")) {
            cJSON_Delete(v);
            return perr(ps, "missing ')'");
        }
        return v;
    }
    if (*p == '\'') {
        size_t cap = strlen(p) + 1, n = 0;
        char *s = malloc(cap);
        if (!s)
            return perr(ps, "out of memory");
        for (p++;; p++) {
            if (!*p) {
                free(s);
                return perr(ps, "unterminated string");
            }
            if (*p == '\'') {
                if (p[1] != '\'')
                    break;
                p++;
            }
            s[n++] = *p;
        }
        s[n] = 0;
        ps->p = p + 1;
        cJSON *v = cJSON_CreateString(s);
        free(s);
        return v;
    }
    if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '+' || *p == '.') && isdigit((unsigned char)p[1]))) {
        char *end;
        double d = strtod(p, &end);
        ps->p = end;
        return cJSON_CreateNumber(d);
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *s = p;
        while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
            p++;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(p - s), s);
        ps->p = p;
        ws(ps);
        if (*ps->p == '(') {
            ps->p++;
            cJSON *args[8];
            int n = 0;
            ws(ps);
            if (*ps->p != ')') {
                do {
                    if (n == 8)
                        break;
                    args[n] = parse_or(ps);
                    if (ps->failed)
                        break;
                    n++;
                } while (eat(ps, ","));
            }
            cJSON *r = NULL;
            if (!ps->failed && !eat(ps, ")"))
                perr(ps, "missing ')' after the arguments of %s", name);
            if (!ps->failed)
                r = call(ps, name, args, n);
            for (int i = 0; i < n; i++)
                cJSON_Delete(args[i]);
            return r;
        }
        if (!strcmp(name, "true"))
            return cJSON_CreateTrue();
        if (!strcmp(name, "false"))
            return cJSON_CreateFalse();
        if (!strcmp(name, "null"))
            return cJSON_CreateNull();
        const cJSON *c = cJSON_GetObjectItem(ps->env->contexts, name);
        if (!c)
            return perr(ps, "unknown context '%s'", name);
        return cJSON_Duplicate(c, 1);
    }
    return perr(ps, "unexpected '%.20s'", p);
}

static cJSON *member(cJSON *v, const cJSON *key)
{
    const cJSON *r = NULL;
    if (cJSON_IsArray(v) && cJSON_IsNumber(key))
        r = cJSON_GetArrayItem(v, (int)key->valuedouble);
    else if (cJSON_IsObject(v)) {
        char *k = wf_to_str(key);
        r = cJSON_GetObjectItem(v, k);
        free(k);
    }
    cJSON *out = r ? cJSON_Duplicate(r, 1) : cJSON_CreateNull();
    cJSON_Delete(v);
    return out;
}

static cJSON *parse_postfix(parser *ps)
{
    cJSON *v = parse_primary(ps);
    while (v && !ps->failed) {
        ws(ps);
        if (*ps->p == '.') {
            ps->p++;
            const char *s = ps->p;
            while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '-')
                ps->p++;
            if (ps->p == s) {
                cJSON_Delete(v);
                return perr(ps, "'.' without a property name (a '*' filter is not emulated)");
            }
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(ps->p - s), s);
            cJSON *k = cJSON_CreateString(name);
            v = member(v, k);
            cJSON_Delete(k);
        } else if (*ps->p == '[') {
            ps->p++;
            cJSON *k = parse_or(ps);
            if (ps->failed || !eat(ps, "]")) {
                cJSON_Delete(k);
                cJSON_Delete(v);
                return perr(ps, "missing ']'");
            }
            v = member(v, k);
            cJSON_Delete(k);
        } else {
            break;
        }
    }
    return v;
}

static cJSON *parse_unary(parser *ps)
{
    ws(ps);
    if (ps->p[0] == '!' && ps->p[1] != '=') {
        ps->p++;
        cJSON *v = parse_unary(ps);
        if (!v)
            return NULL;
        int t = wf_truthy(v);
        cJSON_Delete(v);
        return cJSON_CreateBool(!t);
    }
    return parse_postfix(ps);
}

static cJSON *parse_cmp(parser *ps)
{
    cJSON *a = parse_unary(ps);
    for (;;) {
        if (!a || ps->failed)
            return a;
        ws(ps);
        const char *ops[] = {"==", "!=", "<=", ">=", "<", ">"};
        int op = -1;
        for (int i = 0; i < 6 && op < 0; i++)
            if (!strncmp(ps->p, ops[i], strlen(ops[i])))
                op = i;
        if (op < 0)
            return a;
        ps->p += strlen(ops[op]);
        cJSON *b = parse_unary(ps);
        if (!b) {
            cJSON_Delete(a);
            return NULL;
        }
        int r;
        if (op == 0 || op == 1) {
            r = loose_eq(a, b) == (op == 0);
        } else {
            int cmpv;
            if (cJSON_IsString(a) && cJSON_IsString(b))
                cmpv = strcasecmp(a->valuestring, b->valuestring);
            else {
                double x = to_num(a), y = to_num(b);
                cmpv = isnan(x) || isnan(y) ? 2 : (x > y) - (x < y);
            }
            r = cmpv == 2 ? 0
                : op == 2 ? cmpv <= 0
                : op == 3 ? cmpv >= 0
                : op == 4 ? cmpv < 0
                          : cmpv > 0;
        }
        cJSON_Delete(a);
        cJSON_Delete(b);
        a = cJSON_CreateBool(r);
    }
}

static cJSON *parse_and(parser *ps)
{
    cJSON *a = parse_cmp(ps);
    while (a && !ps->failed && eat(ps, "&&")) {
        cJSON *b = parse_cmp(ps);
        if (!b) {
            cJSON_Delete(a);
            return NULL;
        }
        if (wf_truthy(a)) {
            cJSON_Delete(a);
            a = b;
        } else {
            cJSON_Delete(b);
        }
    }
    return a;
}

static cJSON *parse_or(parser *ps)
{
    cJSON *a = parse_and(ps);
    while (a && !ps->failed && eat(ps, "||")) {
        cJSON *b = parse_and(ps);
        if (!b) {
            cJSON_Delete(a);
            return NULL;
        }
        if (!wf_truthy(a)) {
            cJSON_Delete(a);
            a = b;
        } else {
            cJSON_Delete(b);
        }
    }
    return a;
}

cJSON *wf_eval(const char *expr, size_t n, const wf_expr_env *env, char *err, size_t errsz)
{
    char *copy = malloc(n + 1);
    if (!copy) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    memcpy(copy, expr, n);
    copy[n] = 0;
    parser ps = {.p = copy, .env = env, .err = err, .errsz = errsz};
    cJSON *v = parse_or(&ps);
    ws(&ps);
    if (!ps.failed && *ps.p)
        perr(&ps, "unexpected '%.20s' in '%s'", ps.p, copy);
    if (ps.failed) {
        cJSON_Delete(v);
        v = NULL;
    }
    free(copy);
    return v;
}

char *wf_interpolate(const char *s, const wf_expr_env *env, char *err, size_t errsz)
{
    size_t cap = strlen(s) + 1, len = 0;
    char *out = malloc(cap);
    if (!out) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    for (const char *p = s; *p;) {
        const char *q = strstr(p, "${{"), *e = q ? strstr(q + 3, "}}") : NULL;
        size_t litn = q && e ? (size_t)(q - p) : strlen(p);
        char *piece = NULL;
        if (q && e) {
            cJSON *v = wf_eval(q + 3, (size_t)(e - q - 3), env, err, errsz);
            if (!v) {
                free(out);
                return NULL;
            }
            piece = wf_to_str(v);
            cJSON_Delete(v);
        }
        size_t pn = piece ? strlen(piece) : 0;
        if (len + litn + pn + 1 > cap) {
            cap = (len + litn + pn + 1) * 2;
            char *o2 = realloc(out, cap);
            if (!o2) {
                free(out);
                free(piece);
                snprintf(err, errsz, "out of memory");
                return NULL;
            }
            out = o2;
        }
        memcpy(out + len, p, litn);
        len += litn;
        if (piece)
            memcpy(out + len, piece, pn);
        len += pn;
        free(piece);
        p = q && e ? e + 2 : p + litn;
    }
    out[len] = 0;
    return out;
}

int wf_eval_if(const char *cond, const wf_expr_env *env, char *err, size_t errsz)
{
    if (!cond)
        cond = "success()";
    while (isspace((unsigned char)*cond))
        cond++;
    size_t n = strlen(cond);
    while (n && isspace((unsigned char)cond[n - 1]))
        n--;
    /* ${{ x }} around the whole condition is x */
    if (n >= 5 && !strncmp(cond, "${{", 3) && !strncmp(cond + n - 2, "}}", 2) && !strstr(cond + 3, "${{")) {
        cond += 3;
        n -= 5;
    } else if (strstr(cond, "${{")) {
        snprintf(err, errsz, "an if: mixing text and ${{ }} is not emulated: %s", cond);
        return -1;
    }
    /* no status function: success() && (cond) */
    char *text = malloc(n + 32);
    if (!text) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int status = 0;
    static const char *const fns[] = {"success(", "failure(", "always(", "cancelled("};
    for (size_t i = 0; i < 4; i++) {
        for (const char *h = cond; (h = strstr(h, fns[i])) && h < cond + n; h++)
            if (h == cond || !(isalnum((unsigned char)h[-1]) || h[-1] == '_' || h[-1] == '.'))
                status = 1;
    }
    int len = status ? snprintf(text, n + 32, "%.*s", (int)n, cond)
                     : snprintf(text, n + 32, "success() && (%.*s)", (int)n, cond);
    cJSON *v = wf_eval(text, (size_t)len, env, err, errsz);
    free(text);
    if (!v)
        return -1;
    int r = wf_truthy(v);
    cJSON_Delete(v);
    return r;
}
