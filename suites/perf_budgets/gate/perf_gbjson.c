/* perf_gbjson.c — see perf_gbjson.h. */
#include "perf_gbjson.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_file.h"
#include "buildgate/bg_json.h"

#define WHAT "benchmark results"
#define MARK '\001'

static const char *const tokens[] = {"-Infinity", "Infinity", "-NaN", "NaN"};

/* The token (index into tokens) that starts at in[i], or -1. */
static int token_at(const char *in, size_t len, size_t i)
{
    for (int t = 0; t < 4; t++) {
        size_t k = strlen(tokens[t]);
        if (i + k > len || memcmp(in + i, tokens[t], k) != 0)
            continue;
        char next = i + k < len ? in[i + k] : ' ';
        if (next == ' ' || next == '\t' || next == '\n' || next == '\r' || next == ',' ||
            next == '}' || next == ']')
            return t;
    }
    return -1;
}

/* Copies in[0..len) to out (when not NULL), each token in a value position
 * outside strings rewritten as "\u0001<token>".  Stops when the output
 * reaches stop bytes; returns the input bytes consumed (for mapping an error
 * offset back), *out_len the bytes written. */
static size_t rewrite(const char *in, size_t len, char *out, size_t stop, size_t *out_len)
{
    size_t i = 0, o = 0;
    int in_str = 0, esc = 0;
    char prev = 0; /* the last character outside strings that is not white space */
    while (i < len && o < stop) {
        char c = in[i];
        int t = -1;
        if (!in_str && (prev == ':' || prev == ',' || prev == '['))
            t = token_at(in, len, i);
        if (t >= 0) {
            static const char pre[] = "\"\\u0001";
            size_t k = strlen(tokens[t]);
            if (out) {
                memcpy(out + o, pre, sizeof pre - 1);
                memcpy(out + o + sizeof pre - 1, tokens[t], k);
                out[o + sizeof pre - 1 + k] = '"';
            }
            o += sizeof pre - 1 + k + 1;
            i += k;
            prev = '"';
            continue;
        }
        if (in_str) {
            if (esc)
                esc = 0;
            else if (c == '\\')
                esc = 1;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
            prev = '"';
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            prev = c;
        }
        if (out)
            out[o] = c;
        o++;
        i++;
    }
    *out_len = o;
    return i;
}

/* Turns the marked strings of the tree back into non-finite numbers. */
static bg_status restore(cJSON *node)
{
    cJSON *it = node ? node->child : NULL;
    while (it) {
        cJSON *next = it->next;
        int t = cJSON_IsString(it) && it->valuestring[0] == MARK ? 0 : 4;
        while (t < 4 && strcmp(it->valuestring + 1, tokens[t]) != 0)
            t++;
        if (t < 4) {
            double v = strstr(tokens[t], "NaN") ? NAN : INFINITY;
            cJSON *num = cJSON_CreateNumber(tokens[t][0] == '-' ? -v : v);
            if (!num)
                return BG_E_NOMEM;
            num->string = it->string; /* the member's key moves to the number */
            it->string = NULL;
            cJSON_ReplaceItemViaPointer(node, it, num);
        } else if (restore(it) != BG_OK) {
            return BG_E_NOMEM;
        }
        it = next;
    }
    return BG_OK;
}

bg_status perf_gbjson_load(const char *path, cJSON **out)
{
    *out = NULL;
    char *in;
    size_t len, n;
    bg_status st = bg_file_read(path, WHAT, &in, &len);
    if (st != BG_OK)
        return st;
    rewrite(in, len, NULL, (size_t)-1, &n);
    char *text = malloc(n + 1);
    if (!text) {
        free(in);
        return bg_fail(BG_E_NOMEM, WHAT, "%s: out of memory", path);
    }
    rewrite(in, len, text, n, &n);
    text[n] = 0;
    long at = -1;
    cJSON *doc = bg_json_parse_buf(text, &at);
    free(text);
    if (!doc) {
        if (at >= 0) /* the offset in the file as it is */
            at = (long)rewrite(in, len, NULL, (size_t)at, &n);
        free(in);
        return bg_json_parse_error(path, WHAT, at, len);
    }
    free(in);
    if (restore(doc) != BG_OK) {
        cJSON_Delete(doc);
        return bg_fail(BG_E_NOMEM, WHAT, "%s: out of memory", path);
    }
    *out = doc;
    return BG_OK;
}
