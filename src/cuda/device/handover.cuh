/*
 * handover.cuh - the one way a tile-row hands values to the tile-row below without a progress
 * counter: edge words (tagged_words.cuh), one tag rule, one wait, one rule for a stuck row.
 *
 * The tag rule.  Counter q = sweep * n_rows + r names a tile-row in a sweep.  Its writer tags
 * every word it hands over q + 1 (pw_tag_sent_by); the tile-row of counter q waits for tag q,
 * which is what the row above it wrote (pw_tag_awaited_by).  Tag 0 means "before the run": the
 * words as the host left them (pw_edge_words, host side: zeroed, or filled with the values the
 * first tile-row reads), which is exactly what counter 0 awaits.  Tags restart with every launch,
 * so the host clears or refills the words before each one.
 *
 * The processor decides where a column's word lives (its layout: one row of words shared by
 * the tile-rows, a row per tile-row, a permuted order inside a chunk); pw_edge owns what a word
 * means.  The ordered schedules (sync.a == NULL) never wait: the schedule has ordered the tiles,
 * and a processor that keeps its data only in the words (SW/DTW) still sends them.  Where the row
 * above comes from in each schedule is one rule, pw_edge::through_words.
 */
#ifndef PW_DEVICE_HANDOVER_CUH
#define PW_DEVICE_HANDOVER_CUH

#include "sync.cuh"
#include "tagged_words.cuh"

__device__ __forceinline__ uint32_t pw_tag_sent_by(int64_t q) { return (uint32_t)(q + 1); }
__device__ __forceinline__ uint32_t pw_tag_awaited_by(int64_t q) { return (uint32_t)q; }

/* One thread: make *word (loaded from p earlier, perhaps too early) carry `tag`, loading it again
 * while it does not (pw_poll: spin, back-off, watchdog).  false: the run is abandoned. */
template <class T>
__device__ __forceinline__ bool pw_ll_settle(const pw_engine_args &a, const pw_ll<T> *p, pw_ll<T> *word, uint32_t tag)
{
    return pw_ll_ready(*word, tag) || pw_poll(a, [&](pw_counter *seen) {
               *word = pw_ll_load(p);
               *seen = word->w[0] >> 32;
               return pw_ll_ready(*word, tag);
           });
}

template <class T>
struct pw_edge {
    pw_ll<T> *words;

    /* Does the row above tile-row s travel through the words (the row above sends them, s reads
     * them)?  In the peer schedule, yes.  In the
     * ordered ones (barrier, launch, tasks: s.a NULL) the row above is finished before the tile
     * starts, so a processor that keeps that row in its own storage (`kept`: the prefix sums'
     * output, the stencils' grid; read past L1, ld.cg) reads it there and its words are never
     * allocated, and one that keeps it only in the words (SW/DTW's bus) reads them, unwaited
     * (settle). */
    __device__ static bool through_words(const pw_row_sync &s, bool kept) { return s.a || !kept; }

    /* Tile-row s hands v over at word p (nothing from a stuck row). */
    __device__ __forceinline__ void send(const pw_row_sync &s, pw_ll<T> *p, const T &v) const
    {
        if (!pw_row_stuck(s)) pw_ll_store(p, v, pw_tag_sent_by(s.q));
    }
    /* A load that may come too early; settle() finishes it. */
    __device__ __forceinline__ pw_ll<T> load(const pw_ll<T> *p) const { return pw_ll_load(p); }
    /* *word, loaded from p, once it carries what the row above tile-row s sent (no wait in the
     * ordered schedules).  false: the run is abandoned. */
    __device__ __forceinline__ bool settle(const pw_row_sync &s, const pw_ll<T> *p, pw_ll<T> *word) const
    {
        return !s.a || pw_ll_settle(*s.a, p, word, pw_tag_awaited_by(s.q));
    }
};

/* The host's fill and drain of a row of words from and to plain values (tag 0: what the first
 * tile-row awaits). */
template <class T>
__global__ void pw_edge_fill(pw_ll<T> *words, const T *values, int64_t n)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) pw_ll_store(words + i, values[i], 0u);
}
template <class T>
__global__ void pw_edge_drain(const pw_ll<T> *words, T *values, int64_t n)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] = pw_ll_value(pw_ll_load(words + i));
}

#endif
