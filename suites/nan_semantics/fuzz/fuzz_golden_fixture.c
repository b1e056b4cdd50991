/* fuzz_golden_fixture.c — libFuzzer target: the golden NaN fixture
 * (fixtures/nan_semantics/golden-x86_64.json, nan_fixture.h) read and
 * verified by nan_fixture_load.  A rejected fixture is an answer (one line,
 * BG_E_FIXTURE), only a crash, a sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include "nan_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("golden.json", data, size);
    nan_fixture f;
    memset(&f, 0, sizeof f);
    nan_fixture_load(path, &f);
    nan_fixture_free(&f);
    return 0;
}
