/* perf_cgfile.c — see perf_cgfile.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_cgfile.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ev_names[PERF_CG_NEV] = {"Ir",   "Dr",   "Dw",   "I1mr", "D1mr",
                                                  "D1mw", "ILmr", "DLmr", "DLmw"};

double perf_cg_cycles(const double *ev)
{
    return ev[PERF_CG_IR] + 10 * (ev[PERF_CG_I1MR] + ev[PERF_CG_D1MR] + ev[PERF_CG_D1MW]) +
           100 * (ev[PERF_CG_ILMR] + ev[PERF_CG_DLMR] + ev[PERF_CG_DLMW]);
}

double perf_cg_metric(const double *ev, int m)
{
    return m == PERF_CG_M_CYCLES ? perf_cg_cycles(ev) : ev[PERF_CG_IR];
}

int perf_cg_has_cache(const perf_cg_profile *p)
{
    return p->has[PERF_CG_D1MR] && p->has[PERF_CG_DLMR];
}

/* ---- a string map: key -> 4 doubles (names, stacks) ---------------------- */

typedef struct smap {
    char **key;
    double (*val)[4];
    size_t n, cap, *slot, nslot;
} smap;

static uint64_t fnv(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* Index of key[0..len) in m, created (zeros) when absent; (size_t)-1 out of memory. */
static size_t smap_at(smap *m, const char *k, size_t len)
{
    if (2 * (m->n + 1) > m->nslot) {
        size_t ns = m->nslot ? 2 * m->nslot : 256, *s = calloc(ns, sizeof *s);
        if (!s)
            return (size_t)-1;
        for (size_t i = 0; i < m->n; i++) {
            size_t h = (size_t)(fnv(m->key[i], strlen(m->key[i])) % ns);
            while (s[h])
                h = (h + 1) % ns;
            s[h] = i + 1;
        }
        free(m->slot);
        m->slot = s;
        m->nslot = ns;
    }
    size_t h = (size_t)(fnv(k, len) % m->nslot);
    for (; m->slot[h]; h = (h + 1) % m->nslot) {
        const char *e = m->key[m->slot[h] - 1];
        if (strlen(e) == len && memcmp(e, k, len) == 0)
            return m->slot[h] - 1;
    }
    if (m->n == m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 256;
        char **nk = realloc(m->key, nc * sizeof *nk);
        if (!nk)
            return (size_t)-1;
        m->key = nk;
        double(*nv)[4] = realloc(m->val, nc * sizeof *nv);
        if (!nv)
            return (size_t)-1;
        m->val = nv;
        m->cap = nc;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return (size_t)-1;
    memcpy(copy, k, len);
    copy[len] = 0;
    m->key[m->n] = copy;
    memset(m->val[m->n], 0, sizeof m->val[m->n]);
    m->slot[h] = m->n + 1;
    return m->n++;
}

static void smap_free(smap *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->key[i]);
    free(m->key);
    free(m->val);
    free(m->slot);
    memset(m, 0, sizeof *m);
}

/* ---- reading ------------------------------------------------------------- */

/* The function named name[0..len) (created when new). */
static bg_status fn_at(perf_cg_profile *p, smap *names, const char *name, size_t len, size_t *out)
{
    size_t i = smap_at(names, name, len);
    if (i == (size_t)-1)
        return BG_E_NOMEM;
    if (i == p->nfn) {
        if (p->nfn == p->capfn) {
            size_t nc = p->capfn ? 2 * p->capfn : 256;
            perf_cg_fn *nf = realloc(p->fn, nc * sizeof *nf);
            if (!nf)
                return BG_E_NOMEM;
            p->fn = nf;
            p->capfn = nc;
        }
        memset(&p->fn[p->nfn], 0, sizeof p->fn[p->nfn]);
        p->fn[p->nfn].name = names->key[i];
        p->nfn++;
    }
    *out = i;
    return BG_OK;
}

/* `fn=`/`cfn=` value v: "(id) name", "(id)" or "name" -> the function. ids[]
 * maps a compressed id to 1 + the function index. */
static bg_status name_ref(perf_cg_profile *p, smap *names, size_t **ids, size_t *nids, char *v,
                          const char *path, long lineno, size_t *out)
{
    size_t len = strlen(v);
    while (len && (v[len - 1] == '\n' || v[len - 1] == '\r'))
        v[--len] = 0;
    if (v[0] != '(') {
        size_t k = len;
        while (k > 0 && isdigit((unsigned char)v[k - 1]))
            k--;
        return fn_at(p, names, v, k > 1 && k < len && v[k - 1] == '\'' ? k - 1 : len, out);
    }
    char *end;
    unsigned long id = strtoul(v + 1, &end, 10);
    if (*end != ')' || id > 100000000UL)
        return bg_fail(BG_E_PARSE, "callgrind", "%s:%ld: bad compressed name '%.60s'", path, lineno, v);
    const char *name = end + 1;
    while (*name == ' ')
        name++;
    size_t nlen = strlen(name), k = nlen;
    while (k > 0 && isdigit((unsigned char)name[k - 1]))
        k--;
    if (k > 1 && k < nlen && name[k - 1] == '\'') /* "f'2": a recursion level of f (--separate-recs) */
        nlen = k - 1;
    if (!*name) {
        if (id >= *nids || !(*ids)[id])
            return bg_fail(BG_E_PARSE, "callgrind", "%s:%ld: name id (%lu) used before it is defined", path,
                           lineno, id);
        *out = (*ids)[id] - 1;
        return BG_OK;
    }
    if (id >= *nids) {
        size_t nn = id + 1 > 2 * *nids ? id + 1 : 2 * *nids;
        size_t *ni = realloc(*ids, nn * sizeof *ni);
        if (!ni)
            return BG_E_NOMEM;
        memset(ni + *nids, 0, (nn - *nids) * sizeof *ni);
        *ids = ni;
        *nids = nn;
    }
    bg_status st = fn_at(p, names, name, nlen, out);
    if (st == BG_OK)
        (*ids)[id] = *out + 1;
    return st;
}

/* The costs after `npos` position columns of a cost line into c[]. */
static int cost_line(const char *s, int npos, const int *map, int nmap, double *c)
{
    memset(c, 0, PERF_CG_NEV * sizeof *c);
    char *end;
    for (int i = 0; i < npos; i++) { /* positions: n, +n, -n, *, 0xhex */
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '\n')
            return i == 0 ? -1 : 0;
        while (*s && !isspace((unsigned char)*s))
            s++;
    }
    for (int k = 0; k < nmap; k++) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '\n' || *s == '\r')
            break;
        double v = strtod(s, &end);
        if (end == s)
            return -1;
        if (map[k] >= 0)
            c[map[k]] = v;
        s = end;
    }
    return 0;
}

