/* nan_family.c — see nan_family.h. */
#include "nan_family.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nan_cases.h"

static const char *shape(nan_kind k)
{
    switch (k) {
    case K_BIN_S32: case K_UN_S32: case K_CVT2I_32: return "ss";
    case K_BIN_S64: case K_UN_S64: case K_CVT2I_64: return "sd";
    case K_BIN_P64: case K_UN_P64: case K_FMA_P64: return "pd";
    case K_I2F_32: case K_I2F_64: return "si";
    case K_X87_BIN: case K_X87_UN: case K_X87_LD32: case K_X87_LD64: case K_X87_CONST: case K_X87_ILD:
        return "x87"; /* x87_ops.def */
    case K_BIN_P32Y: case K_UN_P32Y: case K_FMA_P32Y: case K_I2F_P32Y: case K_UN_P32X: case K_DP32Y: case K_HADDY:
        return "ps256";
    case K_BIN_P64Y: case K_UN_P64Y: case K_FMA_P64Y: case K_CVTI_P64Y: case K_HADD64Y: return "pd256";
    case K_H2F: return "ph2ps";
    case K_H2FY: return "ph2ps256";
    case K_F2H: return "ps2ph";
    case K_F2HY: return "ps2ph256";
    default: return "ps";
    }
}

void nan_family_of(int k, char *buf, size_t n)
{
    *buf = '\0';
    if (k < 0 || k >= nan_op_count)
        return;
    const char *cls = nan_class_name(nan_op_class(k)), *name = nan_ops[k].name;
    if (*cls) {
        snprintf(buf, n, "%s-%s", cls, shape(nan_ops[k].kind));
        return;
    }
    /* C_NONE (x87_ops.def rows until they carry the props column): the
     * family is named after the op's mnemonic, fadd_pc53 -> fadd-x87 */
    size_t len = 0;
    while (isalpha((unsigned char)name[len]))
        len++;
    snprintf(buf, n, "%.*s-%s", (int)len, name, shape(nan_ops[k].kind));
}

int nan_family_known(const char *name)
{
    char f[64];
    for (int k = 0; k < nan_op_count; k++) {
        nan_family_of(k, f, sizeof f);
        if (strcmp(f, name) == 0)
            return 1;
    }
    return 0;
}

int nan_family_has(const char *family, const char *op)
{
    char f[64];
    int k = nan_op_find(op);
    if (k < 0)
        return 0;
    nan_family_of(k, f, sizeof f);
    return strcmp(f, family) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int present(const char *const *items, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(items[i], name) == 0)
            return 1;
    return 0;
}

int nan_family_compress(const char *const *items, int n_items, char *out, size_t n)
{
    /* at most every item plus one name per family */
    const char **keep = calloc((size_t)n_items + (size_t)nan_op_count + 1, sizeof *keep);
    char (*fams)[64] = calloc((size_t)nan_op_count + 1, sizeof *fams);
    int nk = 0, nf = 0, rc = 0;
    *out = '\0';
    if (!keep || !fams) {
        free(keep);
        free(fams);
        return -1;
    }
    /* complete families first */
    for (int k = 0; k < nan_op_count; k++) {
        char f[64];
        nan_family_of(k, f, sizeof f);
        int done = 0, complete = 1;
        for (int j = 0; j < nf && !done; j++)
            done = strcmp(fams[j], f) == 0;
        if (done)
            continue;
        for (int j = 0; j < nan_op_count && complete; j++) {
            char g[64];
            nan_family_of(j, g, sizeof g);
            if (strcmp(g, f) == 0 && !present(items, n_items, nan_ops[j].name))
                complete = 0;
        }
        if (complete) {
            snprintf(fams[nf], sizeof fams[nf], "%s", f);
            keep[nk++] = fams[nf++];
        }
    }
    for (int i = 0; i < n_items; i++) {
        int k = nan_op_find(items[i]), covered = 0;
        char f[64];
        nan_family_of(k, f, sizeof f);
        for (int j = 0; k >= 0 && j < nf && !covered; j++)
            covered = strcmp(fams[j], f) == 0;
        if (!covered && !present(keep, nk, items[i]))
            keep[nk++] = items[i];
    }
    qsort(keep, (size_t)nk, sizeof *keep, cmp_str);
    size_t len = 0;
    for (int i = 0; i < nk; i++) {
        int w = snprintf(out + len, n - len, "%s%s", i ? "," : "", keep[i]);
        if (w < 0 || (size_t)w >= n - len) {
            rc = -1;
            break;
        }
        len += (size_t)w;
    }
    free(keep);
    free(fams);
    return rc;
}
