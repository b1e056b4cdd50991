/* perf_plan.c — see perf_plan.h. */
#include "perf_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_budget.h"

/* Appends name to the ^(...)$ filter in buf, escaping regex metacharacters. */
static void filter_add(char *buf, size_t cap, const char *name)
{
    size_t k = strlen(buf);
    if (k == 0)
        k = (size_t)snprintf(buf, cap, "^(");
    else if (k >= 2 && strcmp(buf + k - 2, ")$") == 0)
        buf[k - 2] = '|', buf[k - 1] = 0, k--;
    for (const char *c = name; *c && k + 4 < cap; c++) {
        if (strchr(".[]()*+?^$|\\{}", *c))
            buf[k++] = '\\';
        buf[k++] = *c;
    }
    snprintf(buf + k, cap - k, ")$");
}

static double min_time_of(const cJSON *budgets, const char *name, double cli)
{
    perf_budget b;
    perf_budget_for(budgets, name, &b);
    return cli > 0 ? cli : b.min_time;
}

int perf_plan_threaded(const char *name)
{
    for (const char *t = strstr(name, "threads:"); t; t = strstr(t + 8, "threads:"))
        if (atoi(t + 8) > 1)
            return 1;
    return 0;
}

/* Puts name i into the class of its min_time and threadedness (new class
 * when none). */
static bg_status classify(perf_plan *p, size_t i, double mt)
{
    size_t c = 0;
    int threaded = perf_plan_threaded(p->names.s[i].name);
    while (c < p->ncls && (p->cls[c].min_time != mt || p->cls[c].threaded != threaded))
        c++;
    if (c == p->ncls) {
        if (p->ncls == PERF_PLAN_MAX_CLASSES)
            return bg_fail(BG_E_USAGE, "bg-perf", "more than %d classes of min_time and threads",
                           PERF_PLAN_MAX_CLASSES);
        p->cls[c] = (perf_class){.min_time = mt, .threaded = threaded};
        p->ncls++;
    }
    p->cls_of[i] = (int)c;
    p->cls[c].has_head |= p->side_of[i] != PERF_BASE_ONLY;
    p->cls[c].has_base |= p->side_of[i] != PERF_HEAD_ONLY;
    filter_add(p->cls[c].filter, sizeof p->cls[c].filter, p->names.s[i].name);
    return BG_OK;
}

static double smallest_alpha(const perf_plan *p, const cJSON *budgets)
{
    double a = 1;
    for (size_t i = 0; i < p->names.n; i++) {
        perf_budget b;
        perf_budget_for(budgets, p->names.s[i].name, &b);
        a = fmin(a, b.alpha);
    }
    return a;
}

/* Lists base_cmd's names: those the head lacks join p->names as base-only. */
static bg_status add_base_names(perf_plan *p, const perf_cmd *base_cmd, const char *filter,
                                const char *work_dir, size_t nhead)
{
    perf_set b = {0};
    bg_status st = perf_run_list(base_cmd, filter, work_dir, "bg-perf-base", &b);
    if (st == BG_E_USAGE) /* the base matches nothing (line printed): every head name is new */
        st = BG_OK;
    for (size_t i = 0; i < b.n && st == BG_OK; i++)
        if (!perf_set_find(&p->names, b.s[i].name))
            st = perf_set_push(&p->names, b.s[i].name, 1.0);
    p->side_of = st == BG_OK ? calloc(p->names.n ? p->names.n : 1, sizeof *p->side_of) : NULL;
    if (st == BG_OK && !p->side_of)
        st = BG_E_NOMEM;
    for (size_t i = 0; st == BG_OK && i < p->names.n; i++)
        p->side_of[i] = i >= nhead                                ? PERF_BASE_ONLY
                        : perf_set_find(&b, p->names.s[i].name) ? 0
                                                                  : PERF_HEAD_ONLY;
    perf_set_free(&b);
    return st;
}

