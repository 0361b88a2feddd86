/*
 * user_cells.cu - user cells on the GPU (src/jit/cell_gpu.h).  The kernel selector picks the
 * processor as it does for the built-in apps (linear form: the warp or block processor and its
 * rows a thread; grid form: FullProc); the cell's text, after the generated types, is compiled by
 * NVRTC together with device/user_cell.cuh for the GPU present, instantiating exactly that
 * processor's three schedule kernels (and the boundary and edge-word kernels); the CUBIN is
 * cached on disk (cell_cache.h) under the hash of everything that changes it, loaded with
 * cudaLibraryLoadData, kept loaded in the cell, and launched by the engine's one launcher.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <deque>
#include <new>
#include <string>
#include <vector>

#include "../core/exec.h"
#include "../core/status_detail.h"
#include "../core/trace_hold.h"
#include "../jit/cell_cache.h"
#include "../jit/cell_gpu.h"
#include "../jit/device_sources.h"
#include "../jit/rtc.h"
#include "device/user_args.h"
#include "device/user_cell.cuh" /* pw_user_proc_image */
#include "device_buffer.cuh"
#include "gpu_band_storage.cuh"
#include "kernel_desc.h"
#include "launch.h"
#include "pw_cuda.h"
#include "rtc_module.h"

/* Bump when the generated entry points change: old cache entries then stop matching. */
#define GPU_GLUE_VERSION "gpu-glue-6"

enum { K_PEER, K_BAND, K_BARRIER, K_DIAGONAL, K_TASKS, K_MAKE, K_BOUNDARY, K_FILL, K_DRAIN, K_COUNT };

typedef pw_rtc_module gpu_module; /* kernels[K_*] */

/* (a deque: ranks that are threads of one process each hold a module of the cell -- one for their
 * own device -- while another rank adds its own; a deque keeps their addresses) */
struct gpu_modules {
    std::deque<gpu_module> loaded;
};

/* What the selector chose, as the processor's C++ type and its kernels' form. */
struct proc_choice {
    std::string type;
    bool bounded;
    bool wide;    /* linear form: 64-bit row and column indices (a side past 2^31 - 64) */
    bool window3; /* grid3 on Warp3Proc: the cell's pw_at3 reads the processor's window */
    bool watch3;  /* grid3 flattened, sweeps pipelined: pw_at3 flags a read past the reach
                     (UserGrid3App<C, true>) */
};

/* How a grid3 cell runs (cell_internal.h): over the flattened space, plane by plane, 3-D tiles. */
enum layout3 { FLAT3, PLANE3, TILES3 };

/* Warp3Proc's tile: planes a thread, warps a block, slices in flight, steps between hand-overs,
 * blocks an SM and rows (j chains) a thread (PEERWAVE_3D_TILE, else proc_shapes.h's). */
struct tile3 {
    int kw, nw, ahead, chunk, blocks, chains;
};
static tile3 tile3_shape(void)
{
    pw_kernel_switches sw;
    pw_kernel_switches_read(&sw);
    tile3 t = {PW_WARP3_KW, PW_WARP3_NW, PW_WARP3_AHEAD, PW_WARP3_CHUNK, 0, PW_WARP3_CHAINS};
    if (sw.tile3_kw) t = {sw.tile3_kw, sw.tile3_nw, sw.tile3_ahead ? sw.tile3_ahead : t.ahead,
                          sw.tile3_chunk ? sw.tile3_chunk : t.chunk, sw.tile3_blocks, sw.tile3_chains ? sw.tile3_chains : t.chains};
    if (!t.blocks) t.blocks = 512 / (32 * t.nw); /* the processor's own default (warp3_proc.cuh) */
    return t;
}

/* space_cols: the whole space's columns (a band's tiling has its own: the cell sees the whole's j). */
static proc_choice choose(const pw_cell_decl *d, const pw_kernel_desc *desc, layout3 layout, tile3 shape, int64_t space_cols)
{
    char buf[160];
    const int r = desc->rows_per_thread;
    if (d->form == PW_CELL_GRID && desc->deep_sweep_reads) return {"FullProc<UserGridApp<pw_user_cell>, true>", false, true, false};
    if (d->form == PW_CELL_GRID) return {"FullProc<UserGridApp<pw_user_cell>>", false, true, false};
    if (d->form == PW_CELL_GRID3 && layout == TILES3) {
        snprintf(buf, sizeof buf, "Warp3Proc<pw_value, UserWarp3Cell<pw_user_cell>, %d, %d, %d, %d, %d, %d>", shape.kw,
                 shape.nw, shape.ahead, shape.chunk, shape.blocks, shape.chains);
        return {buf, true, true, true};
    }
    if (d->form == PW_CELL_GRID3 && layout == PLANE3) return {"PlaneProc<UserPlaneApp<pw_user_cell>>", false, true, false};
    if (d->form == PW_CELL_GRID3 && desc->pipelined_sweeps) /* (flattened: select_processor) */
        return {desc->deep_sweep_reads ? "FullProc<UserGrid3App<pw_user_cell, true>, true>" : "FullProc<UserGrid3App<pw_user_cell, true>>",
                false, true, false, true};
    if (d->form == PW_CELL_GRID3) return {"FullProc<UserGrid3App<pw_user_cell>>", false, true, false};
    if (d->form == PW_CELL_STENCIL) {
        if (desc->processor == PW_PROC_STENCIL_WARP) {
            snprintf(buf, sizeof buf, "StencilWarpProc<pw_value, UserStencilCell<pw_user_cell>, %d>", r);
            return {buf, false, true, false};
        }
        if (desc->processor == PW_PROC_STENCIL_WINDOW)
            return {"StencilWindowProc<pw_value, UserStencilCell<pw_user_cell>>", false, true, false};
        return {"FullProc<UserStencilApp<pw_user_cell>>", false, true, false};
    }
    const bool wide = desc->tiling.rows > INT32_MAX - 64 || desc->tiling.cols > INT32_MAX - 64 || space_cols > INT32_MAX - 64;
    if (desc->processor == PW_PROC_WARP) {
        snprintf(buf, sizeof buf, "WarpProc<UserLinearApp<pw_user_cell>, %d>", r);
        return {buf, true, wide, false};
    }
    snprintf(buf, sizeof buf, "LinearProc<UserLinearApp<pw_user_cell>, %d>", r);
    return {buf, false, wide, false};
}

