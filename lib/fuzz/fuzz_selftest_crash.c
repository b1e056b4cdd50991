/* fuzz_selftest_crash.c — a deliberately broken "parser" for the self-test
 * lib.selftest.fuzz_crash (fuzz_selftest.sh): it reads past its buffer when
 * the input starts with "BG-FUZZ-CRASH", so that the fuzz check is shown to
 * fail, naming the input, when a target crashes. */
#include "bg_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char magic[] = "BG-FUZZ-CRASH";
    if (size >= sizeof magic - 1 && memcmp(data, magic, sizeof magic - 1) == 0) {
        char *copy = bg_fuzz_str(data, 4);
        volatile char c = copy[5]; /* one past the 5 bytes: heap-buffer-overflow */
        (void)c;
        free(copy);
    }
    return 0;
}
