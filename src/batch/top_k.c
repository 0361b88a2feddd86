/* top_k.c - the k best of n candidates (top_k.h). */
#include "top_k.h"

static void sift_down(int64_t *heap, int64_t size, int64_t k, pw_better_fn better, const void *ctx)
{
    for (;;) {
        int64_t worst = k, l = 2 * k + 1, r = l + 1;
        if (l < size && better(heap[worst], heap[l], ctx)) worst = l;
        if (r < size && better(heap[worst], heap[r], ctx)) worst = r;
        if (worst == k) return;
        const int64_t t = heap[k];
        heap[k] = heap[worst];
        heap[worst] = t;
        k = worst;
    }
}

int64_t pw_top_k(int64_t n, int64_t k, pw_better_fn better, const void *ctx, int64_t *out)
{
    const int64_t size = n < k ? n : k;
    if (size <= 0) return 0;
    for (int64_t i = 0; i < size; i++) out[i] = i;
    for (int64_t i = size / 2 - 1; i >= 0; i--) sift_down(out, size, i, better, ctx);
    for (int64_t i = size; i < n; i++)
        if (better(i, out[0], ctx)) {
            out[0] = i;
            sift_down(out, size, 0, better, ctx);
        }
    /* heap order -> best first: take the worst off the root, one at a time, to the back */
    for (int64_t end = size - 1; end > 0; end--) {
        const int64_t t = out[0];
        out[0] = out[end];
        out[end] = t;
        sift_down(out, end, 0, better, ctx);
    }
    return size;
}
