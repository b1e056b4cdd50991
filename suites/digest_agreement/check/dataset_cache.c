/* dataset_cache.c — the host's cache of RandomX datasets (dataset_cache.h). */
#define _POSIX_C_SOURCE 200809L
#include "dataset_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "buildgate/bg_guard.h"
#include "buildgate/bg_hex.h"
#include "rx_fixture.h"

static void key_hex(const void *key, size_t key_len, char out[2 * 128 + 1])
{
    bg_hex_encode(key, key_len > 128 ? 128 : key_len, out);
}

void rx_dscache_entry(const char *dir, const char *id, randomx_flags flags, const void *key,
                      size_t key_len, char *path, size_t n)
{
    char hex[2 * 128 + 1], items[32] = "";
    key_hex(key, key_len, hex);
    if (rx_dataset_items() != randomx_dataset_item_count())
        snprintf(items, sizeof items, "-n%lu", rx_dataset_items());
    snprintf(path, n, "%s/%s-%s-%s%s.rxds", dir, id, rx_algorithm((int)flags), hex, items);
}

bg_status rx_dscache_mkdir(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                return bg_fail(BG_E_IO, "dataset cache", "cannot create %s: %s", p,
                               strerror(errno));
            *s = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return bg_fail(BG_E_IO, "dataset cache", "%s is not a directory", dir);
    return BG_OK;
}

int rx_dscache_lock(const char *entry, void (*wait_fn)(void *arg, int seconds), void *arg)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.lock", entry);
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    if (fd < 0)
        return -1;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    for (int waited = 0;; waited++) {
        if (fcntl(fd, F_SETLK, &fl) == 0)
            return fd;
        if (errno != EACCES && errno != EAGAIN && errno != EINTR) {
            close(fd);
            return -1;
        }
        if (wait_fn)
            wait_fn(arg, waited);
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
}

void rx_dscache_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* releases the fcntl lock */
}

static void stamp_path(const char *entry, char *out, size_t n) { snprintf(out, n, "%s.stamp", entry); }

void rx_dscache_remove(const char *entry)
{
    char sp[4200];
    stamp_path(entry, sp, sizeof sp);
    remove(sp); /* the stamp first: a half-removed entry is never whole */
    remove(entry);
}

/* The stamp text for these fields (checksum last). */
static void stamp_text(const char *id, randomx_flags flags, const void *key, size_t key_len,
                       uint64_t checksum, char *out, size_t n)
{
    char hex[2 * 128 + 1];
    key_hex(key, key_len, hex);
    unsigned long items = rx_dataset_items();
    snprintf(out, n,
             "buildgate-randomx-dataset 1\nid %s\nalgorithm %s\nkey-hex %s\nitems %lu\n"
             "bytes %llu\nchecksum %016" PRIx64 "\n",
             id, rx_algorithm((int)flags), hex, items, (unsigned long long)items * 64ULL, checksum);
}

bg_status rx_dscache_item_word(const char *path, unsigned long item, uint64_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return bg_fail(BG_E_IO, "dataset", "cannot open %s: %s", path, strerror(errno));
    unsigned char b[8];
    int ok = fseeko(f, (off_t)item * 64, SEEK_SET) == 0 && fread(b, 1, 8, f) == 8;
    fclose(f);
    if (!ok)
        return bg_fail(BG_E_IO, "dataset", "%s: cannot read item %lu", path, item);
    uint64_t w = 0;
    for (int k = 7; k >= 0; k--)
        w = w << 8 | b[k];
    *out = w;
    return BG_OK;
}

/* Compares RX_DSCACHE_SAMPLES items of the file with randomx_init_dataset's. */
static int sample_items(const char *entry, randomx_flags flags, const void *key, size_t key_len,
                        char *why, size_t wn)
{
    unsigned long items = rx_dataset_items();
    /* the cache without the JIT (a host that forbids W+X still verifies) */
    randomx_flags cf = (randomx_flags)((int)flags & RANDOMX_FLAG_ARGON2);
    bg_guard_region_begin("RandomX", "dataset cache: randomx_init_dataset of sampled items");
    randomx_cache *cache = randomx_alloc_cache(cf);
    randomx_dataset *ds = cache ? randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT) : NULL;
    int bad = 0;
    if (!cache || !ds) {
        snprintf(why, wn, "cannot allocate RandomX's cache or dataset to verify sampled items");
        bad = 1;
    } else {
        randomx_init_cache(cache, key, key_len);
        FILE *f = fopen(entry, "rb");
        const unsigned char *mem = randomx_get_dataset_memory(ds);
        unsigned long long seed = (unsigned long long)time(NULL) ^ (unsigned long long)getpid();
        for (int i = 0; f && i < RX_DSCACHE_SAMPLES && !bad; i++) {
            unsigned long item;
            if (i == 0)
                item = 0;
            else if (i == 1)
                item = items - 1;
            else {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                item = (unsigned long)((seed >> 20) % items);
            }
            unsigned char fb[64];
            randomx_init_dataset(ds, cache, item, 1);
            if (fseeko(f, (off_t)item * 64, SEEK_SET) != 0 || fread(fb, 1, 64, f) != 64) {
                snprintf(why, wn, "cannot read item %lu of %s", item, entry);
                bad = 1;
            } else if (memcmp(fb, mem + (size_t)item * 64, 64)) {
                snprintf(why, wn,
                         "item %lu differs from the one randomx_init_dataset computes from the "
                         "key (a dataset of another RandomX or key)", item);
                bad = 1;
            }
        }
        if (!f) {
            snprintf(why, wn, "cannot open %s: %s", entry, strerror(errno));
            bad = 1;
        } else {
            fclose(f);
        }
    }
    if (ds)
        randomx_release_dataset(ds);
    if (cache)
        randomx_release_cache(cache);
    bg_guard_region_end();
    return bad;
}

