/* gpu_passes.c - the alignment passes as runs of the runtime's cells (gpu_passes.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_passes.h"
#include "align_internal.h"
#include "peerwave_runtime.h"
#include "device_sources.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"

#define TABLE 1024 /* the cell's w: PW_SCORING_MAX_ALPHABET squared */

/* One runner: a pw_cell (run from one thread at a time) with a stream of its own. */
typedef struct gpu_slot {
    pw_cell *cell;
    void *stream;
    int busy;
} gpu_slot;

#define SLOTS 8 /* passes in flight at once: the small ones of the deep levels fill the GPU together */

struct pw_align_gpu {
    gpu_slot slot[SLOTS];
    int slots;
    pw_options options;
    int32_t table[TABLE];
    int32_t alphabet, g, h;
    int squared, f32;
    int64_t min_cells;
    pthread_mutex_t lock; /* the slots and the summed info */
    pthread_cond_t freed;
    size_t value_size, off_cc, off_dd; /* the value's first two fields (mm_pass.c: cc, dd;
                                           sw_strip.c: h, f), as the runtime lays it out */
    pw_run_info info;
    int runs;
};

/* A cell file embedded with the device headers (CMakeLists.txt). */
static const char *cell_text(const char *path)
{
    for (int k = 0; k < pw_device_source_count; k++)
        if (strcmp(pw_device_sources[k].name, path) == 0) return pw_device_sources[k].text;
    return NULL;
}

#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

pw_status pw_align_gpu_wanted(const pw_options *o, int *use)
{
    *use = 0;
    if (o && (o->backend == PW_BACKEND_CPU || (o->backend == PW_BACKEND_AUTO && o->strategy == PW_STRATEGY_SEQUENTIAL)))
        return PW_OK;
    int cuda = o && o->backend == PW_BACKEND_CUDA;
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    pw_status st = pw_cuda_probe(o ? o->device : 0);
    *use = st == PW_OK;
    return cuda ? st : PW_OK;
#else
    if (!cuda) return PW_OK;
    pw_backend backend;
    pw_status st = pw_backend_resolve(o, &backend); /* no CUDA at all: its reason */
    if (st != PW_OK) return st;
    pw_set_error_detail("the CUDA backend was asked for, and this build has no run-time compiler (NVRTC): an "
                        "alignment's passes on the GPU need it");
    return PW_ERR_UNSUPPORTED; /* no GPU passes in this build */
#endif
}

#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
static void close_slots(pw_align_gpu *gpu)
{
    for (int k = 0; k < gpu->slots; k++) {
        pw_cell_free(gpu->slot[k].cell);
        pw_cuda_stream_destroy(gpu->slot[k].stream);
    }
}

pw_status pw_align_gpu_open(pw_align_pass_kind kind, const pw_align_scoring *s, int squared, int f32,
                            const pw_options *options, pw_align_gpu **out)
{
    *out = NULL;
    const char *path = kind == PW_ALIGN_PASS_MM    ? "src/align/cells/mm_pass.c"
                       : kind == PW_ALIGN_PASS_DTW ? "src/align/cells/dtw_pass.c"
                                                   : "src/align/cells/sw_strip.c";
    const char *text = cell_text(path);
    if (!text) return PW_ERR_INTERNAL;
    pw_align_gpu *gpu = calloc(1, sizeof *gpu);
    if (!gpu) return PW_ERR_OUT_OF_MEMORY;
    if (options) gpu->options = *options;
    else pw_options_init(&gpu->options);
    gpu->options.backend = PW_BACKEND_CUDA;
    gpu->options.strategy = PW_STRATEGY_PEER;
    gpu->options.tile_w = 0;
    gpu->options.tile_h = 0;
    if (kind == PW_ALIGN_PASS_SW_STRIP) gpu->options.tile_h = (int)pw_align_strip_tile_h();
    gpu->options.progress = NULL;
    gpu->options.trace = NULL;
    /* Each slot compiles (first run) or loads (from the disk cache) the same cell. */
    pw_status st = PW_OK;
    for (; gpu->slots < SLOTS && st == PW_OK; gpu->slots++) {
        gpu_slot *sl = &gpu->slot[gpu->slots];
        st = pw_cell_create(text, path, &sl->cell);
        if (st == PW_OK) st = pw_cuda_stream_create(gpu->options.device, &sl->stream);
    }
    if (st != PW_OK) {
        close_slots(gpu);
        free(gpu);
        return st;
    }
    if (s) {
        gpu->alphabet = s->alphabet;
        gpu->g = s->gap_open - s->gap_extend;
        gpu->h = s->gap_extend;
        for (int x = 0; x < s->alphabet * s->alphabet; x++) gpu->table[x] = -s->scores[x];
    }
    gpu->squared = squared;
    gpu->f32 = f32;
    int nf = 0;
    const pw_cell_field *fields = pw_cell_fields(gpu->slot[0].cell, &nf);
    gpu->value_size = pw_cell_value_size(gpu->slot[0].cell);
    for (int k = 0; k < nf; k++) {
        if (strcmp(fields[k].name, "cc") == 0 || strcmp(fields[k].name, "h") == 0) gpu->off_cc = fields[k].offset;
        if (strcmp(fields[k].name, "dd") == 0 || strcmp(fields[k].name, "f") == 0) gpu->off_dd = fields[k].offset;
    }
    gpu->min_cells = pw_align_env_int("PEERWAVE_ALIGN_GPU_CELLS", PW_ALIGN_GPU_CELLS);
    pthread_mutex_init(&gpu->lock, NULL);
    pthread_cond_init(&gpu->freed, NULL);
    *out = gpu;
    return PW_OK;
}

