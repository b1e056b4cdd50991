/* bg_guard.h — call foreign library code so that it cannot take the tool down.
 *
 * Some libraries abort from their C API: RandomX 1.1.10 lets a C++ exception
 * (std::runtime_error "mprotect failed" when the host forbids W+X memory)
 * escape randomx_init_cache, so std::terminate prints "terminate called
 * after throwing ..." and calls abort() (signal 6).  bg_guard_call() runs
 * one such call with handlers for SIGABRT, SIGSEGV, SIGBUS, SIGILL and
 * SIGFPE: when one arrives during the call, the handler jumps back
 * (siglongjmp) and the call becomes one line
 *     buildgate: <tool>: <lib> failed: <call>: <why>
 * and BG_E_TARGET (exit 7).  <why> is the exception text (libstdc++'s
 * "what():  ..." line, read from stderr captured during the call), else the
 * first line the call wrote to stderr (its first 2 KiB are read), else the signal's name.  Stderr of a
 * call that succeeds is passed through unchanged.
 *
 * After a failure the library's state is unknown (the exception object is
 * leaked, locks it held stay held): the caller reports and stops using it.
 * libstdc++ prints the exception text for the first std::terminate of a
 * process only ("terminate called recursively" afterwards).
 *
 * bg_guard_region_begin()/end() protect longer stretches (hashing loops,
 * worker threads) more cheaply: a signal inside one prints the same line with
 * the signal's name and ends the process with exit 7 (_exit, no cleanup).
 *
 * Not reentrant: one bg_guard_call at a time per thread; stderr (fd 2) is
 * redirected during the call, for every thread of the process.  POSIX only.
 */
#ifndef BG_GUARD_H
#define BG_GUARD_H

#include "buildgate/bg_error.h"

/* The tool named in the lines (e.g. "bg-chain"); default "buildgate".  The
 * string must outlive the process's guarded calls (a literal). */
void bg_guard_set_tool(const char *tool);

/* The tool set by bg_guard_set_tool(), for other "RandomX failed" lines. */
const char *bg_guard_tool(void);

typedef void (*bg_guard_fn)(void *arg);

/* Runs fn(arg) guarded.  lib names the library ("RandomX"), call the function
 * ("randomx_init_cache").  BG_OK, or BG_E_TARGET with the line printed. */
bg_status bg_guard_call(const char *lib, const char *call, bg_guard_fn fn, void *arg);

/* Fatal region: until bg_guard_region_end(), any of the signals above (in any
 * thread, outside a bg_guard_call) prints the line for lib/call and exits 7.
 * Regions do not nest (a new begin replaces the names).  lib and call must be
 * literals (read from the signal handler). */
void bg_guard_region_begin(const char *lib, const char *call);
void bg_guard_region_end(void);

#endif
