/* bg-jit-profile — the seed's five JIT phases as % of hashing time, from the
 * phase hook that builds/profile.patch adds to RandomX's CompiledVm::run and
 * CompiledLightVm::run (the `profile` build variant only).
 *
 * Usage: bg-jit-profile --flags jit,secure[,hard-aes][,full-mem] [--n N] [--k K]
 *                       [--dataset-dir DIR] [--chains FILE] [--rounds R]
 *                       [--inject missing-phase|extra-program]
 *   (rx_opts.h options; --flags must include jit and secure).  Runs the digest
 *   chain (docs/chain.md) R times (default 3) with the hook on and R times
 *   with it off, alternating, on one VM.
 *   --inject: self-test only; the hook drops boundary 3 (missing-phase) or
 *   counts boundary 0 once more (extra-program), so the checks must fail.
 *
 * Phases (the hook's boundaries, see profile.patch; time between two
 * consecutive boundaries of one run() call, monotonic clock):
 *   1 generate program / initialize registers  0 run() entered -> 1 after randomx_vm::initialize()
 *   2 make JIT memory writable                 1 -> 2 after compiler.enableWriting() (mprotect RW)
 *   3 compile generated program                2 -> 3 after compiler.generateProgram[Light]()
 *   4 make JIT memory executable               3 -> 4 after compiler.enableExecution() (mprotect RX)
 *   5 execute generated program                4 -> 5 after execute()
 * Hashing time is rx_chain_run's (randomx_calculate_hash calls only); the
 * remainder (100% - the five) is scratchpad fill/hash (AES), Blake2b, and the
 * hook's own cost outside the phases.
 *
 * Checks (BG_TEST_NAME, default digest.jit_phases):
 *   <t>           the hooked chain's digest equals the fixture (chains.json)
 *   <t>.programs  each of the 6 boundaries seen RX_PROGRAMS_PER_HASH x hashes times
 *   <t>.phases    each phase took > 0 s and the five sum to <= 100% of hashing
 * No verdict on speed: H/s with and without the hook go to details and to the
 * Markdown fragment $(dirname BG_CHECKS_FILE)/digest_agreement--<t>.md.
 * Built only against a library with profile.patch (builds/probe: BG_RX_PROFILE).
 * Exit 0 pass, 1 fail, 2 usage, 5 fixture; a VM the host cannot run: 77.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_fragment.h"
#include "buildgate/bg_hex.h"
#include "buildgate/bg_parse.h"
#include "rx_chain.h"
#include "rx_fixture.h"
#include "rx_opts.h"
#include "rx_session.h"

#define NPHASES 5

/* builds/profile.patch (src/vm_compiled.cpp) */
extern void (*randomx_bg_phase_hook)(int boundary);

static const char *const k_phase[NPHASES] = {
    "Generate program/initialize registers", "Make JIT memory writable",
    "Compile generated program",             "Make JIT memory executable",
    "Execute generated program",
};

enum inject { INJECT_NONE, INJECT_MISSING_PHASE, INJECT_EXTRA_PROGRAM };

static struct {
    double seconds[NPHASES];
    long boundaries[NPHASES + 1];
    double last;
    int last_b;
    enum inject inject;
} g;

static void on_boundary(int b)
{
    double now = rx_now();
    if (b < 0 || b > NPHASES || (g.inject == INJECT_MISSING_PHASE && b == 3))
        return;
    g.boundaries[b]++;
    if (b == 0 && g.inject == INJECT_EXTRA_PROGRAM && g.boundaries[0] == 1)
        g.boundaries[0]++;
    if (b > 0 && g.last_b == b - 1)
        g.seconds[b - 1] += now - g.last;
    g.last = now;
    g.last_b = b;
}

