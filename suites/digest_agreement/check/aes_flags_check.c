/* bg-aes-flags — the digest.aes_flags check.
 *
 * Usage: bg-aes-flags [--variant NAME] [--vm-flags N]  judge this host and the linked RandomX
 *        bg-aes-flags [--variant NAME] --judge HOST_AES FLAGS ARCH
 *                                  judge given values (self-tests: the seed's
 *                                  macOS trap is `--judge 1 156 arm64`)
 * Records check digest.aes_flags: pass when randomx_get_flags() has HARD_AES
 * exactly when the CPU has AES (bg_cpu.h: CPUID.1:ECX.AES[25]; Linux arm64
 * HWCAP_AES; macOS hw.optional.arm.FEAT_AES), else fail with the flags seen
 * vs expected and the cause.  With --variant NAME (a build variant's probe;
 * CMake passes it) the check takes its test's name (BG_TEST_NAME, else
 * digest.build.<NAME>.aes_flags) and fills the variant's Build variants row.
 * With --vm-flags N (0..255) the flags judged are a VM's, randomx_get_flags() | N:
 * the AES trap self-tests of RandomX v2 pass 148 (V2|SECURE|FULL_MEM, the seed's
 * configuration), so its trap shows 156 vs 158 on arm64 as the study saw it.
 * Exit 0 pass, 1 fail, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <randomx.h>

#include "aes_flags.h"
#include "build_matrix.h"
#include "buildgate/bg_check.h"
#include "buildgate/bg_cpu.h"
#include "buildgate/bg_help.h"

static const char usage_text[] =
    "Usage: bg-aes-flags [--variant NAME] [--vm-flags N]\n"
    "                                             judge this host and the linked RandomX\n"
    "       bg-aes-flags [--variant NAME] --judge HOST_AES FLAGS ARCH\n"
    "                                             judge given values (HOST_AES 0|1,\n"
    "                                             FLAGS >= 0, ARCH x86_64|arm64)\n"
    "  --variant NAME  the build variant this probe was built for: the check is\n"
    "                  $BG_TEST_NAME (else digest.build.NAME.aes_flags), in that\n"
    "                  row of the Build variants table\n"
    "  --vm-flags N    judge randomx_get_flags() | N (0..255), a VM's flags: e.g. 148\n"
    "                  (RandomX v2, secure JIT, full memory: the seed's 156 vs 158)\n"
    "Records check digest.aes_flags: pass when randomx_get_flags()\n"
    "has RANDOMX_FLAG_HARD_AES exactly when the CPU has AES, else fail with the flags\n"
    "seen vs expected and the cause.  The seed's macOS trap: --judge 1 156 arm64.\n"
    "Exit: 0 pass, 1 fail, 2 usage.  Docs: docs/digest_agreement.md \"AES flags\".\n";

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    int host_aes, flags;
    const char *arch, *variant;
    if (bg_build_variant_arg(&argc, &argv, &variant) != BG_OK)
        return BG_EXIT_USAGE;
    int vm_flags = 0;
    if (argc >= 3 && strcmp(argv[1], "--vm-flags") == 0) {
        char *e;
        long v = strtol(argv[2], &e, 10);
        if (!*argv[2] || *e || v < 0 || v > 255) {
            bg_errorf("bg-aes-flags", "--vm-flags: expected a whole number from 0 to 255, got '%s'",
                      argv[2]);
            return BG_EXIT_USAGE;
        }
        vm_flags = (int)v;
        argv[2] = argv[0];
        argc -= 2;
        argv += 2;
    }
    if (argc == 5 && strcmp(argv[1], "--judge") == 0) {
        char *e1, *e2;
        host_aes = (int)strtol(argv[2], &e1, 10);
        flags = (int)strtol(argv[3], &e2, 10);
        arch = argv[4];
        if (*e1 || *e2 || (host_aes != 0 && host_aes != 1) || flags < 0 ||
            (strcmp(arch, "x86_64") && strcmp(arch, "arm64"))) {
            bg_errorf("bg-aes-flags", "--judge takes HOST_AES (0|1) FLAGS (>= 0) ARCH (x86_64|arm64)");
            return BG_EXIT_USAGE;
        }
    } else if (argc == 1) {
        bg_cpu_features cpu;
        bg_cpu_detect(&cpu);
        host_aes = cpu.aes;
        flags = (int)randomx_get_flags() | vm_flags;
        arch = bg_cpu_arch();
    } else if (strcmp(argv[1], "--judge") != 0) {
        return bg_help_unknown_option(argv[1]);
    } else {
        bg_errorf("bg-aes-flags", "usage: bg-aes-flags [--judge HOST_AES FLAGS ARCH] (see bg-aes-flags --help)");
        return BG_EXIT_USAGE;
    }
    int expected;
    char why[512], exp_s[64], obs_s[64];
    int ok = aes_flags_agree(host_aes, flags, arch, &expected, why, sizeof why);
    snprintf(exp_s, sizeof exp_s, "flags %d (HARD_AES %s)", expected, host_aes ? "set" : "clear");
    snprintf(obs_s, sizeof obs_s, "flags %d (HARD_AES %s)", flags,
             (flags & RANDOMX_FLAG_HARD_AES) ? "set" : "clear");
    bg_checks *c = bg_checks_open("digest_agreement");
    if (!c)
        return BG_EXIT_IO;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "why", why);
    cJSON_AddBoolToObject(d, "cpu_aes", host_aes);
    cJSON_AddStringToObject(d, "arch", arch);
    char fallback[300];
    snprintf(fallback, sizeof fallback, "digest.build.%s.aes_flags", variant ? variant : "");
    const char *name = variant ? bg_test_name(fallback) : "digest.aes_flags";
    char cell[64];
    if (ok)
        snprintf(cell, sizeof cell, "%d", flags);
    else
        snprintf(cell, sizeof cell, "%d, expected %d", flags, expected);
    build_matrix_cell(d, variant, "AES flags", cell);
    bg_check_emit_str(c, name, ok ? BG_PASS : BG_FAIL, exp_s, obs_s, d);
    return bg_checks_close(c);
}
