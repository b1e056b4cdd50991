/* bg-jit-capture — captures the machine code RandomX's x86-64 JIT emits for a
 * fixed program, at the moment the secure JIT makes its buffer executable.
 *
 * Usage: bg-jit-capture --out DIR
 *   Writes DIR/jit-capture.bin (the captured regions, concatenated) and
 *   DIR/jit-capture.json (schema below).  Both are removed first, so a failed
 *   run never leaves an older capture for bg-jit-compare to read.
 *
 * How (docs/digest_agreement.md "JIT emission equality"): this program defines
 * mprotect(2) itself, so RandomX's static library (linked into it) calls this
 * definition; it forwards to the next definition (libc, or a sanitizer's) found
 * with dlsym(RTLD_NEXT).  With RANDOMX_FLAG_SECURE, RandomX 1.1.10 calls
 * setPagesRW (mprotect PROT_READ|PROT_WRITE) before compiling and setPagesRX
 * (mprotect PROT_READ|PROT_EXEC) after (src/vm_compiled_light.cpp, dataset.cpp
 * initCacheCompile): at each PROT_READ|PROT_EXEC call the region holds the
 * finished code, and its bytes are copied.
 *
 * The fixed program: key RX_CHAIN_DEFAULT_KEY, input chain message 0
 * (docs/chain.md), flags RANDOMX_FLAG_JIT|RANDOMX_FLAG_SECURE, light memory
 * (no AES flag: hard AES changes which C++ code fills the scratchpad, not
 * what the JIT emits).  Regions, in order: "cache" (dataset-init +
 * SuperscalarHash code of the cache's compiler, at randomx_init_cache),
 * "vm" (the light VM's SuperscalarHash copy, at randomx_create_vm), then
 * "program 0" .. "program 7" (RANDOMX_PROGRAM_COUNT programs of one hash).
 *
 * Address independence: the fixed program is captured twice in one process,
 * the first session kept alive so the second one's buffers lie at other
 * addresses; check <test>.repeat fails when the bytes differ (the code would
 * then embed an address and need masking before comparing across variants).
 *
 * jit-capture.json: {"schema":1,"tool":"bg-jit-capture","key":str,
 *   "input_hex":hex,"flags":int,"digest":hex64,"bytes":n,
 *   "regions":[{"role":"cache"|"vm"|"program","program":k (programs only),
 *               "offset":bytes into .bin,"size":bytes}]}
 *
 * Checks: <BG_TEST_NAME> (default digest.jit_capture): regions captured, with
 * RANDOMX_PROGRAM_COUNT programs; <BG_TEST_NAME>.repeat: two captures equal.
 * Exit 0 pass, 1 fail, 2 usage, 3 I/O, 7 RandomX failed ("buildgate:
 * bg-jit-capture: RandomX failed: <call>: <why>", also for a C++ exception or
 * abort inside RandomX, bg_guard.h), 77 skip (macOS arm64: RandomX uses
 * pthread_jit_write_protect_np, which names no region; a host that forbids
 * making writable memory executable, bg_wx.h: the secure JIT cannot run).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cjson/cJSON.h>
#include <randomx.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_guard.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_hex.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_wx.h"
#include "jit_capture_file.h"
#include "rx_chain.h"

#define MAX_REGIONS JIT_CAPTURE_MAX_REGIONS

typedef struct region {
    const char *role; /* "cache", "vm", "program" */
    int program;      /* 0.. for "program", else -1 */
    uint8_t *bytes;
    size_t size;
    uintptr_t addr; /* where it was (not stored: differs run to run) */
} region;

typedef struct capture {
    region r[MAX_REGIONS];
    int n;
    int overflow;
    uint8_t digest[32];
} capture;

/* The capture being filled (NULL: not armed) and the role of the next region. */
static capture *g_cap;
static const char *g_role = "cache";
static int g_program = -1;

typedef int (*mprotect_fn)(void *, size_t, int);
static mprotect_fn g_real_mprotect;