/* The lowest key of a reduction, as C++ text. */
static const char *lowest_text(pw_cell_type t)
{
    switch (t) {
    case PW_CT_I32: return "INT32_MIN";
    case PW_CT_I64: return "INT64_MIN";
    case PW_CT_F32: return "-__int_as_float(0x7f800000)";
    case PW_CT_F64: return "-__longlong_as_double(0x7ff0000000000000LL)";
    default: return "0";
    }
}

/* The program NVRTC compiles: the library's device code, the cell's types and text (its lines
 * numbered as in its file), the struct user_cell.cuh reads, the processor chosen. */
static std::string program(const pw_cell *cell, const proc_choice &p)
{
    const pw_cell_decl *d = &cell->decl;
    std::string s = p.window3 ? "#define PW_WINDOW3 1\n" : p.watch3 ? "#define PW_WATCH3 1\n" : "";
    s += "#include \"src/cuda/device/user_cell.cuh\"\n#include \"include/peerwave_cell.h\"\n";
    s += cell->types;
    s += "\n#line 1 \"";
    s += cell->name;
    s += "\"\n";
    s += cell->text;
    s += "\n#line 1 \"" PW_GPU_ENTRY_POINTS_FILE "\"\nstruct pw_user_cell {\n    typedef pw_value T;\n    typedef pw_ctx Ctx;\n";
    char buf[512];
    const bool reduces = d->reduce_field >= 0;
    const pw_cell_type kt = reduces ? d->fields[d->reduce_field].f.type : PW_CT_I32;
    snprintf(buf, sizeof buf, "    typedef %s Key;\n    static constexpr bool reduces = %s;\n    static constexpr int halo = %d;\n",
             pw_cell_type_name(kt), reduces ? "true" : "false", d->halo);
    s += buf;
    if (d->form == PW_CELL_LINEAR) {
        /* the row and column inputs at the cell: a row's with its index (Row, loaded once a lane
         * in the warp processor), a column's with its (Col, loaded once a column and shuffled up
         * the warp, so whole 32-bit words), joined into pw_staged_t for the cell a step ahead (pw_
         * names, apart from the cell's own); and the
         * pw_ctx view that hands them to the cell (cell_decl.c) */
        std::string row_fields, col_fields, all_fields, row_loads, col_loads, joins,
            view = "pw_ctx c; c.rows = m.rows; c.cols = m.cols; c.planes = m.planes;";
        for (int k = 0; k < d->n_inputs; k++) {
            const char *n = d->inputs[k].name, *t = pw_cell_type_name(d->inputs[k].f.type);
            if (d->inputs[k].f.axes == PW_AXES_IJ || d->inputs[k].f.axes == PW_AXES_TABLE) {
                view += std::string(" c.") + n + " = m." + n + ";";
                continue;
            }
            const bool by_row = d->inputs[k].f.axes == PW_AXES_I;
            const std::string field = std::string(" ") + t + " " + n + ";";
            /* narrow inputs are held in a 32-bit word (column ones are shuffled as words; a lane's
             * row or column struct with bytes in it went through local memory) */
            const bool narrow = pw_cell_type_size(d->inputs[k].f.type) < 4;
            (by_row ? row_fields : col_fields) += narrow ? std::string(" int32_t ") + n + ";" : field;
            all_fields += field;
            (by_row ? row_loads : col_loads) += std::string(" x.") + n + " = m." + n + (by_row ? "[i];" : "[j];");
            joins += std::string(" s.") + n + " = (" + t + ")" + (by_row ? "r." : "c.") + n + ";";
            view += std::string(" c.") + n + " = pw_staged<" + t + ">{m." + n + ", s." + n + ", s." + (by_row ? "i" : "j") + "};";
        }
        for (int k = 0; k < d->n_params; k++) view += std::string(" c.") + d->params[k].name + " = m." + d->params[k].name + ";";
        const std::string index = p.wide ? "int64_t" : "int32_t";
        s += "    typedef pw_ctx_image Image;\n    typedef " + index + " Index;\n";
        s += "    struct pw_row_t { Index i;" + row_fields + " };\n    struct pw_col_t { Index j;" + col_fields +
             " };\n    struct pw_staged_t { Index i, j;" + all_fields + " };\n";
        s += "    __device__ static pw_row_t row_of(const Image &m, Index i) { pw_row_t x; x.i = i;" + row_loads + " return x; }\n";
        s += "    __device__ static pw_col_t col_of(const Image &m, Index j) { pw_col_t x = pw_col_t(); x.j = j;" + col_loads + " return x; }\n";
        s += "    __device__ static pw_staged_t join(const pw_row_t &r, const pw_col_t &c) { pw_staged_t s; s.i = r.i; s.j = c.j;" + joins +
             " return s; }\n";
        s += "    __device__ static pw_staged_t stage(const Image &m, Index i, Index j) { return join(row_of(m, i), col_of(m, j)); }\n";
        s += "    __device__ static pw_ctx view(const Image &m, const pw_staged_t &s) { " + view + " return c; }\n";
        s += "    __device__ static T cell(const Image &m, const pw_staged_t &s, T u, T l, T d)\n"
             "    { const pw_ctx c = view(m, s); return pw_cell(&c, s.i, s.j, u, l, d); }\n"
             "    __device__ static T boundary(const Image &m, int64_t i, int64_t j)\n"
             "    { pw_staged_t s = pw_staged_t(); s.i = s.j = -1; const pw_ctx c = view(m, s); return pw_boundary(&c, i, j); }\n";
        snprintf(buf, sizeof buf, "    __device__ static Key key(const T &v) { return %s; }\n    __device__ static Key lowest() { return %s; }\n",
                 !reduces ? "0" : d->scalar ? "v" : (std::string("v.") + d->fields[d->reduce_field].name).c_str(),
                 lowest_text(kt));
        s += buf;
    } else if (d->form == PW_CELL_GRID) {
        s += "    __device__ static T grid_cell(const Ctx &c, int64_t i, int64_t j) { return pw_cell(&c, i, j); }\n";
    } else if (d->form == PW_CELL_GRID3) {
        if (p.watch3) /* (pw_at3 reads a window: every call hands it one) */
            s += "    __device__ static T watch3_cell(const Ctx &c, int64_t i, int64_t j, int64_t k, unsigned *far)\n"
                 "    { pw_window3 w; w.c = c; w.i = i; w.j = j; w.k = k; w.far = far; return pw_cell(&w.c, i, j, k); }\n"
                 "    __device__ static T grid3_cell(const Ctx &c, int64_t i, int64_t j, int64_t k) { return watch3_cell(c, i, j, k, 0); }\n";
        else
            s += "    __device__ static T grid3_cell(const Ctx &c, int64_t i, int64_t j, int64_t k) { return pw_cell(&c, i, j, k); }\n";
        if (p.window3)
            s += "    __device__ static T window3_cell(const Ctx &c, int64_t i, int64_t j, int64_t k, T self, T west, T north, T top,\n"
                 "                                     unsigned *far)\n"
                 "    { pw_window3 w; w.c = c; w.i = i; w.j = j; w.k = k; w.self = self; w.west = west; w.north = north;"
                 " w.top = top; w.far = far; return pw_cell(&w.c, i, j, k); }\n";
    } else {
        s += "    __device__ static T stencil(const Ctx &c, T self, T up, T left, T down, T right)\n"
             "    { return pw_cell(&c, self, up, left, down, right); }\n";
    }
    s += "};\ntypedef " + p.type + " pw_user_proc_t;\n";
    s += std::string("static_assert((pw_user_proc_t::policy.bound_threads > 0) == ") + (p.bounded ? "true" : "false") +
         ", \"the kernels' form (under __launch_bounds__ or not) is the policy's\");\n";
    return s;
}

