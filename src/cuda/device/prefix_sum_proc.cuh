/*
 * prefix_sum_proc.cuh - the prefix-sum tile processor (SAT, INTHIST): a tile is an h x w rectangle
 * (square tiles, skew 0) computed with scans, not diagonal steps, so a cell reads its input once
 * and writes its output once, both with full-width (up to 16-byte) accesses along rows.
 *
 * Within tile-row r (rows i0 .. i0 + h - 1), with R(i, j) the prefix of row i up to column j:
 *     S(i, j) = S(i0 - 1, j) + sum over i0 <= i' <= i of R(i', j).
 * The block works through its tile 128 columns (a chunk: 32 threads x 4) at a time.  Warp g owns
 * rows i0 + 8g .. i0 + 8g + 7 and for each of them loads 4 consecutive inputs per thread, scans
 * them (in-thread, then across the warp with shuffles) and adds the row's carry R(i, chunk start
 * - 1); it keeps a running column sum over its 8 rows in registers.  One shared-memory pass then
 * turns the warps' column totals into each warp's offset (the totals of the warps above), the
 * row above S(i0 - 1, j) is added, and every thread stores its 8 x 4 results.  The row carries
 * live in registers across chunks for one plane, in shared memory for several (Carries), and in
 * global memory (`carry`) between tiles, since the barrier and launch schedules may hand a
 * tile-row's next tile to another block.
 *
 * The operation is addition: the processor is a prefix-sum processor, its Out any type with +
 * and 0 (another associative operation would need its identity in place of the zeros; none is
 * asked for yet).  Several planes (INTHIST: one per bin) are the same scan over a different input
 * transform (Src: prefix_sum_sources.cuh).
 * Floats are summed in a different order than the sequential recurrence: the error bound is
 * stated in apps/sat_accuracy.h and checked by the tests; integer results are exact.
 *
 * In the peer schedule a tile-row hands its last row to the next through edge words (handover.cuh:
 * each value in a 64-bit word tagged with its writer), chunk by chunk, and waits for the row
 * above the same way, inside its tiles (schedules.cuh, syncs_in_tile): no progress counter, no fence.
 * The row below never reads the output, so the output's plain stores need no ordering.  With
 * Prefetch the next chunk's inputs are loaded into registers while the current chunk scans and
 * waits for the row above.
 */
#ifndef PW_DEVICE_PREFIX_SUM_PROC_CUH
#define PW_DEVICE_PREFIX_SUM_PROC_CUH

#include "handover.cuh"
#include "layouts.cuh"
#include "proc_shapes.h"
#include "scan_memory.cuh"
#include "schedules.cuh"

/* Prefetch: load the next chunk's inputs while this one runs (for tile-rows of many chunks, the
 * peer schedule's whole rows); without it a chunk loads its own inputs first, which costs fewer
 * registers (the f32 kernels spill 56 bytes with it, and the barrier and launch schedules, whose
 * tiles are one chunk wide, ran 1.5x slower for that). */
template <class Src, class Out, bool Prefetch>
struct PrefixSumProc {
    Src src;
    Out *out;          /* plane p, cell (i, j): out[lout.at(p, i, j)] */
    pw_planes<pw_row_major> lout;
    bool out_vec;      /* 4-element stores are aligned */
    int planes;
    Out *carry;        /* planes x rows, zeroed: R(i, last column of the tile to the left) */
    int64_t rows;
    pw_edge<Out> edge; /* peer schedule: planes x edge_cols words, zeroed (NULL: ordered schedules) */
    int64_t edge_cols; /* cols rounded up to whole chunks */
    /* A band of columns of a larger run (cuda/full_apps.cu, gpu_carry_band): `carry` also holds
     * R(i, the column left of the band) for the first tile, put there by the band's link, and
     * gets R(i, the band's last column) after the last tile, for the band to the right. */
    bool band_carries;

    static constexpr int RPW = PW_SCAN_ROWS_PER_WARP;
    /* The edge words are its waits; compiled for blocks of up to 512 threads: at most 128
     * registers a thread.  Its shared memory (proc_shapes.h): two chunk buffers, then, where they
     * fit, every plane's row carries; host and kernel place the carries by the same rule. */
    static constexpr pw_proc_policy policy = {true, false, false, 32 * PW_SCAN_MAX_TILE_H / PW_SCAN_ROWS_PER_WARP, 1};
    __device__ static int warps(int64_t h) { return pw_scan_warps(h); }
    __device__ static size_t buffers_bytes(int64_t h) { return pw_scan_buffers_bytes(h, (int)sizeof(Out)); }
    __device__ bool carries_in_smem(int64_t h) const { return pw_scan_carries_in_smem(h, planes, Src::many_planes, (int)sizeof(Out)); }

