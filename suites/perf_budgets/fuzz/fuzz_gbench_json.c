/* fuzz_gbench_json.c — libFuzzer target: Google Benchmark JSON
 * (--benchmark_out, perf_samples.h), read by perf_set_add_file.  The input is
 * added twice (two rounds add up), once for real_time and once for
 * items_per_second (a rate); errors are answers (one line), only a crash, a
 * sanitizer report or a leak is a finding.  Calls the public functions only. */
#include "bg_fuzz.h"

#include "perf_samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("gbench.json", data, size);
    static const char *const metrics[] = {"real_time", "items_per_second"};
    for (int m = 0; m < 2; m++) {
        perf_set set = {0};
        if (perf_set_add_file(&set, path, metrics[m]) == BG_OK)
            perf_set_add_file(&set, path, metrics[m]);
        if (set.n > 0)
            perf_set_find(&set, set.s[0].name);
        perf_set_free(&set);
    }
    return 0;
}
