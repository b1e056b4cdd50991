/* bg-runner — the runner registry on the command line (bg_runner.h): the
 * list CMake creates runner tests from, and one runner's resolution.
 * Usage, output, exit codes: usage_text below (`bg-runner --help`).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_runner.h"

static const char usage_text[] =
    "Usage: bg-runner --list\n"
    "       bg-runner --resolve NAME [--guest x86_64|arm64]\n"
    "\n"
    "The runner registry (lib/include/buildgate/bg_runners.def plus the user\n"
    "runners of BG_X86_RUNNERS; docs/architecture.md \"Runner registry\").\n"
    "  --list            one line per runner, tab-separated: name, guest\n"
    "                    (x86_64, arm64, host), ok|unavailable|refused on this\n"
    "                    host (refused: its version line holds no version\n"
    "                    number), traits (\"-\" for none), known-deviation file,\n"
    "                    and the version (ok) or the reason; '#' starts a\n"
    "                    comment line.  CMake reads it at configure time\n"
    "                    (cmake/BuildgateRunners.cmake).\n"
    "  --resolve NAME    the command prefix, added environment, version,\n"
    "                    known-deviation file and traits of one runner\n"
    "  --guest ARCH      the programs' architecture (default: the runner's own)\n"
    "  -h, --help        this text\n"
    "Environment: BG_X86_RUNNERS (user runners), BG_RUNNER_DIR (the {dir} of\n"
    "registry paths).\n"
    "Exit: 0; 77 the runner is unavailable here (reason on stderr); 2 usage, an\n"
    "      unknown runner or a malformed/duplicate BG_X86_RUNNERS entry; 4 its\n"
    "      version command's first line holds no version number (quoted).\n"
    "Doc: docs/architecture.md.\n";

static int list(void)
{
    const bg_runner_row *rows = NULL;
    size_t count = 0;
    char why[512];
    bg_status st = bg_runner_rows(&rows, &count, why, sizeof why);
    if (st != BG_OK)
        return bg_exit_code(bg_fail(st, "bg-runner", "%s", why));
    printf("# name\tguest\tstatus\ttraits\tknown\tversion-or-reason\n");
    for (size_t i = 0; i < count; i++) {
        bg_runner r;
        st = bg_runner_resolve(rows[i].name, NULL, &r, why, sizeof why);
        for (char *p = why; *p; p++)
            if (*p == '\t' || *p == '\n' || *p == ';')
                *p = ' ';
        printf("%s\t%s\t%s\t%s\t%s\t%s\n", rows[i].name, rows[i].guest,
               st == BG_OK ? "ok" : st == BG_E_PARSE ? "refused" : "unavailable",
               *rows[i].traits ? rows[i].traits : "-",
               r.known, st == BG_OK ? r.version : why);
        if (st == BG_OK)
            bg_runner_free(&r);
    }
    return fflush(stdout) == 0 ? BG_EXIT_OK : BG_EXIT_IO;
}

static int resolve(const char *name, const char *guest)
{
    bg_runner r;
    char why[512];
    bg_status st = bg_runner_resolve(name, guest, &r, why, sizeof why);
    if (st == BG_E_UNSUPPORTED) {
        bg_errorf("bg-runner", "%s", why);
        return BG_EXIT_SKIP;
    }
    if (st != BG_OK)
        return bg_exit_code(bg_fail(st, "bg-runner", "%s", why));
    printf("command:");
    for (int i = 0; i < r.argc; i++)
        printf(" %s", r.argv[i]);
    printf("\nenv:");
    for (int i = 0; r.env[i]; i++)
        printf(" %s", r.env[i]);
    printf("\nguest: %s\nversion: %s\nknown: %s\ntraits: %s\n", r.guest, r.version, r.known,
           r.traits);
    bg_runner_free(&r);
    return fflush(stdout) == 0 ? BG_EXIT_OK : BG_EXIT_IO;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    if (argc == 2 && strcmp(argv[1], "--list") == 0)
        return list();
    if ((argc == 3 || argc == 5) && strcmp(argv[1], "--resolve") == 0) {
        if (argc == 5 && strcmp(argv[3], "--guest") != 0)
            argc = 0;
        else
            return resolve(argv[2], argc == 5 ? argv[4] : NULL);
    }
    static const char *const names[] = {"--list", "--resolve", "--guest", NULL};
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && !bg_option_in(argv[i], names))
            return bg_help_unknown_option(argv[i]);
    bg_errorf("bg-runner", "want --list or --resolve NAME [--guest ARCH] (see bg-runner --help)");
    return BG_EXIT_USAGE;
}
