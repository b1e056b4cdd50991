/* fuzz_checks_jsonl.c — libFuzzer target: the check JSON Lines that bg-report
 * reads (BG_CHECKS_FILE, bg_check.h) and the results.json + report.md it
 * renders from them.  The input is one <test>.jsonl file; the target runs
 * bg-report's own main (lib/tools/bg_report.c, compiled with
 * -Dmain=bg_report_tool_main) as `bg-report --checks-dir D --out-dir O`.
 * Exit codes 1 (a fail check) and 4 (a malformed line) are answers, not
 * findings; only a crash, a sanitizer report or a leak is. */
#include "bg_fuzz.h"

int bg_report_tool_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("checks/fuzz.case.one.jsonl", data, size);
    char dir[1024], out[1024];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
    snprintf(out, sizeof out, "%s/out", bg_fuzz_dir());
    char *argv[] = {"bg-report", "--checks-dir", dir, "--out-dir", out, NULL};
    bg_report_tool_main(5, argv);
    return 0;
}
