/*
 * user_cell.cuh - a user cell (include/peerwave_cell.h) in the forms of the built-in processors,
 * and the kernels NVRTC instantiates for it.  The library generates, after the cell's text, a
 * struct C with the cell's functions (src/cuda/user_cells.cu):
 *   typedef T (pw_value), Ctx (pw_ctx), Key (the PW_REDUCE field's type, or int);
 *   static constexpr bool reduces; static constexpr int halo;
 *   linear form: typedef Image (pw_ctx_image: the host's words), Index (int32_t when rows and
 *   cols fit, else int64_t), pw_row_t (i and the row inputs at it), pw_col_t (j and the column
 *   inputs; whole 32-bit words), pw_staged_t (both: what the cell reads, made a step ahead);
 *   static pw_row_t row_of(const Image &, i); static pw_col_t col_of(const Image &, j);
 *   static pw_staged_t join(const pw_row_t &, const pw_col_t &);
 *   static pw_staged_t stage(const Image &, i, j);
 *   static T cell(const Image &, const pw_staged_t &, up, left, diag);
 *   static T boundary(const Image &, i, j); static Key key(const T &);
 *   static Key lowest();
 *   static T grid_cell(const Ctx &, i, j);                     (grid form)
 *   static T stencil(const Ctx &, self, up, left, down, right); (stencil form)
 *   static T grid3_cell(const Ctx &, i, j, k);                 (grid3 form)
 *   static T window3_cell(const Ctx &, i, j, k, self, west, north, top);   (grid3 on Warp3Proc)
 * and instantiates the schedules' kernels for the processor the kernel selector chose: the same
 * LinearProc, WarpProc, FullProc, StencilWarpProc and StencilWindowProc, under the same
 * schedules, as SW, DTW and HEAT; 3-D cells also on Warp3Proc.
 */
#ifndef PW_DEVICE_USER_CELL_CUH
#define PW_DEVICE_USER_CELL_CUH

#include "full_proc.cuh"
#include "handover.cuh"
#include "linear_proc.cuh"
#include "linear_storage.cuh"
#include "memory.cuh"
#include "reductions.cuh"
#include "schedules.cuh"
#include "stencil_warp_proc.cuh"
#include "stencil_window_proc.cuh"
#include "tile_steps.cuh"
#include "user_args.h"
#include "warp3_proc.cuh"
#include "warp_proc.cuh"

/* A row or column input of a linear cell as the cell reads it on the GPU (c->a[i]): the value at
 * its own cell, loaded a step ahead, and any other index from memory (generated pw_ctx). */
template <class V>
struct pw_staged {
    const V *ptr;
    V val;
    int64_t at;
    __device__ V operator[](int64_t k) const { return k == at ? val : ptr[k]; }
};

/* The pw_ctx image as the cell's own type (it is 8-byte aligned, a whole number of words). */
template <class Ctx>
__device__ __forceinline__ Ctx pw_user_ctx(const pw_user_args &u)
{
    static_assert(sizeof(Ctx) % 8 == 0 && sizeof(Ctx) <= sizeof(u.ctx), "pw_ctx fits the argument words");
    Ctx c;
    int64_t *w = (int64_t *)&c;
#pragma unroll
    for (int k = 0; k < (int)(sizeof(Ctx) / 8); k++) w[k] = u.ctx[k];
    return c;
}

