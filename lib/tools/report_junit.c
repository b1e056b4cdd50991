/* report_junit.c — see report_junit.h. */
#define _POSIX_C_SOURCE 200809L
#include "report_junit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_file.h"
#include "buildgate/bg_json.h"
#include "report_esc.h"

#define EMPTY_FAILURE "<failure message=\"\""
#define EMPTY_SUITE "<testsuite name=\"(empty)\""
#define NAMELESS_SUITE "<testsuite name=\"\""
#define MESSAGE_MAX 1000

/* The message for test (its name: len bytes at name) into out[n]. */
static void failure_message(const cJSON *checks, const char *name, size_t len, char *out, size_t n)
{
    const cJSON *c, *first = NULL;
    int more = 0;
    cJSON_ArrayForEach(c, checks) {
        const char *t = bg_json_str(c, "test"), *v = bg_json_str(c, "verdict");
        if (!t || strlen(t) != len || strncmp(t, name, len) != 0 || !v ||
            (strcmp(v, "fail") != 0 && strcmp(v, "xpass") != 0))
            continue;
        if (!first)
            first = c;
        else
            more++;
    }
    if (!first) {
        snprintf(out, n, "exit status not 0, no failing check recorded: see the test's output");
        return;
    }
    char *e = bg_json_line(cJSON_GetObjectItemCaseSensitive(first, "expected"));
    char *o = bg_json_line(cJSON_GetObjectItemCaseSensitive(first, "observed"));
    char tail[64] = "";
    if (more)
        snprintf(tail, sizeof tail, " (+%d more failing checks)", more);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(first, "details");
    const char *next = bg_json_str(d, "action") ? bg_json_str(d, "action") : bg_json_str(d, "fix");
    snprintf(out, n, "%s %s: expected %s, observed %s%s%s%s", bg_json_str(first, "verdict"),
             bg_json_str(first, "name") ? bg_json_str(first, "name") : "?", e ? e : "null",
             o ? o : "null", next ? ". Next: " : "", next ? next : "", tail);
    free(e);
    free(o);
}

bg_status bg_report_junit_messages(const char *path, const cJSON *checks, const char *suite_name)
{
    struct stat sb;
    if (stat(path, &sb) != 0 && errno == ENOENT)
        return BG_OK; /* ctest wrote none (no test ran): nothing to fill */
    char *xml;
    size_t len;
    bg_status st = bg_file_read(path, "bg-report: JUnit file", &xml, &len);
    if (st)
        return st;
    const char *suite = strstr(xml, EMPTY_SUITE);
    size_t suite_len = suite ? strlen(EMPTY_SUITE) : strlen(NAMELESS_SUITE);
    if (!suite)
        suite = strstr(xml, NAMELESS_SUITE);
    if (!strstr(xml, EMPTY_FAILURE) && !suite) {
        free(xml);
        return BG_OK;
    }
    char tmp[4200];
    FILE *f = bg_report_create(path, tmp, sizeof tmp);
    if (!f) {
        free(xml);
        return BG_E_IO;
    }
    const char *p = xml, *name = NULL;
    size_t name_len = 0;
    if (suite) { /* the one <testsuite>, before any <testcase> */
        fwrite(p, 1, (size_t)(suite - p), f);
        fputs("<testsuite name=\"", f);
        bg_html_text(f, suite_name, MESSAGE_MAX);
        fputc('"', f);
        p = suite + suite_len;
    }
    for (;;) {
        const char *tc = strstr(p, "<testcase name=\"");
        const char *fl = strstr(p, EMPTY_FAILURE);
        if (!fl)
            break;
        if (tc && tc < fl) { /* the testcase the next failure belongs to */
            name = tc + strlen("<testcase name=\"");
            name_len = strcspn(name, "\"");
            fwrite(p, 1, (size_t)(name - p), f);
            p = name;
            continue;
        }
        fwrite(p, 1, (size_t)(fl - p), f);
        char msg[2400];
        if (name)
            failure_message(checks, name, name_len, msg, sizeof msg);
        else
            snprintf(msg, sizeof msg, "exit status not 0: see the test's output");
        fputs("<failure message=\"", f);
        bg_html_text(f, msg, MESSAGE_MAX);
        fputc('"', f);
        p = fl + strlen(EMPTY_FAILURE);
    }
    fputs(p, f);
    free(xml);
    return bg_report_commit(f, tmp, path);
}
