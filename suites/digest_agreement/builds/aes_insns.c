/* bg-aes-insns — counts the AES instructions in the RandomX machine code
 * loaded in this process, with Capstone.
 *
 * Usage: bg-aes-insns [--variant NAME] --expect present|absent
 *
 * What is "the RandomX code" (docs/digest_agreement.md "AES in the machine code"):
 * every executable segment of (a) the main program, into which a build
 * variant's librandomx.a is linked whole (--whole-archive), and (b) any loaded
 * object whose path contains "randomx" (the system librandomx.so).  The rest of
 * the main program is buildgate's own C code, compiled without AES flags, so an
 * AES instruction there can only come from RandomX.  Objects are found with
 * dl_iterate_phdr (Linux, <link.h>: PT_LOAD segments with PF_X) or the dyld
 * image APIs (macOS, <mach-o/dyld.h>: LC_SEGMENT_64 with VM_PROT_EXECUTE), so no
 * object-file parser is needed.  Disassembly is a linear sweep with
 * CS_OPT_SKIPDATA (bytes that do not decode are skipped as data).
 *
 * Counted by mnemonic NAME (Capstone 4 and 5 number instructions differently):
 *   x86-64 (Intel SDM Vol.2 "AESENC" ...): aesenc aesenclast aesdec aesdeclast
 *          aeskeygenassist aesimc, and the VEX/VAES forms v<same>
 *   arm64 (Arm ARM C6.2 "AESE" ...): aese aesd aesmc aesimc
 * --variant NAME: the build variant this probe was built for (CMake passes
 * it): the check fills that row of the Build variants table (build_matrix.h).
 * Check <BG_TEST_NAME> (default digest.aes_insns): pass when the count is > 0
 * for --expect present, == 0 for --expect absent; observed lists the counts
 * per mnemonic.  Exit 0 pass, 1 fail, 2 usage, 3 no code found, 77 Capstone
 * lacks this architecture.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>
#include <randomx.h>

#include "build_matrix.h"
#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach-o/loader.h>
#else
#include <link.h>
#endif

#if defined(__x86_64__)
static const char *const k_aes[] = {"aesenc",   "aesenclast",  "aesdec",          "aesdeclast",
                                    "aeskeygenassist", "aesimc", "vaesenc", "vaesenclast",
                                    "vaesdec",  "vaesdeclast", "vaeskeygenassist", "vaesimc"};
#define BG_CS_ARCH CS_ARCH_X86
#define BG_CS_MODE CS_MODE_64
#elif defined(__aarch64__)
static const char *const k_aes[] = {"aese", "aesd", "aesmc", "aesimc"};
#define BG_CS_ARCH CS_ARCH_ARM64
#define BG_CS_MODE CS_MODE_ARM
#endif

#if defined(BG_CS_ARCH)
#define NAES (sizeof k_aes / sizeof k_aes[0])

typedef struct counts {
    csh cs;
    long per[NAES];
    long insns;         /* instructions decoded */
    unsigned long bytes; /* executable bytes swept */
    int objects;
} counts;

static void sweep(counts *c, const uint8_t *code, size_t size, uint64_t addr)
{
    cs_insn *insn = cs_malloc(c->cs);
    if (!insn)
        return;
    c->bytes += size;
    c->objects++;
    while (cs_disasm_iter(c->cs, &code, &size, &addr, insn)) {
        c->insns++;
        for (size_t i = 0; i < NAES; i++)
            if (!strcmp(insn->mnemonic, k_aes[i]))
                c->per[i]++;
    }
    cs_free(insn, 1);
}

static int is_randomx(const char *path)
{
    return path == NULL || path[0] == '\0' || strstr(path, "randomx") != NULL;
}

#if defined(__APPLE__)
static void walk(counts *c)
{
    uint32_t n = _dyld_image_count();
    for (uint32_t i = 0; i < n; i++) {
        const char *name = _dyld_get_image_name(i);
        /* image 0 is the main program */
        if (i != 0 && !is_randomx(name))
            continue;
        const struct mach_header_64 *h = (const struct mach_header_64 *)_dyld_get_image_header(i);
        intptr_t slide = _dyld_get_image_vmaddr_slide(i);
        const uint8_t *lc = (const uint8_t *)(h + 1);
        for (uint32_t k = 0; k < h->ncmds; k++) {
            const struct load_command *cmd = (const struct load_command *)lc;
            if (cmd->cmd == LC_SEGMENT_64) {
                const struct segment_command_64 *seg = (const struct segment_command_64 *)lc;
                if ((seg->initprot & VM_PROT_EXECUTE) && seg->vmsize > 0)
                    sweep(c, (const uint8_t *)(uintptr_t)(seg->vmaddr + slide), seg->vmsize,
                          seg->vmaddr + (uint64_t)slide);
            }
            lc += cmd->cmdsize;
        }
    }
}
#else
static int on_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    counts *c = arg;
    if (!is_randomx(info->dlpi_name))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && ph->p_filesz > 0) {
            uint64_t addr = (uint64_t)info->dlpi_addr + ph->p_vaddr;
            sweep(c, (const uint8_t *)(uintptr_t)addr, ph->p_filesz, addr);
        }
    }
    return 0;
}

