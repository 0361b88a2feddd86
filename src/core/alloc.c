/* alloc.c - allocation with debug fault injection (see alloc.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"

static atomic_long count;

void pw_debug_alloc_reset(void) { atomic_store(&count, 0); }

int pw_debug_alloc_fails(void)
{
    const char *n = getenv("PEERWAVE_DEBUG_FAIL_ALLOC");
    if (!n) return 0;
    long k = atomic_fetch_add(&count, 1) + 1, target = atol(n);
    const char *all = getenv("PEERWAVE_DEBUG_FAIL_ALLOC_ALL");
    return k == target || (all && *all == '1' && k > target);
}

long pw_debug_alloc_count(void) { return atomic_load(&count); }

double pw_machine_memory(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0;
}

void *pw_malloc(size_t bytes) { return pw_debug_alloc_fails() ? NULL : malloc(bytes ? bytes : 1); }

void *pw_calloc(size_t count, size_t size) { return pw_debug_alloc_fails() ? NULL : calloc(count ? count : 1, size ? size : 1); }
