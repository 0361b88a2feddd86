/*
 * cell_cache.h - compiled cells on disk: a private per-user directory of images (CUBINs for the
 * GPU, shared objects for the CPU), each under the hash of everything that changes it.
 *
 * The cache holds code that will run, so (docs/RELIABILITY.md): the directory is created with
 * mode 0700 and refused unless the user owns it and nobody else can write it or any directory
 * above it (root's and sticky ones, as /tmp, excepted); an entry is written
 * under a temporary name and renamed (two processes may compile the same cell at once); an
 * entry carries its size and hash and is checked before use (a torn or altered file is compiled
 * again, never run).
 */
#ifndef PW_CELL_CACHE_H
#define PW_CELL_CACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PW_CACHE_KEY_CHARS 33 /* 32 hex digits and a NUL */

/* A 128-bit hash of several byte strings, fed in order by pw_hash_add, as hex. */
typedef struct pw_hash {
    uint64_t a, b;
} pw_hash;
void pw_hash_init(pw_hash *h);
void pw_hash_add(pw_hash *h, const void *data, size_t n);
void pw_hash_add_str(pw_hash *h, const char *s); /* with its NUL, so "ab","c" != "a","bc" */
void pw_hash_hex(const pw_hash *h, char key[PW_CACHE_KEY_CHARS]);

/* The cache directory (created if needed), or NULL when caching is off ($PEERWAVE_CACHE=none, no
 * $HOME) or the directory is unsafe; *why then says which (NULL when simply off). */
const char *pw_cache_dir(char *buf, size_t size, const char **why);

/* "compiled code not cached: <why>" into note when why is set and note still empty (a run's
 * pw_cell_result.note: the caller learns its cache is off, and why). */
void pw_cache_note(const char *why, char *note, size_t size);

/* The image stored under key.ext: 1 and a malloc'd copy when present and intact, else 0. */
int pw_cache_load(const char *dir, const char *key, const char *ext, void **data, size_t *size);

/* Store an image under key.ext (atomically); 0 on success, -1 (errno) otherwise. */
int pw_cache_store(const char *dir, const char *key, const char *ext, const void *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