/* The module's schedules for the launcher (launch.h). */
static pw_kernel_set user_kernel_set(const gpu_module *m)
{
    return pw_kernel_set{(const void *)m->kernels[K_PEER], (const void *)m->kernels[K_BAND], (const void *)m->kernels[K_BARRIER],
                         (const void *)m->kernels[K_DIAGONAL], (const void *)m->kernels[K_TASKS]};
}

static std::vector<std::string> kernel_names(const pw_cell_decl *d, const proc_choice &p)
{
    const std::string b = p.bounded ? "_bounded" : "";
    std::vector<std::string> n = {"pw_peer_kernel" + b + "<pw_user_proc_t>", "pw_band_kernel" + b + "<pw_user_proc_t>",
                                  "pw_barrier_kernel" + b + "<pw_user_proc_t>",
                                  "pw_diagonal_kernel" + b + "<pw_user_proc_t>", "pw_tasks_kernel" + b + "<pw_user_proc_t>",
                                  "pw_user_make_kernel<pw_user_proc_t>"};
    if (d->form == PW_CELL_LINEAR) {
        n.push_back("pw_user_boundary_kernel<pw_user_cell>");
        n.push_back("pw_edge_fill<pw_value>");
        n.push_back("pw_edge_drain<pw_value>");
    }
    return n;
}

/* The module for this cell and processor on this device: loaded already, in the disk cache, or
 * compiled now. */
