/* bench_aes.c — AES round throughput, as in the seed's Apple study: one AES
 * round per instruction (x86-64 AESENC, Intel SDM Vol.2A "AESENC"; arm64
 * AESE+AESMC, Arm ARM C7.2 "AESE"/"AESMC"), two independent lanes so the
 * round latency is partly hidden, 1 ... all threads.
 *
 * aes/rounds/threads:N — items = AES rounds (2 lanes x 64 rounds x knob per
 *   iteration); items_per_second is rounds/s over all threads.  The scaling
 *   factor is items_per_second(N threads) / items_per_second(1 thread)
 *   (bg-perf reports it in the run summary, docs/performance.md records it).
 * Built with -maes (x86-64) or +crypto (arm64) for this file only; the CPU is
 * checked at run time (bg_cpu_detect), and a CPU without AES reports a
 * benchmark error instead of dying on SIGILL.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <unistd.h>

#include "buildgate/bg_bench.h"
#include "buildgate/bg_cpu.h"
#include "perf_knob.h"

#define AES_ROUNDS_PER_LANE 100

#if defined(__x86_64__)
#include <wmmintrin.h>

static void aes_lanes(uint64_t n, uint64_t rounds, uint8_t out[32])
{
    __m128i a = _mm_set1_epi32(0x01234567), b = _mm_set1_epi32(0x089abcde);
    const __m128i k = _mm_set1_epi32(0x5a5a5a5a);
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t r = 0; r < rounds; r++) {
            a = _mm_aesenc_si128(a, k);
            b = _mm_aesenc_si128(b, k);
        }
    _mm_storeu_si128((__m128i *)out, a);
    _mm_storeu_si128((__m128i *)(out + 16), b);
}
#define HAVE_AES_KERNEL 1
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRYPTO) || defined(__ARM_FEATURE_AES)
#include <arm_neon.h>

static void aes_lanes(uint64_t n, uint64_t rounds, uint8_t out[32])
{
    uint8x16_t a = vdupq_n_u8(0x67), b = vdupq_n_u8(0xde);
    const uint8x16_t k = vdupq_n_u8(0x5a);
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t r = 0; r < rounds; r++) {
            a = vaesmcq_u8(vaeseq_u8(a, k));
            b = vaesmcq_u8(vaeseq_u8(b, k));
        }
    vst1q_u8(out, a);
    vst1q_u8(out + 16, b);
}
#define HAVE_AES_KERNEL 1
#endif

static void aes_run(bg_bench_state *st, uint64_t n, void *ctx)
{
    (void)ctx;
#if defined(HAVE_AES_KERNEL)
    bg_cpu_features f;
    bg_cpu_detect(&f);
    if (!f.aes) {
        bg_bench_error(st, "the CPU reports no AES instructions");
        return;
    }
    uint64_t rounds = perf_knob_scale(AES_ROUNDS_PER_LANE);
    uint8_t out[32];
    aes_lanes(n, rounds, out);
    bg_bench_keep(out, sizeof out);
    bg_bench_set_items_processed(st, (int64_t)(n * 2 * rounds));
#else
    (void)n;
    bg_bench_error(st, "no AES round kernel for this architecture");
#endif
}

void perf_register_aes(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    bg_bench *b = bg_bench_register("aes/rounds", aes_run);
    bg_bench_real_time(b);
    for (long t = 1; t <= (ncpu > 0 ? ncpu : 1); t++)
        bg_bench_threads(b, (int)t);
}