    /* Each thread's inputs of the chunk at column j0: its warp's rows, 4 columns from j0 + 4 lane. */
    __device__ __forceinline__ void fetch_chunk(int64_t first, int rows_here, int64_t j0, int64_t j_end,
                                                typename Src::raw x[RPW]) const
    {
        const int64_t j = j0 + 4 * (threadIdx.x & 31);
        const int n = j_end - j >= 4 ? 4 : j_end - j > 0 ? (int)(j_end - j) : 0;
#pragma unroll
        for (int q = 0; q < RPW; q++)
            if (q < rows_here && n > 0) src.fetch(first + q, j, n, x[q]);
    }

    /* The edge word of plane p, column j0 + x (j0 a chunk's first column) of the tile-row that
     * wrote it.  Within a chunk the words are stored by element: the writer's thread l puts its 4
     * columns 4l + e at e * 32 + l, one coalesced 256-byte store an element; a reader of column x
     * finds it at (x % 4) * 32 + x / 4. */
    __device__ pw_ll<Out> *edge_word(int p, int64_t j0, int x) const
    {
        return edge.words + p * edge_cols + j0 + (x & 3) * 32 + (x >> 2);
    }

    /* S(i0 - 1, j0 + x) of plane p, the row above the tile-row at column j0 + x: the edge words in
     * the peer schedule (*early: the word loaded earlier, perhaps too early; NULL: load it now;
     * either way loaded again until it carries the tag of tile-row r - 1), the output in the
     * ordered ones, 0 above the first row.  false: the run is abandoned. */
    __device__ bool above_at(const pw_tiling &t, int64_t r, int p, int64_t j0, int x, const pw_row_sync &sync,
                             const pw_ll<Out> *early, Out *above) const
    {
        if (r == 0) {
            *above = (Out)0;
            return true;
        }
        if (!pw_edge<Out>::through_words(sync, true)) {
            *above = pw_load_cg(out + lout.at(p, r * t.h - 1, j0 + x));
            return true;
        }
        const pw_ll<Out> *at = edge_word(p, j0, x);
        pw_ll<Out> word = early ? *early : edge.load(at);
        if (!edge.settle(sync, at, &word)) return false;
        *above = pw_ll_value(word);
        return true;
    }

    /* What every chunk of tile (r, c) needs to know about it and the thread. */
    struct Tile {
        int64_t r, first, j_end; /* first: the thread's warp's first row */
        int rows_here, q_edge;   /* q_edge: the tile-row's last row's place in its warp */
        bool hands_edge;         /* this warp holds that row and hands it to the tile-row below */
    };

    /* Where a warp's row carries R(i, the column before the chunk) live from chunk to chunk when
     * there are several planes (one plane keeps them in registers): plane p's row q of the warp
     * at at[p * step + q].  In shared memory (carries_in_smem) they cost a chunk's pass no memory
     * round trip; between tiles (the ordered schedules hand a tile-row's next tile to any block)
     * and where they do not fit, in `carry`, planes x rows. */
    struct Carries {
        Out *at;
        int64_t step; /* rows may pass 2^31 (a tall image, carries in `carry`) */
    };

    /* A warp's carries for tile (r, c): in shared memory, from `carry` (or 0 in the first tile). */
    __device__ Carries carries_begin(const pw_tiling &t, const Tile &k, int64_t c, unsigned char *smem) const
    {
        if (!carries_in_smem(t.h)) return Carries{carry + k.first, rows};
        const int lane = threadIdx.x & 31, g = threadIdx.x >> 5;
        Carries cr{(Out *)(smem + buffers_bytes(t.h)) + g * RPW, (int64_t)warps(t.h) * RPW};
        for (int x = lane; x < planes * RPW; x += 32) {
            const int p = x / RPW, q = x % RPW;
            cr.at[p * cr.step + q] = (c > 0 || band_carries) && q < k.rows_here ? carry[p * rows + k.first + q] : (Out)0;
        }
        __syncwarp();
        return cr;
    }

    /* ... and back to `carry` after the tile, for a tile to its right. */
    __device__ void carries_end(const pw_tiling &t, const Tile &k, int64_t c, const Carries &cr) const
    {
        if (!carries_in_smem(t.h) || (c + 1 >= pw_tiling_end_tile(&t, k.r) && !band_carries)) return;
        __syncwarp();
        for (int x = threadIdx.x & 31; x < planes * RPW; x += 32) {
            const int p = x / RPW, q = x % RPW;
            if (q < k.rows_here) carry[p * rows + k.first + q] = cr.at[p * cr.step + q];
        }
    }