static int resolve_real(void)
{
    if (!g_real_mprotect) {
        void *p = dlsym(RTLD_NEXT, "mprotect");
        memcpy(&g_real_mprotect, &p, sizeof p); /* POSIX: dlsym's object pointer to a function */
    }
    return g_real_mprotect != NULL;
}

int mprotect(void *addr, size_t len, int prot)
{
    if (!resolve_real())
        return -1;
    if (g_cap && prot == (PROT_READ | PROT_EXEC)) {
        if (g_cap->n >= MAX_REGIONS) {
            g_cap->overflow = 1;
        } else {
            region *r = &g_cap->r[g_cap->n];
            r->bytes = malloc(len);
            if (r->bytes) {
                memcpy(r->bytes, addr, len); /* still readable: RW until the call below */
                r->size = len;
                r->addr = (uintptr_t)addr;
                r->role = g_role;
                r->program = g_program;
                g_cap->n++;
                if (g_program >= 0)
                    g_program++;
            }
        }
    }
    return g_real_mprotect(addr, len, prot);
}

typedef struct session {
    randomx_cache *cache;
    randomx_vm *vm;
    const uint8_t *msg;
    uint8_t *digest;
} session;

/* The RandomX calls of a capture, each run under bg_guard_call (a C++
 * exception or abort inside RandomX: exit 7 with one line, not signal 6). */
static const randomx_flags capture_flags = RANDOMX_FLAG_JIT | RANDOMX_FLAG_SECURE;

static void do_alloc_cache(void *a) { ((session *)a)->cache = randomx_alloc_cache(capture_flags); }

static void do_init_cache(void *a)
{
    randomx_init_cache(((session *)a)->cache, RX_CHAIN_DEFAULT_KEY, strlen(RX_CHAIN_DEFAULT_KEY));
}

static void do_create_vm(void *a)
{
    session *s = a;
    s->vm = randomx_create_vm(capture_flags, s->cache, NULL);
}

static void do_hash(void *a)
{
    session *s = a;
    randomx_calculate_hash(s->vm, s->msg, RX_CHAIN_MSG_LEN, s->digest);
}

/* One capture of the fixed program; s stays allocated (caller frees). */
static bg_status capture_once(capture *cap, session *s)
{
    uint8_t msg[RX_CHAIN_MSG_LEN];
    rx_chain_message(0, NULL, msg);
    memset(cap, 0, sizeof *cap);
    s->msg = msg;
    s->digest = cap->digest;
    g_cap = cap;
    g_role = "cache";
    g_program = -1;
    bg_status st = bg_guard_call("RandomX", "randomx_alloc_cache", do_alloc_cache, s);
    if (!st && s->cache)
        st = bg_guard_call("RandomX", "randomx_init_cache", do_init_cache, s);
    g_role = "vm";
    if (!st && s->cache)
        st = bg_guard_call("RandomX", "randomx_create_vm", do_create_vm, s);
    if (!st && s->vm) {
        g_role = "program";
        g_program = 0;
        st = bg_guard_call("RandomX", "randomx_calculate_hash", do_hash, s);
    }
    g_cap = NULL;
    if (st) { /* RandomX threw or aborted: its objects are left alone */
        s->cache = NULL;
        s->vm = NULL;
        return st;
    }
    if (!s->vm)
        return bg_fail(BG_E_TARGET, "bg-jit-capture",
                       "RandomX failed: randomx_alloc_cache/randomx_create_vm(JIT|SECURE) returned "
                       "NULL");
    return BG_OK;
}

static void capture_free(capture *cap)
{
    for (int i = 0; i < cap->n; i++)
        free(cap->r[i].bytes);
    cap->n = 0;
}

static void session_free(session *s)
{
    if (s->vm)
        randomx_destroy_vm(s->vm);
    if (s->cache)
        randomx_release_cache(s->cache);
}