static pw_status module_for(pw_cell *cell, const proc_choice &p, int device, gpu_module **out, pw_cell_result *res)
{
    gpu_modules *mods = (gpu_modules *)cell->gpu;
    if (!mods) cell->gpu = mods = new gpu_modules();
    const std::string src = program(cell, p);
    const std::vector<std::string> names = kernel_names(&cell->decl, p);
    std::string key;
    char target[32];
    pw_status st = pw_rtc_module_key(src, GPU_GLUE_VERSION, device, &key, target);
    if (st != PW_OK) return st;
    for (gpu_module &m : mods->loaded)
        if (m.key == key && m.device == device) {
            *out = &m;
            return PW_OK;
        }
    gpu_module m;
    m.key = key;
    m.device = device;
    char *log = NULL;
    st = pw_rtc_module_load(src, cell->name, target, names, &m, &log, &res->compiled, res->note, sizeof res->note);
    if (log || res->compiled) pw_cell_keep_log(cell, log);
    if (st == PW_ERR_COMPILE) pw_name_cell_missing_detail(cell->name); /* (as the CPU's build says it) */
    if (st != PW_OK) return st;
    mods->loaded.push_back(m);
    *out = &mods->loaded.back();
    return PW_OK;
}

extern "C" pw_status pw_cell_gpu_compile_check(pw_cell *cell, const char *target, int processor, int rows_per_thread,
                                               int wide)
{
    try {
        pw_kernel_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.processor = (pw_processor)processor;
        desc.rows_per_thread = rows_per_thread;
        desc.tiling.rows = wide > 0 ? INT64_MAX / 4 : 1;
        /* (-3: the flattened space with sweeps pipelined, pw_at3 watched, deep waits) */
        desc.pipelined_sweeps = desc.deep_sweep_reads = wide == -3;
        const proc_choice p = choose(&cell->decl, &desc, wide == -1 ? PLANE3 : wide == -2 ? TILES3 : FLAT3, tile3_shape(), 1);
        const std::string src = program(cell, p);
        const std::vector<std::string> names = kernel_names(&cell->decl, p);
        /* PEERWAVE_CELL_DUMP=FILE: the program, for a look with nvcc -Xptxas -v (debugging) */
        const char *dump = getenv("PEERWAVE_CELL_DUMP");
        if (dump && dump[0]) {
            FILE *f = fopen(dump, "w");
            if (f) {
                fputs(src.c_str(), f);
                fclose(f);
            }
        }
        std::vector<const char *> exprs;
        for (const std::string &n : names) exprs.push_back(n.c_str());
        pw_rtc_image img;
        memset(&img, 0, sizeof img);
        pw_status st = pw_rtc_compile(src.c_str(), cell->name, target, exprs.data(), (int)exprs.size(), &img);
        if (st == PW_ERR_COMPILE) pw_name_cell_missing_detail(cell->name); /* (as the CPU's build says it) */
        pw_cell_keep_log(cell, img.log);
        img.log = NULL;
        pw_rtc_image_free(&img);
        return st;
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

extern "C" void pw_cell_gpu_free(pw_cell *cell)
{
    gpu_modules *mods = (gpu_modules *)cell->gpu;
    if (!mods) return;
    for (gpu_module &m : mods->loaded) pw_rtc_module_unload(&m);
    delete mods;
    cell->gpu = NULL;
}

/* A raw device array of bytes, freed with its scope. */
typedef pw_device_buffer<unsigned char> bytes;

/* One thread an element (the boundary kernel also strides; the edge-word kernels need the whole
 * grid, as edge_words.cuh launches them). */
static pw_status launch_aux(cudaKernel_t k, int64_t n, void **args, cudaStream_t s)
{
    int64_t blocks = (n + 255) / 256;
    if (blocks < 1) blocks = 1;
    if (blocks > INT32_MAX) return PW_ERR_SIZE_OVERFLOW;
    return pw_from_cuda(cudaLaunchKernel((const void *)k, dim3((unsigned)blocks), dim3(256), args, 0, s));
}

/* The processor's bytes for the schedule kernels, made on the device from u (user_cell.cuh). */
static pw_status make_proc(const gpu_module *m, pw_user_args *u, cudaStream_t s, std::vector<unsigned char> *out)
{
    pw_device_buffer<pw_user_proc_image> img(s);
    pw_user_proc_image *host = new pw_user_proc_image;
    pw_status st = img.alloc(1);
    void *args[] = {u, &img.ptr};
    PW_THEN(st, pw_from_cuda(cudaLaunchKernel((const void *)m->kernels[K_MAKE], dim3(1), dim3(1), args, 0, s)));
    PW_THEN(st, img.download(host, 1));
    if (st == PW_OK && (host->size <= 0 || host->size > PW_USER_PROC_MAX)) st = PW_ERR_CUDA;
    if (st == PW_OK) out->assign(host->bytes, host->bytes + host->size);
    delete host;
    return st;
}

/* Host compare of two keys of type t (the reduction, across rows). */
static bool key_greater(pw_cell_type t, const unsigned char *a, const unsigned char *b)
{
    switch (t) {
    case PW_CT_I32: { int32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return x > y; }
    case PW_CT_U32: { uint32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return x > y; }
    case PW_CT_I64: { int64_t x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return x > y; }
    case PW_CT_F32: { float x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return x > y; }
    default: { double x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return x > y; }
    }
}

static pw_status run_linear(pw_cell *cell, const pw_plan *plan, const pw_kernel_desc *desc, gpu_module *m,
                            pw_user_args *u, const pw_cell_job *job, pw_cell_result *res)
{
    const pw_cell_decl *d = &cell->decl;
    const pw_cell_args *a = job->args;
    const size_t vs = d->value_size;
    const bool reduces = d->reduce_field >= 0;
    const pw_cell_type kt = reduces ? d->fields[d->reduce_field].f.type : PW_CT_I32;
    const size_t ks = pw_cell_type_size(kt);
    cudaStream_t s = pw_plan_stream(plan);
    bytes bus(s), left(s), diag(s), edge(s), best_key(s);
    pw_device_buffer<int64_t> best_col(s);
    /* a band of a distributed run (cell_bands.c): its columns [col0, col0 + cols) of the whole */
    const pw_band *band = (const pw_band *)plan->band;
    const int64_t col0 = band ? band->col0 : 0;
    const bool last_band = !band || band->col0 + band->cols == band->total_cols;
    int64_t rows = a->rows, cols = band ? band->cols : a->cols;
    u->col0 = col0;
    pw_status st = bus.alloc((size_t)cols * vs);
    PW_THEN(st, left.alloc((size_t)rows * vs));
    PW_THEN(st, diag.alloc((size_t)rows * vs));
    if (reduces) {
        PW_THEN(st, best_key.alloc((size_t)rows * ks));
        PW_THEN(st, best_col.alloc((size_t)rows));
    }
    if (st != PW_OK) return st;
    u->bus = bus.ptr, u->left = left.ptr, u->diag = diag.ptr;
    u->best_key = best_key.ptr, u->best_col = best_col.ptr;
    void *bargs[] = {u, &rows, &cols};
    st = launch_aux(m->kernels[K_BOUNDARY], rows > cols ? rows : cols, bargs, s);
    const bool warp = desc->processor == PW_PROC_WARP;
    int64_t n_edge = cols;
    if (warp) {
        PW_THEN(st, edge.alloc((size_t)cols * 2 * vs)); /* pw_ll: each 32-bit word with a tag */
        u->edge = edge.ptr;
        void *fargs[] = {&u->edge, &u->bus, &n_edge};
        PW_THEN(st, launch_aux(m->kernels[K_FILL], cols, fargs, s));
    }
    const pw_kernel_set set = user_kernel_set(m);
    std::vector<unsigned char> proc;
    PW_THEN(st, make_proc(m, u, s, &proc));
    /* (a band: the link fills left and diag below the corner, and takes left as the band's last
     * column: gpu_band_storage.cuh) */
    PW_THEN(st, pw_gpu_run_linear_band(plan, left.ptr, diag.ptr, vs, rows, [&](const pw_plan *p) {
                return pw_cuda_launch(p, desc, &set, proc.data(), 0, 1, &res->info);
            }));
    if (warp) {
        void *dargs[] = {&u->edge, &u->bus, &n_edge};
        PW_THEN(st, launch_aux(m->kernels[K_DRAIN], cols, dargs, s));
    }
    /* (a band: its own columns of the last row; the last column and value are the last band's --
     * the distributed caller spreads them) */
    if (last_band) PW_THEN(st, bytes::pw_download(res->last, bus.ptr + (size_t)(cols - 1) * vs, vs, s));
    if (a->last_row) PW_THEN(st, bytes::pw_download((unsigned char *)a->last_row + (size_t)col0 * vs, bus.ptr, (size_t)cols * vs, s));
    if (a->last_col && last_band) PW_THEN(st, bytes::pw_download(a->last_col, left.ptr, (size_t)rows * vs, s));
    if (st != PW_OK || !reduces) return st;
    std::vector<unsigned char> keys((size_t)rows * ks);
    std::vector<int64_t> at((size_t)rows);
    st = best_key.download(keys.data(), keys.size());
    PW_THEN(st, best_col.download(at.data(), at.size()));
    if (st != PW_OK) return st;
    /* rows in order, strict >: the smallest row, then (per row) the smallest column */
    const unsigned char *best = NULL;
    for (int64_t i = 0; i < rows; i++)
        if (at[(size_t)i] >= 0 && (!best || key_greater(kt, &keys[(size_t)i * ks], best))) {
            best = &keys[(size_t)i * ks];
            res->best_i = i;
            res->best_j = col0 + at[(size_t)i];
        }
    if (best) memcpy(res->best + d->fields[d->reduce_field].f.offset, best, ks);
    return PW_OK;
}

/* Before every launch of the stencil warp processor: its edge words cleared (tags restart). */
struct clear_words {
    void *words;
    size_t bytes;
    cudaStream_t s;
};
static pw_status clear_edge(void *p)
{
    const clear_words *c = (const clear_words *)p;
    return c->bytes ? pw_from_cuda(cudaMemsetAsync(c->words, 0, c->bytes, c->s)) : PW_OK;
}

/* Grid and stencil forms: in place over the grid, sweeps pipelined where the descriptor allows.
 * A band of a distributed run (cell_bands.c): the band's columns and pw_cell_band_side more each side on
 * the device (`stride` values a row, as the ctx says), swept with the link's edge columns (the
 * cell's reach wide); its own columns afterwards into job->band_out, not the caller's grid (ranks that
 * are threads of one process may share that grid, and a band still to start reads its halo
 * columns from it).  A grid3 cell's band is a slab of j on the 3-D processor: a column is then
 * its planes (and their halo) of each row, one element to the band's storage and link. */
static pw_status run_grid(pw_cell *cell, const pw_plan *plan, const pw_kernel_desc *desc, gpu_module *m,
                          pw_user_args *u, const pw_cell_job *job, int64_t stride, pw_cell_result *res)
{
    const pw_cell_decl *d = &cell->decl;
    const pw_cell_args *a = job->args;
    cudaStream_t s = pw_plan_stream(plan);
    const pw_band *band = (const pw_band *)plan->band;
    const size_t vs = d->value_size, row_bytes = (size_t)stride * vs, host_row = (size_t)job->stride * vs;
    const size_t rows = (size_t)(a->rows + 2 * d->halo), n = rows * row_bytes;
    const int64_t side = band ? pw_cell_band_side(d, job) : 0; /* (a band: its columns and `side` more each side) */
    const int64_t depth = pw_cell_column_values(d, job); /* values a column a row */
    const size_t cv = vs * (size_t)depth;                                          /* their bytes */
    if (band && d->form == PW_CELL_GRID3 && !job->tiles3) return PW_ERR_UNSUPPORTED; /* (cell_bands.c refuses it first) */
    if (band && cv > (size_t)INT32_MAX / 2) { /* (the band's element size is an int: gpu_band.cuh) */
        pw_set_error_detail("a grid3 band's column row of %lld planes is too large for GPU bands", (long long)job->planes);
        return PW_ERR_SIZE_OVERFLOW;
    }
    bytes grid(s), edge(s);
    pw_status st = band ? grid.alloc(n) : grid.upload((const unsigned char *)a->grid, n);
    if (band) { /* the whole grid's columns the band's storage holds (at a space's ends, fewer: the
                   halo is narrower than the reach there, and the cell reads only the halo) */
        const int64_t from = band->col0 + d->halo - side; /* the whole grid's column of the band's column 0 */
        const int64_t band_end = from + stride / depth, grid_cols = job->stride / depth;
        const int64_t lo = from > 0 ? from : 0, hi = band_end < grid_cols ? band_end : grid_cols;
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(grid.ptr, 0, n, s)));
        PW_THEN(st, pw_from_cuda(cudaMemcpy2DAsync(grid.ptr + (size_t)(lo - from) * cv, row_bytes,
                                                   (const unsigned char *)a->grid + (size_t)lo * cv, host_row,
                                                   (size_t)(hi - lo) * cv, rows, cudaMemcpyHostToDevice, s)));
    }
    if (st != PW_OK) return st;
    /* (a grid cell's band: the pointer shifted so that the cell's pw_at of the whole space's j
     * lands in the band's storage: j at column j - col0 + side; the stencil processors address the
     * band's own from column 1; the 3-D processor, a grid3 cell's, from col0 on, and hands the
     * cell col0 + j: device/user_cell.cuh) */
    unsigned char *grid_at = grid.ptr;
    if (band && (d->form == PW_CELL_GRID || d->form == PW_CELL_GRID3))
        grid_at += (side - d->halo - band->col0) * (ptrdiff_t)cv, u->col0 = band->col0, u->band_cols = band->cols;
    memcpy((char *)u->ctx + d->ctx_grid, &grid_at, sizeof grid_at);
    clear_words clear = {NULL, 0, s};
    if (desc->processor == PW_PROC_STENCIL_WARP && plan->strategy == PW_STRATEGY_PEER) {
        /* the tile-rows' last rows as edge words: one row for one sweep a launch, a row per
         * tile-row for pipelined sweeps (stencil_apps.cu does the same for HEAT) */
        u->edge_rows = job->sweeps > 1 && desc->pipelined_sweeps ? desc->tiling.n_rows : 1;
        clear.bytes = (size_t)u->edge_rows * (size_t)desc->tiling.cols * 2 * d->value_size;
        st = edge.alloc(clear.bytes);
        u->edge = clear.words = edge.ptr;
    }
    /* A grid3 cell's pipelined sweeps (the 3-D processor's, or the flattened space's) assume the
     * cell reads no further downwind than its halo (warp3_proc.cuh; flattened: its reach, cell.c);
     * a read past it is flagged, and the sweeps run again, one a launch,
     * from the caller's grid (a cell may read any point of the grid: the contract allowed it
     * before sweeps were pipelined). */
    bytes far(s);
    const bool watch_far = d->form == PW_CELL_GRID3 && !job->plane && !band && desc->pipelined_sweeps && job->sweeps > 1;
    if (watch_far) {
        PW_THEN(st, far.alloc(sizeof(unsigned)));
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(far.ptr, 0, sizeof(unsigned), s)));
        u->far_reads = (unsigned *)far.ptr;
    }
    const pw_kernel_set set = user_kernel_set(m);
    std::vector<unsigned char> proc;
    PW_THEN(st, make_proc(m, u, s, &proc));
    if (job->plane && job->sweeps > INT64_MAX / a->rows) return PW_ERR_SIZE_OVERFLOW;
    const int64_t sweeps = job->plane ? job->sweeps * a->rows : job->sweeps; /* plane by plane: a sweep a plane */
    if (st != PW_OK) return st;
    if (band) {
        const pw_gpu_halo_layout l = {stride / depth, band->cols, d->halo, side, job->band_reach, job->band_below};
        st = pw_gpu_run_halo_band(plan, grid.ptr, cv, l, a->rows, sweeps, [&](const pw_plan *p) {
            clear.s = pw_plan_stream(p); /* (the band's run stream: a clear on another would not order before the kernel) */
            return pw_cuda_launch_sweeps(p, desc, &set, proc.data(), sweeps, &res->info, clear_edge, &clear);
        });
        const size_t interior = (size_t)band->cols * cv;
        PW_THEN(st, pw_from_cuda(cudaMemcpy2DAsync(job->band_out, interior, grid.ptr + (size_t)side * cv, row_bytes, interior, rows,
                                                   cudaMemcpyDeviceToHost, s)));
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(s)));
        return st;
    }
    /* "done" and the tiles only from the run that gives the result */
    pw_plan watched = *plan;
    watched.monitor.hold_final = watch_far;
    pw_trace_buffer held = {};
    if (watch_far && plan->trace) {
        watched.trace = pw_trace_buffer_keep;
        watched.trace_user = &held;
    }
    st = pw_cuda_launch_sweeps(&watched, desc, &set, proc.data(), sweeps, &res->info, clear_edge, &clear);
    unsigned far_read = 0;
    if (watch_far) PW_THEN(st, far.download((unsigned char *)&far_read, sizeof far_read));
    const pw_status traced = pw_trace_buffer_release(&held, far_read ? NULL : plan->trace, plan->trace_user);
    if (st == PW_OK && !far_read) st = traced;
    if (watch_far && st == PW_OK && !far_read) pw_monitor_finish(&plan->monitor, res->info.cells, NULL);
    if (far_read) {
        pw_kernel_desc one = *desc;
        one.pipelined_sweeps = 0;
        res->info.seconds = 0; /* (the figures of the run that gives the result) */
        res->info.cells = 0;
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(grid.ptr, a->grid, n, cudaMemcpyHostToDevice, s)));
        PW_THEN(st, pw_cuda_launch_sweeps(plan, &one, &set, proc.data(), sweeps, &res->info, clear_edge, &clear));
        snprintf(res->note, sizeof res->note, "the cell read a point more than PW_HALO(%d) downwind: its sweeps ran one a launch",
                 d->halo);
    }
    PW_THEN(st, grid.download((unsigned char *)a->grid, n));
    return st;
}

