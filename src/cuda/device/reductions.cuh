/*
 * reductions.cuh - what a linear app folds its cells into while a processor walks its rows,
 * written once for every app: nothing (pw_no_reduction: DTW, whose result is the bus's last
 * value; SAT's diagonal form), or each row's largest key and its column (pw_row_argmax: SW's H, a
 * user cell's key).  An app takes one of them as a base, so the processors see one interface:
 *   acc_load(i) / acc_add(acc, i, j, v) / acc_store(i, acc)       LinearProc, cell by cell
 *   tile_acc_load(i) / tile_acc_chunk_begin(acc) / tile_acc_add(acc, v, o) /
 *   tile_acc_chunk_end(acc, rel) / tile_acc_store(i, acc, col_of_step0)
 *                                                                 WarpProc: a tile's chunks of
 *                                                                 steps, o the step in the chunk
 *                                                                 (a constant where it is
 *                                                                 unrolled), rel the chunk's
 *                                                                 first step in the tile; the
 *                                                                 column made from the step once
 *   acc_key(tile_acc)                                             the key so far (SW's pruning)
 *
 * The tie rule: a row keeps the smallest column of its largest key -- strict > as the columns
 * grow -- and a NaN key never wins.  The host merges the rows' bests by src/core/best_cell.h
 * (higher key, then smaller row, then smaller column), so that every engine reports one cell.
 */
#ifndef PW_DEVICE_REDUCTIONS_CUH
#define PW_DEVICE_REDUCTIONS_CUH

#include "../../core/fixed_width.h"

/* A stateless accumulator for apps without a reduction. */
struct pw_no_acc {};

struct pw_no_reduction {
    typedef pw_no_acc Acc;
    typedef pw_no_acc TileAcc;
    __device__ Acc acc_load(int64_t) const { return Acc{}; }
    template <class V>
    __device__ void acc_add(Acc &, int64_t, int64_t, const V &) const {}
    __device__ void acc_store(int64_t, const Acc &) const {}
    __device__ TileAcc tile_acc_load(int64_t) const { return TileAcc{}; }
    __device__ void tile_acc_chunk_begin(TileAcc &) const {}
    template <class V>
    __device__ void tile_acc_add(TileAcc &, const V &, int32_t) const {}
    __device__ void tile_acc_chunk_end(TileAcc &, int32_t) const {}
    __device__ void tile_acc_store(int64_t, const TileAcc &, int64_t) const {}
};

/* Row i's best key and its column, in best_key[i] and best_col[i] (the host starts them at the
 * lowest key and column -1).  KeyOf::key(v) is a cell value's key. */
template <class Key, class KeyOf>
struct pw_row_argmax {
    struct Acc {
        Key key;
        int64_t j;
    };
    /* The step in the chunk, not in the tile, is what a step selects: a constant in the unrolled
     * chunk, where rel + o cost an add (and, with rel in a uniform register, a move) a step on
     * every lane (SW 65536^2 PW+HT 1.04x dcad950's time: ncu, PERFORMANCE.md session 25). */
    struct TileAcc {
        Key key;
        int32_t step;     /* in the tile; -1: not in this tile */
        int32_t in_chunk; /* in the current chunk; -1: not in it */
    };
    Key *best_key;
    int64_t *best_col;

    __device__ Acc acc_load(int64_t i) const { return Acc{best_key[i], best_col[i]}; }
    template <class V>
    __device__ void acc_add(Acc &acc, int64_t, int64_t j, const V &v) const
    {
        const Key k = KeyOf::key(v);
        if (k > acc.key) acc.key = k, acc.j = j;
    }
    __device__ void acc_store(int64_t i, const Acc &acc) const { best_key[i] = acc.key, best_col[i] = acc.j; }

    __device__ TileAcc tile_acc_load(int64_t i) const { return TileAcc{best_key[i], -1, -1}; }
    __device__ void tile_acc_chunk_begin(TileAcc &acc) const { acc.in_chunk = -1; }
    template <class V>
    __device__ void tile_acc_add(TileAcc &acc, const V &v, int32_t o) const
    {
        const Key k = KeyOf::key(v);
        const bool take = k > acc.key; /* a select, not a branch: WarpProc's lanes stay together */
        acc.key = take ? k : acc.key;
        acc.in_chunk = take ? o : acc.in_chunk;
    }
    __device__ void tile_acc_chunk_end(TileAcc &acc, int32_t rel) const
    {
        acc.step = acc.in_chunk >= 0 ? rel + acc.in_chunk : acc.step;
    }
    __device__ void tile_acc_store(int64_t i, const TileAcc &acc, int64_t col_of_step0) const
    {
        if (acc.step < 0) return;
        best_key[i] = acc.key;
        best_col[i] = col_of_step0 + acc.step;
    }
    __device__ static Key acc_key(const TileAcc &acc) { return acc.key; }
};

/* One of two types by a constant (no <type_traits> under NVRTC). */
template <bool If, class Then, class Else>
struct pw_pick {
    typedef Then type;
};
template <class Then, class Else>
struct pw_pick<false, Then, Else> {
    typedef Else type;
};

#endif