    /* Plane p's carries of the warp's rows (every lane holds them; lane 0 stores). */
    __device__ __forceinline__ void load_carries(Out carry_q[RPW], const Carries &cr, int p, int rows_here) const
    {
#pragma unroll
        for (int q = 0; q < RPW; q++) carry_q[q] = q < rows_here ? cr.at[p * cr.step + q] : (Out)0;
    }
    __device__ __forceinline__ void store_carries(const Out carry_q[RPW], const Carries &cr, int p, int rows_here) const
    {
        if ((threadIdx.x & 31) == 0)
#pragma unroll
            for (int q = 0; q < RPW; q++)
                if (q < rows_here) cr.at[p * cr.step + q] = carry_q[q];
        __syncwarp(); /* before any lane loads them again */
    }

    /* Plane p over the chunk at column j0, its inputs in `next`, the row carries in carry_q.
     * The chunk's own inputs are scanned first; then, per column, the warps' exclusive offsets;
     * only then the row above, and right after it the tile-row's last row goes out to the edge
     * words, so the tile-row below follows about one chunk behind whatever the tile width, and
     * the critical path from one tile-row to the next is a poll, a barrier and a store.  (With
     * progress counters each chunk also waited for its 64 KB of stores to drain before its
     * release store: a fence on every chunk.)  With Prefetch and `last` (the chunk's last plane)
     * the next chunk's inputs are loaded into `next` while this one scans and waits.  false: the
     * run is abandoned. */
    __device__ __forceinline__ bool chunk_pass(const pw_tiling &t, const Tile &k, const pw_row_sync &sync, int p, int64_t j0,
                                               bool last, typename Src::raw next[RPW], Out carry_q[RPW], Out *tot) const
    {
        const int lane = threadIdx.x & 31, g = threadIdx.x >> 5, warps = blockDim.x >> 5;
        Out *above_row = tot + warps * PW_SCAN_CHUNK;
        const int64_t j = j0 + 4 * lane, chunk_end = j0 + PW_SCAN_CHUNK < k.j_end ? j0 + PW_SCAN_CHUNK : k.j_end;
        const int n = k.j_end - j >= 4 ? 4 : k.j_end - j > 0 ? (int)(k.j_end - j) : 0;
        /* the row above's word goes out first and lands while the chunk scans */
        const bool early = pw_edge<Out>::through_words(sync, true) && k.r > 0 && j0 + threadIdx.x < chunk_end && threadIdx.x < PW_SCAN_CHUNK;
        pw_ll<Out> word{};
        if (early) word = edge.load(edge_word(p, j0, threadIdx.x));
        Out val[RPW][4];
#pragma unroll
        for (int q = 0; q < RPW; q++) {
            if (q < k.rows_here && n > 0) src.convert(next[q], p, val[q]);
            else val[q][0] = val[q][1] = val[q][2] = val[q][3] = (Out)0;
        }
        if (Prefetch && last && chunk_end < k.j_end) fetch_chunk(k.first, k.rows_here, chunk_end, k.j_end, next);
        Out col[4] = {(Out)0, (Out)0, (Out)0, (Out)0};
#pragma unroll
        for (int q = 0; q < RPW; q++) {
            Out *v = val[q];
            v[1] += v[0], v[2] += v[1], v[3] += v[2];
            Out x = v[3]; /* inclusive warp scan of the threads' sums */
#pragma unroll
            for (int d = 1; d < 32; d *= 2) {
                Out y = __shfl_up_sync(0xffffffffu, x, d);
                if (lane >= d) x += y;
            }
            Out before = __shfl_up_sync(0xffffffffu, x, 1); /* exclusive, without subtracting floats */
            Out base = lane ? carry_q[q] + before : carry_q[q];
#pragma unroll
            for (int e = 0; e < 4; e++) v[e] = base + v[e]; /* R(i, j + e) */
            carry_q[q] = __shfl_sync(0xffffffffu, v[3], 31);  /* R at the chunk's last column */
#pragma unroll
            for (int e = 0; e < 4; e++) col[e] += v[e], v[e] = col[e];
        }
#pragma unroll
        for (int e = 0; e < 4; e++) tot[g * PW_SCAN_CHUNK + 4 * lane + e] = col[e];
        __syncthreads();
        /* Per column (blocks of fewer than 4 warps take several a thread): the totals of the
         * warps above each warp, then the row above. */
        bool ok = true;
        for (int x = threadIdx.x; x < PW_SCAN_CHUNK; x += blockDim.x) {
            Out run = (Out)0;
            for (int w = 0; w < warps; w++) {
                Out here = tot[w * PW_SCAN_CHUNK + x];
                tot[w * PW_SCAN_CHUNK + x] = run;
                run += here;
            }
            if (j0 + x < chunk_end)
                ok &= above_at(t, k.r, p, j0, x, sync, early && x == (int)threadIdx.x ? &word : NULL, &above_row[x]);
        }
        if (__syncthreads_or(!ok)) return false;
        Out above[4];
#pragma unroll
        for (int e = 0; e < 4; e++) above[e] = above_row[4 * lane + e] + tot[g * PW_SCAN_CHUNK + 4 * lane + e];
        if (k.hands_edge && n > 0)
#pragma unroll
            for (int q = 0; q < RPW; q++)
                if (q == k.q_edge)
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        if (e < n) edge.send(sync, edge_word(p, j0, 4 * lane + e), above[e] + val[q][e]);
#pragma unroll
        for (int q = 0; q < RPW; q++) {
            if (!(q < k.rows_here && n > 0)) continue;
            Out s[4];
#pragma unroll
            for (int e = 0; e < 4; e++) s[e] = above[e] + val[q][e];
            Out *dst = out + lout.at(p, k.first + q, j);
            if (out_vec && n == 4) pw_store4(dst, s);
            else /* unrolled, so s stays in registers (a loop to n put it in local memory) */
#pragma unroll
                for (int e = 0; e < 4; e++)
                    if (e < n) dst[e] = s[e];
        }
        return true;
    }

