/* bg-jit-compare — compares the JIT captures of build variants byte for byte
 * (bg-jit-capture, jit_capture.c) and reports the emitted instruction classes.
 *
 * Usage: bg-jit-compare --reference NAME=DIR [NAME=DIR ...]
 *   DIR holds NAME's jit-capture.json + jit-capture.bin.
 *
 * Checks (docs/digest_agreement.md "JIT emission equality"), one per variant,
 * named digest.build.<NAME>.jit_equal (report.md: column "JIT bytes equal"):
 *   reference: pass when its capture loads ("reference, N bytes");
 *   others:    pass when every region has the reference's size and bytes,
 *              but for alignment padding: a difference where both sides hold
 *              NOP chains over the same byte range (nop_padding_end) is
 *              counted and reported, not failed (clang's integrated assembler
 *              pads RandomX's static code templates with other NOP encodings
 *              than GNU as);
 *              fail names the first differing offset, its region and the
 *              instruction there on both sides (Capstone, linear sweep from
 *              the region's start); skip when the variant left no capture
 *              (its digest.build.<NAME>.jit_capture test says why); fail
 *              when the capture exists but cannot be read.
 * Histogram: the reference's "program 0" region, swept from offset 0 following
 * forward unconditional jmps (over the prologue's constants, and to the
 * epilogue) up to the first ret: instructions counted by Capstone mnemonic
 * name (never by enum number: Capstone 4 and 5 number them differently).  It
 * goes into the reference check's details and, as a Markdown table, into
 * $(dirname BG_CHECKS_FILE)/digest_agreement--digest.build.jit_histogram.md.
 * Exit 0 pass, 1 a check failed, 2 usage, 5 the reference's capture is unusable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include "build_matrix.h"
#include "buildgate/bg_check.h"
#include "buildgate/bg_fragment.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "jit_capture_file.h"

#define MAX_MNEMONICS 128

typedef struct histogram {
    char name[MAX_MNEMONICS][32];
    long count[MAX_MNEMONICS];
    int n;
    long total;
} histogram;

static void hist_add(histogram *h, const char *m)
{
    h->total++;
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->name[i], m)) {
            h->count[i]++;
            return;
        }
    if (h->n < MAX_MNEMONICS) {
        snprintf(h->name[h->n], sizeof h->name[0], "%s", m);
        h->count[h->n++] = 1;
    }
}

/* Sorts by count (descending), then name; small n, insertion sort. */
static void hist_sort(histogram *h)
{
    for (int i = 1; i < h->n; i++)
        for (int j = i; j > 0 && (h->count[j] > h->count[j - 1] ||
                                  (h->count[j] == h->count[j - 1] &&
                                   strcmp(h->name[j], h->name[j - 1]) < 0));
             j--) {
            char t[32];
            long c = h->count[j];
            memcpy(t, h->name[j], sizeof t);
            memcpy(h->name[j], h->name[j - 1], sizeof t);
            memcpy(h->name[j - 1], t, sizeof t);
            h->count[j] = h->count[j - 1];
            h->count[j - 1] = c;
        }
}

/* The executed path of a program region (see the header comment). */
static void histogram_program(csh cs, const uint8_t *code, size_t size, histogram *h)
{
    cs_insn *insn = cs_malloc(cs);
    uint64_t pc = 0;
    size_t guard = 0;
    while (insn && pc < size && guard++ < size) {
        const uint8_t *p = code + pc;
        size_t left = size - pc;
        uint64_t addr = pc;
        if (!cs_disasm_iter(cs, &p, &left, &addr, insn))
            break;
        hist_add(h, insn->mnemonic);
        pc = addr;
        if (!strcmp(insn->mnemonic, "ret"))
            break;
        if (!strcmp(insn->mnemonic, "jmp")) {
            char *end;
            unsigned long long t = strtoull(insn->op_str, &end, 0);
            if (end != insn->op_str && *end == '\0' && t > insn->address && t < size)
                pc = t;
        }
    }
    cs_free(insn, 1);
}