/* Warp3Proc's launch (proc_shapes.h): a ticket a tile of the (cols, planes) face (a band's
 * columns: `cols`), NW warps and the slices' shared memory a block; sweeps pipelined where
 * `pipelined` (the selector's rule, and not a band) and a halo fits one tile (what the
 * processor's waits between sweeps assume: warp3_proc.cuh), else one sweep a launch. */
static void tiles3_desc(const pw_cell_decl *d, const pw_cell_args *a, int64_t cols, tile3 shape, int pipelined,
                        pw_kernel_desc *desc)
{
    const int64_t tiles_k = pw_warp3_tiles_k(a->planes, shape.kw, shape.nw);
    const int64_t tiles = pw_warp3_tiles_j(cols, shape.chains) * tiles_k;
    pw_tiling *t = &desc->tiling;
    memset(t, 0, sizeof *t);
    t->rows = t->n_rows = tiles;
    t->cols = t->h = t->w = 1;
    t->shape = PW_TILING_SQUARE;
    desc->pipelined_sweeps = pipelined && d->halo < 32 * shape.chains && d->halo < shape.nw * shape.kw;
    desc->needs.threads = 32 * shape.nw;
    desc->needs.smem = pw_warp3_smem_bytes(shape.kw, shape.nw, shape.ahead, shape.chains, (int)d->value_size);
    desc->needs.warps_per_scheduler = 0;
    desc->cells_per_sweep = a->rows * cols * a->planes;
    desc->face_tiles_k = tiles_k;
}

