/*
 * app_sw.cuh - Smith-Waterman-Gotoh in the forms the linear processors take (linear_proc.cuh,
 * warp_proc.cuh): the cell of apps/sw_cell.h, its gap model (affine: H, E, F; linear: H alone),
 * the score table staged in shared memory once a block; the linear storage (linear_storage.cuh)
 * and each row's best H with its column (reductions.cuh's pw_row_argmax).
 */
#ifndef PW_DEVICE_APP_SW_CUH
#define PW_DEVICE_APP_SW_CUH

#include "../../../apps/sw_cell.h"
#include "../../core/fixed_width.h"
#include "linear_storage.cuh"
#include "reductions.cuh"

/* The gap models: what a cell carries and how it is made.  Affine gaps carry H, E and F
 * (pw_sw_cell); linear ones (gap_open == gap_extend) H alone (pw_sw_step_linear): a third of
 * the bus and lane state, one shuffle a step instead of two, three DPX-or-add instructions a
 * cell instead of six. */
struct SwAffineGaps {
    typedef pw_sw_cell T;
    static constexpr bool affine = true;
    int32_t open, extend;
    __host__ __device__ static T boundary() { return pw_sw_boundary(); }
    __device__ static int32_t h(const T &v) { return v.h; }
    __device__ static int32_t key(const T &v) { return v.h; } /* what the rows' argmax compares */
    __device__ static int32_t f(const T &v) { return v.f; }
    /* WarpProc moves a lane's value one thread up the warp every step, where it is the next
     * lane's up value: pw_sw_step reads h and f of it, never e, so e stays behind. */
    __device__ static T shfl_up(const T &v)
    {
        return T{__shfl_up_sync(0xffffffffu, v.h, 1), PW_SW_NEG_INF, __shfl_up_sync(0xffffffffu, v.f, 1)};
    }
    __device__ T step(int32_t subst, T up, T l, T d) const { return pw_sw_step(subst, open, extend, up, l, d); }
    /* the least a cell can hold (block pruning puts it where cells are skipped) */
    __device__ static T floor_value() { return T{0, PW_SW_NEG_INF, PW_SW_NEG_INF}; }
};

struct SwLinearGaps {
    typedef int32_t T; /* H */
    static constexpr bool affine = false;
    int32_t gap;
    __host__ __device__ static T boundary() { return 0; }
    __device__ static int32_t h(const T &v) { return v; }
    __device__ static int32_t key(const T &v) { return v; }
    /* No vertical-gap state of its own: with open == extend a run's opening costs nothing
     * extra, so the alignment search never needs one (src/align/sw_strips.c). */
    __device__ static int32_t f(const T &) { return PW_SW_NEG_INF; }
    __device__ static T shfl_up(const T &v) { return __shfl_up_sync(0xffffffffu, v, 1); }
    __device__ T step(int32_t subst, T up, T l, T d) const { return pw_sw_step_linear(subst, gap, up, l, d); }
    __device__ static T floor_value() { return 0; }
};

/* The score table in shared memory, staged once a block (begin_block): a lookup is one add and
 * one shared load, by byte offsets (Row: a[i]'s row, Col: b[j], both times 4 bytes), where the
 * global table took a 64-bit address (four instructions) and an L1 load, twice a step. */
static __shared__ int32_t pw_sw_smem_scores[PW_SCORING_MAX_ALPHABET * PW_SCORING_MAX_ALPHABET];

/* ForPath (the alignment search, src/align/sw_strips.c): with saved_h set, the H and F of rows
 * every - 1, 2 every - 1, ... (the first `slots` of them) are copied there as they go to the bus,
 * row k at k cols; `every` is a multiple of the tile height, so each is a tile-row's last row.
 * Prunes: the kernels that can skip chunks (pw_options.sw_prune; sw_prune_run.cu).  Only they hold
 * the pruning code: compiled into every SW kernel, off at run time, it made the default runs
 * 1.2-1.6x slower (H200, SW 65536^2 linear gap PW+HT 8.4 -> 13.2 ms, 262144^2 60.6 -> 87.2 ms;
 * issue 32's before/after, 2026-12-01). */
template <class Gaps, bool ForPath = false, bool Prunes = false>
struct SwApp : pw_linear_storage<typename Gaps::T>, pw_row_argmax<int32_t, Gaps> {
    typedef typename Gaps::T T;
    typedef Gaps GapModel;
    typedef int32_t Row; /* byte offset of a[i]'s row in the staged score table */
    typedef int32_t Col; /* 4 b[j]: byte offset of its entry in a row */
    typedef int32_t Pre; /* s(a[i], b[j]) */
    const uint8_t *a, *b;
    const int32_t *scores;
    int alphabet;
    Gaps gaps;
    int32_t *saved_h, *saved_f; /* ForPath: slots x cols each (NULL: none) */
    int64_t every, slots, cols;
    /* Block pruning (WarpProc, pw_options.sw_prune, in the Prunes kernels; not for the alignment
     * search, whose saved rows must be the real ones): the best score any warp has published, the
     * cells skipped, and the largest substitution score.  prune_best NULL: off. */
    int32_t *prune_best = nullptr;
    unsigned long long *pruned = nullptr;
    int32_t max_score = 0;

    static constexpr bool prunes = Prunes && !ForPath;
    /* This app as the type of the other kernel family (sw_prune_run.cu builds the pruning one):
     * every field, in order, next to their declarations -- one added above goes here too. */
    template <bool P>
    __host__ __device__ SwApp<Gaps, ForPath, P> with_prunes() const
    {
        return SwApp<Gaps, ForPath, P>{static_cast<const pw_linear_storage<T> &>(*this),
                                       static_cast<const pw_row_argmax<int32_t, Gaps> &>(*this),
                                       a, b, scores, alphabet, gaps, saved_h, saved_f, every, slots, cols,
                                       prune_best, pruned, max_score};
    }
    __device__ static int32_t h_value(const T &v) { return Gaps::h(v); }
    __device__ static T floor_value() { return Gaps::floor_value(); }

    static constexpr bool stages_block = true; /* the score table */
    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return cell_pre(pre(row_load(i), col_load(j)), up, l, d); }
    __device__ T shfl_up_value(const T &v) const { return Gaps::shfl_up(v); }
    __device__ void begin_block() const
    {
        for (int k = threadIdx.x; k < alphabet * alphabet; k += blockDim.x) pw_sw_smem_scores[k] = scores[k];
    }
    __device__ Row row_load(int64_t i) const { return 4 * (int32_t)a[i] * alphabet; }
    __device__ Col col_load(int64_t j) const { return 4 * (int32_t)b[j]; }
    __device__ Pre pre(Row row, Col col) const { return *(const int32_t *)((const char *)pw_sw_smem_scores + (row + col)); }
    __device__ T cell_pre(Pre subst, T up, T l, T d) const { return gaps.step(subst, up, l, d); }
    __device__ void row_out(int64_t i, int64_t j, const T &v) const
    {
        if constexpr (!ForPath) return; /* the score pass's kernels: nothing more a row */
        if (!saved_h || (i + 1) % every != 0) return;
        const int64_t k = (i + 1) / every - 1;
        if (k < slots) {
            saved_h[k * cols + j] = Gaps::h(v);
            saved_f[k * cols + j] = Gaps::f(v);
        }
    }
};

#endif
