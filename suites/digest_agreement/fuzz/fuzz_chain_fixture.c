/* fuzz_chain_fixture.c — libFuzzer target: the recorded chains
 * (fixtures/randomx/chains.json, rx_fixture.h): rx_chain_fixture_precheck and
 * rx_chain_fixture_find for the (algorithm, key, n, k) entries the committed
 * fixture holds.  A rejected fixture or a missing entry is an answer (one
 * line), only a crash, a sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include "rx_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("chains.json", data, size);
    static const struct { const char *alg; uint64_t n, k; } want[] = {
        {"randomx-v1", 64, 8}, {"randomx-v1", 1024, 128}, {"randomx-v2", 64, 8}, {"randomx-v1", 64, 0}};
    rx_chain_fixture_precheck(path, "randomx-v1", "relay-jit-profile-fixed-key-v1", 64, 8, 0);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rx_chain_result r;
        memset(&r, 0, sizeof r);
        if (rx_chain_fixture_find(path, want[i].alg, "relay-jit-profile-fixed-key-v1", want[i].n,
                                  want[i].k, &r, NULL) == BG_OK)
            rx_chain_free(&r);
    }
    return 0;
}
