/*
 * gpu_band_storage.cuh - how a GPU band's edge columns enter and leave the two storages that
 * bands use (core/band.h's pw_band_io, gpu_band.cuh's run), written once for every value type and
 * size: the built-in apps (SW and DTW: linear_apps.cu; HEAT and SOR: stencil_apps.cu) and users'
 * cells (user_cells.cu, whose value size is known only at run time) call the same two functions.
 *
 *   linear storage (a row's left value and the next row's diagonal, as core/linear_buffers.h):
 *     the left neighbour's last column is row i's left value and row i + 1's diagonal; the band's
 *     own last column is left[] once a tile-row is done;
 *   an in-place grid with halo columns each side (pw_gpu_halo_layout: one for HEAT, SOR and
 *     stencil cells, a user grid cell's reach for its): the edge columns are the neighbours' last
 *     and first own columns, written by the link while the sweeps run; the band's own first and
 *     last ones go back to them.  Why no chunk lands on values still to be read, and none is packed after a
 *     later sweep overwrote it: docs/DISTRIBUTED.md, "Halo columns in place".
 *
 * The link thread calls put and get; copies go on the band's stream, the chunk before the word
 * that says it is there.  Each glue struct begins with its pw_gpu_band (gpu_band.cuh's direct
 * hand-over finds the offer from the app pointer).
 */
#ifndef PW_CUDA_GPU_BAND_STORAGE_CUH
#define PW_CUDA_GPU_BAND_STORAGE_CUH

#include "gpu_band.cuh"

struct pw_gpu_linear_band {
    pw_gpu_band gb;
    char *left, *diag; /* device, n values each */
    size_t elem;       /* a value's bytes */
    int64_t n;

    static void put_left(void *p, int64_t sweep, int64_t i0, int64_t i1, const void *src)
    {
        pw_gpu_linear_band *b = (pw_gpu_linear_band *)p;
        cudaSetDevice(b->gb.device);
        const size_t bytes = b->elem * (size_t)(i1 - i0);
        pw_gpu_band_copy(&b->gb, b->left + b->elem * (size_t)i0, bytes, src, bytes, bytes, 1);
        const int64_t end = i1 < b->n - 1 ? i1 : b->n - 1; /* diag[i + 1] for rows i0 .. end - 1 */
        const size_t diag_bytes = b->elem * (size_t)(end - i0);
        if (end > i0) pw_gpu_band_copy(&b->gb, b->diag + b->elem * (size_t)(i0 + 1), diag_bytes, src, diag_bytes, diag_bytes, 1);
        pw_gpu_band_ready(&b->gb, 0, sweep, i1);
    }

    static void get_last(void *p, int64_t sweep, int64_t i0, int64_t i1, void *dst)
    {
        (void)sweep;
        pw_gpu_linear_band *b = (pw_gpu_linear_band *)p;
        cudaSetDevice(b->gb.device);
        const size_t bytes = b->elem * (size_t)(i1 - i0);
        pw_gpu_band_copy(&b->gb, dst, bytes, b->left + b->elem * (size_t)i0, bytes, bytes, 1);
        cudaStreamSynchronize(b->gb.stream);
    }
};

/* Run `run` (a function of a plan; its left and diag words set up on the plan's stream) as
 * plan->band's band of a linear-storage run of n rows, or as the whole problem when there is none. */
template <class Run>
static pw_status pw_gpu_run_linear_band(const pw_plan *plan, void *left, void *diag, size_t elem, int64_t n, Run run)
{
    if (!plan->band) return run(plan);
    pw_gpu_linear_band b{};
    b.left = (char *)left, b.diag = (char *)diag, b.elem = elem, b.n = n;
    pw_band_io io{};
    io.app = &b, io.bytes_per_row = elem, io.put_left = pw_gpu_linear_band::put_left, io.get_last = pw_gpu_linear_band::get_last;
    pw_gpu_band_columns cols{};
    cols.left_in = pw_band_column{{(char *)left, (char *)diag}, {0, 1}, (int64_t)elem, 0}; /* row i's left, row i + 1's diagonal */
    cols.last = pw_band_column{{(char *)left, NULL}, {0, 0}, (int64_t)elem, 0};
    cols.planes = 1, cols.elem_bytes = (int)elem;
    return pw_gpu_band_run(plan, &b.gb, &io, &cols, n, 1, run);
}

/* Where a band's in-place grid is: row-major, `stride` values a row, interior row i at grid row
 * i + top, the band's own `cols` columns from column own0; each edge `width` columns wide (the
 * left neighbour's last ones just before own0, the right one's first ones just after the band's
 * own).  HEAT, SOR and stencil cells: top 1, own0 1, width 1; a user grid cell: its halo, and its
 * reach (docs/DISTRIBUTED.md, "Grid and grid3 cells of any reach"). */
