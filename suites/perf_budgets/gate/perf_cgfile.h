/* perf_cgfile.h — a callgrind output file read into per-function costs, and
 * the per-function difference of two builds (docs/perf_budgets.md "Which
 * function got slower").
 *
 * Input: the file `valgrind --tool=callgrind` writes (format of the
 * Valgrind manual, "Callgrind Format Specification", and what
 * callgrind_annotate reads): header lines (`events:`, `positions:`,
 * `summary:`/`totals:`, ...), position lines `fl=`/`fi=`/`fe=`/`ob=` (files and
 * objects: ignored here), `fn=` (the current function), `cfn=` (the callee of
 * the next `calls=`), `calls=<count> <target position>` whose NEXT cost line
 * is the inclusive cost of those calls (counted into the caller's inclusive
 * cost and the call edge, not its self cost), and cost lines
 * `<positions> <cost>...` (as many position columns as `positions:` names,
 * each a number, `+n`/`-n` relative, or `*`; missing trailing costs are 0).
 * Name compression: `fn=(id) name` defines id, `fn=(id)` refers to it (fn and
 * cfn share one id space).  Costs are read into fixed slots by event name
 * (Ir, Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw; absent events are 0);
 * other events are ignored.  A function is its name, without the recursion
 * level callgrind appends ("f'2", --separate-recs): the same name in two
 * objects is one function (the head's and the base's executables have
 * different paths, so the object cannot be part of the identity).
 * Inclusive cost = self + the cost of its calls, leaving out the calls inside
 * a call cycle (caller and callee in one strongly connected component of the
 * call graph, e.g. a function calling itself, or glibc's "(below main)" and
 * __libc_start_main): callgrind_annotate's inclusive counts add a cycle's
 * work once per member, so that "(below main)" showed twice the program.
 * Without them a cycle's members are inclusive of their own work and of the
 * calls that leave the cycle from them.
 *
 * Estimated cycles (the memory-behaviour metric, perf_callgrind.h): KCachegrind's
 * cycle estimate CEst ("Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm",
 * KCachegrind libviews/globalconfig.cpp, knownFormula) without the terms of
 * simulations the gate does not run (branches Bm, global bus events Ge, a
 * middle level L2m): cycles = Ir + 10 (I1mr + D1mr + D1mw) + 100 (ILmr + DLmr +
 * DLmw); the weights are the manual's orders of magnitude (Cachegrind
 * manual: an L1 miss costs around 10 cycles, an LL miss up to 200).
 */
#ifndef PERF_CGFILE_H
#define PERF_CGFILE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

enum { PERF_CG_IR, PERF_CG_DR, PERF_CG_DW, PERF_CG_I1MR, PERF_CG_D1MR, PERF_CG_D1MW,
       PERF_CG_ILMR, PERF_CG_DLMR, PERF_CG_DLMW, PERF_CG_NEV };

/* The metrics the per-function difference reports. */
enum { PERF_CG_M_IR, PERF_CG_M_CYCLES, PERF_CG_NM };

/* The most characters of folded stacks one function_diff carries. */
#define PERF_CG_FOLDED_CHARS 200000

typedef struct perf_cg_fn {
    char *name;
    double self[PERF_CG_NEV], incl[PERF_CG_NEV];
    int called; /* 1: some other function calls it */
} perf_cg_fn;

typedef struct perf_cg_call {
    size_t caller, callee;
    double cost[PERF_CG_NEV];
    int in_cycle; /* caller and callee in one call cycle: left out of inclusive costs */
} perf_cg_call;

typedef struct perf_cg_profile {
    perf_cg_fn *fn;
    size_t nfn, capfn;
    perf_cg_call *call; /* sorted by (caller, callee), one per pair */
    size_t ncall, capcall;
    double total[PERF_CG_NEV]; /* summary:/totals: */
    int has[PERF_CG_NEV];      /* the event is in the file's events: line */
} perf_cg_profile;

/* Reads a callgrind output file.  BG_E_IO, BG_E_PARSE (no events: line, a
 * cost line before any fn=, a compressed id never defined), BG_E_NOMEM. */
bg_status perf_cg_read(const char *path, perf_cg_profile *p);
void perf_cg_free(perf_cg_profile *p);

/* Estimated cycles of an event vector (formula above). */
double perf_cg_cycles(const double *ev);

/* Metric m (PERF_CG_M_*) of an event vector. */
double perf_cg_metric(const double *ev, int m);

/* 1 when the profile has the events of the cache simulation (D1mr etc.). */
int perf_cg_has_cache(const perf_cg_profile *p);

/* The per-iteration per-function difference of base against head, as the
 * check's details.function_diff (docs/results.schema.json): each side's per
 * iteration costs are (full - half) / iters (the two runs of one side, at N
 * and N/2 iterations, iters = N - N/2: start-up cancels, as for Ir).
 *   {"metric": "instructions"|"estimated_cycles", "per": "iteration",
 *    "base_total", "head_total", "total_change",
 *    "self": [{"function", "base", "head", "change", "share"}...],      top `top` by |change|
 *    "inclusive": [{...same...}...],
 *    "folded": [[stack, base, head]...]}   a differential flame graph's stacks
 * share = change / total_change.  The folded stacks ("a;b;c", self cost of
 * c at that stack, per iteration) come from the call graph: callgrind records
 * caller-callee pairs, not whole stacks, so a function's callees are spread
 * over its callers in proportion to their calls' inclusive costs (the usual
 * approximation of a call graph as a tree), from the functions nobody calls,
 * a function already on the stack not entered again, calls inside a call cycle
 * left out, branches below 10^-6 of the profile's total (start-up included)
 * or deeper than 48 frames kept in their parent, at most 200000 frames a
 * profile; then at most `max_stacks` stacks, the
 * largest, and at most PERF_CG_FOLDED_CHARS characters of stack names in all.
 * NULL on out of memory. */
cJSON *perf_cg_function_diff(const perf_cg_profile *base_full, const perf_cg_profile *base_half,
                             const perf_cg_profile *head_full, const perf_cg_profile *head_half,
                             double iters, int metric, int top, int max_stacks);

/* One line naming the top function of a function_diff: "top function by self
 * change: <name> +12.3 Ir (98.1 % of the change)", or "" when none. */
void perf_cg_top_line(const cJSON *diff, char *buf, size_t n);

#endif
