/* dataset_cache.h — the host's cache of RandomX full-memory datasets
 * (docs/digest_agreement.md "Dataset cache"), so a second build tree does not
 * rebuild 2 GiB per key.
 *
 * Entry: <dir>/<id>-<algorithm>-<hex(key)>[-n<items>].rxds (the raw dataset,
 * as rx_dataset_write writes it) and, written last, <entry>.stamp:
 *     buildgate-randomx-dataset 1
 *     id <id>                   (CMake's key: RandomX version + the library's
 *                                identity, cmake/BuildgateRandomXDataset.cmake)
 *     algorithm <randomx-v1|randomx-v2>
 *     key-hex <hex(key)>
 *     items <n>
 *     bytes <n * 64>
 *     checksum <16 hex digits>  (rx_dataset_checksum of the file)
 * A dataset is deterministic for a RandomX version and key, so an entry is
 * reused when its stamp names what is asked for, the file has exactly `bytes`
 * bytes, its checksum matches, and RX_DSCACHE_SAMPLES items (the first, the
 * last, the rest spread at random) equal those randomx_init_dataset computes
 * afresh from the key.  Anything else is said and the entry rebuilt, never used.
 * Trees of this host building the same entry at once: the first holds
 * <entry>.lock (fcntl), the others wait for it, then find the entry.
 */
#ifndef DATASET_CACHE_H
#define DATASET_CACHE_H

#include <stddef.h>

#include <randomx.h>

#include "buildgate/bg_error.h"
#include "rx_session.h"

#define RX_DSCACHE_SAMPLES 32

/* The entry's path for this id, algorithm (of flags), key and rx_dataset_items(). */
void rx_dscache_entry(const char *dir, const char *id, randomx_flags flags, const void *key,
                      size_t key_len, char *path, size_t n);

/* Creates dir (and its parents).  BG_OK or BG_E_IO (one line). */
bg_status rx_dscache_mkdir(const char *dir);

/* Takes <entry>.lock, waiting while another process holds it; while waiting,
 * wait_fn(arg, seconds waited) about once a second.  Returns the lock's fd, or
 * -1 when no lock could be taken (the rename of the publish then decides). */
int rx_dscache_lock(const char *entry, void (*wait_fn)(void *arg, int seconds), void *arg);
void rx_dscache_unlock(int fd);

/* Verifies the entry for id/flags/key (see above).  0: usable; 1: absent; 2:
 * present but not usable, why[wn] says what (e.g. "its checksum is 0x... where
 * the stamp says 0x...: the file is damaged"). */
int rx_dscache_verify(const char *entry, const char *id, randomx_flags flags, const void *key,
                      size_t key_len, char *why, size_t wn);

/* Removes the entry and its stamp (a damaged one, before a rebuild). */
void rx_dscache_remove(const char *entry);

/* Writes s's dataset into the entry, then its stamp (both atomically). */
bg_status rx_dscache_publish(const rx_session *s, const char *entry, const char *id,
                             const void *key, size_t key_len);

/* <tree_dir>/<hex(key)>.rxds becomes a symbolic link to the entry (replacing
 * what was there), where --dataset-dir readers find it. */
bg_status rx_dscache_link(const char *entry, const char *tree_dir, const void *key, size_t key_len);

/* The first 64-bit word of item i of the dataset file (little-endian), for
 * the known-answer checks of a reused entry.  BG_OK or BG_E_IO. */
bg_status rx_dscache_item_word(const char *path, unsigned long item, uint64_t *out);

#endif