/* The linear form (up, left, diag), as LinearProc and WarpProc take an app. */
template <class C>
struct UserLinearApp
    : pw_linear_storage<typename C::T>,
      pw_pick<C::reduces, pw_row_argmax<typename C::Key, C>, pw_no_reduction>::type { /* the cell's key() */
    typedef typename C::T T;
    typedef typename C::Key Key;
    typedef typename C::pw_row_t Row; /* i and the row inputs at it (32-bit i when the space allows) */
    typedef typename C::pw_col_t Col; /* j and the column inputs at it: loaded once a column, shuffled up */
    typedef typename C::pw_staged_t Pre; /* i, j and the inputs at them: made a step ahead */
    typename C::Image img;
    int64_t col0; /* a band's first column (user_args.h): the processor's j is the band's */

    static constexpr bool stages_block = false;
    static constexpr bool prunes = false; /* block pruning is SW's (app_sw.cuh) */
    __device__ void begin_block() const {}
    __device__ T shfl_up_value(const T &v) const { return pw_shfl_up(v); }
    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return C::cell(img, C::stage(img, i, col0 + j), up, l, d); }
    __device__ Row row_load(int64_t i) const { return C::row_of(img, (typename C::Index)i); }
    __device__ Col col_load(int64_t j) const { return C::col_of(img, (typename C::Index)(col0 + j)); }
    /* No loads here: the warp processor steps lanes outside the matrix too, on stand-in rows and
     * columns (a row inside, Col{}), and discards their values. */
    __device__ Pre pre(Row r, Col c) const { return C::join(r, c); }
    __device__ T cell_pre(const Pre &p, T up, T l, T d) const { return C::cell(img, p, up, l, d); }

    __device__ void row_out(int64_t, int64_t, const T &) const {}

    __device__ static UserLinearApp make(const pw_user_args &u)
    {
        UserLinearApp app{};
        app.bus = (T *)u.bus, app.left = (T *)u.left, app.diag = (T *)u.diag;
        if constexpr (C::reduces) app.best_key = (Key *)u.best_key, app.best_col = u.best_col;
        app.img = pw_user_ctx<typename C::Image>(u);
        app.col0 = u.col0;
        return app;
    }
};

/* The grid form (in place over the caller's grid, any legal dependences), as FullProc takes it.
 * In a band of a distributed run (src/jit/cell_bands.c) the processor's j is the band's: the cell
 * sees the whole space's, col0 + j, and its grid pointer is shifted back by col0 columns so that
 * pw_at of the whole space's (i, j) lands in the band's columns (user_cells.cu). */
template <class C>
struct UserGridApp {
    typename C::Ctx ctx;
    int64_t col0;
    __device__ void cell(int64_t i, int64_t j) const
    {
        const int64_t jj = col0 + j;
        ctx.grid[(i + C::halo) * ctx.stride + (jj + C::halo)] = C::grid_cell(ctx, i, jj);
    }
    __device__ static UserGridApp make(const pw_user_args &u) { return UserGridApp{pw_user_ctx<typename C::Ctx>(u), u.col0}; }
};

/* The grid3 form on the 2-D engines: column c of the flattened space is (j, k) = (c / planes,
 * c % planes) (src/jit/cell_decl.h).  Watch: sweeps pipelined, the cell's pw_at3 flags a read
 * past its reach into far (the program defines PW_WATCH3; user_cells.cu runs the sweeps again). */
template <class C, bool Watch = false>
struct UserGrid3App {
    typename C::Ctx ctx;
    unsigned *far; /* pw_user_args.far_reads */
    __device__ void cell(int64_t i, int64_t c) const
    {
        const int64_t j = c / ctx.planes, k = c - j * ctx.planes;
        typename C::T v;
        if constexpr (Watch) v = C::watch3_cell(ctx, i, j, k, far);
        else v = C::grid3_cell(ctx, i, j, k);
        ctx.grid[(i + C::halo) * ctx.stride + (j + C::halo) * (ctx.planes + 2 * C::halo) + (k + C::halo)] = v;
    }
    __device__ static UserGrid3App make(const pw_user_args &u) { return UserGrid3App{pw_user_ctx<typename C::Ctx>(u), u.far_reads}; }
};

/* The grid3 form plane by plane (PlaneProc): the run's sweep s is plane i = s mod rows of the
 * 3-D sweep s / rows, its tiles a 2-D wavefront over (j, k); planes are pipelined as HEAT's
 * sweeps are (src/jit/cell.c says when a cell's dependences allow it). */
