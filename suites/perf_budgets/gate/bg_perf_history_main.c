/* bg-perf-history — main's perf history (append a nightly run) and its change
 * points (E-Divisive means), handed to ci/bisect.  Usage: usage_text below.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_changepoint.h"
#include "buildgate/bg_file.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_parse.h"
#include "buildgate/bg_stats.h"
#include "perf_history.h"

static const char usage_text[] =
    "Usage: bg-perf-history append --history FILE --results results.json [--commit SHA] [--date ISO]\n"
    "       bg-perf-history changes --history FILE [--check RE] [--host KEY] [--min-size N]\n"
    "                       [--sig P] [--permutations N] [--seed N] [--min-step PCT] [--md FILE]\n"
    "                       [--acknowledged FILE]\n"
    "       bg-perf-history study [--length N] [--step PCT] [--sigma PCT] [--outliers F]\n"
    "                       [--histories N] [--min-size N] [--sig P] [--permutations N] [--seed N]\n"
    "\n"
    "The history of main's perf results, one run per nightly gate job and host, and\n"
    "the steps in it that no single pull request's A/B could decide (docs/perf_budgets.md\n"
    "\"Change points over main's history\").\n"
    "  append    adds the perf checks of a results.json (bg-report; each check's\n"
    "            details.median_head in its metric's unit) as one run: commit (default\n"
    "            the results' run.commit), date (default its generated time), host key.\n"
    "            A missing FILE starts a history; the same commit and host twice\n"
    "            appends nothing (a re-run job).  FILE is rewritten atomically, never when it is corrupt.\n"
    "  changes   the change points of every (host, check) series with at least\n"
    "            2 x --min-size runs (E-Divisive means: Matteson & James, JASA 2014;\n"
    "            lib/include/buildgate/bg_changepoint.h): one line each with the step,\n"
    "            the medians before and after, the commit range and p; a slowdown of at\n"
    "            least --min-step % names the command `ci/bisect --checks CHECK --good A\n"
    "            --bad B`.  --md FILE: the same as a Markdown table (the job summary).\n"
    "            --acknowledged FILE: steps accepted on purpose (gate.yml passes\n"
    "            suites/perf_budgets/history_acknowledged.json; format: perf_history.h):\n"
    "            a slowdown of a check within an acknowledged commit range (+-2 commits)\n"
    "            is reported as acknowledged with its reason and does not fail.\n"
    "  study     precision and recall on synthetic histories: --histories series of\n"
    "            --length runs with Gaussian noise of --sigma % (plus a fraction\n"
    "            --outliers of values 5 sigma off), each with one step of --step % at a\n"
    "            random run, and as many without a step (false alarms).  A change found\n"
    "            within 2 runs of the planted one is a hit.\n"
    "  --min-size N      fewest runs each side of a change (default 5)\n"
    "  --sig P           accept a change when its permutation p <= P (default 0.01)\n"
    "  --permutations N  per test (default 199)\n"
    "  --seed N          the permutations' and the study's PRNG seed (default 1)\n"
    "  --min-step PCT    smallest slowdown that fails (default 1)\n"
    "\n"
    "Exit: 0; 1 changes found a slowdown of at least --min-step; 2 usage; 3 I/O;\n"
    "4 results.json or the --acknowledged file malformed; 5 the history is corrupt (left as it is); 8 out of memory.\n";

typedef struct opts {
    const char *mode, *history, *results, *commit, *date, *md, *acks;
    perf_changes_opts ch;
    size_t length, histories;
    double step, sigma, outliers;
} opts;

/* 1 when s is YYYY-MM-DD, optionally followed by THH:MM:SS and Z, each field
 * in its range (the day within its month); the history sorts runs by it */
static int iso_date_ok(const char *s)
{
    int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
    size_t len = strlen(s);
    if (len == 10 ? sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3
                  : (len != 19 && len != 20) ||
                        sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6)
        return 0;
    if ((size_t)n != len && !(n == 19 && len == 20 && s[19] == 'Z'))
        return 0;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    for (size_t i = 0; i < (len == 10 ? 10 : 19); i++) /* digits where digits belong */
        if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && !isdigit((unsigned char)s[i]))
            return 0;
    return y >= 1970 && mo >= 1 && mo <= 12 && d >= 1 && d <= mdays[mo - 1] - (mo == 2 && !leap) &&
           h <= 23 && mi <= 59 && sec <= 60;
}

static int num(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi))
        return bg_help_bad_value(opt, "'%s' is not a number in %g..%g", v, lo, hi);
    *out = x;
    return 0;
}

