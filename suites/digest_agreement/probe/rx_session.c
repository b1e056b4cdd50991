#define _POSIX_C_SOURCE 200809L
#include "rx_session.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buildgate/bg_cpu.h"
#include "buildgate/bg_guard.h"
#include "buildgate/bg_hex.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_wx.h"

double rx_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* rx_dataset_build_options(): the items a build makes and who hears its progress */
static unsigned long build_items;
static rx_progress_fn build_progress;
static void *build_progress_arg;

void rx_dataset_build_options(unsigned long items, rx_progress_fn fn, void *arg)
{
    build_items = items;
    build_progress = fn;
    build_progress_arg = arg;
}

void rx_dataset_progress(unsigned long done, unsigned long total, const char *phase)
{
    if (build_progress)
        build_progress(build_progress_arg, done, total, phase);
}

unsigned long rx_dataset_items(void)
{
    unsigned long all = randomx_dataset_item_count();
    return build_items && build_items < all ? build_items : all;
}

static size_t dataset_bytes(void) { return (size_t)randomx_dataset_item_count() * 64; }

/* Says why the host cannot run flags, or BG_OK. */
static bg_status check_host(randomx_flags flags)
{
    int f = (int)flags;
    bg_cpu_features cpu;
    bg_cpu_detect(&cpu);
    if ((f & RANDOMX_FLAG_JIT) && !(randomx_get_flags() & RANDOMX_FLAG_JIT))
        return bg_fail(BG_E_UNSUPPORTED, "randomx", "this platform has no RandomX JIT compiler");
    if (f & RANDOMX_FLAG_JIT) { /* before RandomX tries (and throws "mprotect failed") */
        bg_status st = bg_wx_require("randomx", (f & RANDOMX_FLAG_SECURE) != 0);
        if (st)
            return st;
    }
    if ((f & RANDOMX_FLAG_HARD_AES) && !cpu.aes)
        return bg_fail(BG_E_UNSUPPORTED, "randomx", "hard-aes: this CPU has no AES instructions");
    if ((f & RANDOMX_FLAG_FULL_MEM)) {
        bg_host h;
        bg_host_probe(&h);
        unsigned long long need = (unsigned long long)rx_dataset_items() * 64 + (300ULL << 20);
        if (h.mem_available && h.mem_available < need)
            return bg_fail(BG_E_UNSUPPORTED, "randomx",
                           "full-mem needs %llu MiB, only %llu MiB available", need >> 20,
                           h.mem_available >> 20);
    }
    return BG_OK;
}

/* The RandomX calls that can throw or abort, each run under bg_guard_call. */
typedef struct rx_call {
    rx_session *s;
    const void *key;
    size_t key_len;
} rx_call;

static void do_alloc_cache(void *a)
{
    rx_session *s = ((rx_call *)a)->s;
    s->cache = randomx_alloc_cache(s->flags);
}

static void do_init_cache(void *a)
{
    rx_call *c = a;
    randomx_init_cache(c->s->cache, c->key, c->key_len);
}

static void do_alloc_dataset(void *a)
{
    rx_session *s = ((rx_call *)a)->s;
    s->dataset = randomx_alloc_dataset(s->flags);
}

static void do_create_vm(void *a)
{
    rx_session *s = ((rx_call *)a)->s;
    s->vm = randomx_create_vm(s->flags, (s->flags & RANDOMX_FLAG_FULL_MEM) ? NULL : s->cache,
                              s->dataset);
}

static void do_set_memory(void *a)
{
    rx_session *s = ((rx_call *)a)->s;
    if (s->flags & RANDOMX_FLAG_FULL_MEM)
        randomx_vm_set_dataset(s->vm, s->dataset);
    else
        randomx_vm_set_cache(s->vm, s->cache); /* the secure JIT recompiles here */
}

/* bg_guard_call of fn; a session whose RandomX call threw or aborted is
 * marked broken (rx_session_close then leaves its objects alone). */
static bg_status guarded(rx_session *s, const char *call, bg_guard_fn fn, const void *key,
                         size_t key_len)
{
    rx_call c = {s, key, key_len};
    bg_status st = bg_guard_call("RandomX", call, fn, &c);
    if (st)
        s->broken = 1;
    return st;
}

