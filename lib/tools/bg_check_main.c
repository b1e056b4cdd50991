/* bg-check — records one check from a shell script (self-tests in sh).
 * Usage, options, exit codes: usage_text below (`bg-check --help`).
 */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"

static const char usage_text[] =
    "Usage: bg-check [--stdout] --suite S --name N --verdict V [--expected TEXT]\n"
    "                [--observed TEXT]\n"
    "       bg-check [--stdout] --suite S --name N --expect-equal EXPECTED OBSERVED\n"
    "\n"
    "Records one check from a shell script (self-tests in sh): appends it to\n"
    "$BG_CHECKS_FILE like every check (bg_check.h), and prints it on stdout.\n"
    "Without BG_CHECKS_FILE (outside bg-run / ctest) nothing would be recorded:\n"
    "that is a usage error unless --stdout asks for the printed check only.\n"
    "  --suite S        the check's suite\n"
    "  --name N         the check's name\n"
    "  --verdict V      pass, fail, xfail, xpass, skip or inconclusive\n"
    "  --expected TEXT  what the check expected (exact value, not prose)\n"
    "  --observed TEXT  what it observed\n"
    "  --expect-equal EXPECTED OBSERVED\n"
    "                   records pass when the two texts are equal, else fail\n"
    "  --stdout         print the check only, record nothing (BG_CHECKS_FILE unset)\n"
    "Each option at most once; --suite and --name not empty; --verdict or\n"
    "--expect-equal, not both.\n"
    "  -h, --help       this text\n"
    "\n"
    "Exit: 0 the recorded verdict is not fail/xpass; 1 it is; 2 usage (one line\n"
    "      \"buildgate: bg-check: ...\", also BG_CHECKS_FILE unset without\n"
    "      --stdout); 3 I/O.\n"
    "Doc: lib/include/buildgate/bg_check.h, docs/writing-a-suite.md.\n";

static int usage(const char *why)
{
    bg_errorf("bg-check", "%s (see bg-check --help)", why);
    return BG_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *suite = NULL, *name = NULL, *verdict = NULL, *exp = NULL, *obs = NULL;
    int equal_mode = 0, to_stdout = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--stdout")) {
            to_stdout = 1;
            continue;
        }
        if (!strcmp(a, "--expect-equal")) {
            if (equal_mode)
                return bg_help_bad_value(a, "given twice");
            if (i + 2 >= argc)
                return usage("--expect-equal needs EXPECTED and OBSERVED");
            equal_mode = 1;
            exp = argv[++i];
            obs = argv[++i];
            continue;
        }
        const char **slot = !strcmp(a, "--suite")      ? &suite
                            : !strcmp(a, "--name")     ? &name
                            : !strcmp(a, "--verdict")  ? &verdict
                            : !strcmp(a, "--expected") ? &exp
                            : !strcmp(a, "--observed") ? &obs
                                                       : NULL;
        if (!slot)
            return bg_help_unknown_option(a);
        if (i + 1 >= argc)
            return bg_help_missing_value(a);
        if (*slot)
            return bg_help_bad_value(a, "given twice ('%s', then '%s')", *slot, argv[i + 1]);
        if ((slot == &suite || slot == &name) && !*argv[i + 1])
            return bg_help_bad_value(a, "must not be empty");
        *slot = argv[++i];
    }
    if (verdict && equal_mode)
        return usage("give either --verdict or --expect-equal, not both");
    if (!suite || !name || (!verdict && !equal_mode))
        return usage("--suite, --name and a verdict are required");
    bg_verdict v = BG_PASS;
    if (equal_mode)
        v = strcmp(exp, obs) == 0 ? BG_PASS : BG_FAIL;
    else if (bg_verdict_parse(verdict, &v) != BG_OK)
        return usage("--verdict takes pass, fail, xfail, xpass, skip or inconclusive");
    const char *file = getenv("BG_CHECKS_FILE");
    if (!to_stdout && (!file || !*file))
        return usage("BG_CHECKS_FILE is not set, so the check would not be recorded (run it under "
                     "bg-run or ctest, or pass --stdout to print it only)");
    if (to_stdout)
        unsetenv("BG_CHECKS_FILE");
    bg_checks *c = bg_checks_open(suite);
    if (!c)
        return BG_EXIT_IO;
    bg_check_emit_str(c, name, v, exp, obs, NULL);
    bg_checks_free(c);
    return bg_verdict_is_bad(v) ? BG_EXIT_FAIL : BG_EXIT_OK;
}