    /* Tile (r, c): chunk after chunk of 128 columns, plane after plane.  One plane (SAT) keeps
     * its row carries in registers through the tile.  Several (INTHIST) go plane after plane
     * over each chunk's inputs, loaded once, with a row of edge words a plane, and keep their
     * carries in shared memory from chunk to chunk (Carries).  (Plane after plane over a whole row read
     * every input once a plane, from DRAM: INTHIST 32768^2, 4 planes, H100: 15.7 ms against 14.1
     * ms in 128-column tiles; the same loop order for one plane made SAT f32 10% slower.) */
    __device__ bool run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem, const pw_row_sync &sync) const
    {
        const int g = threadIdx.x >> 5, warps = blockDim.x >> 5;
        const int64_t lanes = pw_tiling_lanes(&t, r);
        Tile k;
        k.r = r, k.first = r * t.h + (int64_t)g * RPW;
        k.rows_here = lanes - g * RPW < RPW ? (int)(lanes - g * RPW) : RPW; /* may be <= 0 */
        k.j_end = (c + 1) * t.w < t.cols ? (c + 1) * t.w : t.cols;
        k.hands_edge = pw_edge<Out>::through_words(sync, true) && r + 1 < t.n_rows && g == (lanes - 1) / RPW; /* edge.send skips a stuck row */
        k.q_edge = (int)((lanes - 1) % RPW);
        const int64_t j_begin = c * t.w;
        const size_t buffer_elems = (size_t)(warps + 1) * PW_SCAN_CHUNK;
        Out carry_q[RPW]; /* R(i, the column before the chunk) of the plane at hand */
        typename Src::raw next[RPW];
        int buffer = 0;
        if constexpr (Src::many_planes) {
            const Carries cr = carries_begin(t, k, c, smem);
            if constexpr (Prefetch) fetch_chunk(k.first, k.rows_here, j_begin, k.j_end, next);
            for (int64_t j0 = j_begin; j0 < k.j_end; j0 += PW_SCAN_CHUNK) {
                if constexpr (!Prefetch) fetch_chunk(k.first, k.rows_here, j0, k.j_end, next);
                for (int p = 0; p < planes; p++, buffer ^= 1) {
                    load_carries(carry_q, cr, p, k.rows_here);
                    if (!chunk_pass(t, k, sync, p, j0, p == planes - 1, next, carry_q, (Out *)smem + buffer * buffer_elems))
                        return false;
                    store_carries(carry_q, cr, p, k.rows_here);
                }
            }
            carries_end(t, k, c, cr);
        } else {
            const Carries cr{carry + k.first, rows}; /* between tiles only */
            for (int p = 0; p < planes; p++) {
                load_carries(carry_q, cr, p, k.rows_here);
                if constexpr (Prefetch) fetch_chunk(k.first, k.rows_here, j_begin, k.j_end, next);
                for (int64_t j0 = j_begin; j0 < k.j_end; j0 += PW_SCAN_CHUNK, buffer ^= 1) {
                    if constexpr (!Prefetch) fetch_chunk(k.first, k.rows_here, j0, k.j_end, next);
                    if (!chunk_pass(t, k, sync, p, j0, true, next, carry_q, (Out *)smem + buffer * buffer_elems)) return false;
                }
                store_carries(carry_q, cr, p, k.rows_here);
            }
        }
        return true;
    }
};

#endif
