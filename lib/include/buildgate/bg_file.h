/* bg_file.h — reading a whole file, with one-line errors.
 */
#ifndef BG_FILE_H
#define BG_FILE_H

#include <stddef.h>

#include "buildgate/bg_error.h"

/* Reads the file at path into a new NUL-terminated buffer *out (the caller
 * frees it) and its length in bytes, without the NUL, into *len.  what names
 * the file in the error line ("fixture", "bg-workflow-lint", ...).
 * Returns BG_OK; BG_E_IO when it cannot be opened or read, BG_E_NOMEM; both
 * with one error line printed (bg_fail) and *out NULL. */
bg_status bg_file_read(const char *path, const char *what, char **out, size_t *len);

/* 1 when paths a and b name the same file: the same string, or one device and
 * inode (a link, "dir/../x"); 0 otherwise, also when either does not exist.
 * For refusing an output that is also an input (it would be lost). */
int bg_file_same(const char *a, const char *b);

#endif
