#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_json.h"
#include "buildgate/bg_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

cJSON *bg_json_parse_buf(const char *buf, long *err_at)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(buf, &end, 1);
    if (!doc) {
        long at = end ? (long)(end - buf) : -1;
        const char *ep = cJSON_GetErrorPtr();
        if (at < 0 && ep)
            at = (long)(ep - buf);
        *err_at = at;
    }
    return doc;
}

bg_status bg_json_parse_error(const char *path, const char *what, long at, size_t len)
{
    return bg_fail(BG_E_PARSE, what, "%s is not valid JSON (near byte %ld of %zu)", path, at, len);
}

bg_status bg_json_load(const char *path, const char *what, cJSON **out)
{
    *out = NULL;
    char *buf;
    size_t len;
    bg_status st = bg_file_read(path, what, &buf, &len);
    if (st != BG_OK)
        return st;
    long at = -1;
    cJSON *doc = bg_json_parse_buf(buf, &at);
    free(buf);
    if (!doc)
        return bg_json_parse_error(path, what, at, len);
    *out = doc;
    return BG_OK;
}

bg_status bg_json_write_atomic(const char *path, const cJSON *doc)
{
    char *text = cJSON_Print(doc);
    if (!text)
        return bg_fail(BG_E_NOMEM, "json", "cannot render %s", path);
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) {
        free(text);
        return bg_fail(BG_E_NOMEM, "json", "cannot write %s", path);
    }
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    bg_status st = BG_OK;
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        st = bg_fail(BG_E_IO, "json", "cannot create %s: %s", tmp, strerror(errno));
    } else {
        int ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
        ok = (fclose(f) == 0) && ok;
        if (!ok || rename(tmp, path) != 0) {
            st = bg_fail(BG_E_IO, "json", "cannot write %s: %s", path, strerror(errno));
            remove(tmp);
        }
    }
    free(tmp);
    free(text);
    return st;
}

/* Length of the well-formed UTF-8 sequence at s (1-4), 0 when s starts none. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!n)
        return 0;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range (RFC 3629 Table 3-7) */
    if (c == 0xE0) lo = 0xA0;
    else if (c == 0xED) hi = 0x9F;
    else if (c == 0xF0) lo = 0x90;
    else if (c == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

static size_t utf8_repair_str(char *s)
{
    size_t bad = 0;
    for (unsigned char *p = (unsigned char *)s; p && *p;) {
        size_t n = utf8_len(p);
        if (n) {
            p += n;
        } else {
            *p++ = '?';
            bad++;
        }
    }
    return bad;
}

size_t bg_json_utf8_repair(cJSON *item)
{
    size_t bad = 0;
    for (; item; item = item->next) {
        bad += utf8_repair_str(item->string);
        if (cJSON_IsString(item))
            bad += utf8_repair_str(item->valuestring);
        bad += bg_json_utf8_repair(item->child);
    }
    return bad;
}

const char *bg_json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

double bg_json_num(const cJSON *obj, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

int bg_json_u64(const cJSON *obj, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v))
        return 0;
    double d = v->valuedouble;
    if (!(d >= 0 && d <= 9007199254740992.0) || d != floor(d))
        return 0;
    *out = (uint64_t)d;
    return 1;
}

void bg_utc_now(char buf[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void bg_json_explain_invalid(const char *text, size_t len, char *buf, size_t n)
{
    if (len == 0) {
        snprintf(buf, n, "output is empty (0 bytes)");
        return;
    }
    size_t first = 0;
    while (first < len && text[first] != '\n')
        first++;
    char quoted[84];
    size_t q = first < 80 ? first : 80;
    for (size_t i = 0; i < q; i++) {
        unsigned char ch = (unsigned char)text[i];
        quoted[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    snprintf(quoted + q, sizeof quoted - q, "%s", first > 80 ? "..." : "");
    /* a line that starts a JSON document and parses to its end: the stray text before it */
    size_t line = 1, start = 0, tries = 0;
    for (size_t i = 0; i < len && tries < 8; i++) { /* 8 parses at most: output may be huge */
        if (text[i] != '\n')
            continue;
        line++;
        start = i + 1;
        if (start < len && (text[start] == '{' || text[start] == '[')) {
            tries++;
            cJSON *doc = cJSON_ParseWithLength(text + start, len - start);
            int ok = doc != NULL;
            cJSON_Delete(doc);
            if (ok) {
                snprintf(buf, n,
                         "output is not JSON (%zu bytes): %zu bytes before the JSON document, which "
                         "starts on line %zu; first line: '%s' (%zu bytes)",
                         len, start, line, quoted, first);
                return;
            }
        }
    }
    snprintf(buf, n, "output is not JSON (%zu bytes); first line: '%s' (%zu bytes)", len, quoted, first);
}

const char *bg_nearest_word(const char *word, const char *const *known)
{
    size_t lw = strlen(word), best_d = 3;
    const char *best = NULL;
    if (lw > 62)
        return NULL;
    for (const char *const *k = known; *k; k++) {
        size_t lk = strlen(*k), row[64];
        if (lk > 62 || (lk > lw ? lk - lw : lw - lk) >= best_d)
            continue;
        for (size_t j = 0; j <= lk; j++)
            row[j] = j;
        for (size_t i = 1; i <= lw; i++) { /* one row of the edit-distance table at a time */
            size_t diag = row[0];
            row[0] = i;
            for (size_t j = 1; j <= lk; j++) {
                size_t up = row[j], d = diag + (word[i - 1] != (*k)[j - 1]);
                if (up + 1 < d)
                    d = up + 1;
                if (row[j - 1] + 1 < d)
                    d = row[j - 1] + 1;
                diag = up;
                row[j] = d;
            }
        }
        if (row[lk] < best_d && 2 * row[lk] <= lw) {
            best_d = row[lk];
            best = *k;
        }
    }
    return best;
}

bg_status bg_json_known_keys(const cJSON *obj, const char *const *known, const char *file,
                             const char *where)
{
    const cJSON *e;
    if (!cJSON_IsObject(obj))
        return BG_OK;
    cJSON_ArrayForEach(e, obj) {
        const char *const *k = known;
        while (*k && strcmp(*k, e->string))
            k++;
        if (*k)
            continue;
        const char *near = bg_nearest_word(e->string, known);
        return bg_fail(BG_E_PARSE, file, "unknown key '%s' in %s%s%s%s", e->string, where,
                       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    return BG_OK;
}
