/* aes_flags.h — does RandomX use hardware AES exactly when the CPU has it?
 *
 * randomx_get_flags() sets RANDOMX_FLAG_HARD_AES (2) only when the library
 * was compiled with the AES feature macro (__AES__ on x86-64,
 * __ARM_FEATURE_CRYPTO on arm64) AND the CPU reports AES at run time (RandomX
 * src/randomx.cpp randomx_get_flags, src/cpu.cpp).  A library compiled
 * without the macro silently falls back to software AES: the seed's Apple
 * clang -march=native trap, flags 156 instead of 158.
 */
#ifndef AES_FLAGS_H
#define AES_FLAGS_H

#include <stddef.h>

/* Judges host_has_aes against the library's flags.  Returns 1 when they
 * agree.  When they do not, writes to why[n] the numeric flags seen vs
 * expected and the likely cause with its fix for arch ("x86_64", "arm64").
 * *expected_flags receives the flags a correct build would report. */
int aes_flags_agree(int host_has_aes, int flags, const char *arch, int *expected_flags,
                    char *why, size_t n);

#endif
