/*
 * warp3_proc.cuh - the tile processor of 3-D wavefronts whose dependences are the three upwind
 * neighbours (i-1, j, k), (i, j-1, k), (i, j, k-1) or some of them (seed 004's demonstrator, an
 * LU-like sweep): KBA's decomposition, pipelined along i, with PeerWave's peer hand-over.
 *
 * The (j, k) face of the grid is cut into tiles of 32 rows (j) by NW * KW planes (k); a block of
 * NW warps owns a tile and walks it down all rows i.  Lane L of warp w holds row j = j0 + L and
 * the KW planes k = k0 + w KW .. + KW - 1, and at step s computes row i = s - L - w of them, k
 * in order (the k chain inside the thread).  So at step s every operand is one step old:
 *   west  (i-1, j, k)  its own values of step s - 1 (registers);
 *   north (i, j-1, k)  lane L - 1's values of step s - 1 (__shfl_up_sync); lane 0 reads the
 *                      tile before in j (or the halo) from its slice's row 0;
 *   top   (i, j, k-1)  for the first of its planes, warp w - 1's last value of step s - 1 (in
 *                      that warp's slice); warp 0 reads the tile before in k from column 0;
 *   self  (i, j, k)    the old value, from its slice.
 * Tiles wait for the tile before them in j and in k, and so form a 2-D wavefront of tiles (the
 * ticket order is its anti-diagonals: core/work.h), each tile-column pipelined down i.
 *
 *        k ->                      a tile's threads at step s, rows i = s - L - w:
 *      +-----+-----+-----+
 *   j  | 0,0 | 0,1 | 0,2 |          warp:   0      1      2      3        (KW planes each)
 *   |  +-----+-----+-----+          lane 0  i=s    i=s-1  i=s-2  i=s-3
 *   v  | 1,0 | 1,1 | ...           lane 1  i=s-1  i=s-2  ...
 *      +-----+-----+               ...
 *   tile (J, K) waits for (J-1, K) and (J, K-1); all pipelined along i (into the page).
 *
 * Why this shape: the three dependences leave no axis free, so a warp cannot load 32
 * neighbouring k of one (i, j) in one step (they are a chain).  Each step a warp instead needs a
 * diagonal slice: row j0 + L of row i = s - L - w, KW values each.  The warp copies that slice
 * for step s + AHEAD with cp.async into shared memory (consecutive k on consecutive lanes: a
 * few 128-byte lines an instruction), computes step s from its slice, writes the results back
 * into it, and stores slice s - 1 to the grid the same way.  So global memory sees each value
 * read once and written once, coalesced, while the dependence chains stay in registers.
 *
 * Hand-over (DESIGN.md section 3, as the 2-D peer rows): the block publishes in progress[q] how
 * many of its slices are stored (every CHUNK steps: a barrier over the stores, then thread 0's
 * release store); before copying slices up to x it waits (thread 0, acquire polls) for the tile
 * before in j to have stored slice x + 31 (its lane 31 computes our row -1 then) and the tile
 * before in k slice x + NW - 1 (its last warp computes our column -1 then).  The copies after the
 * acquire may be cp.async.ca: the acquire emptied this SM's L1, and the lines they fill come
 * from L2, which holds the released values (memory.cuh, pw_copy_async).
 *
 * Launch needs (proc_shapes.h): NW warps, pw_warp3_smem_bytes(KW, NW, AHEAD, CHAINS, sizeof(T)).  The
 * peer schedule only (tickets: core/work.h's face of tiles, sweep after sweep).
 *
 * Several sweeps a launch (pipelined, as the 2-D in-place sweeps): a tile of sweep s may copy
 * slice x once the previous sweep's tiles (J, K), (J + 1, K), (J, K + 1) and (J + 1, K + 1) have
 * stored slice x + 3 halo.  That covers (1) the point's old value, which is sweep s - 1's;
 * (2) any other point a cell reads, which the contract makes a downwind one (i + a, j + b, k + c),
 * 0 <= a, b, c <= halo: its slice in those tiles is at most x + a + b + c (a point's slice is
 * i + its row in the tile + its warp); and (3) the anti-dependences: the points this tile
 * overwrites are read in sweep s - 1 by upwind points of the tiles before it, done before
 * sweep s - 1's tile (J, K) computed them (its own waits), and by (J + 1, K) and (J, K + 1) as
 * their row 0 and column 0, copied at slices x - TILE_J + 1 and x - NW + 1.  The host pipelines
 * only where a halo fits one tile (halo < TILE_J, halo < NW KW: reads stay in those four) and
 * never in a band (user_cells.cu, tiles3_desc).  The waits are on earlier tickets, so any
 * number of blocks progresses (core/work.h).
 *
 * A band of j (a grid3 cell's GPU band, src/jit/cell_bands.c: band_edges and face_tiles in its
 * policy) is the same tiles over the band's columns: the first tile column also waits, per chunk,
 * for the left neighbour's last column's rows (the grid's column -1, its halo, filled by the link
 * or the neighbour's push), the last for the right neighbour's first column as its previous
 * sweep left it; the last tile in k of either column reports its rows (a column row is all its
 * planes: one element to the link), as the 2-D schedule does after each tile-row.
 */
