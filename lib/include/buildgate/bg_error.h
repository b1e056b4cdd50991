/* bg_error.h — status codes and the one-line error convention.
 *
 * Every buildgate function that can fail returns a bg_status: 0 (BG_OK) or a
 * negative code below.  CLIs turn a failure into exactly one line on stderr,
 *     buildgate: <what>: <why>
 * and exit with the matching bg_exit_code(), so a caller can tell a bad
 * argument from a bad fixture from a failing check without parsing text.
 */
#ifndef BG_ERROR_H
#define BG_ERROR_H

typedef enum bg_status {
    BG_OK = 0,
    BG_E_USAGE = -1,       /* bad command line or argument value */
    BG_E_IO = -2,          /* file cannot be read or written */
    BG_E_PARSE = -3,       /* malformed JSON or data */
    BG_E_FIXTURE = -4,     /* fixture missing, corrupt, or for another target version */
    BG_E_UNSUPPORTED = -5, /* the host cannot run this configuration (becomes a skip) */
    BG_E_NOMEM = -6,       /* allocation failed */
    BG_E_EXISTS = -7,      /* would overwrite stored data without --replace */
    BG_E_TARGET = -8       /* the code under test failed (e.g. randomx_alloc_* returned NULL) */
} bg_status;

/* Process exit codes (stable interface; documented in README.md).
 * 0 pass, 1 a check failed, 77 skipped (CTest SKIP_RETURN_CODE), and one code
 * per error class so scripts can branch on them. */
enum {
    BG_EXIT_OK = 0,
    BG_EXIT_FAIL = 1,
    BG_EXIT_USAGE = 2,
    BG_EXIT_IO = 3,
    BG_EXIT_PARSE = 4,
    BG_EXIT_FIXTURE = 5,
    BG_EXIT_EXISTS = 6,
    BG_EXIT_TARGET = 7,
    BG_EXIT_NOMEM = 8,
    BG_EXIT_SKIP = 77
};

/* Short English name of a status ("usage", "io", ...). Never NULL. */
const char *bg_status_name(bg_status st);

/* Exit code for a status (BG_OK -> 0, BG_E_UNSUPPORTED -> 77, ...). */
int bg_exit_code(bg_status st);

/* Names the tool whose error lines follow (a path is cut to its last
 * component; NULL or "" clears it).  Set once per process: bg_help_requested()
 * does it from argv[0], tools without bg_help call it themselves.  Then a
 * library module's line names the tool first:
 *     buildgate: bg-perf: json: cannot write out.json: ...
 * (a <what> equal to the tool name is not repeated). */
void bg_error_set_tool(const char *name);

/* The name bg_error_set_tool() stored ("" when none). */
const char *bg_error_tool(void);

/* Prints "buildgate: [<tool>: ]<what>: <why...>\n" to stderr (printf-style
 * why; <tool> as bg_error_set_tool() set it, when it differs from <what>). */
void bg_errorf(const char *what, const char *why_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* bg_errorf() then returns st: `return bg_fail(BG_E_USAGE, "bg-chain", "...")`. */
bg_status bg_fail(bg_status st, const char *what, const char *why_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The <why> text of the last bg_errorf()/bg_fail() of this thread ("" if none),
 * so a test can put the reason of a skip or failure into its check. */
const char *bg_last_error(void);

#endif