bg_status perf_plan_make(perf_plan *p, const perf_cmd *cmd, const perf_cmd *base_cmd,
                         const char *filter, const char *work_dir,
                         const cJSON *budgets, double cli_min_time, int cli_rounds, int cli_reps,
                         uint64_t seed)
{
    *p = (perf_plan){.seed = seed, .rng = {seed}};
    bg_status st = perf_run_list(cmd, filter, work_dir, "bg-perf", &p->names);
    if (st != BG_OK)
        return st;
    size_t nhead = p->names.n;
    if (base_cmd)
        st = add_base_names(p, base_cmd, filter, work_dir, nhead);
    else if (!(p->side_of = calloc(nhead, sizeof *p->side_of)))
        st = BG_E_NOMEM;
    if (st != BG_OK)
        return st;
    p->cls_of = calloc(p->names.n, sizeof *p->cls_of);
    if (!p->cls_of)
        return BG_E_NOMEM;
    for (size_t i = 0; i < p->names.n && st == BG_OK; i++)
        st = classify(p, i, min_time_of(budgets, p->names.s[i].name, cli_min_time));
    if (st != BG_OK)
        return st;
    double alpha = smallest_alpha(p, budgets);
    size_t need = bg_mann_whitney_rounds_for(alpha, p->names.n);
    if (need == 0)
        need = 25;
    p->alpha = alpha;
    p->need_u = need;
    p->rounds0 = cli_rounds ? cli_rounds : (int)(need > PERF_PLAN_MIN_ROUNDS ? need : PERF_PLAN_MIN_ROUNDS);
    p->reps0 = cli_reps ? cli_reps : PERF_PLAN_REPS0;
    for (size_t c = 0; c < p->ncls; c++)
        p->cls[c].rounds = p->rounds0, p->cls[c].reps = p->reps0;
    printf("bg-perf: plan: %zu benchmark(s) in %zu class(es) of min_time and threads, %d round(s) x %d "
           "repetition(s) per process%s, seed %llu\n",
           p->names.n, p->ncls, p->rounds0, p->reps0, cli_rounds ? "" : " (rounds: automatic)",
           (unsigned long long)seed);
    return BG_OK;
}

/* Rounds for a rerun with reps repetitions that cost what rounds0 x reps0 did. */
static int equal_time_rounds(const perf_plan *p, const perf_series *s, int reps)
{
    double c0 = s->setup_s + p->reps0 * s->rep_s, c1 = s->setup_s + reps * s->rep_s;
    if (!(c0 > 0 && c1 > 0))
        return p->rounds0;
    int r = (int)ceil(p->rounds0 * c0 / c1);
    return r < p->rounds0 ? p->rounds0 : r > 3 * p->rounds0 ? 3 * p->rounds0 : r;
}

size_t perf_plan_rerun(perf_plan *p, const perf_result *r, size_t n, const perf_set *head,
                       const cJSON *budgets, double cli_min_time, int cli_rounds, int cli_reps)
{
    p->ncls = 0;
    for (size_t i = 0; i < p->names.n; i++)
        p->cls_of[i] = -1;
    for (size_t k = 0; k < n; k++) {
        if (r[k].outcome != PERF_INCONCLUSIVE)
            continue;
        const perf_series *s = perf_set_find(&p->names, r[k].name);
        if (!s || classify(p, (size_t)(s - p->names.s), min_time_of(budgets, r[k].name, cli_min_time)) != BG_OK)
            continue;
        perf_class *c = &p->cls[p->cls_of[s - p->names.s]];
        int reps = cli_reps ? cli_reps : r[k].reps_advice > 0 ? r[k].reps_advice : p->reps0;
        if (reps > c->reps) /* the class runs the most any of its benchmarks asks for */
            c->reps = reps;
    }
    for (size_t c = 0; c < p->ncls; c++) {
        int rounds = p->rounds0;
        for (size_t i = 0; !cli_rounds && i < p->names.n; i++)
            if (p->cls_of[i] == (int)c && perf_set_find(head, p->names.s[i].name)) {
                int e = equal_time_rounds(p, perf_set_find(head, p->names.s[i].name), p->cls[c].reps);
                rounds = e > rounds ? e : rounds;
            }
        p->cls[c].rounds = rounds;
    }
    return p->ncls;
}

int perf_plan_head_first(perf_plan *p)
{
    return (int)(bg_rng_next(&p->rng) >> 63);
}

void perf_plan_pad(perf_plan *p, char *buf)
{
    size_t k = (size_t)(bg_rng_next(&p->rng) % (PERF_PLAN_PAD_MAX + 1));
    strcpy(buf, "BG_PERF_PAD=");
    memset(buf + 12, 'x', k);
    buf[12 + k] = 0;
}

void perf_plan_note_setup(const perf_plan *p, size_t c, perf_set *set, double wall)
{
    double work = 0;
    for (size_t i = 0; i < p->names.n; i++) {
        const perf_series *s = p->cls_of[i] == (int)c ? perf_set_find(set, p->names.s[i].name) : NULL;
        if (s)
            work += p->cls[c].reps * s->rep_s;
    }
    for (size_t i = 0; i < p->names.n; i++) {
        perf_series *s = p->cls_of[i] == (int)c ? (perf_series *)perf_set_find(set, p->names.s[i].name) : NULL;
        if (s)
            s->setup_s = fmax(wall - work, 0.0);
    }
}

void perf_plan_free(perf_plan *p)
{
    perf_set_free(&p->names);
    free(p->cls_of);
    free(p->side_of);
    *p = (perf_plan){0};
}
