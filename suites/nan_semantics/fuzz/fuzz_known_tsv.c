/* fuzz_known_tsv.c — libFuzzer target: a known-deviation file
 * (fixtures/nan_semantics/known/<runner>.tsv, nan_known.h) read by
 * nan_known_load for a few versions and contexts, then matched against rule
 * ids and ops.  A malformed line is an answer (one line, BG_E_FIXTURE), only a crash,
 * a sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include "nan_known.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bg_fuzz_file("known/fuzz.tsv", data, size);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/known", bg_fuzz_dir());
    static const char *const versions[] = {"qemu-x86_64 version 7.2.0", "valgrind-3.19.0", ""};
    static const char *const contexts[] = {"main_thread", "signal_handler", ""};
    for (int i = 0; i < 3; i++) {
        nan_known kd = {0};
        if (nan_known_load(dir, "fuzz.tsv", versions[i], contexts[i], &kd) == BG_OK) {
            static const char *const items[] = {"addss", "minps", "handler"};
            nan_known_line *ml[4];
            char missing[256];
            nan_known_cover(&kd, "value", "*", items, 3, ml, 4, missing, sizeof missing);
            nan_known_cover(&kd, "snan-quieting", "-", items, 1, ml, 4, missing, sizeof missing);
        }
        nan_known_free(&kd);
    }
    return 0;
}
