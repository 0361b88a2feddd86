/*
 * warp_lanes.cuh - the lanes of the warp processor (warp_proc.cuh): what one thread holds of its
 * R rows and how it steps them.  WarpProc owns the chunk loop and the hand-over between
 * tile-rows; a Lanes type owns the rows' state, its load and store at a tile's ends, and the
 * cells of a step.  ScalarLanes (here) keeps each row's value of App::T in registers and runs
 * the app's cell on it; packed lanes (sw_packed_lanes.cuh) keep two rows in one register of
 * 16-bit halves.
 *
 * A Lanes type has (L: the lanes, as WarpProc holds them; Staged: what the chunk's shared slots
 * hold, the row above's values in and the last lane's out):
 *   static constexpr bool prunes;  it can skip chunks (block pruning, warp_proc.cuh)
 *   __device__ static void begin_block(const App &);   stage what its cells read, once a block
 *   __device__ void load(const App &, const pw_tiling &, const pw_warp_span &);   a tile's start
 *   __device__ void store(const App &, const pw_warp_span &) const;              and its end
 *   __device__ void chunk_begin(const App &);  before a chunk's values are staged
 *   __device__ void chunk_end(const App &, int32_t rel);  after its steps (rel: its first step in the tile)
 *   __device__ Staged stage(const App &, const T &) const;    a bus value into a shared slot
 *   __device__ T unstage(const App &, const Staged &) const;  an output slot into a bus value
 *   template <bool Checked> __device__ void step(const App &, const pw_warp_span &, const Staged &up,
 *        const Col &col, Staged *out_val, int o, int32_t rel);   one step (warp_proc.cuh, run_chunk)
 * and, where prunes: held_max_h, to_floor, best_so_far (below).
 */
#ifndef PW_DEVICE_WARP_LANES_CUH
#define PW_DEVICE_WARP_LANES_CUH

#include "memory.cuh"
#include "tile_steps.cuh"

/* Where one tile runs. */
struct pw_warp_span {
    int64_t s0, s1, lanes, first; /* steps [s0, s1), valid lanes, row of this thread's lane 0 */
    int64_t last_row;             /* the row of the tile's last lane */
    int last_thread, last_q;      /* the tile's last lane */
};

/* Each row's value of App::T in registers, the app's cell on each. */
template <class App, int R>
struct ScalarLanes {
    typedef typename App::T T;
    typedef typename App::Col Col;
    typedef typename App::Row Row;
    typedef typename App::Pre Pre;
    typedef typename App::TileAcc TileAcc;
    typedef T Staged;
    static constexpr int bits = 32; /* a cell value's width in the lanes (pw_run_info.lane_bits) */
    static constexpr bool prunes = App::prunes;

    T left[R], diag[R]; /* left: the lane's latest value; diag: its latest up value */
    Col col[R];         /* the column datum of the lane's next step */
    Pre pre[R];         /* and its cell input, pre(row, col) */
    Row row[R];
    TileAcc acc[R];
    pw_step_window cells[R]; /* checked tiles: the tile steps of the lane's cells */

    __device__ static void begin_block(const App &) {}
    __device__ __forceinline__ void chunk_begin(const App &app)
    {
#pragma unroll
        for (int q = 0; q < R; q++) app.tile_acc_chunk_begin(acc[q]);
    }
    __device__ __forceinline__ void chunk_end(const App &app, int32_t rel)
    {
#pragma unroll
        for (int q = 0; q < R; q++) app.tile_acc_chunk_end(acc[q], rel);
    }
    __device__ __forceinline__ Staged stage(const App &, const T &v) const { return v; }
    __device__ __forceinline__ T unstage(const App &, const Staged &v) const { return v; }