static int cmp_call(const void *a, const void *b)
{
    const perf_cg_call *x = a, *y = b;
    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* Marks the calls inside a call cycle (caller and callee in one strongly
 * connected component of the call graph: Tarjan's algorithm, iterative) and
 * recomputes every inclusive cost without them.  p->call is sorted by caller. */
static bg_status cycles_out(perf_cg_profile *p)
{
    size_t n = p->nfn, *first = calloc(n + 1, sizeof *first), *idx = malloc((n + 1) * sizeof *idx);
    size_t *low = malloc((n + 1) * sizeof *low), *comp = malloc((n + 1) * sizeof *comp);
    size_t *stack = malloc((n + 1) * sizeof *stack), *cs = malloc((n + 1) * sizeof *cs);
    size_t *ce = malloc((n + 1) * sizeof *ce);
    char *on = calloc(n + 1, 1);
    bg_status st = first && idx && low && comp && stack && cs && ce && on ? BG_OK : BG_E_NOMEM;
    if (st == BG_OK) {
        for (size_t i = 0, e = 0; i <= n; i++) {
            while (e < p->ncall && p->call[e].caller < i)
                e++;
            first[i] = e;
        }
        const size_t none = (size_t)-1;
        for (size_t i = 0; i < n; i++)
            idx[i] = none;
        size_t counter = 0, sp = 0, ncomp = 0;
        for (size_t r = 0; r < n; r++) {
            if (idx[r] != none)
                continue;
            size_t top = 0; /* the DFS stack: node cs[], next edge ce[] */
            cs[top] = r;
            ce[top] = first[r];
            idx[r] = low[r] = counter++;
            stack[sp++] = r;
            on[r] = 1;
            for (;;) {
                size_t v = cs[top];
                if (ce[top] < first[v + 1]) {
                    size_t w = p->call[ce[top]++].callee;
                    if (idx[w] == none) {
                        idx[w] = low[w] = counter++;
                        stack[sp++] = w;
                        on[w] = 1;
                        cs[++top] = w;
                        ce[top] = first[w];
                    } else if (on[w] && idx[w] < low[v])
                        low[v] = idx[w];
                    continue;
                }
                if (low[v] == idx[v]) { /* v roots a component */
                    size_t w;
                    do {
                        w = stack[--sp];
                        on[w] = 0;
                        comp[w] = ncomp;
                    } while (w != v);
                    ncomp++;
                }
                if (top == 0)
                    break;
                size_t u = cs[--top];
                if (low[v] < low[u])
                    low[u] = low[v];
            }
        }
        for (size_t i = 0; i < n; i++)
            memcpy(p->fn[i].incl, p->fn[i].self, sizeof p->fn[i].incl);
        for (size_t i = 0; i < n; i++)
            p->fn[i].called = 0;
        for (size_t e = 0; e < p->ncall; e++) {
            perf_cg_call *c = &p->call[e];
            c->in_cycle = comp[c->caller] == comp[c->callee];
            if (c->in_cycle)
                continue;
            p->fn[c->callee].called = 1;
            for (int k = 0; k < PERF_CG_NEV; k++)
                p->fn[c->caller].incl[k] += c->cost[k];
        }
    }
    free(first);
    free(idx);
    free(low);
    free(comp);
    free(stack);
    free(cs);
    free(ce);
    free(on);
    return st;
}

bg_status perf_cg_read(const char *path, perf_cg_profile *p)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "r");
    if (!f)
        return bg_fail(BG_E_IO, "callgrind", "cannot read %s", path);
    smap names = {0};
    size_t *ids = NULL, nids = 0, cur = (size_t)-1, callee = (size_t)-1;
    int map[64], nmap = -1, npos = 1, in_call = 0;
    bg_status st = BG_OK;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    double c[PERF_CG_NEV];
    while (st == BG_OK && getline(&line, &cap, f) > 0) {
        lineno++;
        char ch = line[0];
        if (isdigit((unsigned char)ch) || ch == '+' || ch == '-' || ch == '*') {
            if (nmap < 0 || cur == (size_t)-1) {
                st = bg_fail(BG_E_PARSE, "callgrind", "%s:%ld: a cost line before %s", path, lineno,
                             nmap < 0 ? "events:" : "fn=");
                break;
            }
            if (cost_line(line, npos, map, nmap, c) != 0) {
                st = bg_fail(BG_E_PARSE, "callgrind", "%s:%ld: bad cost line", path, lineno);
                break;
            }
            perf_cg_fn *fn = &p->fn[cur];
            if (in_call) {
                in_call = 0;
                if (callee == cur)
                    continue; /* direct recursion: its work is already in self */
                if (p->ncall == p->capcall) {
                    size_t nc = p->capcall ? 2 * p->capcall : 1024;
                    perf_cg_call *ncl = realloc(p->call, nc * sizeof *ncl);
                    if (!ncl) {
                        st = BG_E_NOMEM;
                        break;
                    }
                    p->call = ncl;
                    p->capcall = nc;
                }
                perf_cg_call *e = &p->call[p->ncall++];
                e->caller = cur;
                e->callee = callee;
                memcpy(e->cost, c, sizeof c);
                p->fn[callee].called = 1;
                for (int k = 0; k < PERF_CG_NEV; k++)
                    fn->incl[k] += c[k];
            } else
                for (int k = 0; k < PERF_CG_NEV; k++) {
                    fn->self[k] += c[k];
                    fn->incl[k] += c[k];
                }
        } else if (!strncmp(line, "fn=", 3)) {
            st = name_ref(p, &names, &ids, &nids, line + 3, path, lineno, &cur);
            in_call = 0;
        } else if (!strncmp(line, "cfn=", 4)) {
            st = name_ref(p, &names, &ids, &nids, line + 4, path, lineno, &callee);
        } else if (!strncmp(line, "calls=", 6)) {
            if (callee == (size_t)-1)
                st = bg_fail(BG_E_PARSE, "callgrind", "%s:%ld: calls= without cfn=", path, lineno);
            in_call = 1;
        } else if (!strncmp(line, "events:", 7)) {
            nmap = 0;
            for (char *t = strtok(line + 7, " \t\r\n"); t && nmap < 64; t = strtok(NULL, " \t\r\n")) {
                map[nmap] = -1;
                for (int k = 0; k < PERF_CG_NEV; k++)
                    if (!strcmp(t, ev_names[k])) {
                        map[nmap] = k;
                        p->has[k] = 1;
                    }
                nmap++;
            }
        } else if (!strncmp(line, "positions:", 10)) {
            npos = 0;
            for (char *t = strtok(line + 10, " \t\r\n"); t; t = strtok(NULL, " \t\r\n"))
                npos++;
            if (!npos)
                npos = 1;
        } else if ((!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7)) && nmap >= 0) {
            /* "summary: costs": no position column */
            cost_line(strchr(line, ':') + 1, 0, map, nmap, p->total);
        } else if (!strncmp(line, "jump=", 5) || !strncmp(line, "jcnd=", 5)) {
            in_call = 0; /* --collect-jumps: not costs */
        }
    }
    free(line);
    fclose(f);
    free(ids);
    /* the names belong to p->fn now; free only the map's arrays */
    free(names.val);
    free(names.slot);
    free(names.key);
    if (st == BG_OK && nmap < 0)
        st = bg_fail(BG_E_PARSE, "callgrind", "%s: no events: line", path);
    if (st != BG_OK) {
        perf_cg_free(p);
        return st;
    }
    /* one edge per (caller, callee), sorted */
    qsort(p->call, p->ncall, sizeof *p->call, cmp_call);
    size_t w = 0;
    for (size_t i = 0; i < p->ncall; i++) {
        if (w && p->call[w - 1].caller == p->call[i].caller && p->call[w - 1].callee == p->call[i].callee) {
            for (int k = 0; k < PERF_CG_NEV; k++)
                p->call[w - 1].cost[k] += p->call[i].cost[k];
        } else
            p->call[w++] = p->call[i];
    }
    p->ncall = w;
    st = cycles_out(p);
    if (st != BG_OK)
        perf_cg_free(p);
    return st;
}