template <class C>
struct UserPlaneApp {
    typename C::Ctx ctx;
    __device__ void cell(int64_t sweep, int64_t j, int64_t k) const
    {
        const int64_t i = sweep % ctx.rows;
        ctx.grid[(i + C::halo) * ctx.stride + (j + C::halo) * (ctx.planes + 2 * C::halo) + (k + C::halo)] =
            C::grid3_cell(ctx, i, j, k);
    }
    __device__ static UserPlaneApp make(const pw_user_args &u) { return UserPlaneApp{pw_user_ctx<typename C::Ctx>(u)}; }
};

/* The grid3 form on Warp3Proc: the point and its three upwind neighbours come from the
 * processor's registers and slices; the cell's pw_at3 returns them for those four points
 * (pw_window3, generated when the program defines PW_WINDOW3: src/jit/cell_decl.c). */
template <class C>
struct UserWarp3Cell {
    typename C::Ctx ctx;
    int64_t col0;    /* a band's first j in the whole space: the processor's j are the band's */
    unsigned *far;   /* pw_user_args.far_reads */
    __device__ typename C::T operator()(int64_t i, int64_t j, int64_t k, typename C::T self, typename C::T west,
                                        typename C::T north, typename C::T top) const
    {
        return C::window3_cell(ctx, i, col0 + j, k, self, west, north, top, far);
    }
};

/* The stencil form: the five-point cell the row-major stencil processors call ... */
template <class C>
struct UserStencilCell {
    typename C::Ctx ctx;
    __device__ typename C::T operator()(typename C::T self, typename C::T up, typename C::T left, typename C::T down,
                                        typename C::T right) const
    {
        return C::stencil(ctx, self, up, left, down, right);
    }
};

/* ... and as FullProc takes it (other layouts' fallback: the neighbours through ld.cg). */
template <class C>
struct UserStencilApp {
    UserStencilCell<C> cell_fn;
    __device__ void cell(int64_t i, int64_t j) const
    {
        const int64_t s = cell_fn.ctx.stride;
        typename C::T *p = cell_fn.ctx.grid + (i + 1) * s + (j + 1);
        *p = cell_fn(pw_load_cg(p), pw_load_cg(p - s), pw_load_cg(p - 1), pw_load_cg(p + s), pw_load_cg(p + 1));
    }
    __device__ static UserStencilApp make(const pw_user_args &u) { return UserStencilApp{{pw_user_ctx<typename C::Ctx>(u)}}; }
};

/* Each processor built from the arguments. */
template <class Proc>
struct pw_user_proc;
template <class App, int R>
struct pw_user_proc<LinearProc<App, R>> {
    __device__ static LinearProc<App, R> make(const pw_user_args &u) { return LinearProc<App, R>{App::make(u)}; }
};
template <class App, int R>
struct pw_user_proc<WarpProc<App, R>> {
    __device__ static WarpProc<App, R> make(const pw_user_args &u)
    {
        return WarpProc<App, R>{App::make(u), pw_edge<typename App::T>{(pw_ll<typename App::T> *)u.edge}};
    }
};
template <class App, bool D>
struct pw_user_proc<FullProc<App, D>> {
    __device__ static FullProc<App, D> make(const pw_user_args &u) { return FullProc<App, D>{App::make(u)}; }
};
template <class App>
struct pw_user_proc<PlaneProc<App>> {
    __device__ static PlaneProc<App> make(const pw_user_args &u) { return PlaneProc<App>{App::make(u)}; }
};

template <class T, class C, int KW, int NW, int AHEAD, int CHUNK, int BLOCKS, int CHAINS>
struct pw_user_proc<Warp3Proc<T, UserWarp3Cell<C>, KW, NW, AHEAD, CHUNK, BLOCKS, CHAINS>> {
    using Proc = Warp3Proc<T, UserWarp3Cell<C>, KW, NW, AHEAD, CHUNK, BLOCKS, CHAINS>;
    __device__ static Proc make(const pw_user_args &u)
    {
        const UserWarp3Cell<C> cell{pw_user_ctx<typename C::Ctx>(u), u.col0, u.far_reads};
        const typename C::Ctx &c = cell.ctx;
        /* (a band: its own columns, from its column 0; the cell's ctx keeps the whole space's j) */
        const int64_t stride_j = c.planes + 2 * C::halo;
        return Proc{c.grid + u.col0 * stride_j, c.rows, u.band_cols ? u.band_cols : c.cols, c.planes, c.stride, stride_j, C::halo, cell};
    }
};

