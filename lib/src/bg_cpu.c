#include "buildgate/bg_cpu.h"

#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>

static unsigned long long xgetbv0(void)
{
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

void bg_cpu_detect(bg_cpu_features *f)
{
    memset(f, 0, sizeof *f);
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    f->aes = (c >> 25) & 1;
    f->ssse3 = (c >> 9) & 1;
    f->sse41 = (c >> 19) & 1;
    int os_ymm = ((c >> 27) & 1) && (xgetbv0() & 6) == 6;
    f->fma = ((c >> 12) & 1) && os_ymm;
    f->avx = ((c >> 28) & 1) && os_ymm;
    f->f16c = ((c >> 29) & 1) && os_ymm;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        f->avx2 = ((b >> 5) & 1) && os_ymm;
}

const char *bg_cpu_arch(void) { return "x86_64"; }

#elif defined(__aarch64__) || defined(__arm64__)

#if defined(__APPLE__)
#include <sys/sysctl.h>

static int sysctl_flag(const char *name)
{
    int v = 0;
    size_t n = sizeof v;
    return sysctlbyname(name, &v, &n, NULL, 0) == 0 && v != 0;
}

void bg_cpu_detect(bg_cpu_features *f)
{
    memset(f, 0, sizeof *f);
    f->aes = sysctl_flag("hw.optional.arm.FEAT_AES");
    f->afp = sysctl_flag("hw.optional.arm.FEAT_AFP");
}
#else
#include <sys/auxv.h>
#ifndef HWCAP_AES
#define HWCAP_AES (1UL << 3)
#endif
#ifndef HWCAP2_AFP
#define HWCAP2_AFP (1UL << 20)
#endif

void bg_cpu_detect(bg_cpu_features *f)
{
    memset(f, 0, sizeof *f);
    f->aes = (getauxval(AT_HWCAP) & HWCAP_AES) != 0;
    f->afp = (getauxval(AT_HWCAP2) & HWCAP2_AFP) != 0;
}
#endif

const char *bg_cpu_arch(void) { return "arm64"; }

#else
void bg_cpu_detect(bg_cpu_features *f) { memset(f, 0, sizeof *f); }
const char *bg_cpu_arch(void) { return "unknown"; }
#endif