void perf_cg_free(perf_cg_profile *p)
{
    for (size_t i = 0; i < p->nfn; i++)
        free(p->fn[i].name);
    free(p->fn);
    free(p->call);
    memset(p, 0, sizeof *p);
}

/* ---- folded stacks from the call graph ----------------------------------- */

typedef struct fold_ctx {
    const perf_cg_profile *p;
    size_t *first; /* first edge of each caller (nfn + 1) */
    char *onstack;
    int metric, slot;
    double scale, thresh;
    long budget;
    smap *out;
    char path[16384];
} fold_ctx;

static bg_status expand(fold_ctx *x, size_t fi, double w, size_t plen, int depth)
{
    const perf_cg_fn *f = &x->p->fn[fi];
    double incl = perf_cg_metric(f->incl, x->metric);
    if (!(incl > 0) || !(w > 0))
        return BG_OK;
    double frac = w / incl, selfw = perf_cg_metric(f->self, x->metric) * frac;
    x->onstack[fi] = 1;
    x->budget--;
    bg_status st = BG_OK;
    for (size_t e = x->first[fi]; e < x->first[fi + 1] && st == BG_OK; e++) {
        const perf_cg_call *c = &x->p->call[e];
        double cw = perf_cg_metric(c->cost, x->metric) * frac;
        const char *cn = x->p->fn[c->callee].name;
        size_t cl = strlen(cn);
        if (c->in_cycle)
            continue; /* not in the caller's inclusive cost either */
        if (cw < x->thresh || x->onstack[c->callee] || depth >= 48 || x->budget <= 0 ||
            plen + cl + 2 >= sizeof x->path) {
            selfw += cw; /* kept in this frame */
            continue;
        }
        x->path[plen] = ';';
        memcpy(x->path + plen + 1, cn, cl + 1);
        st = expand(x, c->callee, cw, plen + 1 + cl, depth + 1);
        x->path[plen] = 0;
    }
    x->onstack[fi] = 0;
    if (st == BG_OK && selfw != 0) {
        size_t i = smap_at(x->out, x->path, plen);
        if (i == (size_t)-1)
            return BG_E_NOMEM;
        x->out->val[i][x->slot] += selfw * x->scale;
    }
    return st;
}

