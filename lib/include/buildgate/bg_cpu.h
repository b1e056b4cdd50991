/* bg_cpu.h — what the host CPU offers, as the OS reports it.
 *
 * Sources:
 *   x86-64: CPUID leaf 1 ECX (bit 25 AES, bit 9 SSSE3, bit 19 SSE4.1, bit 12
 *     FMA, bit 27 OSXSAVE, bit 28 AVX, bit 29 F16C) and leaf 7 EBX bit 5 (AVX2); AVX/AVX2/FMA/F16C
 *     count only
 *     when XGETBV(0) shows the OS saves XMM+YMM state (bits 1-2).  Intel SDM
 *     Vol.2A "CPUID", Table 3-8 and 3-10; Vol.1 13.3.
 *   Linux arm64: getauxval(AT_HWCAP) & HWCAP_AES (bit 3) and
 *     getauxval(AT_HWCAP2) & HWCAP2_AFP (bit 20); Linux
 *     Documentation/arch/arm64/elf_hwcaps.rst.
 *   macOS arm64: sysctlbyname("hw.optional.arm.FEAT_AES") and
 *     ("hw.optional.arm.FEAT_AFP"); Apple "Determining processor features".
 */
#ifndef BG_CPU_H
#define BG_CPU_H

typedef struct bg_cpu_features {
    int aes;    /* AES-NI on x86-64, FEAT_AES (AESE/AESD/AESMC) on arm64 */
    int ssse3;  /* x86-64 only */
    int sse41;  /* x86-64 only */
    int avx;    /* x86-64 AVX (CPUID.1:ECX bit 28), usable (OS saves YMM) */
    int avx2;   /* x86-64 only, usable (OS saves YMM) */
    int fma;    /* x86-64 FMA3, usable */
    int afp;    /* arm64 FEAT_AFP (alternate FP behaviour) */
    int f16c;   /* x86-64 F16C (VCVTPH2PS/VCVTPS2PH, VEX-encoded), usable (OS saves YMM) */
} bg_cpu_features;

/* Fills f from the running CPU.  Unknown features read as 0.  Cannot fail. */
void bg_cpu_detect(bg_cpu_features *f);

/* "x86_64", "arm64" or "unknown": the architecture this code was built for. */
const char *bg_cpu_arch(void);

#endif
