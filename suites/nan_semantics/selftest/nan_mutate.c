/* nan-mutate — turns a correct nan-probe document into the one a broken
 * translator would print: the one mutant mechanism of the NaN self-tests
 * (runners/filter-runner.sh pipes a runner's probe output through it).  Each
 * kind imitates one translator bug and names the nan-check rule it must make
 * fail; the kinds are one table (nan_mutate.h, nan_mutate_kinds.c).
 * Usage: `nan-mutate --help` (printed from the table).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_file.h"
#include "buildgate/bg_help.h"
#include "nan_mutate.h"

static const char usage_head[] =
    "Usage: nan-mutate KIND[:ARG] < probe.json > mutated.json\n"
    "\n"
    "Rewrites a nan-probe document (docs/nan_semantics.md) as a translator with\n"
    "one bug would print it; the kind's op records change in every phase that\n"
    "holds them.  A kind that would change nothing in the document it is given is\n"
    "refused (exit 2): a mutant that changes nothing proves nothing (`none`, the\n"
    "control run, excepted).  OP: an op of nan_ops.def / x87_ops.def.\n"
    "Kinds (-> the nan-check rule it must fail):\n";
static const char usage_tail[] =
    "Exit: 0 written; 2 usage, an unknown kind or op, or a kind that changes\n"
    "nothing here; 3 I/O; 4 the input is not a probe document, or lacks what the\n"
    "kind changes.\n";

/* Appends text to buf at *len, wrapped at 78 columns, each line indented. */
static void wrap(char *buf, size_t cap, size_t *len, const char *text, int indent)
{
    int col = 0;
    for (const char *w = text; *w && *len < cap;) {
        size_t wl = strcspn(w, " ");
        if (col && col + 1 + (int)wl > 78) {
            *len += (size_t)snprintf(buf + *len, cap - *len, "\n");
            col = 0;
        }
        if (*len < cap)
            *len += (size_t)snprintf(buf + *len, cap - *len, "%*s%.*s", col ? 1 : indent, "", (int)wl, w);
        col += (col ? 1 : indent) + (int)wl;
        w += wl;
        w += *w == ' ';
    }
    if (*len < cap)
        *len += (size_t)snprintf(buf + *len, cap - *len, "\n");
}

static int help(void)
{
    static char buf[16384];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s", usage_head);
    for (int i = 0; i < nan_mut_kind_count && len < sizeof buf; i++) {
        const nan_mut_kind *k = &nan_mut_kinds[i];
        char line[600];
        len += (size_t)snprintf(buf + len, sizeof buf - len, "  %s%s%s\n", k->name, *k->arg_help ? ":" : "",
                                k->arg_help);
        wrap(buf, sizeof buf, &len, k->changes, 6);
        snprintf(line, sizeof line, "-> %s", k->trips);
        wrap(buf, sizeof buf, &len, line, 6);
    }
    if (len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, "%s", usage_tail);
    return bg_help_print(buf);
}

/* Op k's record string in one phase's results rewritten by the kind (the
 * records read from op `from` when it is not -1): 0, 1 when the phase has no
 * records of k (skip for an op kind), -1 when they are malformed; *changed
 * grows by the records that differ from what the phase held. */
static int rewrite(const nan_mut_spec *s, cJSON *results, int daz, int k, int from, int *changed)
{
    cJSON *item = cJSON_GetObjectItemCaseSensitive(results, nan_ops[k].name);
    const char *src = cJSON_GetStringValue(from >= 0 ? cJSON_GetObjectItemCaseSensitive(results, nan_ops[from].name)
                                                     : item);
    size_t n = (size_t)nan_case_count(k), len = (size_t)nan_rec_hex(k);
    if (!cJSON_IsString(item))
        return 1;
    if (!src || strlen(src) != n * len || strlen(item->valuestring) != n * len ||
        (from >= 0 && nan_rec_hex(from) != (int)len))
        return -1;
    char *text = malloc(n * len + 1);
    if (!text)
        return -1;
    for (size_t i = 0; i < n; i++) {
        nan_rec r;
        if (nan_rec_decode(k, src + i * len, &r) != 0) {
            free(text);
            return -1;
        }
        s->kind->rec(s, k, (int)i, daz, &r);
        nan_rec_encode(k, &r, text + i * len);
        *changed += memcmp(text + i * len, item->valuestring + i * len, len) != 0;
    }
    text[n * len] = '\0';
    cJSON_SetValuestring(item, text);
    free(text);
    return 0;
}