/* "0x1a2b: mov rax, rbx (48 89 d8)" for the instruction covering off. */
static void describe(csh cs, const uint8_t *code, size_t size, size_t off, char *out, size_t cap)
{
    cs_insn *insn = cs_malloc(cs);
    const uint8_t *p = code;
    size_t left = size;
    uint64_t addr = 0;
    snprintf(out, cap, "0x%zx: (no instruction decodes here)", off);
    while (insn && cs_disasm_iter(cs, &p, &left, &addr, insn)) {
        if (off < insn->address + insn->size) {
            char hex[3 * 16 + 1] = "";
            size_t h = 0;
            for (int i = 0; i < insn->size && i < 16; i++)
                h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", insn->bytes[i]);
            snprintf(out, cap, "0x%llx: %s %s (%s)", (unsigned long long)insn->address,
                     insn->mnemonic, insn->op_str, hex);
            break;
        }
    }
    cs_free(insn, 1);
}

/* End of the chain of NOP instructions (any encoding: nop, nopw, nopl, with
 * prefixes) that starts at s; s when the instruction at s is no NOP. */
static size_t nop_chain_end(csh cs, cs_insn *insn, const uint8_t *code, size_t size, size_t s)
{
    size_t p = s;
    while (p < size) {
        const uint8_t *c = code + p;
        size_t left = size - p;
        uint64_t addr = p;
        if (!cs_disasm_iter(cs, &c, &left, &addr, insn) || !strstr(insn->mnemonic, "nop"))
            break;
        p = (size_t)addr;
    }
    return p;
}

/* Alignment padding: when both sides hold NOP chains that start at the same
 * offset s <= x (at most 15 bytes back: the longest x86 instruction) and end
 * at the same offset e > x, the difference at x is only the assembler's
 * choice of NOP encodings; returns e, else 0. */
static size_t nop_padding_end(csh cs, const uint8_t *a, const uint8_t *b, size_t size, size_t x)
{
    cs_insn *insn = cs_malloc(cs);
    size_t found = 0;
    for (size_t back = 0; insn && !found && back <= 15 && back <= x; back++) {
        size_t s = x - back;
        size_t ea = nop_chain_end(cs, insn, a, size, s), eb = nop_chain_end(cs, insn, b, size, s);
        if (ea > x && ea == eb)
            found = ea;
    }
    cs_free(insn, 1);
    return found;
}