template <class F, class C, int R>
struct pw_user_proc<StencilWarpProc<F, UserStencilCell<C>, R>> {
    __device__ static StencilWarpProc<F, UserStencilCell<C>, R> make(const pw_user_args &u)
    {
        const UserStencilCell<C> cell{pw_user_ctx<typename C::Ctx>(u)};
        return StencilWarpProc<F, UserStencilCell<C>, R>{cell.ctx.grid, {cell.ctx.stride}, cell, pw_edge<F>{(pw_ll<F> *)u.edge},
                                                         u.edge_rows};
    }
};
template <class F, class C>
struct pw_user_proc<StencilWindowProc<F, UserStencilCell<C>>> {
    __device__ static StencilWindowProc<F, UserStencilCell<C>> make(const pw_user_args &u)
    {
        const UserStencilCell<C> cell{pw_user_ctx<typename C::Ctx>(u)};
        return StencilWindowProc<F, UserStencilCell<C>>{cell.ctx.grid, {cell.ctx.stride}, cell};
    }
};

/* The processor, built on the device from pw_user_args (the host does not know the cell's
 * types) and copied out as bytes: the host passes them to the library's own schedule kernels
 * (schedules.cuh: pw_peer_kernel<Proc> ...), so a user cell runs the very kernels a built-in
 * app does, its processor in the parameter space (constant bank) where they keep theirs. */
#define PW_USER_PROC_MAX 4096
struct pw_user_proc_image {
    int64_t size;
    int64_t align_pad;
    unsigned char bytes[PW_USER_PROC_MAX];
};
template <class Proc>
__global__ void pw_user_make_kernel(const pw_user_args u, pw_user_proc_image *out)
{
    static_assert(sizeof(Proc) <= PW_USER_PROC_MAX, "the processor fits its image");
    const Proc p = pw_user_proc<Proc>::make(u);
    const unsigned char *src = (const unsigned char *)&p;
    for (int k = 0; k < (int)sizeof(Proc); k++) out->bytes[k] = src[k];
    out->size = (int64_t)sizeof(Proc);
}

/* Linear form: row -1 into the bus, column -1 into left, (i - 1, -1) into diag; and the
 * reduction's start (the lowest key, no column).  A later band (u.col0 > 0) of a distributed run:
 * its row -1 at the whole space's columns, and of the column left of it only the corner
 * (-1, col0 - 1) -- the rest is the left neighbour's last column, which the link brings (the
 * boundary function is never asked for a cell inside the space). */
template <class C>
__global__ void pw_user_boundary_kernel(const pw_user_args u, int64_t rows, int64_t cols)
{
    const typename C::Image c = pw_user_ctx<typename C::Image>(u);
    typename C::T *bus = (typename C::T *)u.bus, *left = (typename C::T *)u.left, *diag = (typename C::T *)u.diag;
    const int64_t n = rows > cols ? rows : cols, col0 = u.col0;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
        if (k < cols) bus[k] = C::boundary(c, -1, col0 + k);
        if (k < rows) {
            if (col0 == 0) {
                left[k] = C::boundary(c, k, -1);
                diag[k] = C::boundary(c, k - 1, -1);
            } else if (k == 0) {
                diag[0] = C::boundary(c, -1, col0 - 1);
            }
            if constexpr (C::reduces) {
                ((typename C::Key *)u.best_key)[k] = C::lowest();
                u.best_col[k] = -1;
            }
        }
    }
}

#endif
