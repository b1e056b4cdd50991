/* bg_fuzz.h — helpers shared by the libFuzzer targets (docs/fuzzing.md).
 *
 * Every parser of stored data reads a path, so a target writes the fuzzer's
 * bytes to a file first: bg_fuzz_file(name, data, size) writes them to
 * $BG_FUZZ_WORK/tmp-<pid>/<name> (default /tmp/bg-fuzz-<pid>/<name>) and
 * returns that path (static storage, valid until the next call with the same
 * slot).  name may contain folders (created as needed).  Aborts when
 * the file cannot be written: that is the harness's fault, not the parser's.
 */
#ifndef BG_FUZZ_H
#define BG_FUZZ_H
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The per-process scratch folder (created on first use). */
static inline const char *bg_fuzz_dir(void)
{
    static char dir[512];
    if (!dir[0]) {
        const char *w = getenv("BG_FUZZ_WORK");
        if (w && *w)
            snprintf(dir, sizeof dir, "%s/tmp-%ld", w, (long)getpid());
        else
            snprintf(dir, sizeof dir, "/tmp/bg-fuzz-%ld", (long)getpid());
        mkdir(dir, 0700);
    }
    return dir;
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
