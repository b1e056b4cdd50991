/* nan_propose.c — see nan_propose.h. */
#include "nan_propose.h"

#include <stdio.h>
#include <string.h>

#include "buildgate/bg_proposed.h"

/* detail as an fnmatch(3) pattern matching exactly itself ("-" when empty) */
static void literal_pattern(const char *detail, char *out, size_t n)
{
    size_t k = 0;
    if (!*detail)
        detail = "-";
    for (; *detail && k + 2 < n; detail++) {
        if (strchr("*?[\\", *detail))
            out[k++] = '\\';
        out[k++] = *detail == '\t' ? ' ' : *detail;
    }
    out[k] = '\0';
}

bg_status nan_propose(const nan_run_info *ri, const nan_group *g, const char *ops, char *path,
                      unsigned n, char *line, unsigned line_n)
{
    *path = '\0';
    *line = '\0';
    if (strcmp(g->rule, "probe-failed") == 0)
        return BG_OK;
    char range[64], detail[200], extra[400], ref[700], observed[40];
    bg_proposed_range(ri->version, range, sizeof range);
    bg_proposed_observed(ri->version, observed, sizeof observed);
    literal_pattern(g->detail, detail, sizeof detail);
    snprintf(extra, sizeof extra, "%ld case%s; test %s", g->count, g->count == 1 ? "" : "s", ri->test);
    bg_proposed_reference(ri->version, extra, ref, sizeof ref);
    /* a group only the modes outside the base set showed is proposed for
       the all-modes run alone, so the base run does not call it stale */
    const char *ctx = ri->known_context && !g->base ? ri->known_context : ri->context;
    /* the 8th column: the version measured (nan_known.h), when one can be read */
    snprintf(line, line_n, "%s\t%s\t%s\t%s\t%s\t%s\t%s%s%s", ri->known_list, range, ctx, ops,
             g->rule, detail, ref, *observed ? "\t" : "", observed);
    return bg_proposed_append("nan_semantics", ri->known_list, line, path, n);
}
