/* fuzz_litmus_expect.c — libFuzzer target: the litmus expectations
 * (fixtures/memory_order/expectations.json, litmus_expect.h): loaded and
 * validated by litmus_expect_load, then every catalogue test looked up for
 * both architectures and accesses, with its known deviation.  A
 * rejected fixture is an answer, only a crash, a sanitizer report or a leak
 * is a finding. */
#include "bg_fuzz.h"

#include "litmus_expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bg_fuzz_file("memory_order/expectations.json", data, size);
    cJSON *doc = NULL;
    if (litmus_expect_load(bg_fuzz_dir(), &doc) == BG_OK) {
        static const char *const archs[] = {"x86_64", "arm64"};
        static const char *const access[] = {"plain", "tso", "sc"};
        size_t n;
        const litmus_test *tests = litmus_tests(&n);
        for (size_t t = 0; t < n; t++)
            for (int a = 0; a < 2; a++)
                for (int m = 0; m < 3; m++) {
                    litmus_expect e;
                    const char *name = tests[t].name, *why;
                    double rate;
                    litmus_expect_get(doc, name, archs[a], access[m], &e);
                    litmus_expect_deviation(doc, "qemu-aarch64", "qemu-aarch64 version 7.2.22", access[m], name, &rate, &why, NULL, 0);
                }
    }
    cJSON_Delete(doc);
    return 0;
}