/* Run on a free slot (waiting for one), its own stream: passes from several threads overlap. */
static pw_status run_on_slot(pw_align_gpu *gpu, const pw_cell_args *args, pw_cell_result *res)
{
    pthread_mutex_lock(&gpu->lock);
    int k;
    for (;;) {
        for (k = 0; k < gpu->slots && gpu->slot[k].busy; k++) {
        }
        if (k < gpu->slots) break;
        pthread_cond_wait(&gpu->freed, &gpu->lock);
    }
    gpu->slot[k].busy = 1;
    pthread_mutex_unlock(&gpu->lock);
    pw_options o = gpu->options; /* tile_w 0: the runtime's width for linear cells (src/jit/cell.c) */
    o.cuda_stream = gpu->slot[k].stream;
    pw_status st = pw_cell_run(gpu->slot[k].cell, args, &o, res);
    pthread_mutex_lock(&gpu->lock);
    gpu->slot[k].busy = 0;
    if (st == PW_OK) {
        if (gpu->runs++ == 0) gpu->info = res->info;
        else {
            gpu->info.cells += res->info.cells;
            gpu->info.seconds += res->info.seconds;
        }
    }
    pthread_cond_signal(&gpu->freed);
    pthread_mutex_unlock(&gpu->lock);
    return st;
}

/* field (at offset off) of values[k], k < count, into out */
static void unpack(const unsigned char *values, size_t size, size_t off, int64_t count, int32_t *out)
{
    for (int64_t k = 0; k < count; k++) memcpy(&out[k], values + (size_t)k * size + off, sizeof *out);
}

pw_status pw_align_gpu_mm_pass(void *p, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                               int32_t tb, int32_t *cc, int32_t *dd)
{
    pw_align_gpu *gpu = p;
    unsigned char *row = pw_malloc(gpu->value_size * (size_t)cols);
    if (!row) return PW_ERR_OUT_OF_MEMORY;
    const void *inputs[] = {a, b, gpu->table};
    double params[] = {gpu->alphabet, gpu->g, gpu->h, tb};
    pw_cell_args args = {.rows = rows, .cols = cols, .inputs = inputs, .params = params, .last_row = row};
    pw_cell_result res;
    pw_status st = run_on_slot(gpu, &args, &res);
    if (st == PW_OK) {
        cc[0] = dd[0] = tb + gpu->h * (int32_t)rows; /* node (rows, 0): a run down column 0 */
        unpack(row, gpu->value_size, gpu->off_cc, cols, cc + 1);
        unpack(row, gpu->value_size, gpu->off_dd, cols, dd + 1);
    }
    free(row);
    return st;
}