#ifndef PW_DEVICE_WARP3_PROC_CUH
#define PW_DEVICE_WARP3_PROC_CUH

#include "memory.cuh"
#include "proc_shapes.h"
#include "schedules.cuh"

/* Cell: __device__ T operator()(int64_t i, int64_t j, int64_t k, T self, T west, T north, T top)
 * const.  T: a 4- or 8-byte value.  The grid has a halo of at least one cell on every side.
 * KW planes a thread, NW warps a block, AHEAD slices' copies in flight, CHUNK steps between
 * hand-overs, BLOCKS blocks an SM that the registers must allow, CHAINS rows a thread
 * (proc_shapes.h: the defaults, and the launch sizes; PEERWAVE_3D_TILE sets them for measuring).
 *
 * CHAINS > 1: the tile is 32 CHAINS rows, lane L holding rows j0 + L + 32 r (r < CHAINS), chain r
 * at row i = s - L - 32 r - w: a thread then has CHAINS independent k chains to interleave (a
 * step's latency is mostly one chain of KW dependent cells: PERFORMANCE.md, session 9).  Chain
 * r's north is lane L - 1's chain r, or for lane 0 lane 31's chain r - 1 (one rotation shuffle a
 * value, as for one chain); a slice is the tile's 32 CHAINS rows, so nothing else changes. */
template <class T, class Cell, int KW, int NW, int AHEAD_ = PW_WARP3_AHEAD, int CHUNK_ = PW_WARP3_CHUNK,
          int BLOCKS = 512 / (32 * NW), int CHAINS = PW_WARP3_CHAINS>
struct Warp3Proc {
    T *grid;
    int64_t rows, cols, planes;
    int64_t stride_i, stride_j; /* elements from one i to the next, one j to the next */
    int64_t halo;
    Cell cell;

    /* It syncs inside its tiles and takes the peer schedule's ticket (a tile) whole (it records
     * no trace: src/jit/cell.c does not choose it for a traced run); at most 128 registers, so
     * that 512 threads fit an SM (two blocks of the default eight warps: 512^3's 256 tiles all
     * at once on the H100's 132 SMs). */
    static constexpr pw_proc_policy policy = {true, true, false, 32 * NW, BLOCKS, false, true, true};
    enum { AHEAD = AHEAD_, CHUNK = CHUNK_, SLOTS = AHEAD_ + 2, R = CHAINS, TILE_J = 32 * CHAINS, ROWS = TILE_J + 1 };
    static_assert(AHEAD >= 1 && CHUNK >= 1, "a slice ahead at least, a hand-over every step at most");
    static_assert(CHAINS >= 1 && CHAINS <= 4, "one to four rows a thread");
    enum { PITCH = KW + 1, SLICE = ROWS * PITCH, COPIES = (SLICE + 31) / 32, STORES = KW * CHAINS };

