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
