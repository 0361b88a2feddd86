/* alloc.h - every library allocation (host and device) goes through here, so tests can make the
 * N-th one fail and check that each error path returns PW_ERR_OUT_OF_MEMORY and frees the rest. */
#ifndef PW_ALLOC_H
#define PW_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if the allocation about to be made must fail: PEERWAVE_DEBUG_FAIL_ALLOC=N in the environment
 * fails the N-th allocation since pw_debug_alloc_reset() (host or device), and every later one while
 * PEERWAVE_DEBUG_FAIL_ALLOC_ALL=1.  This counter is the library's only global state, and it is
 * only touched while the variable is set (docs/RELIABILITY.md). */
int pw_debug_alloc_fails(void);

/* Start counting allocations again from zero (tests call it before each injected run). */
void pw_debug_alloc_reset(void);

/* Allocations counted since the reset (only while PEERWAVE_DEBUG_FAIL_ALLOC is set): a test that
 * failed the N-th knows it happened when this is >= N, even if the run then succeeded (a vector
 * processor whose arrays cannot be had falls back to the scalar cells). */
long pw_debug_alloc_count(void);

void *pw_malloc(size_t bytes);

/* The machine's physical memory in bytes (0: unknown), for sizes to refuse or plans to drop
 * before an allocation that an overcommitting system would grant and then kill the process for. */
double pw_machine_memory(void);
void *pw_calloc(size_t count, size_t size);

#ifdef __cplusplus
}
#endif
#endif