static void compare_one(bg_checks *chk, csh cs, const jit_capture_file *ref, const char *rname,
                        const char *name, const char *dir)
{
    char check[300];
    snprintf(check, sizeof check, "digest.build.%s.jit_equal", name);
    cJSON *d = cJSON_CreateObject();
    char want[200];
    snprintf(want, sizeof want, "the %zu bytes of %s's capture", ref->bytes, rname);
    jit_capture_file v;
    bg_status st = jit_capture_load(dir, &v);
    if (st) {
        /* no .json: the capture did not run (its own test says why); anything
         * else is a capture that exists but is unusable */
        char path[4096], why[700];
        snprintf(path, sizeof path, "%s/jit-capture.json", dir);
        FILE *f = fopen(path, "r");
        int missing = f == NULL;
        if (f)
            fclose(f);
        snprintf(why, sizeof why, "%s: %s (see digest.build.%s.jit_capture)",
                 missing ? "no capture" : "unusable capture", bg_last_error(), name);
        build_matrix_cell(d, name, "JIT bytes equal", missing ? "no capture" : "unusable");
        bg_check_emit_str(chk, check, missing ? BG_SKIP : BG_FAIL, want, why, d);
        return;
    }
    /* Differences that are only NOP padding (nop_padding_end) are counted and
     * skipped; the first other difference fails. */
    jit_capture_diff diff, first_pad;
    memset(&first_pad, 0, sizeof first_pad);
    long pad_places = 0, pad_bytes = 0;
    size_t from = 0;
    for (;;) {
        jit_capture_compare(ref, &v, from, &diff);
        if (diff.offset < 0 || diff.layout_differs)
            break;
        const jit_capture_region *r = &ref->r[diff.region];
        size_t e = nop_padding_end(cs, ref->data + r->offset, v.data + r->offset, r->size,
                                   diff.in_region);
        if (!e)
            break;
        if (pad_places++ == 0) {
            first_pad = diff;
            first_pad.role = first_pad.role_buf; /* not diff's buffer */
        }
        pad_bytes += (long)(e - diff.in_region);
        from = r->offset + e;
    }
    if (diff.offset < 0) {
        char obs[600], cell[64] = "yes";
        int n = snprintf(obs, sizeof obs, "equal (%zu bytes, %d regions)", v.bytes, v.nregions);
        if (pad_places) {
            const jit_capture_region *r = &ref->r[first_pad.region];
            char a[200], b[200];
            describe(cs, ref->data + r->offset, r->size, first_pad.in_region, a, sizeof a);
            describe(cs, v.data + r->offset, r->size, first_pad.in_region, b, sizeof b);
            snprintf(obs + n, sizeof obs - (size_t)n,
                     " but for NOP padding in %ld places (%ld bytes; the first at byte %ld, region "
                     "%d '%s', offset 0x%zx: %s: %s | %s: %s)",
                     pad_places, pad_bytes, first_pad.offset, first_pad.region, first_pad.role,
                     first_pad.in_region, rname, a, name, b);
            snprintf(cell, sizeof cell, "NOP padding only");
            cJSON_AddNumberToObject(d, "nop_padding_places", (double)pad_places);
            cJSON_AddNumberToObject(d, "nop_padding_bytes_from_first_difference", (double)pad_bytes);
        }
        build_matrix_cell(d, name, "JIT bytes equal", cell);
        bg_check_emit_str(chk, check, BG_PASS, want, obs, d);
    } else {
        char a[200] = "(past its end)", b[200] = "(past its end)", obs[900];
        if (diff.region >= 0 && diff.region < ref->nregions)
            describe(cs, ref->data + ref->r[diff.region].offset, ref->r[diff.region].size,
                     diff.in_region, a, sizeof a);
        if (diff.region >= 0 && diff.region < v.nregions)
            describe(cs, v.data + v.r[diff.region].offset, v.r[diff.region].size, diff.in_region,
                     b, sizeof b);
        snprintf(obs, sizeof obs,
                 "%s differs from %s at byte %ld (region %d '%s', offset 0x%zx): %s: %s | %s: %s",
                 name, rname, diff.offset, diff.region, diff.role, diff.in_region, rname, a, name, b);
        cJSON_AddNumberToObject(d, "first_difference", (double)diff.offset);
        cJSON_AddNumberToObject(d, "region", diff.region);
        cJSON_AddNumberToObject(d, "region_offset", (double)diff.in_region);
        cJSON_AddStringToObject(d, "reference_instruction", a);
        cJSON_AddStringToObject(d, "variant_instruction", b);
        char cell[64];
        snprintf(cell, sizeof cell, "no (byte %ld)", diff.offset);
        build_matrix_cell(d, name, "JIT bytes equal", cell);
        bg_check_emit_str(chk, check, BG_FAIL, want, obs, d);
    }
    jit_capture_free(&v);
}

static void write_histogram_md(const histogram *h, const char *rname)
{
    FILE *f = bg_fragment_open("digest_agreement", "digest.build.jit_histogram");
    if (!f)
        return;
    fprintf(f, "#### JIT: emitted instruction classes (%s, program 0 of the fixed hash)\n\n", rname);
    fprintf(f, "%ld instructions on the executed path of program 0 (prologue, the program, "
               "loop, epilogue), counted by Capstone mnemonic.\n\n| mnemonic | count | %% |\n|---|---:|---:|\n",
            h->total);
    for (int i = 0; i < h->n; i++)
        fprintf(f, "| %s | %ld | %.1f |\n", h->name[i], h->count[i],
                100.0 * (double)h->count[i] / (double)(h->total ? h->total : 1));
    fclose(f);
}

static int split(char *arg, char **name, char **dir)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return -1;
    *eq = '\0';
    *name = arg;
    *dir = eq + 1;
    return 0;
}