pw_status pw_align_gpu_dtw_pass(pw_align_gpu *gpu, const double *a, int64_t rows, const double *b, int64_t cols,
                                int free_last, double *last)
{
    const void *inputs[] = {a, b};
    double params[] = {gpu->squared, gpu->f32, free_last};
    pw_cell_args args = {.rows = rows, .cols = cols, .inputs = inputs, .params = params, .last_row = last};
    pw_cell_result res;
    return run_on_slot(gpu, &args, &res);
}

pw_status pw_align_gpu_sw_strip_pass(pw_align_gpu *gpu, const uint8_t *a, int64_t rows, const uint8_t *b,
                                     int64_t cols, int32_t tb, pw_strip_out *out)
{
    unsigned char *row = pw_malloc(gpu->value_size * (size_t)(cols + rows));
    if (!row) return PW_ERR_OUT_OF_MEMORY;
    unsigned char *col = row + gpu->value_size * (size_t)cols;
    int32_t scores[TABLE];
    for (int x = 0; x < gpu->alphabet * gpu->alphabet; x++) scores[x] = -gpu->table[x]; /* the table holds costs */
    const void *inputs[] = {a, b, scores};
    double params[] = {gpu->alphabet, gpu->g, gpu->h, tb};
    pw_cell_args args = {.rows = rows, .cols = cols, .inputs = inputs, .params = params, .last_row = row,
                         .last_col = col};
    pw_cell_result res;
    pw_status st = run_on_slot(gpu, &args, &res);
    if (st == PW_OK) {
        unpack(row, gpu->value_size, gpu->off_cc, cols, out->last_h);
        unpack(row, gpu->value_size, gpu->off_dd, cols, out->last_f);
        unpack(col, gpu->value_size, gpu->off_cc, rows, out->col_h);
        memcpy(&out->best, res.best + gpu->off_cc, sizeof out->best);
        out->best_i = res.best_i;
        out->best_j = res.best_j;
    }
    free(row);
    return st;
}

void pw_align_gpu_close(pw_align_gpu *gpu)
{
    if (!gpu) return;
    close_slots(gpu);
    pthread_mutex_destroy(&gpu->lock);
    pthread_cond_destroy(&gpu->freed);
    free(gpu);
}

void pw_align_gpu_info(const pw_align_gpu *gpu, pw_run_info *info)
{
    if (gpu && gpu->runs) *info = gpu->info;
}

int64_t pw_align_gpu_min_cells(const pw_align_gpu *gpu) { return gpu->min_cells; }

#else /* no GPU passes in this build */

pw_status pw_align_gpu_open(pw_align_pass_kind kind, const pw_align_scoring *s, int squared, int f32,
                            const pw_options *options, pw_align_gpu **out)
{
    (void)kind, (void)s, (void)squared, (void)f32, (void)options;
    (void)cell_text;
    *out = NULL;
    return PW_OK;
}

pw_status pw_align_gpu_mm_pass(void *p, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                               int32_t tb, int32_t *cc, int32_t *dd)
{
    (void)p, (void)a, (void)rows, (void)b, (void)cols, (void)tb, (void)cc, (void)dd;
    return PW_ERR_UNSUPPORTED;
}

pw_status pw_align_gpu_dtw_pass(pw_align_gpu *gpu, const double *a, int64_t rows, const double *b, int64_t cols,
                                int free_last, double *last)
{
    (void)gpu, (void)a, (void)rows, (void)b, (void)cols, (void)free_last, (void)last;
    return PW_ERR_UNSUPPORTED;
}

pw_status pw_align_gpu_sw_strip_pass(pw_align_gpu *gpu, const uint8_t *a, int64_t rows, const uint8_t *b,
                                     int64_t cols, int32_t tb, pw_strip_out *out)
{
    (void)gpu, (void)a, (void)rows, (void)b, (void)cols, (void)tb, (void)out;
    return PW_ERR_UNSUPPORTED;
}

void pw_align_gpu_close(pw_align_gpu *gpu) { (void)gpu; }
void pw_align_gpu_info(const pw_align_gpu *gpu, pw_run_info *info) { (void)gpu, (void)info; }
int64_t pw_align_gpu_min_cells(const pw_align_gpu *gpu) { (void)gpu; return INT64_MAX; }
#endif
