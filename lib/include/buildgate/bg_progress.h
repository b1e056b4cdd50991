/* bg_progress.h — how a long step says it is making progress, and the host's
 * load, so that a limit on a long step follows progress instead of a fixed
 * wall-clock time (docs/architecture.md "Progress of long steps").
 *
 * The progress file: bg-run --stall S exports BG_PROGRESS_FILE=<path>; the
 * step (re)writes it with one line
 *
 *     <done> <total> <unit...>\n       e.g. "20787018 34078719 dataset items built"
 *
 * (done and total whole numbers, total 0 when unknown; unit: free text, up to
 * 159 bytes, which may carry a note, e.g. "... (waiting for another tree's
 * build)").  Any change of a well-formed line is progress; an empty or
 * malformed read (a writer half-way) is ignored.  A step that is not run
 * under bg-run --stall has no BG_PROGRESS_FILE and bg_progress_report does
 * nothing.  Shell steps write the line with printf (see lib/tests/progress_step.sh).
 *
 * Load: the 1-minute load average (getloadavg(3): Linux /proc/loadavg, macOS
 * the kernel's), with the online CPU count, for the message of a kill.
 * POSIX + getloadavg (Linux glibc/musl, macOS).
 */
#ifndef BG_PROGRESS_H
#define BG_PROGRESS_H

#include <stddef.h>

#define BG_PROGRESS_ENV "BG_PROGRESS_FILE"

typedef struct bg_progress {
    unsigned long long done, total; /* total 0: unknown */
    char unit[160];                 /* "dataset items built" */
    char raw[200];                  /* the line as read (what "changed" compares) */
} bg_progress;

/* Writes "<done> <total> <unit>" to $BG_PROGRESS_FILE atomically (a temporary
 * file renamed over it), at most every min_interval_s seconds unless done ==
 * total or unit changed.  Nothing when BG_PROGRESS_FILE is unset.  Returns 0,
 * or -1 when the file could not be written (the step goes on: its limit is
 * then its stall limit). */
int bg_progress_report(unsigned long long done, unsigned long long total, const char *unit,
                       double min_interval_s);

/* Reads path into *p.  1: a well-formed line; 0: absent, empty or malformed. */
int bg_progress_read(const char *path, bg_progress *p);

/* "<done> of <total> <unit> (<pct> %)", "<done> <unit>" when total is 0, or
 * "no progress reported" for p NULL, into buf[n]. */
void bg_progress_describe(const bg_progress *p, char *buf, size_t n);

/* The 1-minute load average, or -1 when the host does not say. */
double bg_host_load(void);

/* "load 12.31 on 2 CPUs" (or "load unknown on 2 CPUs") into buf[n]. */
void bg_host_load_describe(char *buf, size_t n);

#endif