static int take_own(int *argc, char **argv, unsigned long *rounds, enum inject *inj)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < *argc) {
            uint64_t r;
            if (bg_parse_u64(argv[++i], 1, 1000, &r)) {
                bg_errorf("--rounds", "expected a whole number from 1 to 1000, got '%s'", argv[i]);
                return -1;
            }
            *rounds = (unsigned long)r;
        } else if (!strcmp(argv[i], "--inject") && i + 1 < *argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "missing-phase"))
                *inj = INJECT_MISSING_PHASE;
            else if (!strcmp(v, "extra-program"))
                *inj = INJECT_EXTRA_PROGRAM;
            else {
                bg_errorf("--inject", "expected missing-phase or extra-program, got '%s'", v);
                return -1;
            }
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    return 0;
}

#ifndef BG_JIT_VARIANT
#define BG_JIT_VARIANT "profile" /* the build variant's name (builds/probe/CMakeLists.txt) */
#endif

static void write_fragment(const char *test, const char *mode, const double pct[NPHASES],
                           double rest, double hs_on, double hs_off, uint64_t hashes)
{
    FILE *f = bg_fragment_open("digest_agreement", test);
    if (!f)
        return;
    fprintf(f, "#### JIT phases (%s): %% of hashing time\n\n", test);
    fprintf(f, "| Phase | %s, %s |\n|---|---:|\n", BG_JIT_VARIANT, mode);
    for (int i = 0; i < NPHASES; i++)
        fprintf(f, "| %s | %.2f%% |\n", k_phase[i], pct[i]);
    fprintf(f, "| (remainder: outside the five phases) | %.2f%% |\n\n", rest);
    fprintf(f, "%llu hashes with the hook: %.2f H/s; without it (same library, same process): "
               "%.2f H/s (ratio %.3f). Wall-clock figures on a shared machine: no verdict.\n",
            (unsigned long long)hashes, hs_on, hs_off, hs_off > 0 ? hs_on / hs_off : 0.0);
    fclose(f);
}

