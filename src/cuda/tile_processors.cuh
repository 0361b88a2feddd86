/*
 * tile_processors.cuh - generic tile processors: one thread per row of the tile-row (lane k =
 * threadIdx.x), diagonal steps separated by __syncthreads().
 *
 * Steps: hyper tiles use the absolute steps [c*w, (c+1)*w) of tiling.h, lane k at skewed column
 * s - k; square tiles use local steps 0 .. w + lanes - 2, lane k at column c*w + s - k while
 * 0 <= s - k < w.  Either way lane k computes column x one step after lane k-1 did.
 *
 * LinearProc (SW, DTW; dependences up/left/diag, skew 0): the up value comes from lane k-1
 * through a double-buffered shared-memory slot, or from the bus row for lane 0; left and diag
 * are registers.  The last lane writes the bus.  Carries (left, diag, the app's accumulator)
 * are loaded from and stored to global memory per tile, so a tile-row may move between blocks
 * (barrier and launch schedules) and the same code serves every strategy.
 *
 * FullProc (SAT, INTHIST, HEAT, SOR, any skew): the app's cell reads its neighbours from global
 * memory with ld.cg and writes in place.
 */
#ifndef PW_TILE_PROCESSORS_CUH
#define PW_TILE_PROCESSORS_CUH

#include "../core/tiling.h"
#include "engine.cuh"

/* Coherent (L2) load of data another block may have written. */
template <class T>
__device__ __forceinline__ T pw_load_cg(const T *p)
{
    T v;
    static_assert(sizeof(T) % 4 == 0, "cells are whole 32-bit words");
    const unsigned *src = (const unsigned *)p;
    unsigned *dst = (unsigned *)&v;
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) / 4); k++) dst[k] = __ldcg(src + k);
    return v;
}

/* Asynchronous copy of one cell from global to shared memory (cp.async, sm_80+): it lands while
 * the issuing thread goes on, holding no register; pw_copy_async_wait<N> waits until at most the
 * N newest groups (pw_copy_async_commit) are still on their way, after which the cells are the
 * issuing thread's to publish (a barrier).  `inside` false writes zeros and reads nothing.
 * .ca (the only form for 4- and 8-byte cells) may keep the line in L1: fine for data no other
 * block changes while this one may read it again, or read after an acquire (which empties L1). */
template <class T>
__device__ __forceinline__ void pw_copy_async(T *dst, const T *src, bool inside)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a 4- or 8-byte cell");
    const unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(to), "l"(src), "n"((int)sizeof(T)),
                 "r"(inside ? (int)sizeof(T) : 0)
                 : "memory");
}
__device__ __forceinline__ void pw_copy_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void pw_copy_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

/* Step range of tile c of row r (see the header comment). */
__device__ __forceinline__ void pw_tile_steps(const pw_tiling &t, int64_t r, int64_t c, int64_t lanes,
                                              int64_t *s0, int64_t *s1)
{
    if (t.shape == PW_TILE_HYPER) {
        *s0 = c * t.w;
        int64_t end = pw_tiling_end_step(&t, r);
        *s1 = (c + 1) * t.w < end ? (c + 1) * t.w : end;
        if (*s0 < pw_tiling_first_step(&t, r)) *s0 = pw_tiling_first_step(&t, r);
    } else {
        *s0 = 0;
        *s1 = t.w + lanes - 1;
    }
}

/* Original column of lane k (row i) at step s, or -1 when the lane is idle at that step. */
__device__ __forceinline__ int64_t pw_lane_column(const pw_tiling &t, int64_t c, int64_t k, int64_t i,
                                                  int64_t s)
{
    int64_t x;
    if (t.shape == PW_TILE_HYPER) {
        x = s - k;
    } else {
        if (s - k < 0 || s - k >= t.w) return -1;
        x = c * t.w + s - k;
    }
    int64_t j = x - (int64_t)t.skew * i;
    return (j >= 0 && j < t.cols) ? j : -1;
}

/* App (linear): typedef T, Acc; members T *bus, *left, *diag;
 *   __device__ void begin_block() const;   optional: stage what every tile reads (engine.cuh)
 *   __device__ T cell(int64_t i, int64_t j, T up, T left, T diag) const;
 *   __device__ Acc acc_load(int64_t i) const; void acc_add(Acc&, i, j, T) const;
 *   void acc_store(int64_t i, const Acc&) const.
 *
 * R rows (lanes) per thread: thread k owns lanes kR .. kR+R-1 and computes them in one step,
 * last lane first, so that lane q's up value is lane q-1's value of the previous step, still in
 * a register (prev[q-1]); only lane 0 of a thread reads across threads, from the slot of thread
 * k-1's last lane.  One __syncthreads() per step then covers R cells per thread.  Shared memory:
 * 2 slots per thread. */