/* The capture as the file holds it: regions concatenated (f->data owned). */
static bg_status to_file(const capture *cap, jit_capture_file *f)
{
    memset(f, 0, sizeof *f);
    size_t total = 0;
    for (int i = 0; i < cap->n; i++)
        total += cap->r[i].size;
    f->data = malloc(total ? total : 1);
    if (!f->data)
        return bg_fail(BG_E_NOMEM, "bg-jit-capture", "%zu bytes: out of memory", total);
    for (int i = 0; i < cap->n && i < JIT_CAPTURE_MAX_REGIONS; i++) {
        jit_capture_region *r = &f->r[f->nregions++];
        snprintf(r->role, sizeof r->role, "%s", cap->r[i].role);
        r->program = cap->r[i].program;
        r->offset = f->bytes;
        r->size = cap->r[i].size;
        memcpy(f->data + f->bytes, cap->r[i].bytes, r->size);
        f->bytes += r->size;
    }
    return BG_OK;
}

static bg_status write_capture(const jit_capture_file *cap, const uint8_t digest[32],
                               const char *dir)
{
    char bin[4096], json[4096];
    snprintf(bin, sizeof bin, "%s/jit-capture.bin", dir);
    snprintf(json, sizeof json, "%s/jit-capture.json", dir);
    FILE *f = fopen(bin, "wb");
    if (!f)
        return bg_fail(BG_E_IO, "bg-jit-capture", "%s: cannot create", bin);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "schema", 1);
    cJSON_AddStringToObject(doc, "tool", "bg-jit-capture");
    cJSON_AddStringToObject(doc, "key", RX_CHAIN_DEFAULT_KEY);
    uint8_t msg[RX_CHAIN_MSG_LEN];
    char hex[2 * RX_CHAIN_MSG_LEN + 1];
    rx_chain_message(0, NULL, msg);
    bg_hex_encode(msg, sizeof msg, hex);
    cJSON_AddStringToObject(doc, "input_hex", hex);
    cJSON_AddNumberToObject(doc, "flags", RANDOMX_FLAG_JIT | RANDOMX_FLAG_SECURE);
    bg_hex_encode(digest, 32, hex);
    cJSON_AddStringToObject(doc, "digest", hex);
    cJSON *regs = cJSON_AddArrayToObject(doc, "regions");
    int bad = fwrite(cap->data, 1, cap->bytes, f) != cap->bytes;
    for (int i = 0; i < cap->nregions; i++) {
        const jit_capture_region *r = &cap->r[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "role", r->role);
        if (r->program >= 0)
            cJSON_AddNumberToObject(o, "program", r->program);
        cJSON_AddNumberToObject(o, "offset", (double)r->offset);
        cJSON_AddNumberToObject(o, "size", (double)r->size);
        cJSON_AddItemToArray(regs, o);
    }
    cJSON_AddNumberToObject(doc, "bytes", (double)cap->bytes);
    bad |= fclose(f) != 0;
    bg_status st = bad ? bg_fail(BG_E_IO, "bg-jit-capture", "%s: write failed", bin)
                       : bg_json_write_atomic(json, doc);
    cJSON_Delete(doc);
    return st;
}

static const char usage_text[] =
    "Usage: bg-jit-capture --out DIR\n"
    "  Captures the code RandomX's secure JIT emits for a fixed program (key and\n"
    "  input of docs/chain.md, light memory) at each mprotect(PROT_READ|PROT_EXEC),\n"
    "  twice, and writes DIR/jit-capture.bin + DIR/jit-capture.json (replaced).\n"
    "Checks <BG_TEST_NAME> (capture made) and <BG_TEST_NAME>.repeat (both captures equal).\n"
    "Exit: 0 pass, 1 fail, 2 usage, 3 I/O, 7 RandomX failed, 77 skip (macOS arm64).\n"
    "Docs: docs/digest_agreement.md \"JIT emission equality\".\n";