int main(int argc, char **argv)
{
    unsigned long rounds = 3;
    enum inject inj = INJECT_NONE;
    rx_opts o;
    if (take_own(&argc, argv, &rounds, &inj) || rx_opts_parse(argc, argv, &o))
        return BG_EXIT_USAGE;
    if (o.help)
        return BG_EXIT_OK;
    if (!(o.flags & RANDOMX_FLAG_JIT) || !(o.flags & RANDOMX_FLAG_SECURE)) {
        bg_errorf("bg-jit-profile", "--flags must include jit and secure (the phases are the secure JIT's)");
        return BG_EXIT_USAGE;
    }
    char test[256], name[300];
    snprintf(test, sizeof test, "%s", bg_test_name("digest.jit_phases"));
    bg_checks *chk = bg_checks_open("digest_agreement");
    if (!chk)
        return BG_EXIT_IO;
    rx_chain_result want;
    bg_status st = rx_chain_fixture_find(o.chains, rx_algorithm((int)o.flags), (const char *)o.key,
                                         o.n, o.k, &want, NULL);
    if (st) {
        bg_check_emit_str(chk, test, BG_FAIL, "a chain fixture", bg_last_error(), NULL);
        bg_checks_close(chk);
        return bg_exit_code(st);
    }
    rx_session s;
    st = rx_session_open(&s, o.flags, o.key, o.key_len, o.init_threads, o.dataset_dir);
    if (st) {
        bg_check_emit_str(chk, test, st == BG_E_UNSUPPORTED ? BG_SKIP : BG_FAIL,
                          "a RandomX VM with these flags", bg_last_error(), NULL);
        rx_chain_free(&want);
        return bg_checks_close(chk);
    }
    memset(&g, 0, sizeof g);
    g.inject = inj;
    g.last_b = -1;
    double on_s = 0, off_s = 0;
    int digest_ok = 1;
    char got_hex[65] = "";
    for (unsigned long r = 0; r < rounds && !st; r++)
        for (int pass = 0; pass < 2 && !st; pass++) {
            int hooked = (pass + (int)r) % 2 == 0; /* on/off, then off/on: ABBA */
            randomx_bg_phase_hook = hooked ? on_boundary : NULL;
            rx_chain_result got;
            st = rx_chain_run(s.vm, o.n, o.k, NULL, &got);
            randomx_bg_phase_hook = NULL;
            if (st)
                break;
            *(hooked ? &on_s : &off_s) += got.seconds;
            if (hooked && memcmp(got.digest, want.digest, 32)) {
                digest_ok = 0;
                bg_hex_encode(got.digest, 32, got_hex);
            }
            rx_chain_free(&got);
        }
    rx_session_close(&s);
    if (st) {
        bg_check_emit_str(chk, test, BG_FAIL, "the chain runs", bg_last_error(), NULL);
        rx_chain_free(&want);
        return bg_checks_close(chk);
    }
    char want_hex[65];
    bg_hex_encode(want.digest, 32, want_hex);
    rx_chain_free(&want);
    uint64_t hashes = o.n * rounds;
    bg_check_emit_str(chk, test, digest_ok ? BG_PASS : BG_FAIL, want_hex,
                      digest_ok ? want_hex : got_hex, NULL);

    long expect = (long)(RX_PROGRAMS_PER_HASH * hashes);
    char obs[300];
    size_t n = (size_t)snprintf(obs, sizeof obs, "boundaries 0..5 seen");
    int counts_ok = 1;
    cJSON *cnt = cJSON_CreateArray();
    for (int b = 0; b <= NPHASES; b++) {
        counts_ok &= g.boundaries[b] == expect;
        cJSON_AddItemToArray(cnt, cJSON_CreateNumber((double)g.boundaries[b]));
        if (n < sizeof obs)
            n += (size_t)snprintf(obs + n, sizeof obs - n, " %ld", g.boundaries[b]);
    }
    char exp_s[200];
    snprintf(exp_s, sizeof exp_s, "each boundary %ld times (%d programs x %llu hashes)", expect,
             RX_PROGRAMS_PER_HASH, (unsigned long long)hashes);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddItemToObject(d, "boundary_counts", cnt);
    snprintf(name, sizeof name, "%s.programs", test);
    bg_check_emit_str(chk, name, counts_ok ? BG_PASS : BG_FAIL, exp_s, obs, d);

    double pct[NPHASES], sum = 0;
    int seen = 1;
    cJSON *pd = cJSON_CreateObject();
    cJSON *pj = cJSON_AddObjectToObject(pd, "percent_of_hashing");
    n = 0;
    for (int i = 0; i < NPHASES; i++) {
        pct[i] = on_s > 0 ? 100.0 * g.seconds[i] / on_s : 0;
        sum += pct[i];
        seen &= g.seconds[i] > 0;
        cJSON_AddNumberToObject(pj, k_phase[i], pct[i]);
        if (n < sizeof obs)
            n += (size_t)snprintf(obs + n, sizeof obs - n, "%s%.2f%%", i ? " + " : "", pct[i]);
    }
    if (n < sizeof obs)
        snprintf(obs + n, sizeof obs - n, " = %.2f%% of %.3f s", sum, on_s);
    double hs_on = on_s > 0 ? (double)hashes / on_s : 0, hs_off = off_s > 0 ? (double)hashes / off_s : 0;
    cJSON_AddNumberToObject(pd, "remainder_percent", 100.0 - sum);
    cJSON_AddNumberToObject(pd, "hashes_per_second_hooked", hs_on);
    cJSON_AddNumberToObject(pd, "hashes_per_second_unhooked", hs_off);
    cJSON_AddNumberToObject(pd, "hashes", (double)hashes);
    snprintf(name, sizeof name, "%s.phases", test);
    bg_check_emit_str(chk, name, seen && sum <= 100.0 ? BG_PASS : BG_FAIL,
                      "5 phases each > 0 s, summing to <= 100% of hashing time", obs, pd);
    write_fragment(test, (o.flags & RANDOMX_FLAG_FULL_MEM) ? "full memory" : "light memory", pct,
                   100.0 - sum, hs_on, hs_off, hashes);
    return bg_checks_close(chk);
}
