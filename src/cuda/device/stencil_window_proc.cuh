/*
 * stencil_window_proc.cuh - the HEAT/SOR tile processor for row-major grids: the tile's window of
 * the grid is staged in shared memory with coalesced row loads, the diagonal steps run there,
 * and the tile's cells go back with coalesced row stores.  (FullProc reads the four neighbours
 * of every cell from L2, lanes a row apart: one transaction per lane and neighbour.)
 *
 * Hyper tile c of tile-row r, steps [s0, s1): lane k (interior row i0 + k) computes interior
 * columns s - k.  The window covers grid rows i0 .. i0 + h + 1 (the row above the tile-row, its
 * h rows, the row below) and interior columns s0 - h .. s1 (every lane's first column minus one
 * to lane 0's last plus one): (h + 2) x (w + h + 1) values.  Loaded at the start of the tile it
 * holds exactly what the cells read (DESIGN.md section 5 and tiling_geometry.h): the row above and the
 * left columns as this sweep left them (the runtime waited for them), the row below and the
 * right columns as the previous sweep left them (nobody writes them before this tile's cells
 * are done).  A step then reads and writes only the window; after the last step each lane's w
 * cells are stored.  The cells are the shared pw_heat_step / pw_sor_step, in the same operand
 * order: results are bit-identical to the sequential engine.
 */
#ifndef PW_DEVICE_STENCIL_WINDOW_PROC_CUH
#define PW_DEVICE_STENCIL_WINDOW_PROC_CUH

#include "memory.cuh"
#include "layouts.cuh"
#include "proc_shapes.h"
#include "schedules.cuh"
#include "tile_steps.cuh"

#define PW_WINDOW_BATCH 16

/* Cell: __device__ F operator()(F self, F up, F left, F down, F right) const. */
template <class F, class Cell>
struct StencilWindowProc {
    F *grid;          /* (rows + 2) x (cols + 2) with its fixed border; interior (i, j) at grid row i + 1, column j + 1 */
    pw_row_major lay; /* the grid storage: row-major (layouts.cuh), which its row walks need */
    Cell cell;

    /* h threads; shared memory: the window (proc_shapes.h, pw_stencil_window_bytes) */
    static constexpr pw_proc_policy policy = {false, false, false, 0, 0};

    __device__ void sync() const
    {
        if (blockDim.x <= 32) __syncwarp();
        else __syncthreads();
    }

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem) const
    {
        F *win = (F *)smem;
        const int64_t h = t.h, lanes = pw_tiling_lanes(&t, r), k = threadIdx.x;
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        const int64_t width = t.w + h + 1;            /* window columns */
        const int64_t grid_row0 = r * h;              /* grid row of window row 0 */
        const int64_t grid_col0 = s0 - h + 1;         /* grid column of window column 0 */
        const int64_t grid_cols = t.cols + 2, win_rows = lanes + 2;
        /* Coalesced loads along rows, PW_WINDOW_BATCH of them in flight per thread before any is
         * stored (one at a time, each load's latency would add up: measured 7x slower).  Only
         * grid cells: columns left of 0 or past the border are never read by a cell. */
        const int total = (int)(win_rows * width), w32 = (int)width, step = (int)blockDim.x;
        for (int base = (int)k; base < total; base += PW_WINDOW_BATCH * step) {
            F v[PW_WINDOW_BATCH];
#pragma unroll
            for (int u = 0; u < PW_WINDOW_BATCH; u++) {
                const int e = base + u * step, y = e / w32;
                const int64_t gx = grid_col0 + (e - y * w32);
                v[u] = e < total && gx >= 0 && gx < grid_cols ? pw_load_cg(grid + (grid_row0 + y) * lay.stride + gx) : (F)0;
            }
#pragma unroll
            for (int u = 0; u < PW_WINDOW_BATCH; u++)
                if (base + u * step < total) win[base + u * step] = v[u];
        }
        __syncthreads();
        for (int64_t s = s0; s < s1; s++) {
            const int64_t j = s - k; /* interior column of this lane */
            if (k < lanes && j >= 0 && j < t.cols) {
                F *p = win + (k + 1) * width + (j - s0 + h); /* window column of interior j */
                *p = cell(*p, p[-width], p[-1], p[width], p[1]);
            }
            sync();
        }
        __syncthreads();
        /* Coalesced stores: window row y + 1 is lane y, whose cells are columns [s0 - y, s1 - y). */
        for (int64_t y = 0; y < lanes; y++) {
            int64_t jb = s0 - y, je = s1 - y;
            if (jb < 0) jb = 0;
            if (je > t.cols) je = t.cols;
            F *dst = grid + (grid_row0 + y + 1) * lay.stride + 1;
            const F *row = win + (y + 1) * width - s0 + h;
            for (int64_t j = jb + k; j < je; j += blockDim.x) dst[j] = row[j];
        }
    }
};

#endif
