/* bg_fuzz.h — helpers shared by the libFuzzer targets (docs/fuzzing.md).
 *
 * Every parser of stored data reads a path, so a target writes the fuzzer's
 * bytes to a file first: bg_fuzz_file(name, data, size) writes them to
 * <scratch>/<name> (bg_fuzz_dir()) and returns that path (static storage,
 * four rotating slots).  name may contain folders (created as needed).  Aborts when
 * the file cannot be written: that is the harness's fault, not the parser's.
 */
#ifndef BG_FUZZ_H
#define BG_FUZZ_H
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char bg_fuzz_scratch[512];

static inline int bg_fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static inline void bg_fuzz_cleanup(void)
{
    nftw(bg_fuzz_scratch, bg_fuzz_rm, 8, FTW_DEPTH | FTW_PHYS);
}

/* The per-process scratch folder, created on first use and removed at exit:
 * bg-fuzz-<pid> in $BG_FUZZ_TMP, else /dev/shm (memory: a disk under load
 * made the targets ten times slower), else /tmp. */
static inline const char *bg_fuzz_dir(void)
{
    if (!bg_fuzz_scratch[0]) {
        const char *t = getenv("BG_FUZZ_TMP");
        if (!t || !*t)
            t = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(bg_fuzz_scratch, sizeof bg_fuzz_scratch, "%s/bg-fuzz-%ld", t, (long)getpid());
        if (mkdir(bg_fuzz_scratch, 0700) != 0) {
            perror(bg_fuzz_scratch);
            abort();
        }
        atexit(bg_fuzz_cleanup);
    }
    return bg_fuzz_scratch;
}

/* Writes data to <bg_fuzz_dir()>/<name>; returns the path (4 slots, rotating). */
static inline const char *bg_fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char paths[4][1024];
    static int slot;
    char *path = paths[slot++ % 4];
    for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
        snprintf(path, 1024, "%s/%.*s", bg_fuzz_dir(), (int)(slash - name), name);
        mkdir(path, 0700);
    }
    snprintf(path, 1024, "%s/%s", bg_fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
    return path;
}

/* A NUL-terminated copy of data (free() it). */
static inline char *bg_fuzz_str(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}
#endif