static bg_status alloc_cache(rx_session *s)
{
    bg_status gst = guarded(s, "randomx_alloc_cache", do_alloc_cache, NULL, 0);
    if (gst)
        return gst;
    if (s->cache)
        return BG_OK;
    int f = (int)s->flags;
    if (f & RANDOMX_FLAG_LARGE_PAGES)
        return bg_fail(BG_E_UNSUPPORTED, "randomx",
                       "large-pages: allocation refused (no huge pages reserved: vm.nr_hugepages)");
    if (f & RANDOMX_FLAG_ARGON2)
        return bg_fail(BG_E_UNSUPPORTED, "randomx",
                       "argon2=%s: not supported by this CPU or library",
                       (f & RANDOMX_FLAG_ARGON2) == RANDOMX_FLAG_ARGON2_AVX2 ? "avx2" : "ssse3");
    return bg_fail(BG_E_TARGET, bg_guard_tool(), "RandomX failed: randomx_alloc_cache(%d) returned NULL",
                   f);
}

typedef struct {
    randomx_dataset *ds;
    randomx_cache *cache;
    unsigned long start, count;
    atomic_ulong *done; /* items built so far, all threads */
} init_slice;

/* Builds the slice in chunks of 16384 items (1 MiB), counting them in *done. */
static void *init_worker(void *arg)
{
    init_slice *sl = arg;
    const unsigned long chunk = 16384;
    for (unsigned long at = 0; at < sl->count; at += chunk) {
        unsigned long n = sl->count - at < chunk ? sl->count - at : chunk;
        randomx_init_dataset(sl->ds, sl->cache, sl->start + at, n);
        atomic_fetch_add(sl->done, n);
    }
    return NULL;
}

/* randomx_init_dataset over rx_dataset_items() items, split across
 * s->init_threads threads; this thread reports the progress about every
 * 0.2 s (rx_dataset_build_options). */
static void build_dataset(rx_session *s)
{
    unsigned long items = rx_dataset_items();
    int nt = s->init_threads > 0 ? s->init_threads : 1;
    if (nt > 64)
        nt = 64;
    pthread_t th[64];
    int started[64];
    init_slice sl[64];
    atomic_ulong done;
    atomic_init(&done, 0);
    bg_guard_region_begin("RandomX", "randomx_init_dataset"); /* worker threads too */
    unsigned long per = items / (unsigned long)nt;
    for (int i = 0; i < nt; i++) {
        sl[i] = (init_slice){s->dataset, s->cache, per * (unsigned long)i,
                             i == nt - 1 ? items - per * (unsigned long)i : per, &done};
        started[i] = pthread_create(&th[i], NULL, init_worker, &sl[i]) == 0;
        if (!started[i]) /* could not start a thread: do its slice here */
            init_worker(&sl[i]);
    }
    for (;;) {
        unsigned long d = atomic_load(&done);
        rx_dataset_progress(d, items, NULL);
        if (d >= items)
            break;
        struct timespec ts = {0, 200000000L};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < nt; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    bg_guard_region_end();
}

static void dataset_path(const char *dir, const void *key, size_t key_len, char *out, size_t n)
{
    char hex[2 * 128 + 1];
    size_t kl = key_len > 128 ? 128 : key_len;
    bg_hex_encode(key, kl, hex);
    snprintf(out, n, "%s/%s.rxds", dir, hex);
}

static bg_status load_dataset(rx_session *s, const void *key, size_t key_len)
{
    char path[4096];
    dataset_path(s->dataset_dir, key, key_len, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOENT) /* the setup did not make it: it failed (then CTest does not
                                  run this test), or was stopped as too slow here (a skip) */
        return bg_fail(BG_E_UNSUPPORTED, "dataset",
                       "no dataset %s: the dataset setup (digest.runtime.dataset) did not make "
                       "it; its checks say why (a skip when the host was too slow for it)", path);
    if (!f)
        return bg_fail(BG_E_IO, "dataset", "cannot open %s: %s (run the dataset setup first)",
                       path, strerror(errno));
    size_t want = dataset_bytes();
    size_t got = fread(randomx_get_dataset_memory(s->dataset), 1, want, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != want || extra)
        return bg_fail(BG_E_FIXTURE, "dataset", "%s: expected exactly %zu bytes, read %zu%s", path,
                       want, got, extra ? " and more" : "");
    return BG_OK;
}

static bg_status init_for_key(rx_session *s, const void *key, size_t key_len)
{
    if (!key || key_len == 0)
        return bg_fail(BG_E_USAGE, "randomx", "the key is empty");
    double t0 = rx_now();
    int full = (s->flags & RANDOMX_FLAG_FULL_MEM) != 0;
    if (!full || !s->dataset_dir) {
        if (!s->cache) {
            bg_status st = alloc_cache(s);
            if (st)
                return st;
        }
        bg_status st = guarded(s, "randomx_init_cache", do_init_cache, key, key_len);
        if (st)
            return st;
    }
    if (full) {
        if (!s->dataset) {
            bg_status st = guarded(s, "randomx_alloc_dataset", do_alloc_dataset, NULL, 0);
            if (st)
                return st;
            if (!s->dataset && (s->flags & RANDOMX_FLAG_LARGE_PAGES))
                return bg_fail(BG_E_UNSUPPORTED, "randomx",
                               "large-pages: dataset allocation of %zu MiB refused (not enough "
                               "huge pages reserved: vm.nr_hugepages)",
                               dataset_bytes() >> 20);
            if (!s->dataset)
                return bg_fail(BG_E_TARGET, bg_guard_tool(),
                               "RandomX failed: randomx_alloc_dataset(%d) returned NULL (%zu MiB)",
                               (int)s->flags, dataset_bytes() >> 20);
        }
        if (s->dataset_dir) {
            bg_status st = load_dataset(s, key, key_len);
            if (st)
                return st;
        } else {
            build_dataset(s);
        }
    }
    s->init_seconds = rx_now() - t0;
    return BG_OK;
}

bg_status rx_session_open(rx_session *s, randomx_flags flags, const void *key, size_t key_len,
                          int init_threads, const char *dataset_dir)
{
    memset(s, 0, sizeof *s);
    s->flags = flags;
    s->init_threads = init_threads > 0 ? init_threads : 1;
    s->dataset_dir = dataset_dir;
    if (!key || key_len == 0)
        return bg_fail(BG_E_USAGE, "randomx", "the key is empty");
    bg_status st = check_host(flags);
    if (!st)
        st = init_for_key(s, key, key_len);
    if (!st) {
        st = guarded(s, "randomx_create_vm", do_create_vm, NULL, 0);
        if (!st && !s->vm)
            st = bg_fail(BG_E_TARGET, bg_guard_tool(),
                         "RandomX failed: randomx_create_vm(%d) returned NULL", (int)flags);
    }
    if (st)
        rx_session_close(s);
    return st;
}

bg_status rx_session_rekey(rx_session *s, const void *key, size_t key_len)
{
    bg_status st = init_for_key(s, key, key_len);
    if (st)
        return st;
    return guarded(s,
                   (s->flags & RANDOMX_FLAG_FULL_MEM) ? "randomx_vm_set_dataset"
                                                      : "randomx_vm_set_cache",
                   do_set_memory, NULL, 0);
}

void rx_session_close(rx_session *s)
{
    if (s->broken) { /* RandomX threw or aborted: its objects are in an unknown state */
        s->vm = NULL;
        s->dataset = NULL;
        s->cache = NULL;
        return;
    }
    if (s->vm)
        randomx_destroy_vm(s->vm);
    if (s->dataset)
        randomx_release_dataset(s->dataset);
    if (s->cache)
        randomx_release_cache(s->cache);
    s->vm = NULL;
    s->dataset = NULL;
    s->cache = NULL;
}

bg_status rx_dataset_dir_check(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/.bg-writable.%ld", dir, (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return bg_fail(BG_E_IO, "dataset", "cannot write datasets into %s: %s", dir,
                       strerror(errno));
    fclose(f);
    remove(path);
    return BG_OK;
}