template <class App, int R>
struct LinearProc {
    App app;
    typedef typename App::T T;
    static int block_threads(int64_t h) { return (int)(h / R); }
    static size_t smem_bytes(int64_t h) { return 2 * (size_t)(h / R) * sizeof(T); }
    __device__ void begin_block() const { pw_begin_block(app); }

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem) const
    {
        T *slot = (T *)smem; /* slot[(s & 1) * threads + k]: thread k's last lane at step s */
        const int64_t h = t.h, threads = h / R, k = threadIdx.x, lanes = pw_tiling_lanes(&t, r);
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        T left[R], diag[R], prev[R];
        typename App::Acc acc[R];
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = k * R + q, i = r * h + lane;
            if (lane < lanes) {
                left[q] = pw_load_cg(app.left + i);
                diag[q] = pw_load_cg(app.diag + i);
                acc[q] = app.acc_load(i);
                /* Hyper: a lane's value at step s0 - 1 is its left value. */
                prev[q] = left[q];
            }
        }
        if (t.shape == PW_TILE_HYPER && k * R + R - 1 < lanes) slot[((s0 - 1) & 1) * threads + k] = left[R - 1];
        __syncthreads();
        for (int64_t s = s0; s < s1; s++) {
#pragma unroll
            for (int q = R - 1; q >= 0; q--) {
                const int64_t lane = k * R + q, i = r * h + lane;
                int64_t j = lane < lanes ? pw_lane_column(t, c, lane, i, s) : -1;
                if (j >= 0) {
                    T up = q > 0 ? prev[q - 1] : k == 0 ? pw_load_cg(app.bus + j) : slot[((s - 1) & 1) * threads + k - 1];
                    T v = app.cell(i, j, up, left[q], diag[q]);
                    diag[q] = up;
                    left[q] = v;
                    prev[q] = v;
                    if (lane == lanes - 1) app.bus[j] = v;
                    app.acc_add(acc[q], i, j, v);
                    if (q == R - 1) slot[(s & 1) * threads + k] = v;
                }
            }
            __syncthreads();
        }
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = k * R + q, i = r * h + lane;
            if (lane < lanes) {
                app.left[i] = left[q];
                app.diag[i] = diag[q];
                app.acc_store(i, acc[q]);
            }
        }
    }
};

/* One row per thread: the general code above with R = 1 measured 15-50% slower for SW on the
 * H100 (65536^2: PW+HT 68 -> 80 ms, GS 130 -> 176 ms; DTW unchanged), so the plain form stays. */
template <class App>
struct LinearProc<App, 1> {
    App app;
    typedef typename App::T T;
    static int block_threads(int64_t h) { return (int)h; }
    static size_t smem_bytes(int64_t h) { return 2 * (size_t)h * sizeof(T); }
    __device__ void begin_block() const { pw_begin_block(app); }

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem) const
    {
        T *slot = (T *)smem; /* slot[(s & 1) * h + k]: lane k's value at step s */
        const int64_t h = t.h, k = threadIdx.x, lanes = pw_tiling_lanes(&t, r), i = r * h + k;
        const bool lane = k < lanes, last = k == lanes - 1;
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        T left, diag;
        typename App::Acc acc;
        if (lane) {
            left = pw_load_cg(app.left + i);
            diag = pw_load_cg(app.diag + i);
            acc = app.acc_load(i);
            /* Hyper: lane k+1's first up value is this lane's value at step s0 - 1 = its left. */
            if (t.shape == PW_TILE_HYPER) slot[((s0 - 1) & 1) * h + k] = left;
        }
        __syncthreads();
        for (int64_t s = s0; s < s1; s++) {
            int64_t j = lane ? pw_lane_column(t, c, k, i, s) : -1;
            if (j >= 0) {
                T up = k == 0 ? pw_load_cg(app.bus + j) : slot[((s - 1) & 1) * h + k - 1];
                T v = app.cell(i, j, up, left, diag);
                diag = up;
                left = v;
                if (last) app.bus[j] = v;
                app.acc_add(acc, i, j, v);
                slot[(s & 1) * h + k] = v;
            }
            __syncthreads();
        }
        if (lane) {
            app.left[i] = left;
            app.diag[i] = diag;
            app.acc_store(i, acc);
        }
    }
};

/* App (full): __device__ void cell(int64_t i, int64_t j) const. */
template <class App>
struct FullProc {
    App app;
    static int block_threads(int64_t h) { return (int)h; }
    static size_t smem_bytes(int64_t) { return 0; }

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *) const
    {
        const int64_t k = threadIdx.x, lanes = pw_tiling_lanes(&t, r), i = r * t.h + k;
        const bool lane = k < lanes;
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        for (int64_t s = s0; s < s1; s++) {
            int64_t j = lane ? pw_lane_column(t, c, k, i, s) : -1;
            if (j >= 0) app.cell(i, j);
            __syncthreads();
        }
    }
};

/* A stateless accumulator for apps without a reduction. */
struct pw_no_acc {};

#endif
