#include "buildgate/bg_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bg_status bg_file_read(const char *path, const char *what, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return bg_fail(BG_E_IO, what, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int read_err = ferror(f);
    fclose(f);
    if (!buf)
        return bg_fail(BG_E_NOMEM, what, "cannot read %s: out of memory", path);
    if (read_err) {
        free(buf);
        return bg_fail(BG_E_IO, what, "cannot read %s", path);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return BG_OK;
}

int bg_file_same(const char *a, const char *b)
{
    struct stat x, y;
    return !strcmp(a, b) || (!stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino);
}