/* Adds scale x the folded stacks of p (metric) into out's column slot. */
static bg_status fold(const perf_cg_profile *p, int metric, int slot, double scale, smap *out)
{
    fold_ctx *x = calloc(1, sizeof *x);
    size_t *first = calloc(p->nfn + 1, sizeof *first);
    char *onstack = calloc(p->nfn + 1, 1);
    bg_status st = x && first && onstack ? BG_OK : BG_E_NOMEM;
    if (st == BG_OK) {
        for (size_t i = 0, e = 0; i <= p->nfn; i++) { /* calls are sorted by caller */
            while (e < p->ncall && p->call[e].caller < i)
                e++;
            first[i] = e;
        }
        double total = 0;
        for (size_t i = 0; i < p->nfn; i++)
            if (!p->fn[i].called)
                total += perf_cg_metric(p->fn[i].incl, metric);
        *x = (fold_ctx){p, first, onstack, metric, slot, scale, total * 1e-6, 200000, out, {0}};
        for (size_t i = 0; i < p->nfn && st == BG_OK; i++)
            if (!p->fn[i].called) {
                size_t l = strlen(p->fn[i].name);
                if (l + 1 >= sizeof x->path)
                    continue;
                memcpy(x->path, p->fn[i].name, l + 1);
                st = expand(x, i, perf_cg_metric(p->fn[i].incl, metric), l, 0);
            }
    }
    free(x);
    free(first);
    free(onstack);
    return st;
}