    __device__ T *at(int64_t i, int64_t j, int64_t k) const
    {
        return grid + (i + halo) * stride_i + (j + halo) * stride_j + (k + halo);
    }
    /* Element (i - x, j, k) from the grid's start: x slices later it is (i, j, k). */
    __device__ int64_t offset(int64_t lag, int64_t j, int64_t k) const
    {
        return (halo - lag) * stride_i + (j + halo) * stride_j + (k + halo);
    }

    /* The ordered schedules are not its (src/jit/cell.c takes it for the peer schedule only; their
     * kernels are compiled with every module): they pass no run (sync.a) to decode tickets and
     * wait with, so it stops the kernel (an error on the host) rather than compute out of order. */
    __device__ bool run_tile(const pw_tiling &, int64_t, int64_t, unsigned char *, const pw_row_sync &) const
    {
        __trap();
        return false;
    }

    /* What a lane copies of every slice and stores of every result: per element its address at
     * slice 0 (rows i = -lag), its lag (the slice x holds its row x - lag) and whether its (j, k)
     * is in the grid.  A slice: row 0 is row j0 - 1 (for lane 0), column 0 plane k0 - 1 (warp 0
     * only; warp w > 0 takes it from warp w - 1).  The lags of a warp's elements are
     * w .. w + TILE_J - 1, so a slice x with w + TILE_J - 1 <= x < rows + w has all its rows inside
     * the grid: then (most steps of a tile) the elements skip their row checks and are one 64-bit
     * add from their address (the checks and offset arithmetic were two thirds of a step's
     * instructions: 505 a warp step, 4 cells, H200 2026-11-29, bench/profile_cells.sh). */
    struct Lanes {
        T *copy_at[COPIES], *store_at[STORES];
        int copy_lag[COPIES], store_lag[STORES];
        bool copy_in[COPIES], store_in[STORES];
        int w;
    };
    __device__ void lanes(Lanes &l, int64_t j0, int64_t k0, int w, int lane) const
    {
        l.w = w;
#pragma unroll
        for (int m = 0; m < COPIES; m++) {
            const int e = lane + 32 * m, rr = e / PITCH, cc = e % PITCH;
            const int64_t j = j0 + rr - 1, k = k0 + cc - 1;
            l.copy_lag[m] = (rr > 1 ? rr - 1 : 0) + w;
            l.copy_in[m] = e < SLICE && j < cols && k < planes && (cc > 0 || (w == 0 && rr > 0));
            l.copy_at[m] = grid + offset(l.copy_lag[m], j, k);
        }
#pragma unroll
        for (int m = 0; m < STORES; m++) {
            const int e = lane + 32 * m, row = e / KW, col = e % KW;
            l.store_lag[m] = row + w;
            l.store_in[m] = j0 + row < cols && k0 + col < planes;
            l.store_at[m] = grid + offset(l.store_lag[m], j0 + row, k0 + col);
        }
    }
    /* Whether every row of a warp's slice x is inside the grid (warp-uniform). */
    __device__ bool rows_inside(const Lanes &l, int64_t x) const { return x >= l.w + TILE_J - 1 && x < rows + l.w; }

    /* Copy slice x (its rows start x * stride_i further on) into `slot`.  Two loops, not one with
     * the all-rows test folded into each element's (982ea4f, 12 registers fewer in a plain nvcc
     * build): the one loop measured slower on an H200, demonstrator 2.679 against 2.509 ms at
     * 512^3 and 9.96 against 9.77 at 1024^3, LU-like 7.87 against 7.63 (PERFORMANCE.md, session 11). */
    __device__ void copy_slice(const Lanes &l, T *slot, int64_t x, int lane) const
    {
        const int64_t shift = x * stride_i;
        if (rows_inside(l, x)) {
#pragma unroll
            for (int m = 0; m < COPIES; m++) {
                if (m == COPIES - 1 && lane + 32 * m >= SLICE) break;
                pw_copy_async(slot + lane + 32 * m, l.copy_in[m] ? l.copy_at[m] + shift : grid, l.copy_in[m]);
            }
        } else {
#pragma unroll
            for (int m = 0; m < COPIES; m++) {
                if (m == COPIES - 1 && lane + 32 * m >= SLICE) break; /* the slice's end (zero-filling past it would not be ours) */
                const int64_t i = x - l.copy_lag[m];
                const bool inside = l.copy_in[m] && i >= 0 && i < rows;
                pw_copy_async(slot + lane + 32 * m, inside ? l.copy_at[m] + shift : grid, inside);
            }
        }
        pw_copy_async_commit();
    }

