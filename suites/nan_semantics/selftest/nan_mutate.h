/* nan_mutate.h — the kinds of nan-mutate, the one mutant mechanism of the NaN
 * self-tests (docs/nan_semantics.md "Self-tests"): each kind turns a correct
 * nan-probe document into the one a translator with one bug would print, and
 * names the nan-check rule that bug must make fail.
 *
 * One table, nan_mut_kinds[] (nan_mutate_kinds.c), one row per kind:
 *   name     the word before the first ':' of the command-line spec
 *   arg      what follows it: nothing, one op (a nan_ops.def / x87_ops.def
 *            name), FROM:TO (two ops), or text the kind parses itself
 *   changes  what the translator bug does to the document (--help)
 *   trips    the rule (and detail) nan-check must fail with (--help)
 *   op_ok    NULL, or refuses an op the kind cannot change (an x87 mutation
 *            of an SSE op): spec refused before the document is read
 *   rec      per record (NULL: a document kind): op k's case i in a phase
 *            whose MXCSR has DAZ (daz), changed in place; kinds without an op
 *            argument see every record of every op
 *   doc      a document kind: changes doc; 0, or -1 with why[n] filled
 *   control  1 for `none`, the control run: the only kind allowed to leave
 *            the document unchanged (every other kind that changes nothing on
 *            the document it is given is refused, exit 2)
 * Adding a kind: one row in nan_mut_kinds[] and its rec or doc function; the
 * help, the parser and the unchanged-document refusal follow from the row.
 */
#ifndef NAN_MUTATE_H
#define NAN_MUTATE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "nan_cases.h"

typedef enum nan_mut_arg {
    NAN_MUT_NONE, /* "snan-unquieted" */
    NAN_MUT_OP,   /* "quiet-snan:andnps" */
    NAN_MUT_COPY, /* "copy:FROM:TO" */
    NAN_MUT_TEXT  /* "x87-cw:handler:0x0c7f", "fact-false:ymm_fork_inherited" */
} nan_mut_arg;

struct nan_mut_kind;

/* A parsed spec: its kind, its op (-1 without), the copy's source op (-1),
 * the text after "NAME:" ("" without). */
typedef struct nan_mut_spec {
    const struct nan_mut_kind *kind;
    int op, from;
    const char *text;
} nan_mut_spec;

typedef struct nan_mut_kind {
    const char *name;
    nan_mut_arg arg;
    const char *arg_help; /* "OP", "FROM:TO", "PHASE:HEX", "FACT", "" */
    const char *changes;
    const char *trips;
    int (*op_ok)(int k);
    void (*rec)(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r);
    /* a document kind: the number of values it changed (0: the document is
     * as it was), or -1 with why[n] */
    int (*doc)(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
    int control;
} nan_mut_kind;

extern const nan_mut_kind nan_mut_kinds[];
extern const int nan_mut_kind_count;

/* Parses a spec ("quiet-snan:andnps"); 0, or -1 when the kind is unknown, an
 * op is unknown, FROM and TO differ in case count, or op_ok refuses the op. */
int nan_mut_parse(const char *spec, nan_mut_spec *s);

/* The document kinds (nan_mutate_doc.c): each returns how many values it
 * changed, or -1 with why. */
int nan_mut_doc_none(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_daz_ignored(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_rc_ignored(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_lig_died(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_x87_cw(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_fact_false(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_feature_false(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_x87_rc_mxcsr(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);
int nan_mut_doc_fault_field(cJSON *doc, const nan_mut_spec *s, char *why, size_t n);

#endif