int main(int argc, char **argv)
{
    bg_guard_set_tool("bg-jit-capture");
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    if (argc != 3 || strcmp(argv[1], "--out")) {
        bg_errorf("bg-jit-capture", "usage: bg-jit-capture --out DIR (see bg-jit-capture --help)");
        return BG_EXIT_USAGE;
    }
    const char *dir = argv[2];
    char path[4096];
    snprintf(path, sizeof path, "%s/jit-capture.bin", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/jit-capture.json", dir);
    remove(path);
    char name[300], rname[320];
    snprintf(name, sizeof name, "%s", bg_test_name("digest.jit_capture"));
    snprintf(rname, sizeof rname, "%s.repeat", name);
    bg_checks *chk = bg_checks_open("digest_agreement");
    if (!chk)
        return BG_EXIT_IO;
#if defined(__APPLE__) && defined(__aarch64__)
    const int names_no_region = 1; /* RandomX's USE_PTHREAD_JIT_WP (virtual_memory.cpp) */
#else
    const int names_no_region = 0;
#endif
    if (names_no_region) {
        bg_check_emit_str(chk, name, BG_SKIP, "the JIT region at its RX transition",
                          "macOS arm64: RandomX switches W^X with pthread_jit_write_protect_np, "
                          "which names no region; not captured", NULL);
        return bg_checks_close(chk);
    }
    if (bg_wx_require("bg-jit-capture", 1)) { /* before RandomX throws "mprotect failed" */
        bg_check_emit_str(chk, name, BG_SKIP, "a host that lets the secure JIT run",
                          bg_last_error(), NULL);
        return bg_checks_close(chk);
    }
    if (!resolve_real()) {
        bg_errorf("bg-jit-capture", "dlsym(RTLD_NEXT, \"mprotect\"): %s", dlerror());
        bg_check_emit_str(chk, name, BG_FAIL, "mprotect forwarded", bg_last_error(), NULL);
        bg_checks_close(chk);
        return BG_EXIT_TARGET;
    }
    capture a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    session sa = {0}, sb = {0};
    bg_status st = capture_once(&a, &sa);
    if (!st)
        st = capture_once(&b, &sb); /* sa still alive: other buffer addresses */
    const bg_status rx_st = st; /* BG_E_TARGET: RandomX failed (exit 7) */
    int programs = 0;
    for (int i = 0; i < a.n; i++)
        programs += !strcmp(a.r[i].role, "program");
    char obs[256];
    snprintf(obs, sizeof obs, "%d regions (%d programs)%s", a.n, programs,
             a.overflow ? ", overflow: more RX transitions than kept" : "");
    char want[128];
    snprintf(want, sizeof want, "cache + vm + %d program regions", RX_PROGRAMS_PER_HASH);
    if (st) {
        bg_check_emit_str(chk, name, BG_FAIL, want, bg_last_error(), NULL);
    } else {
        int ok = programs == RX_PROGRAMS_PER_HASH && a.n == RX_PROGRAMS_PER_HASH + 2 && !a.overflow;
        jit_capture_file fa, fb;
        st = to_file(&a, &fa);
        if (!st) {
            st = to_file(&b, &fb);
            if (st)
                jit_capture_free(&fa);
        }
        if (!st && ok)
            st = write_capture(&fa, a.digest, dir);
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "capture", path);
        bg_check_emit_str(chk, name, st ? BG_FAIL : ok ? BG_PASS : BG_FAIL, want,
                          st ? bg_last_error() : obs, d);
        if (!st) {
            jit_capture_diff diff;
            jit_capture_compare(&fa, &fb, 0, &diff);
            char o2[200];
            if (diff.offset < 0)
                snprintf(o2, sizeof o2, "equal (%d regions)", fb.nregions);
            else
                snprintf(o2, sizeof o2, "first difference at byte %ld (region %d '%s', offset 0x%zx)",
                         diff.offset, diff.region, diff.role, diff.in_region);
            cJSON *d2 = cJSON_CreateObject();
            int moved = 0;
            for (int i = 0; i < a.n && i < b.n; i++)
                moved += a.r[i].addr != b.r[i].addr;
            cJSON_AddNumberToObject(d2, "regions_at_other_addresses", moved);
            bg_check_emit_str(chk, rname, diff.offset < 0 ? BG_PASS : BG_FAIL,
                              "two captures in one process (other buffer addresses) equal", o2, d2);
            jit_capture_free(&fa);
            jit_capture_free(&fb);
        }
    }
    capture_free(&a);
    capture_free(&b);
    session_free(&sa);
    session_free(&sb);
    int rc = bg_checks_close(chk);
    return rx_st == BG_E_TARGET ? BG_EXIT_TARGET : rc;
}
