/* fuzz_kat_fixture.c — libFuzzer target: the RandomX known-answer fixture
 * (fixtures/randomx/kat.json, rx_fixture.h) read by rx_kat_load for both
 * algorithms.  A rejected fixture is an answer (one line, BG_E_FIXTURE), only
 * a crash, a sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include "rx_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("kat.json", data, size);
    static rx_kat_set set;
    rx_kat_load(path, "randomx-v1", &set);
    rx_kat_load(path, "randomx-v2", &set);
    return 0;
}