static void walk(counts *c)
{
    dl_iterate_phdr(on_object, c);
}
#endif

static const char usage_text[] =
    "Usage: bg-aes-insns [--variant NAME] --expect present|absent\n"
    "  Counts AES instructions (by Capstone mnemonic name) in the RandomX machine code\n"
    "  loaded in this process: x86-64 aesenc aesenclast aesdec aesdeclast\n"
    "  aeskeygenassist aesimc and their VEX forms; arm64 aese aesd aesmc aesimc.\n"
    "  --variant NAME: the build variant this probe was built for (its row of the\n"
    "  Build variants table).\n"
    "Check <BG_TEST_NAME> (default digest.aes_insns): present -> count > 0, absent -> 0.\n"
    "Exit: 0 pass, 1 fail, 2 usage, 3 no code found, 77 Capstone lacks this architecture.\n"
    "Docs: docs/digest_agreement.md \"AES in the machine code\".\n";

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *variant;
    if (bg_build_variant_arg(&argc, &argv, &variant) != BG_OK)
        return BG_EXIT_USAGE;
    if (argc != 3 || strcmp(argv[1], "--expect") ||
        (strcmp(argv[2], "present") && strcmp(argv[2], "absent"))) {
        bg_errorf("bg-aes-insns", "usage: bg-aes-insns --expect present|absent (see bg-aes-insns --help)");
        return BG_EXIT_USAGE;
    }
    int want_present = !strcmp(argv[2], "present");
    /* Keeps all of RandomX's entry points referenced, so the linker (and LTO)
     * keeps every VM variant, including the hard-AES ones reached through
     * randomx_create_vm(); for a shared library, keeps it loaded. */
    static void *volatile keep[] = {(void *)randomx_get_flags, (void *)randomx_alloc_cache,
                                    (void *)randomx_init_cache, (void *)randomx_create_vm,
                                    (void *)randomx_calculate_hash, (void *)randomx_init_dataset};
    (void)keep;
    char name[300];
    snprintf(name, sizeof name, "%s", bg_test_name("digest.aes_insns"));
    bg_checks *chk = bg_checks_open("digest_agreement");
    if (!chk)
        return BG_EXIT_IO;
    counts c;
    memset(&c, 0, sizeof c);
    if (cs_open(BG_CS_ARCH, BG_CS_MODE, &c.cs) != CS_ERR_OK) {
        bg_errorf("bg-aes-insns", "Capstone was built without this architecture");
        bg_check_emit_str(chk, name, BG_SKIP, "Capstone with this architecture", bg_last_error(), NULL);
        bg_checks_close(chk);
        return BG_EXIT_SKIP;
    }
    cs_option(c.cs, CS_OPT_SKIPDATA, CS_OPT_ON);
    walk(&c);
    cs_close(&c.cs);
    if (c.objects == 0) {
        bg_errorf("bg-aes-insns", "no executable segment of RandomX found in this process");
        bg_check_emit_str(chk, name, BG_FAIL, "RandomX code in this process", bg_last_error(), NULL);
        bg_checks_close(chk);
        return BG_EXIT_IO;
    }
    long total = 0;
    char obs[512] = "";
    size_t o = 0;
    cJSON *d = cJSON_CreateObject();
    cJSON *per = cJSON_AddObjectToObject(d, "per_mnemonic");
    for (size_t i = 0; i < NAES; i++) {
        total += c.per[i];
        cJSON_AddNumberToObject(per, k_aes[i], (double)c.per[i]);
        if (c.per[i] && o < sizeof obs)
            o += (size_t)snprintf(obs + o, sizeof obs - o, "%s%s %ld", o ? ", " : " (", k_aes[i],
                                  c.per[i]);
    }
    char observed[600];
    snprintf(observed, sizeof observed, "%ld AES instructions%s%s", total, obs, o ? ")" : "");
    cJSON_AddNumberToObject(d, "instructions", (double)c.insns);
    cJSON_AddNumberToObject(d, "bytes", (double)c.bytes);
    cJSON_AddNumberToObject(d, "objects", c.objects);
    cJSON_AddNumberToObject(d, "aes", (double)total);
    int ok = want_present ? total > 0 : total == 0;
    char cell[64];
    snprintf(cell, sizeof cell, "%ld", total);
    build_matrix_cell(d, variant, "AES insns", cell);
    bg_check_emit_str(chk, name, ok ? BG_PASS : BG_FAIL,
                      want_present ? "> 0 AES instructions" : "0 AES instructions", observed, d);
    return bg_checks_close(chk);
}
#else
int main(void)
{
    bg_errorf("bg-aes-insns", "no AES mnemonic list for this architecture");
    return BG_EXIT_SKIP;
}
#endif