static const char usage_text[] =
    "Usage: bg-jit-compare --reference NAME=DIR [NAME=DIR ...]\n"
    "  DIR holds NAME's jit-capture.json + jit-capture.bin (bg-jit-capture --out DIR).\n"
    "Checks digest.build.<NAME>.jit_equal: every variant's captured JIT code equals the\n"
    "reference's byte for byte (NOP alignment padding told apart and reported); a\n"
    "difference names the first differing offset, its region and the instruction on\n"
    "both sides (Capstone).  Histogram of the reference's program 0 by mnemonic.\n"
    "Exit: 0 pass, 1 a check failed, 2 usage, 5 the reference's capture is unusable.\n"
    "Docs: docs/digest_agreement.md \"JIT emission equality\".\n";

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    char *rname, *rdir;
    if (argc >= 2 && argv[1][0] == '-' && strcmp(argv[1], "--reference") != 0) {
        bg_errorf("bg-jit-compare", "unknown option '%s' (see bg-jit-compare --help)", argv[1]);
        return BG_EXIT_USAGE;
    }
    if (argc < 3 || strcmp(argv[1], "--reference") || split(argv[2], &rname, &rdir)) {
        bg_errorf("bg-jit-compare", "usage: bg-jit-compare --reference NAME=DIR [NAME=DIR ...] (see bg-jit-compare --help)");
        return BG_EXIT_USAGE;
    }
    for (int i = 3; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || !eq[1]) {
            bg_errorf("bg-jit-compare", "'%s': NAME=DIR expected", argv[i]);
            return BG_EXIT_USAGE;
        }
    }
    bg_checks *chk = bg_checks_open("digest_agreement");
    if (!chk)
        return BG_EXIT_IO;
    char rcheck[300];
    snprintf(rcheck, sizeof rcheck, "digest.build.%s.jit_equal", rname);
    jit_capture_file ref;
    bg_status st = jit_capture_load(rdir, &ref);
    if (st) {
        cJSON *d = cJSON_CreateObject();
        build_matrix_cell(d, rname, "JIT bytes equal", "no capture");
        bg_check_emit_str(chk, rcheck, BG_FAIL, "the reference's capture", bg_last_error(), d);
        bg_checks_close(chk);
        return BG_EXIT_FIXTURE;
    }
    csh cs;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
        bg_errorf("bg-jit-compare", "Capstone was built without x86");
        bg_check_emit_str(chk, rcheck, BG_SKIP, "Capstone with x86", bg_last_error(), NULL);
        jit_capture_free(&ref);
        return bg_checks_close(chk);
    }
    cs_option(cs, CS_OPT_SKIPDATA, CS_OPT_ON);
    histogram h;
    memset(&h, 0, sizeof h);
    for (int i = 0; i < ref.nregions; i++)
        if (!strcmp(ref.r[i].role, "program") && ref.r[i].program == 0)
            histogram_program(cs, ref.data + ref.r[i].offset, ref.r[i].size, &h);
    hist_sort(&h);
    cJSON *d = cJSON_CreateObject();
    cJSON *hj = cJSON_AddObjectToObject(d, "program0_mnemonics");
    for (int i = 0; i < h.n; i++)
        cJSON_AddNumberToObject(hj, h.name[i], (double)h.count[i]);
    build_matrix_cell(d, rname, "JIT bytes equal", "reference");
    char obs[200];
    snprintf(obs, sizeof obs, "reference: %zu bytes, %d regions; program 0: %ld instructions", ref.bytes,
             ref.nregions, h.total);
    bg_check_emit_str(chk, rcheck, h.total > 0 ? BG_PASS : BG_FAIL,
                      "a capture whose program 0 disassembles", obs, d);
    write_histogram_md(&h, rname);
    for (int i = 3; i < argc; i++) {
        char *n, *dd;
        split(argv[i], &n, &dd);
        compare_one(chk, cs, &ref, rname, n, dd);
    }
    cs_close(&cs);
    jit_capture_free(&ref);
    return bg_checks_close(chk);
}