uint64_t rx_dataset_checksum(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) { /* one 64-bit little-endian word at a time */
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--)
            w = w << 8 | b[i + (size_t)k];
        h = (h ^ w) * 0x100000001b3ULL;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

bg_status rx_dataset_write(const rx_session *s, const char *path, uint64_t *checksum)
{
    if (!s->dataset)
        return bg_fail(BG_E_USAGE, "dataset", "no dataset to save (needs full-mem)");
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return bg_fail(BG_E_IO, "dataset", "cannot create %s: %s", tmp, strerror(errno));
    const unsigned char *mem = randomx_get_dataset_memory(s->dataset);
    size_t n = (size_t)rx_dataset_items() * 64, chunk = (size_t)64 << 20;
    uint64_t h = RX_DATASET_CHECKSUM_SEED;
    int ok = 1;
    for (size_t at = 0; at < n && ok; at += chunk) {
        size_t k = n - at < chunk ? n - at : chunk;
        ok = fwrite(mem + at, 1, k, f) == k;
        h = rx_dataset_checksum(h, mem + at, k);
        char phase[64];
        snprintf(phase, sizeof phase, "saving: %zu of %zu MiB written", (at + k) >> 20, n >> 20);
        rx_dataset_progress(rx_dataset_items(), rx_dataset_items(), phase);
    }
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return bg_fail(BG_E_IO, "dataset", "cannot write %s: %s", path, strerror(errno));
    }
    if (checksum)
        *checksum = h;
    return BG_OK;
}

bg_status rx_dataset_save(const rx_session *s, const char *dir, const void *key, size_t key_len)
{
    char path[4096];
    dataset_path(dir, key, key_len, path, sizeof path);
    return rx_dataset_write(s, path, NULL);
}