/* The processor for this cell and plan (the kernel selector's descriptor and its C++ form). */
struct gpu_choice {
    pw_kernel_desc desc;
    proc_choice proc;
    tile3 shape3;
};
static pw_status select_processor(const pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, gpu_choice *c)
{
    const pw_cell_decl *d = &cell->decl;
    const unsigned forms = d->form == PW_CELL_LINEAR                                  ? PW_FORM(PW_PROC_WARP) | PW_FORM(PW_PROC_LINEAR)
                           : d->form == PW_CELL_GRID || d->form == PW_CELL_GRID3 ? PW_FORM(PW_PROC_FULL)
                                                     : PW_FORM(PW_PROC_STENCIL_WARP) | PW_FORM(PW_PROC_STENCIL_WINDOW) | PW_FORM(PW_PROC_FULL);
    const pw_cell_shape shape = {forms, (int)d->value_size, 1, 0, 0};
    pw_status st = pw_select_kernel(plan, &shape, NULL, &c->desc);
    if (st != PW_OK) return st;
    const int may_pipeline = c->desc.pipelined_sweeps; /* (the strategy's, and PEERWAVE_PIPELINE_SWEEPS) */
    const pw_band *band = (const pw_band *)plan->band;
    if (d->form != PW_CELL_LINEAR) c->desc.pipelined_sweeps = c->desc.pipelined_sweeps && job->pipelined;
    /* a grid cell on FullProc, one GPU: sweeps pipelined by what they read of the one before, any
     * dependences and skew; where the reads reach past the next tile-row, on FullProc<App, true>,
     * whose waits look at every row they reach (launch.cu).  A grid3 cell on the flattened space
     * too: its reads are its flattened dependences and its reach's far corner (cell.c), a read
     * past that is flagged (UserGrid3App<C, true>) and the sweeps then run again (run_grid). */
    /* (not for one sweep: a watched pw_at3 copies the context into a window a cell) */
    const bool flat3 = d->form == PW_CELL_GRID3 && !job->tiles3 && !job->plane && job->sweeps > 1;
    if ((d->form == PW_CELL_GRID || flat3) && !band && c->desc.processor == PW_PROC_FULL && may_pipeline && job->pipelined_reads &&
        pw_tiling_set_sweep_reads(&c->desc.tiling, job->sweep_reads, job->n_sweep_reads) == PW_OK) {
        c->desc.pipelined_sweeps = 1;
        c->desc.deep_sweep_reads = pw_tiling_sweep_rows_below(&c->desc.tiling) > 1;
    }
    c->shape3 = tile3_shape();
    if (job->tiles3) tiles3_desc(d, job->args, band ? band->cols : job->args->cols, c->shape3, may_pipeline && !band, &c->desc);
    c->proc = choose(d, &c->desc, job->tiles3 ? TILES3 : job->plane ? PLANE3 : FLAT3, c->shape3, job->args->cols);
    return PW_OK;
}