struct pw_gpu_halo_layout {
    int64_t stride, cols, top, own0, width;
    int64_t below; /* rows under their own that cells read of the right neighbour's edge */
};

struct pw_gpu_halo_band {
    pw_gpu_band gb;
    char *grid;          /* device, row-major */
    size_t elem;         /* a value's bytes */
    pw_gpu_halo_layout l;

    /* rows [i0, i1) of the edge whose first column is col, to or from the packed host chunk */
    static void column(pw_gpu_halo_band *b, int64_t col, int64_t i0, int64_t i1, void *host, cudaMemcpyKind kind)
    {
        const size_t pitch = b->elem * (size_t)b->l.stride, width = b->elem * (size_t)b->l.width;
        char *at = b->grid + b->elem * (size_t)((i0 + b->l.top) * b->l.stride + col);
        cudaSetDevice(b->gb.device);
        if (kind == cudaMemcpyHostToDevice) pw_gpu_band_copy(&b->gb, at, pitch, host, width, width, (size_t)(i1 - i0));
        else pw_gpu_band_copy(&b->gb, host, width, at, pitch, width, (size_t)(i1 - i0));
    }
    static void put(void *p, int right, int64_t sweep, int64_t i0, int64_t i1, const void *src)
    {
        pw_gpu_halo_band *b = (pw_gpu_halo_band *)p;
        column(b, right ? b->l.own0 + b->l.cols : b->l.own0 - b->l.width, i0, i1, (void *)src, cudaMemcpyHostToDevice);
        pw_gpu_band_ready(&b->gb, right, sweep, i1);
    }
    static void get(void *p, int64_t col, int64_t i0, int64_t i1, void *dst)
    {
        pw_gpu_halo_band *b = (pw_gpu_halo_band *)p;
        column(b, col, i0, i1, dst, cudaMemcpyDeviceToHost);
        cudaStreamSynchronize(b->gb.stream);
    }
    static void put_left(void *p, int64_t sweep, int64_t i0, int64_t i1, const void *src) { put(p, 0, sweep, i0, i1, src); }
    static void put_right(void *p, int64_t sweep, int64_t i0, int64_t i1, const void *src) { put(p, 1, sweep, i0, i1, src); }
    static void get_last(void *p, int64_t, int64_t i0, int64_t i1, void *dst)
    {
        const pw_gpu_halo_layout &l = ((pw_gpu_halo_band *)p)->l;
        get(p, l.own0 + l.cols - l.width, i0, i1, dst);
    }
    static void get_first(void *p, int64_t, int64_t i0, int64_t i1, void *dst) { get(p, ((pw_gpu_halo_band *)p)->l.own0, i0, i1, dst); }
};

/* Run `run` (sweeps over the device grid, laid out as l says; rows interior rows) as plan->band's
 * band of in-place sweeps.  The edges are `width` columns: width planes of one value to the
 * direct hand-over (pw_band_column). */
template <class Run>
static pw_status pw_gpu_run_halo_band(const pw_plan *plan, void *grid, size_t elem, const pw_gpu_halo_layout &l,
                                      int64_t rows, int64_t sweeps, Run run)
{
    pw_gpu_halo_band b{};
    b.grid = (char *)grid, b.elem = elem, b.l = l;
    pw_band_io io{};
    io.app = &b, io.bytes_per_row = elem * (size_t)l.width;
    io.put_left = pw_gpu_halo_band::put_left, io.get_last = pw_gpu_halo_band::get_last;
    io.put_right = pw_gpu_halo_band::put_right, io.get_first = pw_gpu_halo_band::get_first;
    const int64_t row_bytes = (int64_t)elem * l.stride, e = (int64_t)elem;
    char *row0 = (char *)grid + (size_t)(row_bytes * l.top); /* interior row 0 */
    pw_gpu_band_columns edge{};
    edge.left_in = pw_band_column{{row0 + e * (l.own0 - l.width), NULL}, {0, 0}, row_bytes, e};
    edge.right_in = pw_band_column{{row0 + e * (l.own0 + l.cols), NULL}, {0, 0}, row_bytes, e};
    edge.last = pw_band_column{{row0 + e * (l.own0 + l.cols - l.width), NULL}, {0, 0}, row_bytes, e};
    edge.first = pw_band_column{{row0 + e * l.own0, NULL}, {0, 0}, row_bytes, e};
    edge.planes = (int)l.width, edge.elem_bytes = (int)elem;
    edge.first_cols = l.width, edge.right_below = l.below;
    return pw_gpu_band_run(plan, &b.gb, &io, &edge, rows, sweeps, run);
}

#endif
