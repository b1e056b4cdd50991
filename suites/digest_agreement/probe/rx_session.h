/* rx_session.h — one RandomX VM with its cache and (full memory) dataset.
 *
 * Sizes: the cache is 256 MiB (RANDOMX_ARGON_MEMORY 262144 KiB); the dataset
 * is randomx_dataset_item_count() * 64 bytes (2080 MiB for RandomX v1).
 * Source: RandomX doc/specs.md 7.1 and src/configuration.h.
 *
 * Full-memory datasets are built once and can be shared between processes
 * through files: rx_dataset_save() writes <dir>/<hex(key)>.rxds (the raw
 * dataset, nothing else); a session opened with a dataset_dir reads the file
 * for its key instead of building the dataset, so several test processes pay
 * for one build.
 */
#ifndef RX_SESSION_H
#define RX_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <randomx.h>

#include "buildgate/bg_error.h"

typedef struct rx_session {
    randomx_flags flags;
    randomx_cache *cache;     /* NULL in full mode once the dataset is ready */
    randomx_dataset *dataset; /* full mode only */
    randomx_vm *vm;
    const char *dataset_dir;  /* full mode: read datasets from here, or NULL to build */
    int init_threads;         /* threads for the dataset build (>= 1) */
    double init_seconds;      /* cache + dataset initialisation of the last (re)key, s */
    int broken;               /* 1: a RandomX call threw or aborted (objects leaked, not used) */
} rx_session;

/* Opens a session for key with flags.  Errors (one line printed):
 *   BG_E_UNSUPPORTED  the host cannot run these flags (no JIT, no AES, no
 *                     SSSE3/AVX2 for Argon2, no large pages, too little memory)
 *                     or the dataset file is missing (the dataset setup did not
 *                     make it: failed, or stopped as too slow for this host)
 *   BG_E_IO / BG_E_FIXTURE  the dataset file cannot be read or has the wrong size
 *   BG_E_USAGE        empty key
 *                     or forbids W+X memory (bg_wx.h) for a JIT variant:
 *                     "this host forbids W+X memory; the JIT cannot run (...)"
 *   BG_E_TARGET       RandomX failed otherwise: "buildgate: <tool>: RandomX failed:
 *                     <call>: <why>" (an allocation refused, or a C++ exception
 *                     or abort inside RandomX, caught by bg_guard.h) */
bg_status rx_session_open(rx_session *s, randomx_flags flags, const void *key, size_t key_len,
                          int init_threads, const char *dataset_dir);

/* Re-keys the session (re-initialises the cache, and the dataset in full mode).
 * Errors as rx_session_open. */
bg_status rx_session_rekey(rx_session *s, const void *key, size_t key_len);

void rx_session_close(rx_session *s);

/* Writes s's dataset (full mode) to <dir>/<hex(key)>.rxds atomically. */
bg_status rx_dataset_save(const rx_session *s, const char *dir, const void *key, size_t key_len);

/* Writes s's dataset (its first rx_dataset_items() items) to path atomically
 * (a temporary file renamed into place); *checksum (may be NULL) gets
 * rx_dataset_checksum of the bytes written. */
bg_status rx_dataset_write(const rx_session *s, const char *path, uint64_t *checksum);

/* The dataset file checksum: 64-bit FNV-1a over little-endian 64-bit words
 * (then the tail bytes), from h (start with RX_DATASET_CHECKSUM_SEED).  Catches
 * a truncated or damaged file, not a forged one. */
#define RX_DATASET_CHECKSUM_SEED 0xcbf29ce484222325ULL
uint64_t rx_dataset_checksum(uint64_t h, const void *p, size_t n);

/* Progress of a dataset build: items built of total (rx_dataset_items());
 * phase NULL while building, else what is going on once they are built, e.g.
 * "saving: 512 of 2080 MiB written" (so a long write is progress too). */
typedef void (*rx_progress_fn)(void *arg, unsigned long done, unsigned long total,
                               const char *phase);

/* Calls the progress function of rx_dataset_build_options, if any. */
void rx_dataset_progress(unsigned long done, unsigned long total, const char *phase);

/* For every later dataset build of this process: build only the first items
 * (0: all, randomx_dataset_item_count(); a self-test's small stand-in, the
 * host check then asks for that much memory only), and call fn (may be NULL)
 * about every 0.2 s while building. */
void rx_dataset_build_options(unsigned long items, rx_progress_fn fn, void *arg);

/* The items a build makes (rx_dataset_build_options, else all). */
unsigned long rx_dataset_items(void);

/* BG_OK when dir exists and a dataset file can be created in it. */
bg_status rx_dataset_dir_check(const char *dir);

/* Monotonic clock in seconds. */
double rx_now(void);

#endif