/* The module for this cell and plan, compiled or loaded (res->compile_seconds: how long). */
static pw_status module_for_plan(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, gpu_choice *c, gpu_module **m,
                                 pw_cell_result *res)
{
    pw_status st = pw_cuda_probe(plan->device);
    PW_THEN(st, select_processor(cell, plan, job, c));
    if (st != PW_OK) return st;
    const double t0 = pw_seconds_now();
    st = module_for(cell, c->proc, plan->device, m, res);
    res->compile_seconds = pw_seconds_now() - t0;
    return st;
}

extern "C" pw_status pw_cell_gpu_prepare(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, void **module,
                                         pw_cell_result *res)
{
    try {
        gpu_choice c;
        gpu_module *m = NULL;
        const pw_status st = module_for_plan(cell, plan, job, &c, &m, res);
        *module = m;
        return st;
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

extern "C" pw_status pw_cell_run_gpu(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, pw_cell_result *res)
{
    try {
        const pw_cell_decl *d = &cell->decl;
        const pw_cell_args *a = job->args;
        cudaStream_t s = pw_plan_stream(plan);
        const bool grid = d->form != PW_CELL_LINEAR;
        gpu_choice c;
        gpu_module *m = (gpu_module *)job->gpu_module;
        /* (a band's module was loaded before the run: pw_cell_gpu_prepare; the probe sets this
         * thread's device either way) */
        pw_status st = m ? pw_cuda_probe(plan->device) : PW_OK;
        PW_THEN(st, m ? select_processor(cell, plan, job, &c) : module_for_plan(cell, plan, job, &c, &m, res));
        if (st != PW_OK) return st;
        const pw_kernel_desc &desc = c.desc;
        const tile3 shape3 = c.shape3;

        /* inputs on the device (whole: a band's cell reads them at the whole space's (i, j)), and
         * the pw_ctx image pointing at them */
        std::vector<bytes *> inputs;
        std::vector<const void *> dev_inputs;
        struct cleanup {
            std::vector<bytes *> &v;
            ~cleanup() { for (bytes *b : v) delete b; }
        } free_inputs{inputs};
        for (int k = 0; k < d->n_inputs && st == PW_OK; k++) {
            inputs.push_back(new bytes(s));
            const size_t n = (size_t)pw_cell_decl_input_count(d, k, a->rows, a->cols, job->planes) * pw_cell_type_size(d->inputs[k].f.type);
            st = inputs.back()->upload((const unsigned char *)a->inputs[k], n);
            dev_inputs.push_back(inputs.back()->ptr);
        }
        if (st != PW_OK) return st;
        pw_user_args u;
        memset(&u, 0, sizeof u);
        if (d->ctx_size > sizeof u.ctx) return PW_ERR_UNSUPPORTED;
        /* a band's cell sees the whole space's rows and cols (as on the CPU: cell_cpu.c); a
         * stencil or grid cell's band holds its columns and pw_cell_band_side more each side */
        const pw_band *band = (const pw_band *)plan->band;
        const int64_t depth = pw_cell_column_values(d, job);
        const int64_t stride = band && grid ? (band->cols + 2 * pw_cell_band_side(&cell->decl, job)) * depth : job->stride;
        st = pw_cell_decl_ctx(d, a->rows, a->cols, job->planes, NULL, stride, dev_inputs.data(), a->params, (unsigned char *)u.ctx);
        if (st != PW_OK) return st;
        res->info.backend = PW_BACKEND_CUDA;
        st = grid ? run_grid(cell, plan, &desc, m, &u, job, stride, res) : run_linear(cell, plan, &desc, m, &u, job, res);
        if (job->tiles3) { /* the tile, as a 2-D tiling cannot say it */
            res->info.tile_h = 32 * shape3.chains;
            res->info.tile_w = shape3.nw * shape3.kw;
        }
        return st;
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}
