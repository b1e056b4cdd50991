/* bg_help.h — `-h` / `--help` on buildgate's command-line tools.
 *
 * Every user-facing CLI keeps one usage text (synopsis, each option with its
 * unit, the exit codes, the doc it comes from) and prints it on stdout, exit
 * 0, when asked, before validating anything else:
 *     if (bg_help_requested(argc, argv))
 *         return bg_help_print(usage_text);
 * A bad command line stays one line on stderr (bg_error.h) ending in
 * "(see <tool> --help)".  libc only, so a guest program may compile it too.
 */
#ifndef BG_HELP_H
#define BG_HELP_H

/* 1 when "-h" or "--help" is one of argv[1..argc-1] before the first "--"
 * argument (what follows "--" is a child command's, never inspected), else 0.
 * Also names the tool for its error lines from argv[0] (bg_error_set_tool). */
int bg_help_requested(int argc, char **argv);

/* Writes usage_text to stdout.  Returns the exit code: 0 (BG_EXIT_OK), or
 * 3 (BG_EXIT_IO, with one line on stderr) when stdout cannot be written. */
int bg_help_print(const char *usage_text);

/* 1 when a is one of names (NULL-terminated), else 0: a tool that reads
 * "--opt VALUE" pairs asks this before saying a value is missing, so an
 * unknown option is called unknown. */
int bg_option_in(const char *a, const char *const *names);

/* Prints "buildgate: <tool>: unknown option '<a>' (see <tool> --help)" (the
 * tool as bg_help_requested / bg_error_set_tool named it) and returns 2
 * (BG_EXIT_USAGE). */
int bg_help_unknown_option(const char *a);

/* The other usage errors of one option, in the one form every CLI uses:
 *   "buildgate: <tool>: <opt>: missing value (see <tool> --help)"
 *   "buildgate: <tool>: <opt>: <why> (see <tool> --help)"
 * e.g. bg_help_bad_value("--rounds", "'%s' is not a whole number in 1..%d",
 * v, max), bg_help_bad_value("--suite", "must not be empty").  Both return 2
 * (BG_EXIT_USAGE). */
int bg_help_missing_value(const char *opt);
int bg_help_bad_value(const char *opt, const char *why_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