    /* Step rel + o of the tile: every lane computes its cell from the previous step's values.  In a
     * checked tile (an end of the row, a short tile-row, a short chunk) every lane computes too,
     * and a lane whose cell is outside the matrix keeps its state by selects: a branch a lane
     * would split the warp, and the tiles at a row's start are on the wavefront's critical path
     * (each tile-row waits on the one above there).  What such a lane computes never reaches a
     * valid cell: past the right end it feeds only lanes further past it, before the left end it
     * is never kept. */
    template <bool Checked>
    __device__ __forceinline__ void step(const App &app, const pw_warp_span &sp, const Staged &staged_up,
                                         const Col &staged_col, Staged *out_val, int o, int32_t rel)
    {
        const int k = threadIdx.x;
        const T shuffled_up = app.shfl_up_value(left[R - 1]);
        const T in_up = k == 0 ? staged_up : shuffled_up;
        /* Last lane first: lane q reads lane q - 1's previous-step value before it changes. */
#pragma unroll
        for (int q = R - 1; q >= 0; q--) {
            const T up = q > 0 ? left[q - 1] : in_up;
            const T v = app.cell_pre(pre[q], up, left[q], diag[q]);
            TileAcc a = acc[q];
            app.tile_acc_add(a, v, o);
            const bool keep = !Checked || cells[q].has(rel + o);
            diag[q] = keep ? up : diag[q];
            left[q] = keep ? v : left[q];
            acc[q] = keep ? a : acc[q];
            const bool last = Checked ? k == sp.last_thread && q == sp.last_q : k == 31 && q == R - 1;
            if (last) out_val[o] = v;
        }
        /* The next step's columns and cell inputs, off the up value's path: every lane (valid or
         * not: its data are stand-ins then) takes lane q - 1's column. */
        const Col shuffled_c = pw_shfl_up(col[R - 1]);
        /* (no select between whole Col values: with a struct Col, a user cell's, NVVM then kept
         * this loop rolled and every lane's state in local memory) */
#pragma unroll
        for (int q = R - 1; q > 0; q--) col[q] = col[q - 1];
        col[0] = shuffled_c;
        if (k == 0) col[0] = staged_col;
#pragma unroll
        for (int q = 0; q < R; q++) pre[q] = app.pre(row[q], col[q]);
    }

    __device__ __forceinline__ void load(const App &app, const pw_tiling &t, const pw_warp_span &sp)
    {
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)threadIdx.x * R + q, i = sp.first + q;
            const int64_t x = sp.s0 - lane; /* the lane's column at step s0 */
            /* lanes past the tile's rows or the matrix's columns get stand-ins: pre() is made for
             * every lane (unused where the cell is not), so its data must be safe to read */
            row[q] = app.row_load(lane < sp.lanes ? i : sp.first - (int64_t)threadIdx.x * R);
            col[q] = Col{}; /* (a select between two structs would keep the lanes in local memory) */
            if (x >= 0 && x < t.cols) col[q] = app.col_load(x);
            pre[q] = app.pre(row[q], col[q]);
            cells[q] = pw_lane_steps(lane, sp.lanes, sp.s0, t.cols);
            if (lane < sp.lanes) {
                left[q] = pw_load_cg(app.left + i); /* the lane's value at step s0 - 1 */
                diag[q] = pw_load_cg(app.diag + i);
                acc[q] = app.tile_acc_load(i);
            }
        }
    }

    __device__ __forceinline__ void store(const App &app, const pw_warp_span &sp) const
    {
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)threadIdx.x * R + q, i = sp.first + q;
            if (lane < sp.lanes) {
                app.left[i] = left[q];
                app.diag[i] = diag[q];
                app.tile_acc_store(i, acc[q], sp.s0 - lane);
            }
        }
    }

    /* ---- block pruning (warp_proc.cuh) ---- */

    /* The largest H this thread holds at a chunk's start, val (its bus value) included. */
    __device__ __forceinline__ int32_t held_max_h(const T &val) const
    {
        int32_t m = App::h_value(val);
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int32_t l = App::h_value(left[q]), d = App::h_value(diag[q]);
            m = l > m ? l : m;
            m = d > m ? d : m;
        }
        return m;
    }

    /* The chunk at c skipped: the floor values in the lanes, their column data those of step c + 32. */
    __device__ __forceinline__ void to_floor(const App &app, const pw_tiling &t, int64_t c)
    {
        const T floor = App::floor_value();
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)threadIdx.x * R + q, x = c + 32 - lane;
            left[q] = floor;
            diag[q] = floor;
            col[q] = Col{}; /* (a select between two structs would keep the lanes in local memory) */
            if (x >= 0 && x < t.cols) col[q] = app.col_load(x);
            pre[q] = app.pre(row[q], col[q]);
        }
    }

    /* The best score of the tile-row's rows so far (this thread's). */
    __device__ __forceinline__ int32_t best_so_far(const pw_warp_span &sp) const
    {
        int32_t b = 0;
#pragma unroll
        for (int q = 0; q < R; q++) { /* only the tile-row's lanes hold accumulators */
            const int32_t s = App::acc_key(acc[q]);
            if ((int64_t)threadIdx.x * R + q < sp.lanes && s > b) b = s;
        }
        return b;
    }
};

#endif
