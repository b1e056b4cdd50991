#include "aes_flags.h"

#include <stdio.h>
#include <string.h>

#include <randomx.h>

int aes_flags_agree(int host_has_aes, int flags, const char *arch, int *expected_flags,
                    char *why, size_t n)
{
    int lib_hard = (flags & RANDOMX_FLAG_HARD_AES) != 0;
    *expected_flags = host_has_aes ? (flags | RANDOMX_FLAG_HARD_AES) : (flags & ~RANDOMX_FLAG_HARD_AES);
    if (lib_hard == (host_has_aes != 0)) {
        snprintf(why, n, "HARD_AES %s, CPU AES %s", lib_hard ? "set" : "clear",
                 host_has_aes ? "present" : "absent");
        return 1;
    }
    int arm = arch && strcmp(arch, "arm64") == 0;
    if (host_has_aes)
        snprintf(why, n,
                 "randomx_get_flags() = %d, expected %d: the CPU has AES but RandomX chose "
                 "software AES. Likely cause: the library was compiled without %s (%s). "
                 "Fix: build it with %s",
                 flags, *expected_flags, arm ? "__ARM_FEATURE_CRYPTO" : "__AES__",
                 arm ? "e.g. Apple clang -march=native, or -march=armv8-a without +crypto"
                     : "e.g. -mno-aes, or a -march that lacks AES",
                 arm ? "-mcpu=apple-mN (macOS) or -march=armv8-a+crypto" : "-maes or -march=native");
    else
        snprintf(why, n,
                 "randomx_get_flags() = %d, expected %d: HARD_AES is set but the CPU reports no "
                 "AES, so hashing would fault or the CPU detection is wrong",
                 flags, *expected_flags);
    return 0;
}
