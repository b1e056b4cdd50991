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

#endif