static int whole(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (bg_parse_u64(v, lo, hi, out) != BG_OK)
        return bg_help_bad_value(opt, "'%s' is not a whole number in %llu..%llu", v,
                                 (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

static int parse(int argc, char **argv, opts *o)
{
    static const char *const valued[] = {"--history", "--results", "--commit", "--date", "--check",
                                         "--host", "--min-size", "--sig", "--permutations", "--seed",
                                         "--min-step", "--md", "--length", "--step", "--sigma",
                                         "--outliers", "--histories", "--acknowledged", NULL};
    if (argc < 2)
        return bg_help_bad_value("mode", "missing: append, changes or study");
    o->mode = argv[1];
    if (o->mode[0] == '-') /* an option where the mode goes */
        return bg_help_unknown_option(o->mode);
    if (strcmp(o->mode, "append") && strcmp(o->mode, "changes") && strcmp(o->mode, "study"))
        return bg_help_bad_value("mode", "unknown mode '%s': append, changes or study", o->mode);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!bg_option_in(a, valued))
            return bg_help_unknown_option(a);
        if (i + 1 >= argc)
            return bg_help_missing_value(a);
        const char *v = argv[++i];
        uint64_t u;
        double d;
        int rc = 0;
        if (!strcmp(a, "--history")) o->history = v;
        else if (!strcmp(a, "--results")) o->results = v;
        else if (!strcmp(a, "--commit")) o->commit = v;
        else if (!strcmp(a, "--date")) o->date = v;
        else if (!strcmp(a, "--check")) o->ch.check_re = v;
        else if (!strcmp(a, "--host")) o->ch.host = v;
        else if (!strcmp(a, "--md")) o->md = v;
        else if (!strcmp(a, "--acknowledged")) o->acks = v;
        else if (!strcmp(a, "--min-size")) { if (!(rc = whole(a, v, 2, 1000, &u))) o->ch.min_size = u; }
        else if (!strcmp(a, "--permutations")) { if (!(rc = whole(a, v, 19, 100000, &u))) o->ch.permutations = (unsigned)u; }
        else if (!strcmp(a, "--seed")) { if (!(rc = whole(a, v, 0, UINT64_MAX, &u))) o->ch.seed = u; }
        else if (!strcmp(a, "--length")) { if (!(rc = whole(a, v, 4, 100000, &u))) o->length = u; }
        else if (!strcmp(a, "--histories")) { if (!(rc = whole(a, v, 1, 100000, &u))) o->histories = u; }
        else if (!strcmp(a, "--sig")) { if (!(rc = num(a, v, 1e-9, 0.999999, &d))) o->ch.sig = d; }
        else if (!strcmp(a, "--min-step")) { if (!(rc = num(a, v, 0, 1000, &d))) o->ch.min_step = d / 100; }
        else if (!strcmp(a, "--step")) { if (!(rc = num(a, v, -90, 1000, &d))) o->step = d / 100; }
        else if (!strcmp(a, "--sigma")) { if (!(rc = num(a, v, 0, 100, &d))) o->sigma = d / 100; }
        else if (!strcmp(a, "--outliers")) { if (!(rc = num(a, v, 0, 0.5, &d))) o->outliers = d; }
        if (rc)
            return rc;
    }
    if (strcmp(o->mode, "study") && !o->history)
        return bg_help_bad_value("--history", "required by %s", o->mode);
    /* --md is written: never over an input (a history replaced by a table is lost) */
    const char *inputs[][2] = {{"--history", o->history}, {"--acknowledged", o->acks}, {"--results", o->results}};
    for (size_t i = 0; o->md && i < sizeof inputs / sizeof inputs[0]; i++)
        if (inputs[i][1] && bg_file_same(o->md, inputs[i][1]))
            return bg_help_bad_value("--md", "'%s' is also %s: it would be overwritten (choose another file)",
                                     o->md, inputs[i][0]);
    if (!strcmp(o->mode, "append") && !o->results)
        return bg_help_bad_value("--results", "required by append");
    if (o->date && !iso_date_ok(o->date))
        return bg_help_bad_value("--date", "'%s' is no UTC date or time as results.json's \"generated\" "
                                 "(2026-12-02 or 2026-12-02T13:05:00Z)", o->date);
    if (!strcmp(o->mode, "study") && o->length < 2 * o->ch.min_size + 2)
        return bg_help_bad_value("--length", "%zu runs leave no room for a step with --min-size %zu",
                                 o->length, o->ch.min_size);
    return 0;
}

static int do_append(const opts *o)
{
    cJSON *hist = NULL, *res = NULL;
    bg_status st = perf_history_load(o->history, 1, &hist);
    if (st == BG_OK)
        st = bg_json_load(o->results, "append", &res);
    int added = 0;
    if (st == BG_OK)
        st = perf_history_append(hist, res, o->commit, o->date, &added);
    if (st == BG_OK && added)
        st = bg_json_write_atomic(o->history, hist);
    if (st == BG_OK && added)
        printf("bg-perf-history: %d value%s appended to %s (%d runs)\n", added, added == 1 ? "" : "s",
               o->history, cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(hist, "runs")));
    cJSON_Delete(hist);
    cJSON_Delete(res);
    return bg_exit_code(st);
}

