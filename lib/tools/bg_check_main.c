/* bg-check — records one check from a shell script (self-tests in sh).
 * Usage, options, exit codes: usage_text below (`bg-check --help`).
 */
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"

static const char usage_text[] =
    "Usage: bg-check --suite S --name N --verdict V [--expected TEXT]\n"
    "                [--observed TEXT]\n"
    "       bg-check --suite S --name N --expect-equal EXPECTED OBSERVED\n"
    "\n"
    "Records one check from a shell script (self-tests in sh): appends it to\n"
    "$BG_CHECKS_FILE like every check (bg_check.h).\n"
    "  --suite S        the check's suite\n"
    "  --name N         the check's name\n"
    "  --verdict V      pass, fail, xfail, xpass, skip or inconclusive\n"
    "  --expected TEXT  what the check expected (exact value, not prose)\n"
    "  --observed TEXT  what it observed\n"
    "  --expect-equal EXPECTED OBSERVED\n"
    "                   records pass when the two texts are equal, else fail\n"
    "  -h, --help       this text\n"
    "\n"
    "Exit: 0 the recorded verdict is not fail/xpass; 1 it is; 2 usage; 3 I/O.\n"
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
    int equal_mode = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--expect-equal") && i + 2 < argc) {
            equal_mode = 1;
            exp = argv[++i];
            obs = argv[++i];
            continue;
        }
        if (i + 1 >= argc)
            return usage("missing value after option");
        const char *v = argv[++i];
        if (!strcmp(argv[i - 1], "--suite"))
            suite = v;
        else if (!strcmp(argv[i - 1], "--name"))
            name = v;
        else if (!strcmp(argv[i - 1], "--verdict"))
            verdict = v;
        else if (!strcmp(argv[i - 1], "--expected"))
            exp = v;
        else if (!strcmp(argv[i - 1], "--observed"))
            obs = v;
        else
            return usage("unknown option");
    }
    if (!suite || !name || (!verdict && !equal_mode))
        return usage("--suite, --name and a verdict are required");
    bg_verdict v = BG_PASS;
    if (equal_mode)
        v = strcmp(exp, obs) == 0 ? BG_PASS : BG_FAIL;
    else if (bg_verdict_parse(verdict, &v) != BG_OK)
        return usage("--verdict takes pass, fail, xfail, xpass, skip or inconclusive");
    bg_checks *c = bg_checks_open(suite);
    if (!c)
        return BG_EXIT_IO;
    bg_check_emit_str(c, name, v, exp, obs, NULL);
    bg_checks_free(c);
    return bg_verdict_is_bad(v) ? BG_EXIT_FAIL : BG_EXIT_OK;
}
