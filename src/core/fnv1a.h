/* fnv1a.h - FNV-1a, the tree's one quick non-cryptographic hash: cache and wisdom keys, the
 * ranks' agreement checks, hash tables of names and k-mers, benchmark checksums.  Start from
 * PW_FNV1A_BASIS (or that xor a seed) and fold in bytes, or whole 64-bit words where a caller
 * hashes words (the same step). */
#ifndef PW_FNV1A_H
#define PW_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define PW_FNV1A_BASIS 14695981039346656037ULL
#define PW_FNV1A_PRIME 1099511628211ULL

static inline uint64_t pw_fnv1a_step(uint64_t h, uint64_t x) { return (h ^ x) * PW_FNV1A_PRIME; }

static inline uint64_t pw_fnv1a(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t k = 0; k < bytes; k++) h = pw_fnv1a_step(h, p[k]);
    return h;
}

#endif
