/* fuzz_merge_results.c — libFuzzer target: the results.json files that
 * `bg-report --merge DIR --out-dir OUT` reads, one per host (report_merge.h,
 * docs/cross-host.md).  The input is two hosts' results.json separated by a
 * form feed (0x0c; the seeds are real results.json pairs); without one, both
 * hosts get the same document.  Runs bg_report_merge_main as the CLI does;
 * any exit code is an answer, only a crash, a sanitizer report or a leak is a
 * finding. */
#include "bg_fuzz.h"

#include "report_merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *ff = memchr(data, '\f', size);
    size_t na = ff ? (size_t)(ff - data) : size;
    bg_fuzz_file("hosts/a/results.json", data, na);
    if (ff)
        bg_fuzz_file("hosts/b/results.json", ff + 1, size - na - 1);
    else
        bg_fuzz_file("hosts/b/results.json", data, na);
    char dir[1024], out[1024];
    snprintf(dir, sizeof dir, "%s/hosts", bg_fuzz_dir());
    snprintf(out, sizeof out, "%s/merged", bg_fuzz_dir());
    char *argv[] = {"bg-report", "--merge", dir, "--out-dir", out, NULL};
    bg_report_merge_main(5, argv);
    return 0;
}