    /* Store the results of step x (its slice's rows 1 .. TILE_J, columns 1 .. KW) to the grid. */
    __device__ void store_slice(const Lanes &l, const T *slot, int64_t x, int lane) const
    {
        const int64_t shift = x * stride_i;
        const bool all_rows = rows_inside(l, x);
#pragma unroll
        for (int m = 0; m < STORES; m++) {
            const int e = lane + 32 * m;
            if (l.store_in[m] && (all_rows || (x >= l.store_lag[m] && x - l.store_lag[m] < rows)))
                l.store_at[m][shift] = slot[(e / KW + 1) * PITCH + e % KW + 1];
        }
    }

    /* Chain r's KW cells of step s (row i; `here` its slice), in k order: self from the slice,
     * west from prev (or the halo at i = 0), north as shuffled, top from the plane before. */
    __device__ void chain_cells(int r, int64_t i, int64_t j, int64_t k0, int kn, int lane, T *here, T top, T (&prev)[KW],
                                const T (&north)[KW]) const
    {
        T west[KW];
        if (i > 0) {
#pragma unroll
            for (int e = 0; e < KW; e++) west[e] = prev[e];
        } else {
#pragma unroll
            for (int e = 0; e < KW; e++) west[e] = e < kn ? *at(-1, j, k0 + e) : T();
        }
#pragma unroll
        for (int e = 0; e < KW; e++) {
            if (e >= kn) break;
            T *self = here + (lane + 32 * r + 1) * PITCH + 1 + e;
            const T v = cell(i, j, k0 + e, *self, west[e], north[e], top);
            *self = v;
            prev[e] = top = v;
        }
    }

