/* top_k.h - the k best of n candidates (a query's best hits), without sorting all n: a heap of
 * the k best so far, worst at the root.  Candidates are indices; `better` orders them (a strict
 * order: ties broken by the caller, e.g. the smaller record). */
#ifndef PW_TOP_K_H
#define PW_TOP_K_H

#include <stdint.h>

typedef int (*pw_better_fn)(int64_t a, int64_t b, const void *ctx);

/* out[0 .. returned): the best min(k, n) of 0 .. n-1, best first. */
int64_t pw_top_k(int64_t n, int64_t k, pw_better_fn better, const void *ctx, int64_t *out);

#endif