/* ---- the difference ------------------------------------------------------ */

typedef struct row {
    const char *name;
    double base, head, change;
} row;

static int cmp_row(const void *a, const void *b)
{
    const row *x = a, *y = b;
    double ax = fabs(x->change), ay = fabs(y->change);
    if (ax != ay)
        return ax > ay ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Adds scale x each function's self and inclusive metric into columns
 * col (self) and col + 1 (inclusive). */
static bg_status add_fns(const perf_cg_profile *p, int metric, int col, double scale, smap *m)
{
    for (size_t i = 0; i < p->nfn; i++) {
        size_t k = smap_at(m, p->fn[i].name, strlen(p->fn[i].name));
        if (k == (size_t)-1)
            return BG_E_NOMEM;
        m->val[k][col] += scale * perf_cg_metric(p->fn[i].self, metric);
        m->val[k][col + 1] += scale * perf_cg_metric(p->fn[i].incl, metric);
    }
    return BG_OK;
}

static cJSON *rows_json(row *r, size_t n, int top, double total_change)
{
    qsort(r, n, sizeof *r, cmp_row);
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n && (int)i < top; i++) {
        if (!(fabs(r[i].change) > 1e-3 * fabs(total_change))) /* left-overs of N - N/2 */
            break;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "function", r[i].name);
        cJSON_AddNumberToObject(o, "base", r[i].base);
        cJSON_AddNumberToObject(o, "head", r[i].head);
        cJSON_AddNumberToObject(o, "change", r[i].change);
        cJSON_AddNumberToObject(o, "share", total_change != 0 ? r[i].change / total_change : 0);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

typedef struct stack_row {
    size_t i;
    double score;
} stack_row;

static int cmp_stack(const void *a, const void *b)
{
    const stack_row *x = a, *y = b;
    return x->score > y->score ? -1 : x->score < y->score;
}

cJSON *perf_cg_function_diff(const perf_cg_profile *base_full, const perf_cg_profile *base_half,
                             const perf_cg_profile *head_full, const perf_cg_profile *head_half,
                             double iters, int metric, int top, int max_stacks)
{
    smap fns = {0}, stacks = {0};
    double s = 1 / iters;
    cJSON *d = NULL;
    row *self = NULL, *incl = NULL;
    stack_row *sr = NULL;
    if (add_fns(base_full, metric, 0, s, &fns) || add_fns(base_half, metric, 0, -s, &fns) ||
        add_fns(head_full, metric, 2, s, &fns) || add_fns(head_half, metric, 2, -s, &fns))
        goto out;
    if (fold(base_full, metric, 0, s, &stacks) || fold(base_half, metric, 0, -s, &stacks) ||
        fold(head_full, metric, 1, s, &stacks) || fold(head_half, metric, 1, -s, &stacks))
        goto out;
    self = calloc(fns.n + 1, sizeof *self);
    incl = calloc(fns.n + 1, sizeof *incl);
    sr = calloc(stacks.n + 1, sizeof *sr);
    if (!self || !incl || !sr)
        goto out;
    double bt = 0, ht = 0;
    for (size_t i = 0; i < fns.n; i++) {
        const double *v = fns.val[i];
        self[i] = (row){fns.key[i], v[0], v[2], v[2] - v[0]};
        incl[i] = (row){fns.key[i], v[1], v[3], v[3] - v[1]};
        bt += v[0];
        ht += v[2];
    }
    d = cJSON_CreateObject();
    if (!d)
        goto out;
    cJSON_AddStringToObject(d, "metric", metric == PERF_CG_M_CYCLES ? "estimated_cycles" : "instructions");
    cJSON_AddStringToObject(d, "per", "iteration");
    cJSON_AddNumberToObject(d, "base_total", bt);
    cJSON_AddNumberToObject(d, "head_total", ht);
    cJSON_AddNumberToObject(d, "total_change", ht - bt);
    cJSON_AddItemToObject(d, "self", rows_json(self, fns.n, top, ht - bt));
    cJSON_AddItemToObject(d, "inclusive", rows_json(incl, fns.n, top, ht - bt));
    for (size_t i = 0; i < stacks.n; i++) {
        double b = stacks.val[i][0], h = stacks.val[i][1];
        sr[i] = (stack_row){i, fmax(fabs(b), fabs(h)) + 10 * fabs(h - b)};
    }
    qsort(sr, stacks.n, sizeof *sr, cmp_stack);
    cJSON *fa = cJSON_AddArrayToObject(d, "folded");
    double floor_ = 1e-4 * fmax(fabs(bt), fabs(ht));
    size_t chars = 0; /* of the stacks kept: at most PERF_CG_FOLDED_CHARS in results.json */
    for (size_t k = 0; k < stacks.n && (int)k < max_stacks; k++) {
        double b = stacks.val[sr[k].i][0], h = stacks.val[sr[k].i][1];
        if (sr[k].score <= floor_) /* rounding left-overs of the N - N/2 difference */
            break;
        chars += strlen(stacks.key[sr[k].i]);
        if (chars > PERF_CG_FOLDED_CHARS)
            break;
        cJSON *e = cJSON_CreateArray();
        cJSON_AddItemToArray(e, cJSON_CreateString(stacks.key[sr[k].i]));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(b > 0 ? b : 0));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(h > 0 ? h : 0));
        cJSON_AddItemToArray(fa, e);
    }
out:
    free(self);
    free(incl);
    free(sr);
    smap_free(&fns);
    smap_free(&stacks);
    return d;
}

void perf_cg_top_line(const cJSON *diff, char *buf, size_t n)
{
    buf[0] = 0;
    const cJSON *self = cJSON_GetObjectItemCaseSensitive(diff, "self");
    const cJSON *t = cJSON_GetArrayItem(self, 0);
    const cJSON *fn = cJSON_GetObjectItemCaseSensitive(t, "function");
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(t, "change");
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(t, "share");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(diff, "metric");
    if (!cJSON_IsString(fn) || !cJSON_IsNumber(ch) || !cJSON_IsNumber(sh))
        return;
    snprintf(buf, n, "top function by self change: %.120s %+.6g %s per iteration (%.1f %% of the change)",
             fn->valuestring, ch->valuedouble,
             cJSON_IsString(m) && !strcmp(m->valuestring, "estimated_cycles") ? "estimated cycles" : "Ir",
             100 * sh->valuedouble);
}
