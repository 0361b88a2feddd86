/*
 * warp_proc.cuh - the register/shuffle tile processor for the linear apps (SW, DTW) on
 * hyper tiles: one warp per tile-row, R = h / 32 rows (lanes) per thread, no __syncthreads().
 *
 * Lane L = 32-thread index k * R + q computes column x = s - L at step s (hyper tiles, skew 0).
 * Its up value and column datum (b[x]) are what lane L - 1 held after step s - 1: for q > 0 a
 * register of the same thread, for q = 0 thread k - 1's last lane, moved by __shfl_up_sync, and
 * for thread 0 the row above's bus, staged 32 columns at a time in shared memory.  The R cells of
 * a thread in one step are independent (they use the previous step's values), so a step is R-way
 * instruction-level parallel; the warp never waits on the rest of the block.
 *
 * A step's latency is the critical path of the whole wavefront (every tile-row waits on the one
 * above, step by step), so only what needs the up value stays on it: the cell's own input (SW's
 * substitution score, DTW's distance) depends on the row and column data alone, and is made a
 * step ahead (App::pre) from the column the lane will see next -- lane L - 1's current one.
 *
 * Steps run in chunks of 32.  A whole chunk is unrolled, so the staged value a step reads and the
 * slot the last lane's output goes to are compile-time shared-memory offsets; chunk ends write
 * the 32 outputs of the last lane to the bus in one coalesced store.  An interior chunk (every
 * lane's cell inside the matrix at every step) has no per-step condition left; a chunk at an end
 * of the row or of a short last tile-row keeps each lane's state by selects where its cell is
 * outside (step<true>); a short last chunk takes the same checked step in a loop.
 *
 * Tile-rows hand the bus over without progress counters: the processor keeps its own copy of the
 * bus (edge words, handover.cuh: NCCL's "LL" protocol), where every 32-bit word of a value
 * travels with the tag of the tile-row that wrote it in one 64-bit word, moved whole by a 64-bit
 * access (single-copy atomic in the PTX memory model).  Thread k of a tile-row reads column
 * c + k's words until they carry the row above's tag: no counter, no fence on either side (a release store is a MEMBAR.ALL.GPU on the
 * writer's path each chunk, an acquire a second round trip before the data on the reader's), and
 * the words for chunk n + 1 are loaded while chunk n runs, which costs no lag, as a word not yet
 * written is just read again.  The tile-row below so follows about h + 32 steps behind whatever
 * the tile width; the glue fills the copy from the app's bus (tag 0: what tile-row 0 awaits) before
 * the run and copies it back after.  Counters measured 1.4-1.6x slower (docs/PERFORMANCE.md).
 *
 * App (linear) adds to LinearProc's interface: typedef Row, Col, Pre, TileAcc;
 *   __device__ T shfl_up_value(const T &) const; the value one thread up the warp, as the next
 *                                               lane reads it (pw_shfl_up, or only the fields
 *                                               the cell reads of its up neighbour)
 *   __device__ Row row_load(int64_t i) const;   per-row datum (SW: a[i]'s score-table row)
 *   __device__ Col col_load(int64_t j) const;   per-column datum (SW: b[j]); Col{} must be a
 *                                               harmless stand-in (pre() of it is computed, unused);
 *                                               whole 32-bit words (it is shuffled up the warp)
 *   __device__ Pre pre(Row, Col) const;         the cell's input from its row and column data
 *   __device__ T cell_pre(Pre, T up, T left, T diag) const;
 *   __device__ TileAcc tile_acc_load(int64_t i) const;             row i's accumulator in registers
 *   __device__ void tile_acc_chunk_begin(TileAcc &) const;                  a chunk's start
 *   __device__ void tile_acc_add(TileAcc &, const T &v, int32_t o) const;  v at step o of the chunk
 *   __device__ void tile_acc_chunk_end(TileAcc &, int32_t rel) const;      its end (rel: its first step in the tile)
 *   __device__ void tile_acc_store(int64_t i, const TileAcc &, int64_t col_of_step0) const;
 *   static constexpr bool prunes;               SW's block pruning (below; app_sw.cuh has the members it
 *                                               uses); false for every other app
 * The tile accumulator counts steps from the tile's first (32-bit: the host cuts tiles to at most 2^30 steps, kernel_desc.h); the
 * store turns a step into the column col_of_step0 + step.
 *
 * What a thread holds of its rows and how it steps them is the Lanes parameter (warp_lanes.cuh):
 * ScalarLanes runs the app's cell on each row's value; SW's packed lanes (sw_packed_lanes.cuh)
 * run two rows an instruction in 16-bit halves.  The chunk loop, the hand-over and the pruning
 * decisions here are the same for both.
 */
