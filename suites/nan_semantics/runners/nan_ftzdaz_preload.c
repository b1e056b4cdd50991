/* nan_ftzdaz_preload.c — LD_PRELOAD library of the `initial` mutant runner
 * (runners/initial-mutant-runner.sh, self-test nan.selftest.mutant_initial):
 * its constructor runs before the guest's own and leaves the state a broken
 * runner would start a guest with: MXCSR 0x9FC0 (FTZ | DAZ, all exceptions
 * masked) and the x87 control word 0x027F (53-bit precision instead of 64).
 * x86-64 Linux only (CMakeLists.txt builds it there). */
#include <stdint.h>

__attribute__((constructor)) static void nan_start_with_ftz_daz(void)
{
    uint32_t mx = 0x9fc0;
    uint16_t cw = 0x027f;
    __asm__ volatile("ldmxcsr %0\n\tfldcw %1" : : "m"(mx), "m"(cw));
}
