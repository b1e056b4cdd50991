/* jit_capture_file.c — see jit_capture_file.h. */
#include "jit_capture_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_json.h"

static bg_status read_all(const char *path, uint8_t **out, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return bg_fail(BG_E_IO, "bg-jit-compare", "%s: cannot open", path);
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    uint8_t *buf = size >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)size + 1) : NULL;
    size_t got = buf ? fread(buf, 1, (size_t)size, f) : 0;
    fclose(f);
    if (size < 0 || !buf || got != (size_t)size) {
        free(buf);
        return bg_fail(size < 0 || buf ? BG_E_IO : BG_E_NOMEM, "bg-jit-compare", "%s: cannot read%s",
                       path, size >= 0 && !buf ? " (out of memory)" : "");
    }
    *out = buf;
    *n = (size_t)size;
    return BG_OK;
}

bg_status jit_capture_load(const char *dir, jit_capture_file *out)
{
    memset(out, 0, sizeof *out);
    char path[4096];
    snprintf(path, sizeof path, "%s/jit-capture.json", dir);
    cJSON *doc;
    bg_status st = bg_json_load(path, "JIT capture", &doc);
    if (st)
        return st;
    const cJSON *regs = cJSON_GetObjectItemCaseSensitive(doc, "regions");
    size_t at = 0;
    st = cJSON_IsArray(regs) ? BG_OK : BG_E_PARSE;
    const cJSON *r;
    cJSON_ArrayForEach(r, regs) {
        const char *role = bg_json_str(r, "role");
        double off = bg_json_num(r, "offset", -1), size = bg_json_num(r, "size", -1);
        if (st || !role || out->nregions >= JIT_CAPTURE_MAX_REGIONS || off != (double)at || size <= 0) {
            st = BG_E_PARSE;
            break;
        }
        jit_capture_region *x = &out->r[out->nregions++];
        snprintf(x->role, sizeof x->role, "%s", role);
        x->program = (int)bg_json_num(r, "program", -1);
        x->offset = at;
        x->size = (size_t)size;
        at += x->size;
    }
    cJSON_Delete(doc);
    if (!st && out->nregions == 0)
        st = BG_E_PARSE;
    if (st)
        return bg_fail(BG_E_PARSE, "bg-jit-compare",
                       "%s: regions must be [{role, offset, size}] tiling the .bin in order", path);
    snprintf(path, sizeof path, "%s/jit-capture.bin", dir);
    st = read_all(path, &out->data, &out->bytes);
    if (st)
        return st;
    if (out->bytes != at) {
        size_t have = out->bytes;
        jit_capture_free(out);
        return bg_fail(BG_E_PARSE, "bg-jit-compare", "%s: %zu bytes, its .json lists %zu", path,
                       have, at);
    }
    return BG_OK;
}

void jit_capture_free(jit_capture_file *f)
{
    free(f->data);
    f->data = NULL;
    f->bytes = 0;
    f->nregions = 0;
}

static void set_at(const jit_capture_file *a, int i, size_t in, jit_capture_diff *d)
{
    d->region = i;
    d->in_region = in;
    d->offset = (long)(a->r[i < a->nregions ? i : a->nregions - 1].offset + in);
    if (i < a->nregions) {
        if (a->r[i].program >= 0)
            snprintf(d->role_buf, sizeof d->role_buf, "%s %d", a->r[i].role, a->r[i].program);
        else
            snprintf(d->role_buf, sizeof d->role_buf, "%s", a->r[i].role);
    } else {
        snprintf(d->role_buf, sizeof d->role_buf, "(extra region)");
    }
    d->role = d->role_buf;
}

void jit_capture_compare(const jit_capture_file *a, const jit_capture_file *b, size_t from,
                         jit_capture_diff *d)
{
    memset(d, 0, sizeof *d);
    d->offset = -1;
    d->region = -1;
    d->role = "";
    int n = a->nregions > b->nregions ? a->nregions : b->nregions;
    for (int i = 0; i < n; i++)
        if (i >= a->nregions || i >= b->nregions || a->r[i].size != b->r[i].size ||
            a->r[i].program != b->r[i].program || strcmp(a->r[i].role, b->r[i].role)) {
            set_at(a, i < a->nregions ? i : a->nregions, 0, d);
            if (i >= a->nregions)
                d->offset = (long)a->bytes;
            d->layout_differs = 1;
            return;
        }
    /* same layout: same offsets on both sides */
    for (int i = 0; i < a->nregions; i++) {
        const jit_capture_region *r = &a->r[i];
        if (r->offset + r->size <= from)
            continue;
        for (size_t j = from > r->offset ? from - r->offset : 0; j < r->size; j++)
            if (a->data[r->offset + j] != b->data[r->offset + j]) {
                set_at(a, i, j, d);
                return;
            }
    }
}