#ifndef PW_DEVICE_WARP_PROC_CUH
#define PW_DEVICE_WARP_PROC_CUH

#include "handover.cuh"
#include "schedules.cuh"
#include "tile_steps.cuh"
#include "warp_lanes.cuh"


template <class App, int R, class Lanes = ScalarLanes<App, R>>
struct WarpProc {
    typedef typename App::T T;
    App app;
    pw_edge<T> bus; /* the processor's bus: cols words, filled from the app's before the run and
                       drained back after it (handover.cuh) */
    typedef typename App::Col Col;
    typedef typename Lanes::Staged Staged;
    /* Its waits are on the bus words.  Register budget (bounded kernels): 16 warps an SM (128
     * registers) up to R = 2, which fit it without spilling; R = 4 and 8 get 255.  R = 4 under
     * 128 spilled and ran slower even where it made every tile-row resident (H200, d923e16, SW
     * 262144^2 h = 128: 276 ms with 2048 blocks against 196 ms with 1056).  One warp a block;
     * its shared memory is static (steps): constant addresses, where a pointer into the dynamic
     * block came back as a generic-to-shared conversion at every use under register pressure. */
    static constexpr pw_proc_policy policy = {true, false, App::stages_block, 32, R <= 2 ? 16 : 8};
    __device__ void begin_block() const
    {
        app.begin_block();
        Lanes::begin_block(app);
    }