/* A record kind over every phase: its op (or every op, for a kind without
 * one); the number of records it changed, or -1 with why[n]. */
static int rewrite_phases(cJSON *doc, const nan_mut_spec *s, char *why, size_t n)
{
    cJSON *ph;
    int seen = 0, changed = 0;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        cJSON *results = cJSON_GetObjectItemCaseSensitive(ph, "results"), *op;
        const char *mx = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ph, "mxcsr"));
        int daz = mx && (strtoul(mx, NULL, 16) & NAN_MXCSR_DAZ) != 0, rc = 0;
        if (s->op >= 0) {
            rc = rewrite(s, results, daz, s->op, s->from, &changed);
            seen += rc == 0;
        } else {
            cJSON_ArrayForEach(op, results) {
                int k = nan_op_find(op->string);
                if (k >= 0 && cJSON_IsString(op) &&
                    strlen(op->valuestring) == (size_t)nan_case_count(k) * (size_t)nan_rec_hex(k))
                    rc = rc < 0 ? rc : rewrite(s, results, daz, k, -1, &changed);
            }
            seen++;
        }
        if (rc < 0) {
            snprintf(why, n, "stdin: malformed records of %s", s->op >= 0 ? nan_ops[s->op].name : "an op");
            return -1;
        }
    }
    if (!seen)
        snprintf(why, n, "stdin: no phase has records of %s", s->op >= 0 ? nan_ops[s->op].name : "any op");
    return seen ? changed : -1;
}

static int write_out(const char *out)
{
    if (puts(out) < 0 || fflush(stdout) != 0) {
        bg_errorf("nan-mutate", "stdout: cannot write");
        return BG_EXIT_IO;
    }
    return BG_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return help();
    if (argc == 2 && argv[1][0] == '-')
        return bg_help_unknown_option(argv[1]);
    nan_mut_spec s;
    if (argc != 2 || nan_mut_parse(argv[1], &s) != 0) {
        bg_errorf("nan-mutate", "%s: not a known mutation of a known op, or one that cannot change that op "
                  "(see nan-mutate --help)", argc > 1 ? argv[1] : "KIND");
        return BG_EXIT_USAGE;
    }
    char *text, why[300] = "";
    size_t len;
    if (bg_file_read("/dev/stdin", "nan-mutate", &text, &len) != BG_OK)
        return BG_EXIT_IO;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    free(text);
    int facts_only = s.kind->doc == nan_mut_doc_fact_false; /* a facts document needs no phases */
    if (!doc || (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "phases")) && !facts_only)) {
        cJSON_Delete(doc);
        bg_errorf("nan-mutate", "stdin: not a nan-probe document (no phases array)");
        return BG_EXIT_PARSE;
    }
    int changed = s.kind->doc ? s.kind->doc(doc, &s, why, sizeof why) : rewrite_phases(doc, &s, why, sizeof why);
    char *after = changed >= 0 ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    if (changed < 0 || !after) {
        free(after);
        bg_errorf("nan-mutate", "%s: %s", argv[1], *why ? why : "out of memory");
        return *why ? BG_EXIT_PARSE : BG_EXIT_NOMEM;
    }
    if (changed == 0 && !s.kind->control) {
        free(after);
        bg_errorf("nan-mutate", "%s: changes nothing in this document (no record it applies to): refused, "
                  "a mutant that changes nothing proves nothing", argv[1]);
        return BG_EXIT_USAGE;
    }
    int rc = write_out(after);
    free(after);
    return rc;
}