int rx_dscache_verify(const char *entry, const char *id, randomx_flags flags, const void *key,
                      size_t key_len, char *why, size_t wn)
{
    char sp[4200];
    stamp_path(entry, sp, sizeof sp);
    struct stat st;
    int has_data = stat(entry, &st) == 0;
    FILE *sf = fopen(sp, "r");
    if (!sf && !has_data) {
        snprintf(why, wn, "absent");
        return 1;
    }
    if (!sf) {
        snprintf(why, wn, "no stamp (an unfinished or damaged entry)");
        return 2;
    }
    char have[2048];
    size_t hn = fread(have, 1, sizeof have - 1, sf);
    fclose(sf);
    have[hn] = '\0';
    char *cs = strstr(have, "checksum ");
    uint64_t want_sum = 0;
    if (!cs || sscanf(cs, "checksum %" SCNx64, &want_sum) != 1) {
        snprintf(why, wn, "its stamp has no checksum line");
        return 2;
    }
    char want[2048];
    stamp_text(id, flags, key, key_len, want_sum, want, sizeof want);
    if (strcmp(have, want)) {
        snprintf(why, wn, "its stamp does not name this id, algorithm, key and size");
        return 2;
    }
    unsigned long long bytes = (unsigned long long)rx_dataset_items() * 64ULL;
    if (!has_data) {
        snprintf(why, wn, "the dataset file is missing");
        return 2;
    }
    if ((unsigned long long)st.st_size != bytes) {
        snprintf(why, wn, "it has %lld bytes where the stamp says %llu", (long long)st.st_size,
                 bytes);
        return 2;
    }
    FILE *f = fopen(entry, "rb");
    if (!f) {
        snprintf(why, wn, "cannot open it: %s", strerror(errno));
        return 2;
    }
    size_t cap = (size_t)8 << 20;
    unsigned char *buf = malloc(cap);
    uint64_t h = RX_DATASET_CHECKSUM_SEED;
    size_t k, read = 0;
    while (buf && (k = fread(buf, 1, cap, f)) > 0) {
        h = rx_dataset_checksum(h, buf, k);
        read += k;
        if ((read & (((size_t)64 << 20) - 1)) == 0 || read == bytes) { /* a long read is progress */
            char phase[96];
            snprintf(phase, sizeof phase, "verifying the cache entry: %zu of %llu MiB read",
                     read >> 20, bytes >> 20);
            rx_dataset_progress(0, rx_dataset_items(), phase);
        }
    }
    free(buf);
    fclose(f);
    if (h != want_sum) {
        snprintf(why, wn, "its checksum is %016" PRIx64 " where the stamp says %016" PRIx64
                          ": the file is damaged", h, want_sum);
        return 2;
    }
    return sample_items(entry, flags, key, key_len, why, wn) ? 2 : 0;
}

bg_status rx_dscache_publish(const rx_session *s, const char *entry, const char *id,
                             const void *key, size_t key_len)
{
    uint64_t sum = 0;
    bg_status st = rx_dataset_write(s, entry, &sum);
    if (st)
        return st;
    char sp[4200], tmp[4300], text[2048];
    stamp_path(entry, sp, sizeof sp);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", sp, (long)getpid());
    stamp_text(id, s->flags, key, key_len, sum, text, sizeof text);
    FILE *f = fopen(tmp, "w");
    int ok = f && fputs(text, f) >= 0;
    ok = f && fclose(f) == 0 && ok;
    if (!ok || rename(tmp, sp) != 0) {
        remove(tmp);
        return bg_fail(BG_E_IO, "dataset cache", "cannot write %s: %s", sp, strerror(errno));
    }
    return BG_OK;
}

bg_status rx_dscache_link(const char *entry, const char *tree_dir, const void *key, size_t key_len)
{
    char hex[2 * 128 + 1], path[4096], tmp[4200];
    key_hex(key, key_len, hex);
    snprintf(path, sizeof path, "%s/%s.rxds", tree_dir, hex);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    remove(tmp);
    if (symlink(entry, tmp) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return bg_fail(BG_E_IO, "dataset cache", "cannot link %s to %s: %s", path, entry,
                       strerror(e));
    }
    return BG_OK;
}
