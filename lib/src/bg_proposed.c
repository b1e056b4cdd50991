/* bg_proposed.c — see bg_proposed.h. */
#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_proposed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buildgate/bg_host.h"
#include "buildgate/bg_runner.h"

void bg_proposed_range(const char *version, char *out, unsigned n)
{
    int v[3];
    if (!bg_version_parse(version, v))
        snprintf(out, n, "*");
    else
        snprintf(out, n, ">=%d.%d,<%d.%d", v[0], v[1], v[0], v[1] + 1);
}

void bg_proposed_observed(const char *version, char *out, unsigned n)
{
    int v[3];
    if (!bg_version_parse(version, v))
        snprintf(out, n, "%s", "");
    else
        snprintf(out, n, "%d.%d.%d", v[0], v[1], v[2]);
}

void bg_proposed_reference(const char *version, const char *extra, char *out, unsigned n)
{
    bg_host h;
    bg_host_probe(&h);
    char key[160], day[16];
    bg_host_key(&h, key, sizeof key);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(day, sizeof day, "%Y-%m-%d", &tm);
    snprintf(out, n, "%s; observed %s on %s with %s%s%s", BG_PROPOSED_MARK, day, key, version,
             *extra ? "; " : "", extra);
    for (char *p = out; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
}

/* mkdir -p of the two levels below base; 0 or -1 (errno set). */
static int make_dirs(const char *base, const char *suite, char *dir, size_t n)
{
    snprintf(dir, n, "%s/proposed-known", base);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return -1;
    snprintf(dir, n, "%s/proposed-known/%s", base, suite);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* 1 when the open file fd already holds line as a whole line. */
static int has_line(int fd, const char *line)
{
    FILE *f = fdopen(dup(fd), "r");
    if (!f)
        return 0;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int found = 0;
    while (!found && (len = getline(&buf, &cap, f)) >= 0) {
        if (len > 0 && buf[len - 1] == '\n')
            buf[--len] = '\0';
        found = strcmp(buf, line) == 0;
    }
    free(buf);
    fclose(f);
    return found;
}

bg_status bg_proposed_append(const char *suite, const char *tool, const char *line, char *path,
                             unsigned n)
{
    *path = '\0';
    const char *cf = getenv("BG_CHECKS_FILE");
    if (!cf || !*cf)
        return BG_OK;
    const char *slash = strrchr(cf, '/');
    char base[4096], dir[4200];
    snprintf(base, sizeof base, "%.*s", slash ? (int)(slash - cf) : 1, slash ? cf : ".");
    if (make_dirs(base, suite, dir, sizeof dir) != 0)
        return bg_fail(BG_E_IO, "proposed known deviations", "cannot create %s: %s", dir,
                       strerror(errno));
    char file[4400];
    snprintf(file, sizeof file, "%s/%s.tsv", dir, tool);
    int fd = open(file, O_RDWR | O_CREAT | O_APPEND, 0666);
    if (fd < 0)
        return bg_fail(BG_E_IO, "proposed known deviations", "cannot open %s: %s", file,
                       strerror(errno));
    snprintf(path, n, "proposed-known/%s/%s.tsv", suite, tool);
    bg_status st = BG_OK;
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(fd, F_SETLKW, &lk) != 0)
        st = bg_fail(BG_E_IO, "proposed known deviations", "cannot lock %s: %s", file,
                     strerror(errno));
    else if (!has_line(fd, line)) {
        size_t len = strlen(line);
        char *buf = malloc(len + 2);
        if (!buf)
            st = BG_E_NOMEM;
        else {
            memcpy(buf, line, len);
            buf[len] = '\n';
            if (write(fd, buf, len + 1) != (ssize_t)(len + 1))
                st = bg_fail(BG_E_IO, "proposed known deviations", "cannot write %s: %s", file,
                             strerror(errno));
            free(buf);
        }
    }
    close(fd);   /* releases the lock (fcntl locks die with the descriptor) */
    return st;
}
