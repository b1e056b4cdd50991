#include "buildgate/bg_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *bg_status_name(bg_status st)
{
    switch (st) {
    case BG_OK: return "ok";
    case BG_E_USAGE: return "usage";
    case BG_E_IO: return "io";
    case BG_E_PARSE: return "parse";
    case BG_E_FIXTURE: return "fixture";
    case BG_E_UNSUPPORTED: return "unsupported";
    case BG_E_NOMEM: return "out of memory";
    case BG_E_EXISTS: return "exists";
    case BG_E_TARGET: return "target";
    }
    return "unknown";
}

int bg_exit_code(bg_status st)
{
    switch (st) {
    case BG_OK: return BG_EXIT_OK;
    case BG_E_USAGE: return BG_EXIT_USAGE;
    case BG_E_IO: return BG_EXIT_IO;
    case BG_E_PARSE: return BG_EXIT_PARSE;
    case BG_E_FIXTURE: return BG_EXIT_FIXTURE;
    case BG_E_UNSUPPORTED: return BG_EXIT_SKIP;
    case BG_E_NOMEM: return BG_EXIT_NOMEM;
    case BG_E_EXISTS: return BG_EXIT_EXISTS;
    case BG_E_TARGET: return BG_EXIT_TARGET;
    }
    return BG_EXIT_FAIL;
}

static _Thread_local char last_error[512];

const char *bg_last_error(void) { return last_error; }

static char tool_name[64];

void bg_error_set_tool(const char *name)
{
    const char *slash = name ? strrchr(name, '/') : NULL;
    snprintf(tool_name, sizeof tool_name, "%s", slash ? slash + 1 : name ? name : "");
}

const char *bg_error_tool(void) { return tool_name; }

static void verrorf(const char *what, const char *fmt, va_list ap)
{
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    size_t tl = strlen(tool_name);
    int named = tl && strncmp(what, tool_name, tl) == 0 && (what[tl] == '\0' || what[tl] == ':');
    if (tl && !named)
        fprintf(stderr, "buildgate: %s: %s: %s\n", tool_name, what, last_error);
    else
        fprintf(stderr, "buildgate: %s: %s\n", what, last_error);
    fflush(stderr);
}

void bg_errorf(const char *what, const char *why_fmt, ...)
{
    va_list ap;
    va_start(ap, why_fmt);
    verrorf(what, why_fmt, ap);
    va_end(ap);
}

bg_status bg_fail(bg_status st, const char *what, const char *why_fmt, ...)
{
    va_list ap;
    va_start(ap, why_fmt);
    verrorf(what, why_fmt, ap);
    va_end(ap);
    return st;
}
