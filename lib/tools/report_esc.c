/* report_esc.c — see report_esc.h. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include "report_esc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t bg_utf8_cut(const char *s, size_t max)
{
    size_t len = strlen(s);
    if (len <= max)
        return len;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    return max;
}

/* "…" when the first n bytes of s are not all of it. */
static void ellipsis(FILE *f, const char *s, size_t n)
{
    if (n < strlen(s))
        fputs("…", f);
}

void bg_md_text(FILE *f, const char *s, size_t max)
{
    if (!s) {
        fputs("?", f);
        return;
    }
    size_t n = bg_utf8_cut(s, max);
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '\n' || ch == '\r' || ch == '\t')
            fputc(' ', f);
        else if (ch == '<')
            fputs("&lt;", f);
        else if (ch == '>')
            fputs("&gt;", f);
        else if (ch == '&')
            fputs("&amp;", f);
        else if (strchr("\\`*_[]|#~", ch))
            fprintf(f, "\\%c", ch);
        else
            fputc(ch, f);
    }
    ellipsis(f, s, n);
}

/* The longest run of backticks in s[0..n). */
static int backtick_run(const char *s, size_t n)
{
    int run = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    return longest;
}

static void backticks(FILE *f, int k)
{
    while (k-- > 0)
        fputc('`', f);
}

void bg_md_code_block(FILE *f, const char *s, size_t max, const char *indent)
{
    if (!s)
        s = "?";
    size_t n = bg_utf8_cut(s, max);
    int fence = backtick_run(s, n) + 1;
    fence = fence < 3 ? 3 : fence;
    fputs(indent, f);
    backticks(f, fence);
    fprintf(f, "\n%s", indent);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n' && i + 1 < n)
            fprintf(f, "\n%s", indent);
        else if (s[i] != '\n' && s[i] != '\r')
            fputc(s[i], f);
    }
    ellipsis(f, s, n);
    fprintf(f, "\n%s", indent);
    backticks(f, fence);
}

void bg_md_code(FILE *f, const char *s, size_t max)
{
    if (!s)
        s = "?";
    size_t n = bg_utf8_cut(s, max);
    int longest = backtick_run(s, n);
    int pad = n == 0 || s[0] == '`' || s[n - 1] == '`' || s[0] == ' ' || s[n - 1] == ' ';
    backticks(f, longest + 1);
    if (pad)
        fputc(' ', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '|')
            fputs("\\|", f);
        else if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
            fputc(' ', f);
        else
            fputc(s[i], f);
    }
    ellipsis(f, s, n);
    if (pad)
        fputc(' ', f);
    backticks(f, longest + 1);
}

void bg_mermaid_str(FILE *f, const char *s, size_t max)
{
    size_t n = bg_utf8_cut(s ? s : "?", max);
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        fputc(ch == '"' ? '\'' : ch == '\n' || ch == '\r' ? ' ' : ch, f);
    }
    ellipsis(f, s, n);
}

void bg_html_text(FILE *f, const char *s, size_t max)
{
    if (!s)
        s = "?";
    size_t n = bg_utf8_cut(s, max);
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(s[i], f);
        }
    }
    ellipsis(f, s, n);
}

void bg_html_text_wbr(FILE *f, const char *s, size_t max)
{
    if (!s)
        s = "?";
    size_t n = bg_utf8_cut(s, max);
    char one[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        one[0] = s[i];
        bg_html_text(f, one, 1);
        int digits = i > 0 && i + 1 < n && isdigit((unsigned char)s[i - 1]) &&
                     isdigit((unsigned char)s[i + 1]); /* 1.0M, 0/201k: one number */
        if (strchr("._/+,", s[i]) && i + 1 < n && !digits)
            fputs("<wbr>", f);
    }
    ellipsis(f, s, n);
}

void bg_html_code_spans(FILE *f, const char *s)
{
    int in_code = 0;
    char one[2] = {0, 0};
    for (; s && *s; s++) {
        if (*s == '`') {
            fputs(in_code ? "</code>" : "<code>", f);
            in_code = !in_code;
            continue;
        }
        one[0] = *s;
        bg_html_text(f, one, 1);
    }
    if (in_code)
        fputs("</code>", f);
}

char *bg_json_line(const cJSON *v)
{
    if (cJSON_IsString(v))
        return strdup(v->valuestring);
    if (!v)
        return strdup("null");
    return cJSON_PrintUnformatted(v);
}

FILE *bg_report_create(const char *path, char *tmp, size_t n)
{
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        bg_errorf("bg-report", "cannot create %s: %s", tmp, strerror(errno));
    return f;
}

bg_status bg_report_commit(FILE *f, const char *tmp, const char *path)
{
    int ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return bg_fail(BG_E_IO, "bg-report", "cannot write %s: %s", path, strerror(e));
    }
    return BG_OK;
}