    __device__ bool run_row(const pw_tiling &, int64_t place, int64_t, int64_t, unsigned char *smem, const pw_row_sync &sync) const
    {
        /* (the peer schedule's only: sync.a is the run's, sync.q the ticket, `place` its tile's
         * place in the band) */
        const pw_work &work = sync.a->work;
        const int64_t steps = pw_warp3_steps(rows, NW, CHAINS);
        int64_t tj, tk;
        pw_work_face_tile(&work, place, &tj, &tk);
        /* the counters (tickets) of the tiles before in j and in k, in the same band and sweep */
        const int64_t band_first = sync.q - place;
        const int64_t before_j = tj > 0 ? band_first + pw_work_face_row(&work, tj - 1, tk) : -1;
        const int64_t before_k = tk > 0 ? band_first + pw_work_face_row(&work, tj, tk - 1) : -1;
        const int lane = (int)(threadIdx.x & 31), w = (int)(threadIdx.x >> 5);
        const int64_t j0 = tj * TILE_J, k0 = tk * (NW * KW) + w * KW, j = j0 + lane;
        T *mine = (T *)smem + w * (SLOTS * SLICE);
        const T *prev_warp = mine - SLOTS * SLICE; /* warp w - 1's slices (w > 0) */
        pw_counter seen_j = 0, seen_k = 0;         /* thread 0's latest counter values */
        Lanes l;
        lanes(l, j0, k0, w, lane);
        const int kn = planes - k0 < KW ? (int)(planes - k0) : KW; /* this thread's planes in the grid (may be <= 0) */
        /* every chain of every lane in the grid's rows j and planes k (warp-uniform) */
        const bool whole = j0 + TILE_J <= cols && kn == KW;

        /* A band of j of a larger run (docs/DISTRIBUTED.md, "grid3 cells on GPU bands"): the band's
         * first tile column reads the left neighbour's last column (the grid's column -1, there
         * from the link or the neighbour's push) and waits for its rows; the last tile column
         * waits for the rows of the right neighbour's first column as its previous sweep left
         * them (a cell may read (i, j + 1, k): the old value; and this sweep's last column, once
         * reported, overwrites the neighbour's left column, which it has then passed); the last
         * tile in k of the first and of the last tile column reports the band's first and last
         * columns (the tiles before it in k have stored at least as far: it waits on them). */
        const pw_device_band &band = sync.a->band;
        const bool left_in = sync.banded && tj == 0 && band.left_ready;
        const bool right_in = sync.banded && tj == work.tiles_j - 1 && band.right_ready;
        const bool last_k = tk == work.tiles_k - 1;
        const bool first_out = sync.banded && last_k && tj == 0 && (band.first_done || band.push_first.ready);
        const bool last_out = sync.banded && last_k && tj == work.tiles_j - 1 && (band.last_done || band.push_last.ready);
        /* column j's row i is stored with slice i + (j - j0) + w: every warp's, with w = NW - 1 */
        const int64_t first_lag = NW - 1, last_lag = cols - 1 - j0 + NW - 1;
        int64_t first_sent = 0, last_sent = 0; /* rows reported */

        /* The previous sweep's tiles (J..J+1, K..K+1) when it runs in this launch (pipelined
         * sweeps, above): thread 0's, in shared memory (registers of every thread otherwise). */
        __shared__ long long prev_tile[4];
        __shared__ pw_counter prev_seen[4];
        const bool after_sweep = !sync.banded && sync.sweep > 0;
        if (threadIdx.x == 0 && after_sweep) {
            const int64_t prev_first = band_first - pw_work_sweep_stride(&work);
            for (int n = 0; n < 4; n++) {
                const int64_t pj = tj + (n & 1), pk = tk + (n >> 1);
                prev_tile[n] = pj < work.tiles_j && pk < work.tiles_k ? prev_first + pw_work_face_row(&work, pj, pk) : -1;
                prev_seen[n] = 0;
            }
        }

        /* Thread 0: wait until slices up to x may be copied (clamped: a tile's last slice is steps - 1). */
        auto wait_for = [&](int64_t x) -> bool {
            const int64_t need_j = x + TILE_J < steps ? x + TILE_J : steps, need_k = x + NW < steps ? x + NW : steps;
            if (after_sweep) {
                const int64_t reach = x + 1 + 3 * halo, need = reach < steps ? reach : steps;
                for (int n = 0; n < 4; n++)
                    if (prev_tile[n] >= 0 && !pw_wait_cached(*sync.a, prev_tile[n], (pw_counter)need, &prev_seen[n])) return false;
            }
            return (before_j < 0 || pw_wait_cached(*sync.a, before_j, (pw_counter)need_j, &seen_j)) &&
                   (before_k < 0 || pw_wait_cached(*sync.a, before_k, (pw_counter)need_k, &seen_k)) &&
                   (!left_in || pw_band_wait_left(*sync.a, sync.sweep, x + 1 < rows ? x + 1 : rows)) && /* (slice x: rows <= x) */
                   (!right_in || pw_band_wait_right(*sync.a, sync.sweep, x + 1 < rows ? x + 1 : rows));
        };
        /* Every thread, `stored` slices stored (behind a barrier): the band's edge rows they finish. */
        auto report = [&](int64_t stored) {
            if (first_out) {
                const int64_t done = stored - first_lag < rows ? stored - first_lag : rows;
                if (done > first_sent) {
                    pw_band_report_first(*sync.a, sync.sweep, first_sent, done);
                    first_sent = done;
                }
            }
            if (last_out) {
                const int64_t done = stored - last_lag < rows ? stored - last_lag : rows;
                if (done > last_sent) {
                    pw_band_report(*sync.a, sync.sweep, last_sent, done, false);
                    last_sent = done;
                }
            }
        };
        auto publish = [&](int64_t stored) {
            if (!pw_row_stuck(sync)) {
                __threadfence();
                pw_store_release(sync.a->progress + sync.q, (pw_counter)stored);
            }
        };

        if (__syncthreads_or(threadIdx.x == 0 && !wait_for(AHEAD + CHUNK - 1))) return false;
#pragma unroll
        for (int x = 0; x < AHEAD; x++) copy_slice(l, mine + x * SLICE, x, lane);

        T prev[R][KW]; /* each chain's values of the last step: row i - 1 of its planes */
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int e = 0; e < KW; e++) prev[r][e] = T();
        int slot = 0; /* s % SLOTS */
        for (int64_t s = 0; s <= steps; s++) {
            pw_copy_async_wait<AHEAD - 1>(); /* slice s has landed (its copies: this thread's) */
            if (s > 0 && s % CHUNK == 0) {
                if (__syncthreads_or(threadIdx.x == 0 && !wait_for(s + AHEAD + CHUNK - 1))) {
                    pw_copy_async_wait<0>(); /* no copy lands after the block has gone */
                    return false;
                }
                if (threadIdx.x == 0) publish(s - 1); /* slices up to s - 2 are stored */
                if (first_out || last_out) report(s - 1);
            } else {
                __syncthreads();
            }
            const int last = slot == 0 ? SLOTS - 1 : slot - 1, ahead = (slot + AHEAD) % SLOTS;
            if (s > 0) store_slice(l, mine + last * SLICE, s - 1, lane);
            copy_slice(l, mine + ahead * SLICE, s + AHEAD, lane);
            if (s < steps) {
                T *here = mine + slot * SLICE;
                /* north: lane L - 1's chain r of the last step; lane 0's chain 0 from the slice's
                 * row 0 (the tile before in j), its chain r > 0 lane 31's chain r - 1 */
                T north[R][KW];
#pragma unroll
                for (int r = 0; r < R; r++)
#pragma unroll
                    for (int e = 0; e < KW; e++) north[r][e] = R == 1 ? pw_shfl_up(prev[r][e]) : pw_shfl_rotate(prev[r][e]);
                if (lane == 0) {
#pragma unroll
                    for (int r = R - 1; r > 0; r--)
#pragma unroll
                        for (int e = 0; e < KW; e++) north[r][e] = north[r - 1][e];
#pragma unroll
                    for (int e = 0; e < KW; e++) north[0][e] = here[1 + e];
                }
                T top[R];
#pragma unroll
                for (int r = 0; r < R; r++)
                    top[r] = w == 0 ? here[(lane + 32 * r + 1) * PITCH] : prev_warp[last * SLICE + (lane + 32 * r + 1) * PITCH + KW];
                if (R > 1 && whole && s >= w + TILE_J && s < rows + w) {
                    /* every chain inside, none at i = 0 (the most steps of a tile): the chains'
                     * cells in one block, so that the compiler interleaves them */
#pragma unroll
                    for (int e = 0; e < KW; e++) {
#pragma unroll
                        for (int r = 0; r < R; r++) {
                            T *self = here + (lane + 32 * r + 1) * PITCH + 1 + e;
                            const T v = cell(s - lane - 32 * r - w, j + 32 * r, k0 + e, *self, prev[r][e], north[r][e], top[r]);
                            *self = v;
                            prev[r][e] = top[r] = v;
                        }
                    }
                } else {
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        const int64_t i = s - lane - 32 * r - w;
                        if (i >= 0 && i < rows && j + 32 * r < cols) chain_cells(r, i, j + 32 * r, k0, kn, lane, here, top[r], prev[r], north[r]);
                    }
                }
            }
            slot = slot + 1 == SLOTS ? 0 : slot + 1;
        }
        pw_copy_async_wait<0>(); /* the last (empty) slices' copies, before the next tile's */
        __syncthreads();
        if (threadIdx.x == 0) publish(steps);
        if (first_out || last_out) report(steps);
        return true;
    }
};

#endif
