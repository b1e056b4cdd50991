#include "buildgate/bg_help.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_error.h"

int bg_help_requested(int argc, char **argv)
{
    if (argc > 0 && argv[0])
        bg_error_set_tool(argv[0]);
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

int bg_option_in(const char *a, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(a, *names) == 0)
            return 1;
    return 0;
}

int bg_help_unknown_option(const char *a)
{
    const char *tool = bg_error_tool();
    bg_errorf(*tool ? tool : "buildgate", "unknown option '%s' (see %s --help)", a,
              *tool ? tool : "the tool's");
    return BG_EXIT_USAGE;
}

/* The tool's name for "(see <tool> --help)". */
static const char *help_tool(void)
{
    const char *tool = bg_error_tool();
    return *tool ? tool : "the tool's";
}

int bg_help_missing_value(const char *opt)
{
    bg_errorf(opt, "missing value (see %s --help)", help_tool());
    return BG_EXIT_USAGE;
}

int bg_help_bad_value(const char *opt, const char *why_fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, why_fmt);
    vsnprintf(why, sizeof why, why_fmt, ap);
    va_end(ap);
    bg_errorf(opt, "%s (see %s --help)", why, help_tool());
    return BG_EXIT_USAGE;
}

int bg_help_print(const char *usage_text)
{
    if (fputs(usage_text, stdout) < 0 || fflush(stdout) != 0) {
        bg_errorf("--help", "cannot write the usage text to stdout");
        return BG_EXIT_IO;
    }
    return BG_EXIT_OK;
}
