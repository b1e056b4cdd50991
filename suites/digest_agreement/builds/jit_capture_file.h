/* jit_capture_file.h — reading and comparing bg-jit-capture's files
 * (DIR/jit-capture.json + DIR/jit-capture.bin; format in jit_capture.c).
 */
#ifndef JIT_CAPTURE_FILE_H
#define JIT_CAPTURE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "buildgate/bg_error.h"

#define JIT_CAPTURE_MAX_REGIONS 64

typedef struct jit_capture_region {
    char role[16]; /* "cache", "vm", "program" */
    int program;   /* program index, -1 for the others */
    size_t offset; /* into data */
    size_t size;
} jit_capture_region;

typedef struct jit_capture_file {
    jit_capture_region r[JIT_CAPTURE_MAX_REGIONS];
    int nregions;
    uint8_t *data; /* the .bin, bytes long; owned */
    size_t bytes;
} jit_capture_file;

/* Loads DIR's capture.  Errors (one line printed, text in bg_last_error()):
 * BG_E_IO missing/unreadable file, BG_E_PARSE malformed JSON or regions that
 * do not tile the .bin exactly, BG_E_NOMEM. */
bg_status jit_capture_load(const char *dir, jit_capture_file *out);
void jit_capture_free(jit_capture_file *f);

typedef struct jit_capture_diff {
    long offset;      /* first differing byte of the concatenation, -1 when equal */
    int region;       /* its region index (in a), -1 when equal */
    size_t in_region; /* offset inside that region */
    const char *role; /* that region's role with its program, e.g. "program 3" */
    char role_buf[32];
    int layout_differs; /* the region lists differ (sizes, roles or count) */
} jit_capture_diff;

/* Compares b to a from byte `from` of the concatenation on: equal when the
 * region lists (role, program, size) are equal and so are the bytes from
 * `from` on.  Region lists that differ are reported at the first region whose
 * layout differs, at its first byte (layout_differs = 1). */
void jit_capture_compare(const jit_capture_file *a, const jit_capture_file *b, size_t from,
                         jit_capture_diff *d);

#endif
