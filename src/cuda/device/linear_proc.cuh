/*
 * linear_proc.cuh - the generic tile processor of the linear apps (SW, DTW, SAT's diag form;
 * dependences up/left/diag, skew 0): one thread per row of the tile-row (lane k = threadIdx.x,
 * or R rows a thread), diagonal steps separated by __syncthreads().
 *
 * The up value comes from lane k-1 through a double-buffered shared-memory slot, or from the bus
 * row for lane 0; left and diag are registers.  The last lane writes the bus.  Carries (left,
 * diag, the app's accumulator) are loaded from and stored to global memory per tile, so a
 * tile-row may move between blocks (barrier and launch schedules) and the same code serves every
 * strategy.  Launch needs (kernel_desc.h): h / R threads, 2 (h / R) values of shared memory.
 */
#ifndef PW_DEVICE_LINEAR_PROC_CUH
#define PW_DEVICE_LINEAR_PROC_CUH

#include "memory.cuh"
#include "schedules.cuh"
#include "tile_steps.cuh"

/* App (linear): typedef T, Acc; its storage (linear_storage.cuh: bus, left, diag, cell_out) and
 * its reduction (reductions.cuh: Acc and acc_*) as bases;
 *   static constexpr bool stages_block; __device__ void begin_block() const: stage what every
 *                                          tile reads, once a block (schedules.cuh)
 *   __device__ T cell(int64_t i, int64_t j, T up, T left, T diag) const;
 *   __device__ Acc acc_load(int64_t i) const; void acc_add(Acc&, i, j, T) const;
 *   void acc_store(int64_t i, const Acc&) const;
 *   __device__ void row_out(int64_t i, int64_t j, T v) const: cell (i, j) of a tile-row's last
 *                                          row, as it goes to the bus (saved rows: app_dtw.cuh).
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
    static constexpr pw_proc_policy policy = {false, false, App::stages_block, 0, 0};
    __device__ void begin_block() const { app.begin_block(); }

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
        if (t.shape == PW_TILING_HYPER && k * R + R - 1 < lanes) slot[((s0 - 1) & 1) * threads + k] = left[R - 1];
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
                    if (lane == lanes - 1) {
                        app.bus[j] = v;
                        app.row_out(i, j, v);
                    }
                    app.acc_add(acc[q], i, j, v);
                    app.cell_out(i, j, v);
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
    static constexpr pw_proc_policy policy = {false, false, App::stages_block, 0, 0};
    __device__ void begin_block() const { app.begin_block(); }

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
            if (t.shape == PW_TILING_HYPER) slot[((s0 - 1) & 1) * h + k] = left;
        }
        __syncthreads();
        for (int64_t s = s0; s < s1; s++) {
            int64_t j = lane ? pw_lane_column(t, c, k, i, s) : -1;
            if (j >= 0) {
                T up = k == 0 ? pw_load_cg(app.bus + j) : slot[((s - 1) & 1) * h + k - 1];
                T v = app.cell(i, j, up, left, diag);
                diag = up;
                left = v;
                if (last) {
                    app.bus[j] = v;
                    app.row_out(i, j, v);
                }
                app.acc_add(acc, i, j, v);
                app.cell_out(i, j, v);
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

#endif