static int do_changes(const opts *o)
{
    cJSON *hist = NULL, *acks = NULL;
    perf_changes_opts ch = o->ch;
    bg_status st = perf_history_load(o->history, 0, &hist);
    if (st == BG_OK && o->acks && (st = perf_history_acks_load(o->acks, &acks)) == BG_OK) {
        ch.acks = cJSON_GetObjectItemCaseSensitive(acks, "acknowledged");
        ch.acks_path = o->acks;
    }
    FILE *md = NULL;
    if (st == BG_OK && o->md && !(md = fopen(o->md, "w")))
        st = bg_fail(BG_E_IO, "changes", "--md %s: cannot write", o->md);
    int slow = 0;
    if (st == BG_OK)
        st = perf_history_changes(hist, &ch, stdout, md, &slow);
    if (md && fclose(md) != 0 && st == BG_OK)
        st = bg_fail(BG_E_IO, "changes", "--md %s: cannot write", o->md);
    cJSON_Delete(hist);
    cJSON_Delete(acks);
    return st != BG_OK ? bg_exit_code(st) : slow ? BG_EXIT_FAIL : BG_EXIT_OK;
}

/* A standard normal draw (Box-Muller) from splitmix64. */
static double gauss(bg_rng *r)
{
    double u = ((double)(bg_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(bg_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static int do_study(const opts *o)
{
    bg_rng rng = {o->ch.seed ^ 0x9e3779b97f4a7c15ull};
    double *x = malloc(o->length * sizeof *x);
    bg_change ch[64];
    size_t hits = 0, found = 0, alarms = 0, alarm_series = 0;
    bg_changepoint_opts co = {o->ch.min_size, o->ch.sig, o->ch.permutations, o->ch.seed};
    if (!x)
        return bg_exit_code(bg_fail(BG_E_NOMEM, "study", "out of memory"));
    for (size_t h = 0; h < 2 * o->histories; h++) {
        int planted = h < o->histories;
        size_t at = o->ch.min_size + (size_t)(bg_rng_next(&rng) % (o->length - 2 * o->ch.min_size + 1));
        for (size_t i = 0; i < o->length; i++) {
            double e = o->sigma * gauss(&rng);
            if (o->outliers > 0 && (double)(bg_rng_next(&rng) >> 11) / 9007199254740992.0 < o->outliers)
                e = 5 * o->sigma * (bg_rng_next(&rng) & 1 ? 1 : -1);
            x[i] = 100 * (1 + (planted && i >= at ? o->step : 0)) * (1 + e);
        }
        size_t n = 0;
        co.seed = o->ch.seed + h;
        bg_status st = bg_edivisive(x, o->length, &co, ch, 64, &n);
        if (st != BG_OK) {
            free(x);
            return bg_exit_code(st);
        }
        if (!planted) {
            alarms += n;
            alarm_series += n > 0;
            continue;
        }
        found += n;
        int hit = 0;
        for (size_t c = 0; c < n; c++)
            hit |= (ch[c].at + 2 >= at && ch[c].at <= at + 2);
        hits += hit;
    }
    free(x);
    double recall = (double)hits / (double)o->histories;
    double precision = found ? (double)hits / (double)found : NAN;
    printf("study: length %zu, step %+.2f %%, sigma %.2f %%, outliers %.3f, min-size %zu, sig %g, "
           "%u permutations, %zu histories each: recall %.3f (%zu/%zu), precision %.3f (%zu hits of %zu "
           "changes found), false alarms: %zu of %zu step-free histories (%zu changes)\n",
           o->length, 100 * o->step, 100 * o->sigma, o->outliers, o->ch.min_size, o->ch.sig,
           o->ch.permutations, o->histories, recall, hits, o->histories, precision, hits, found,
           alarm_series, o->histories, alarms);
    return 0;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    opts o = {.ch = {.min_size = 5, .sig = 0.01, .permutations = 199, .seed = 1, .min_step = 0.01},
              .length = 60, .histories = 100, .step = 0.02, .sigma = 0.01};
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    if (!strcmp(o.mode, "append"))
        return do_append(&o);
    if (!strcmp(o.mode, "changes"))
        return do_changes(&o);
    return do_study(&o);
}