    __device__ bool run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *, const pw_row_sync &sync) const
    {
        pw_warp_span sp;
        sp.lanes = pw_tiling_lanes(&t, r);
        pw_tile_steps(t, r, c, sp.lanes, &sp.s0, &sp.s1);
        sp.first = r * t.h + (int64_t)threadIdx.x * R;
        sp.last_row = r * t.h + sp.lanes - 1;
        sp.last_thread = (int)((sp.lanes - 1) / R);
        sp.last_q = (int)((sp.lanes - 1) % R);
        return steps(t, sp, sync);
    }

    /* What thread k brings to a chunk at c: column c + k's bus words, and the datum of column
     * c + k + 1 (lane 0's column at the step after c + k). */
    struct Incoming {
        pw_ll<T> bus;
        Col col;
    };

    /* The chunk loop counts a tile's steps from s0 in 32 bits (rel; a tile has at most 2^30
     * steps, kernel_desc.h), and tests each column against a range of rel made once a tile:
     * with 64-bit columns tested (and the tile-row's lanes made again) every chunk, a chunk's
     * own instructions grew from 84 to 104 against dcad950's, on the path every tile-row below
     * waits on (SW 65536^2 PW+HT 1.05x; ncu, PERFORMANCE.md session 25). */
    typedef pw_step_window Range;
    /* The rel of [0, n) with lo <= rel < hi and rel < hi2. */
    __device__ __forceinline__ static Range range(int64_t lo, int64_t hi, int64_t hi2, int64_t n)
    {
        lo = lo < 0 ? 0 : lo;
        hi = hi < hi2 ? hi : hi2;
        hi = hi < n ? hi : n;
        return Range{(int32_t)lo, hi > lo ? (uint32_t)(hi - lo) : 0u};
    }
    /* Thread k's ranges in a tile of n steps from s0: its bus column s0 + rel + k in the tile and
     * the matrix, and the next column's datum; the last lane's output that it stores, column s0 +
     * rel + k - (lanes - 1) of step rel + k; and (the same for every thread) the chunks whose
     * every lane's cell is inside the matrix at every step (interior: no checks). */
    struct Ranges {
        Range bus, col, out, interior;
    };
    __device__ __forceinline__ static Ranges ranges(const pw_tiling &t, const pw_warp_span &sp)
    {
        Ranges g;
        if (sp.s0 >= sp.lanes - 1 && sp.s1 <= t.cols) {
            /* Every column the tile touches inside the matrix (all tiles but a row's ends): only
             * the tile's end bounds them, in a few 32-bit operations.  (The general form below,
             * made for every tile, cost DTW 262144^2 5% where the SMs' issue slots are what
             * bounds a run: 86 instructions a tile; a full chunk is interior here, its last step
             * being before s1 <= cols.) */
            const int32_t n32 = (int32_t)(sp.s1 - sp.s0), left = n32 - (int32_t)threadIdx.x > 0 ? n32 - (int32_t)threadIdx.x : 0;
            g.bus = Range{0, (uint32_t)left};
            g.col = Range{0, left > 0 ? (uint32_t)left - 1 : 0u};
            g.out = Range{0, (uint32_t)left};
            g.interior = Range{0, sp.lanes == t.h ? (uint32_t)n32 : 0u};
            return g;
        }
        const int64_t k = threadIdx.x, n = sp.s1 - sp.s0, s0 = sp.s0, shift = sp.lanes - 1;
        g.bus = range(-s0 - k, t.cols - s0 - k, n - k, n);
        g.col = range(-s0 - k - 1, t.cols - s0 - k - 1, n - k - 1, n);
        g.out = range(shift - s0 - k, t.cols + shift - s0 - k, n - k, n);
        g.interior = sp.lanes == t.h ? range(t.h - 1 - s0, t.cols - 31 - s0, n, n) : Range{0, 0u};
        return g;
    }

    /* Start thread k's loads for the chunk at rel (a column outside the tile or matrix loads none). */
    __device__ __forceinline__ void issue(const pw_warp_span &sp, const Ranges &g, int32_t rel, Incoming *in) const
    {
        const int64_t x = sp.s0 + rel + threadIdx.x;
        if (g.bus.has(rel)) in->bus = bus.load(bus.words + x);
        if (g.col.has(rel)) in->col = app.col_load(x + 1);
    }

    /* Thread k's bus value for the chunk at rel once the row above has sent it, loading the words
     * again while it has not (handover.cuh).  The bus keeps the row above only in its words, so
     * every schedule reads them (pw_edge::through_words(sync, false)); the ordered ones have sent
     * them already.  false: the run is abandoned. */
    __device__ __forceinline__ bool settle(const pw_warp_span &sp, const Ranges &g, const pw_row_sync &sync,
                                           int32_t rel, Incoming *in, T *val) const
    {
        const int64_t x = sp.s0 + rel + threadIdx.x;
        const bool ok = !g.bus.has(rel) || bus.settle(sync, bus.words + x, &in->bus);
        *val = pw_ll_value(in->bus);
        return __all_sync(0xffffffffu, ok);
    }

    __device__ __forceinline__ bool steps(const pw_tiling &t, const pw_warp_span &sp, const pw_row_sync &sync) const
    {
        /* the staged chunk (32 bus values, 32 column data) and the last lane's 32 outputs */
        __shared__ Staged in_val[32], out_val[32];
        __shared__ Col in_col[32];
        const int k = threadIdx.x;
        Lanes L;
        L.load(app, t, sp);
        Pruning P = prune_begin();
        const Ranges g = ranges(t, sp);
        const int32_t n_steps = (int32_t)(sp.s1 - sp.s0);
        const int64_t out_at = sp.s0 + k - (sp.lanes - 1); /* the last lane's column at step s0 + k */
        Incoming next{};
        issue(sp, g, 0, &next);
        for (int32_t rel = 0; rel < n_steps; rel += 32) {
            const int n = n_steps - rel < 32 ? n_steps - rel : 32;
            T val;
            if (!settle(sp, g, sync, rel, &next, &val)) return false;
            L.chunk_begin(app);
            in_val[k] = L.stage(app, val);
            in_col[k] = next.col;
            __syncwarp(); /* the staged chunk before its reads; the last chunk's output reads before new writes */
            if (rel + 32 < n_steps) issue(sp, g, rel + 32, &next); /* in flight while this chunk runs */
            /* every lane's cell inside the matrix at every step of the chunk */
            const bool interior = n == 32 && g.interior.has(rel);
            if (interior && prune_chunk(t, sp, &L, val, sp.s0 + rel, out_val, &P)) {
                /* skipped: the floor values went to the lanes and to the bus */
            } else {
                if (interior) run_chunk<false, 32>(sp, &L, in_val, in_col, out_val, rel);
                else if (n == 32) run_chunk<true, 32>(sp, &L, in_val, in_col, out_val, rel);
                else run_chunk<true, 0>(sp, &L, in_val, in_col, out_val, rel, n);
                prune_publish(sp, L, &P, sp.s0 + rel);
            }
            __syncwarp(); /* the last lane's outputs before they are stored */
            if (g.out.has(rel)) {
                const int64_t j = out_at + rel;
                const T v = L.unstage(app, out_val[k]);
                bus.send(sync, bus.words + j, v);
                app.row_out(sp.last_row, j, v);
            }
            /* (after the send: the row below waits for it, not for this) */
            L.chunk_end(app, rel);
        }
        L.store(app, sp);
        prune_end(P);
        return true;
    }

    /* ---- block pruning (Lanes::prunes: SW, app_sw.cuh; pw_options.sw_prune) ----------------------
     * A path through a chunk's cells enters them from its boundary (the lanes' left and diag at its
     * first step, the row above's 32 values) or starts in them at 0, and gains at most the best
     * substitution score per diagonal move, of which there are at most min(rows left, columns left)
     * from the chunk's corner to the matrix's end.  When even that bound is below a score some
     * cell reached (the best any warp published), no path that could still win goes through the
     * chunk: its cells are skipped and take the floor values (H 0, E and F -infinity), which are
     * at most the real ones, so every later cell computes at most its real value and exactly it
     * where its best path avoids skipped chunks, which every cell that could win has (strict <:
     * ties keep their end cell).  Every computed value is still the score of some alignment (one
     * that starts after a skipped chunk), so a published best never exceeds the real one. */
    struct Pruning {
        int32_t best;               /* the best published score, as last read */
        int32_t published;          /* the best this warp has published */
        unsigned long long skipped; /* cells skipped (thread 0's count) */
    };

    __device__ __forceinline__ static int32_t warp_max(int32_t v)
    {
#pragma unroll
        for (int d = 16; d > 0; d /= 2) {
            const int32_t o = __shfl_xor_sync(0xffffffffu, v, d);
            v = o > v ? o : v;
        }
        return v;
    }

    __device__ __forceinline__ Pruning prune_begin() const
    {
        Pruning P{0, 0, 0};
        if constexpr (Lanes::prunes)
            if (app.prune_best) P.best = *(volatile const int32_t *)app.prune_best;
        return P;
    }

    /* Skip the interior chunk at c if its bound is below the best published (val: this thread's
     * bus value for it).  true: skipped, the lanes and out_val hold the floor values, the lanes'
     * column data are those of step c + 32. */
    __device__ __forceinline__ bool prune_chunk(const pw_tiling &t, const pw_warp_span &sp, Lanes *L, const T &val,
                                                int64_t c, Staged *out_val, Pruning *P) const
    {
        if constexpr (!Lanes::prunes) {
            return false;
        } else {
            if (!app.prune_best) return false;
            const int64_t i0 = sp.last_row - (sp.lanes - 1), j0 = c - (sp.lanes - 1); /* the chunk's corner */
            const int64_t rows_left = t.rows - i0, cols_left = t.cols - j0;
            const int64_t gain = (int64_t)app.max_score * (rows_left < cols_left ? rows_left : cols_left);
            /* one value for the whole warp (each thread loaded its own): the branches below and the
             * vote must be taken by all 32 threads alike */
            const int32_t best = __shfl_sync(0xffffffffu, P->best, 0);
            P->best = *(volatile const int32_t *)app.prune_best; /* for the next chunk: a stale one prunes less */
            /* Far from it (the moves left alone worth twice the best), the warp does not look at
             * its values: on a pair with nothing to skip every chunk paid for that (8-11%). */
            if (gain >= 2 * (int64_t)best) return false;
            /* each thread bounds the boundary values it holds, and one vote decides: a shuffle
             * reduction here and at every publish cost 17% of an unrelated pair's run (it is on
             * every chunk's path) */
            const int32_t m = L->held_max_h(val);
            const int64_t bound = (int64_t)(m > 0 ? m : 0) + gain;
            if (!__all_sync(0xffffffffu, bound < best)) return false;
            L->to_floor(app, t, c);
            out_val[threadIdx.x] = App::floor_value();
            if (threadIdx.x == 0) P->skipped += 32ull * (unsigned long long)sp.lanes;
            return true;
        }
    }

    /* After every fourth computed chunk: publish the best of the tile-row's rows so far where it
     * grew (a vote; the reduction and the atomic only then). */
    __device__ __forceinline__ void prune_publish(const pw_warp_span &sp, const Lanes &L, Pruning *P, int64_t c) const
    {
        if constexpr (Lanes::prunes) {
            if (!app.prune_best || ((c - sp.s0) & 96) != 0) return; /* every fourth chunk */
            int32_t b = L.best_so_far(sp);
            if (!__any_sync(0xffffffffu, b > P->published)) return;
            b = warp_max(b);
            if (threadIdx.x == 0) atomicMax(app.prune_best, b);
            P->published = b;
        }
    }

    __device__ __forceinline__ void prune_end(const Pruning &P) const
    {
        if constexpr (Lanes::prunes)
            if (app.pruned && threadIdx.x == 0 && P.skipped) atomicAdd(app.pruned, P.skipped);
    }

    /* The n steps of a chunk (N: a compile-time 32, unrolled; 0: n of them in a loop).  Every
     * thread reads the staged bus value and column datum a step ahead, though only thread 0
     * uses them.  Read at the step (`if (k == 0) up = in_val[o]`), thread 0's load was compiled
     * into the shuffle's destination register and so waited for the shuffle: a shuffle and a
     * shared load latency a step on the wavefront's path. */
    template <bool Checked, int N>
    __device__ __forceinline__ void run_chunk(const pw_warp_span &sp, Lanes *L, const Staged *in_val, const Col *in_col,
                                              Staged *out_val, int32_t rel, int n = N) const
    {
        Staged up = in_val[0];
        Col col = in_col[0];
        if constexpr (N > 0) {
            unrolled_steps<Checked, 0, N>(sp, L, in_val, in_col, out_val, rel, &up, &col);
        } else {
            for (int o = 0; o < n; o++) chunk_step<Checked>(sp, L, in_val, in_col, out_val, o, n, rel, &up, &col);
        }
    }

    /* Steps O..N-1, one copy each.  Not `#pragma unroll`: NVVM honoured it for some lanes and,
     * for SwPackedLanes at R = 2, unrolled the 32 steps only by two, so that the lanes' register
     * arrays rotated through moves and every shared slot took an address computation (PTX,
     * 2026-11-28). */
    template <bool Checked, int O, int N>
    __device__ __forceinline__ void unrolled_steps(const pw_warp_span &sp, Lanes *L, const Staged *in_val,
                                                   const Col *in_col, Staged *out_val, int32_t rel, Staged *up,
                                                   Col *col) const
    {
        if constexpr (O < N) {
            chunk_step<Checked>(sp, L, in_val, in_col, out_val, O, N, rel, up, col);
            unrolled_steps<Checked, O + 1, N>(sp, L, in_val, in_col, out_val, rel, up, col);
        }
    }

    /* Step o of n with its staged values in *up, *col; reads step o + 1's into them first. */
    template <bool Checked>
    __device__ __forceinline__ void chunk_step(const pw_warp_span &sp, Lanes *L, const Staged *in_val,
                                               const Col *in_col, Staged *out_val, int o, int n, int32_t rel,
                                               Staged *up, Col *col) const
    {
        const Staged staged_up = *up;
        const Col staged_col = *col;
        if (o + 1 < n) {
            *up = in_val[o + 1];
            *col = in_col[o + 1];
        }
        L->template step<Checked>(app, sp, staged_up, staged_col, out_val, o, rel);
    }
};

#endif
