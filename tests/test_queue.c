/*
 * test_queue.c - the job queue (src/batch/job_queue.c): random sets of jobs of every application
 * (awkward sizes, strided images, a job with bad data; user cells too) through the queue, each result equal to
 * the same job run directly on the CPU (pw_job_run).
 *
 * Without --gpu the queue drives a simulated device in host memory (its "kernel" is the CPU
 * engine on the copies), which checks the pipeline's rules on every order and engine count: one
 * kernel at a time, one copy a direction at a time (one engine: one copy at all), stages of a
 * job in order, the memory budget never exceeded, jobs too large for it run on the CPU, a device
 * that fails mid-run hands the rest to the CPU, issue order FIFO where asked, SERIAL overlapping
 * nothing.  --gpu: the same sets through the CUDA device (exit 77 without one).
 */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "peerwave_batch.h"
#include "../src/batch/queue_device.h"

/* ---- job sets: each job twice, on its own buffers: [0] through the queue, [1] the reference ---- */

typedef struct job_data {
    pw_job job[2];
    pw_image in[2], out[2];
    pw_sw_result sw[2];
    pw_dtw_result dtw[2];
    double residual[2];
    pw_run_info info[2];
    void *mem[2][2];
    const void *cell_inputs[2][2]; /* a cell job's arrays and parameter */
    double cell_param[2];
    pw_cell_result cell[2];
} job_data;

/* The cell of the cell jobs (edit distance with a substitution cost), compiled on first use and
 * shared by every job: a pw_cell runs one job at a time (it locks itself). */
static pw_cell *edit_cell(void)
{
    static pw_cell *cell;
    static const char text[] = "PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUT(uint8_t, a, i)\nPW_INPUT(uint8_t, b, j)\n"
                               "PW_PARAM(int32_t, sub)\n"
                               "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)\n"
                               "{ return (pw_value)(i < 0 ? j + 1 : i + 1); }\n"
                               "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, "
                               "pw_value diag)\n"
                               "{ pw_value d = diag + (c->a[i] == c->b[j] ? 0 : c->sub); pw_value g = (up < left ? up : "
                               "left) + 1; return d < g ? d : g; }\n";
    if (!cell && pw_cell_create(text, "edit_distance", &cell) != PW_OK) {
        fprintf(stderr, "FAIL the test's cell: %s\n", pw_error_detail());
        exit(1);
    }
    return cell;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int64_t pick(uint64_t *s, int64_t lo, int64_t hi) { return lo + (int64_t)(next(s) % (uint64_t)(hi - lo + 1)); }

/* A random image (stride sometimes wider than cols) of type t, values from seed. */
static pw_image make_image(uint64_t *s, pw_dtype t, int64_t rows, int64_t cols, int strided, void **mem)
{
    const int64_t stride = strided ? cols + pick(s, 1, 5) : cols;
    const size_t e = pw_dtype_size(t);
    unsigned char *p = calloc((size_t)(rows * stride), e);
    *mem = p;
    for (int64_t k = 0; k < rows * stride; k++) {
        switch (t) {
        case PW_U8: p[k] = (unsigned char)next(s); break;
        case PW_U16: ((uint16_t *)p)[k] = (uint16_t)next(s); break;
        case PW_I32: ((int32_t *)p)[k] = (int32_t)(next(s) % 2001) - 1000; break;
        case PW_F32: ((float *)p)[k] = (float)(next(s) % 1000) / 7.0f; break;
        default: ((double *)p)[k] = (double)(next(s) % 1000) / 7.0; break;
        }
    }
    return (pw_image){t, rows, cols, strided ? stride : 0, p};
}

/* Job `index` of a set, for copy c; identical content for both copies (the same seed). */
static void make_job(job_data *d, int c, uint64_t seed, int big, int bad)
{
    uint64_t s = seed;
    const int kind = bad ? PW_JOB_SW : (int)(next(&s) % PW_JOB_KIND_COUNT); /* bad: a letter SW refuses */
    const int64_t scale = big ? 8 : 1;
    pw_job *j = &d->job[c];
    pw_job_init(j, (pw_job_kind)kind);
    j->options.backend = PW_BACKEND_CPU;
    j->info = &d->info[c];
    if (kind == PW_JOB_SW) {
        const int64_t n = pick(&s, 1, 300 * scale), m = pick(&s, 1, 300 * scale);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = "ACGT"[next(&s) % 4];
        for (int64_t k = 0; k < m; k++) b[k] = "ACGT"[next(&s) % 4];
        if (bad) a[n / 2] = '#';
        d->mem[c][0] = a, d->mem[c][1] = b;
        j->u.sw.a = a, j->u.sw.n = n, j->u.sw.b = b, j->u.sw.m = m;
        j->u.sw.params.gap_open = (int)pick(&s, 1, 5);
        j->u.sw.params.gap_extend = (int)pick(&s, 1, j->u.sw.params.gap_open);
        j->u.sw.result = &d->sw[c];
    } else if (kind == PW_JOB_DTW) {
        const int64_t n = pick(&s, 1, 300 * scale), m = pick(&s, 1, 300 * scale);
        const pw_dtype t = next(&s) % 2 ? PW_F32 : PW_F64;
        pw_image a = make_image(&s, t, 1, n, 0, &d->mem[c][0]), b = make_image(&s, t, 1, m, 0, &d->mem[c][1]);
        j->u.dtw.type = t, j->u.dtw.a = a.data, j->u.dtw.n = n, j->u.dtw.b = b.data, j->u.dtw.m = m;
        j->u.dtw.cost = next(&s) % 2 ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        j->u.dtw.result = &d->dtw[c];
    } else if (kind == PW_JOB_SAT) {
        static const pw_dtype in_types[3] = {PW_U8, PW_U16, PW_I32};
        const pw_dtype t = in_types[next(&s) % 3];
        const int64_t rows = pick(&s, 1, 200 * scale), cols = pick(&s, 1, 200 * scale);
        d->in[c] = make_image(&s, t, rows, cols, (int)(next(&s) % 2), &d->mem[c][0]);
        const pw_dtype ot = next(&s) % 2 ? PW_I64 : PW_I32;
        d->out[c] = make_image(&s, ot, rows, cols, (int)(next(&s) % 2), &d->mem[c][1]);
        j->u.sat.in = &d->in[c], j->u.sat.out = &d->out[c];
    } else if (kind == PW_JOB_INTHIST) {
        const int64_t rows = pick(&s, 1, 100 * scale), cols = pick(&s, 1, 100 * scale);
        d->in[c] = make_image(&s, PW_U8, rows, cols, (int)(next(&s) % 2), &d->mem[c][0]);
        const int bins = (int)pick(&s, 1, 16);
        j->u.inthist.in = &d->in[c], j->u.inthist.bins = bins, j->u.inthist.lo = 0, j->u.inthist.hi = 256;
        j->u.inthist.out = calloc((size_t)(rows * cols * bins), sizeof(int32_t));
        d->mem[c][1] = j->u.inthist.out;
    } else if (kind == PW_JOB_CELL) {
        const int64_t n = pick(&s, 1, 300 * scale), m = pick(&s, 1, 300 * scale);
        unsigned char *a = malloc((size_t)n), *b = malloc((size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = (unsigned char)"ACGT"[next(&s) % 4];
        for (int64_t k = 0; k < m; k++) b[k] = (unsigned char)"ACGT"[next(&s) % 4];
        d->mem[c][0] = a, d->mem[c][1] = b;
        d->cell_inputs[c][0] = a, d->cell_inputs[c][1] = b;
        d->cell_param[c] = (double)pick(&s, 1, 3);
        j->u.cell.cell = edit_cell();
        j->u.cell.args = (pw_cell_args){.rows = n, .cols = m, .inputs = d->cell_inputs[c], .params = &d->cell_param[c]};
        j->u.cell.result = &d->cell[c];
    } else { /* heat, sor */
        const int64_t rows = pick(&s, 3, 64 * scale), cols = pick(&s, 3, 64 * scale);
        const pw_dtype t = next(&s) % 2 ? PW_F32 : PW_F64;
        d->in[c] = make_image(&s, t, rows, cols, (int)(next(&s) % 2), &d->mem[c][0]);
        j->u.stencil.grid = &d->in[c], j->u.stencil.sweeps = pick(&s, 1, 4);
        j->u.stencil.omega = 1.25, j->u.stencil.residual = &d->residual[c];
    }
}

static void free_job(job_data *d)
{
    for (int c = 0; c < 2; c++) free(d->mem[c][0]), free(d->mem[c][1]);
}

static int image_equal(const pw_image *a, const pw_image *b)
{
    const size_t e = pw_dtype_size(a->type);
    const int64_t sa = a->stride ? a->stride : a->cols, sb = b->stride ? b->stride : b->cols;
    for (int64_t r = 0; r < a->rows; r++)
        if (memcmp((char *)a->data + r * sa * e, (char *)b->data + r * sb * e, (size_t)a->cols * e)) return 0;
    return 1;
}

/* The edit distance of a cell job's arrays, by the textbook recurrence (the cell's meaning). */
static int32_t edit_distance(const pw_cell_args *args)
{
    const unsigned char *a = args->inputs[0], *b = args->inputs[1];
    const int64_t n = args->rows, m = args->cols;
    const int32_t sub = (int32_t)args->params[0];
    int32_t *row = malloc(sizeof *row * (size_t)(m + 1));
    for (int64_t j = 0; j <= m; j++) row[j] = (int32_t)j;
    for (int64_t i = 1; i <= n; i++) {
        int32_t diag = row[0];
        row[0] = (int32_t)i;
        for (int64_t j = 1; j <= m; j++) {
            const int32_t up = row[j], d = diag + (a[i - 1] == b[j - 1] ? 0 : sub), g = (up < row[j - 1] ? up : row[j - 1]) + 1;
            diag = up;
            row[j] = d < g ? d : g;
        }
    }
    const int32_t v = row[m];
    free(row);
    return v;
}

/* The queue's result equals the reference's, bit for bit. */
static int same_result(const job_data *d)
{
    const pw_job *q = &d->job[0], *r = &d->job[1];
    switch (q->kind) {
    case PW_JOB_SW:
        return d->sw[0].score == d->sw[1].score && d->sw[0].end_a == d->sw[1].end_a && d->sw[0].end_b == d->sw[1].end_b;
    case PW_JOB_DTW: return d->dtw[0].distance == d->dtw[1].distance;
    case PW_JOB_SAT: return image_equal(q->u.sat.out, r->u.sat.out);
    case PW_JOB_INTHIST: {
        const size_t bytes = (size_t)(q->u.inthist.in->rows * q->u.inthist.in->cols * q->u.inthist.bins) * 4;
        return !memcmp(q->u.inthist.out, r->u.inthist.out, bytes);
    }
    case PW_JOB_CELL: {
        int32_t got;
        memcpy(&got, d->cell[0].last, sizeof got);
        return !memcmp(d->cell[0].last, d->cell[1].last, sizeof got) && got == edit_distance(&q->u.cell.args);
    }
    default: /* the residual too, bit for bit: the queue sums it on the host, as pw_heat does */
        return image_equal(q->u.stencil.grid, r->u.stencil.grid) && d->residual[0] == d->residual[1];
    }
}

/* ---- the simulated device ---------------------------------------------------------------------- */

typedef struct sim {
    pthread_mutex_t lock;
    int64_t resident, max_resident;
    int ins, outs, kernels, max_ins, max_outs, max_kernels, max_copies;
    int runs, fail_run; /* fail_run > 0: that kernel (1-based) and every later stage fail (CUDA) */
    int kernel_us;      /* each kernel also sleeps this long (0: no more than its work) */
    int broken;
} sim;

static void sim_enter(sim *s, int *count, int *max)
{
    pthread_mutex_lock(&s->lock);
    (*count)++;
    if (*count > *max) *max = *count;
    if (s->ins + s->outs > s->max_copies) s->max_copies = s->ins + s->outs;
    pthread_mutex_unlock(&s->lock);
}

static void sim_leave(sim *s, int *count)
{
    pthread_mutex_lock(&s->lock);
    (*count)--;
    pthread_mutex_unlock(&s->lock);
}

typedef struct sim_block {
    int64_t bytes;
    unsigned char data[];
} sim_block;

static pw_status sim_alloc(void *ctx, int64_t bytes, void **dev)
{
    sim *s = ctx;
    sim_block *b = malloc(sizeof *b + (size_t)bytes);
    if (!b) return PW_ERR_OUT_OF_MEMORY;
    b->bytes = bytes;
    pthread_mutex_lock(&s->lock);
    s->resident += bytes;
    if (s->resident > s->max_resident) s->max_resident = s->resident;
    pthread_mutex_unlock(&s->lock);
    *dev = b->data;
    return PW_OK;
}

static void sim_release(void *ctx, void *dev)
{
    sim *s = ctx;
    sim_block *b = (sim_block *)((unsigned char *)dev - offsetof(sim_block, data));
    pthread_mutex_lock(&s->lock);
    s->resident -= b->bytes;
    pthread_mutex_unlock(&s->lock);
    free(b);
}

/* Copies in odd-sized chunks, so the row-piece walk meets every offset. */
enum { SIM_CHUNK = 777 };

static pw_status sim_copy_in(void *ctx, const job_buffer *b, void *dev)
{
    sim *s = ctx;
    if (s->broken) return PW_ERR_CUDA;
    sim_enter(s, &s->ins, &s->max_ins);
    const int64_t total = b->rows * b->row_bytes;
    for (int64_t at = 0; at < total; at += SIM_CHUNK)
        pw_job_gather(b, at, total - at < SIM_CHUNK ? total - at : SIM_CHUNK, (unsigned char *)dev + at);
    usleep(50); /* room for the other stages to run meanwhile */
    sim_leave(s, &s->ins);
    return PW_OK;
}

static pw_status sim_copy_out(void *ctx, const void *dev, const job_buffer *b, int *touched)
{
    sim *s = ctx;
    if (s->broken) return PW_ERR_CUDA;
    sim_enter(s, &s->outs, &s->max_outs);
    const int64_t total = b->rows * b->row_bytes;
    for (int64_t at = 0; at < total; at += SIM_CHUNK)
        pw_job_scatter(b, at, total - at < SIM_CHUNK ? total - at : SIM_CHUNK, (const unsigned char *)dev + at), *touched = 1;
    usleep(50);
    sim_leave(s, &s->outs);
    return PW_OK;
}

static pw_status sim_run(void *ctx, const pw_job *job)
{
    sim *s = ctx;
    pthread_mutex_lock(&s->lock);
    const int call = ++s->runs;
    if (s->fail_run > 0 && call >= s->fail_run) s->broken = 1;
    pthread_mutex_unlock(&s->lock);
    if (s->broken) return PW_ERR_CUDA;
    sim_enter(s, &s->kernels, &s->max_kernels);
    if (s->kernel_us) usleep((useconds_t)s->kernel_us);
    pw_job j = *job; /* the "device" is host memory: the CPU engine on the copies */
    j.options.backend = PW_BACKEND_CPU;
    pw_status st = pw_job_call(&j, 0);
    sim_leave(s, &s->kernels);
    return st;
}

static void sim_destroy(void *ctx) { (void)ctx; }

static queue_device sim_device(sim *s, int engines, int64_t budget)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    return (queue_device){s, engines, budget, sim_alloc, sim_release, sim_copy_in, sim_copy_out, sim_run, sim_destroy};
}

/* ---- one set through one queue ------------------------------------------------------------------- */

typedef struct set_run {
    int n_jobs;
    uint64_t seed;
    int bad_job;       /* this job has bad data (-1: none) */
    int big;           /* larger sizes (the GPU run: several staging chunks) */
    pw_queue_order order;
    int window;
    int engines;       /* simulated device: copy engines (0: the CPU queue, no device) */
    int64_t budget;    /* simulated device: memory budget (0: unlimited) */
    int fail_run;      /* simulated device: the kernel that breaks it (0: none) */
    int gpu;           /* the real CUDA queue */
    int wait_each;     /* pw_queue_wait after every few submits (jobs released before the window fills) */
    int gpus;          /* the real CUDA queue over GPUs 0 .. gpus - 1 with AUTO (those not there left out) */
} set_run;

static const char *order_name(pw_queue_order o)
{
    return o == PW_QUEUE_REORDER ? "reorder" : o == PW_QUEUE_FIFO ? "fifo" : "serial";
}

static void run_set(const set_run *r)
{
    char what[160];
    snprintf(what, sizeof what, "set seed %llu, %d jobs, %s w%d, %s%d engines, budget %lld, fail %d",
             (unsigned long long)r->seed, r->n_jobs, order_name(r->order), r->window, r->gpu ? "gpu " : "",
             r->engines, (long long)r->budget, r->fail_run);
    job_data *d = calloc((size_t)r->n_jobs, sizeof *d);
    int64_t largest = 0;
    for (int k = 0; k < r->n_jobs; k++) {
        for (int c = 0; c < 2; c++) make_job(&d[k], c, r->seed * 1000 + (uint64_t)k, r->big, k == r->bad_job);
        job_layout l;
        if (pw_job_describe(&d[k].job[0], &l) == PW_OK && l.bytes_device > largest) largest = l.bytes_device;
        if (!r->gpu && r->engines == 0) d[k].job[0].options.backend = PW_BACKEND_CPU;
        else d[k].job[0].options.backend = PW_BACKEND_AUTO;
    }
    /* the references, each job run directly */
    pw_status *ref = calloc((size_t)r->n_jobs, sizeof *ref);
    for (int k = 0; k < r->n_jobs; k++) ref[k] = pw_job_run(&d[k].job[1]);
    pw_queue_options opt;
    pw_queue_options_init(&opt);
    opt.order = r->order;
    opt.window = r->window;
    opt.staging_bytes = 64 << 10;
    sim s;
    pw_queue *q = NULL;
    pw_status st;
    const int all_gpus[4] = {0, 1, 2, 3};
    if (r->gpu) {
        opt.backend = r->gpus ? PW_BACKEND_AUTO : PW_BACKEND_CUDA;
        opt.devices = r->gpus ? all_gpus : NULL, opt.n_devices = r->gpus;
        st = pw_queue_create(&opt, &q);
    } else if (r->engines == 0) {
        opt.backend = PW_BACKEND_CPU;
        st = pw_queue_create(&opt, &q);
    } else {
        queue_device dev = sim_device(&s, r->engines, r->budget ? r->budget : INT64_MAX / 4);
        s.fail_run = r->fail_run;
        st = pw_queue_create_on(&opt, &dev, &q);
    }
    CHECK(st == PW_OK, "%s: create: %s", what, pw_status_str(st));
    if (st != PW_OK) {
        for (int k = 0; k < r->n_jobs; k++) free_job(&d[k]);
        free(ref);
        free(d);
        return;
    }
    int64_t id = -1;
    for (int k = 0; k < r->n_jobs; k++) {
        st = pw_queue_submit(q, &d[k].job[0], &id);
        CHECK(st == PW_OK && id == k, "%s: submit %d: %s, id %lld", what, k, pw_status_str(st), (long long)id);
        if (r->wait_each && k % 3 == 2) CHECK(pw_queue_wait(q, k) == ref[k], "%s: wait %d", what, k);
    }
    st = pw_queue_drain(q);
    pw_status first_ref = PW_OK;
    for (int k = 0; k < r->n_jobs; k++) {
        pw_status got = pw_queue_wait(q, k);
        if (first_ref == PW_OK) first_ref = ref[k];
        CHECK(got == ref[k], "%s: job %d (%s): %s, the reference %s", what, k, pw_job_kind_name(d[k].job[0].kind),
              pw_status_str(got), pw_status_str(ref[k]));
        if (got == PW_OK && ref[k] == PW_OK)
            CHECK(same_result(&d[k]), "%s: job %d (%s): results differ", what, k,
                  pw_job_kind_name(d[k].job[0].kind));
    }
    CHECK(st == first_ref, "%s: drain %s, the first failure %s", what, pw_status_str(st), pw_status_str(first_ref));
    pw_queue_stats stats;
    CHECK(pw_queue_get_stats(q, &stats) == PW_OK, "%s: stats", what);
    CHECK(stats.submitted == r->n_jobs && stats.done == r->n_jobs && stats.remaining_seconds == 0,
          "%s: stats %lld submitted %lld done, %g s left", what, (long long)stats.submitted, (long long)stats.done,
          stats.remaining_seconds);
    int64_t ref_failed = 0;
    for (int k = 0; k < r->n_jobs; k++) ref_failed += ref[k] != PW_OK;
    CHECK(stats.failed == ref_failed, "%s: %lld failed, the references %lld", what, (long long)stats.failed,
          (long long)ref_failed);
    CHECK(stats.lower_bound <= stats.seconds * (1 + 1e-9) + 1e-9, "%s: bound %g above the makespan %g", what,
          stats.lower_bound, stats.seconds);
    /* the pipeline's rules, from the queue's records */
    /* (several GPUs: each one's queue has its own issue order and its own kernels) */
    queue_job_trace *t = calloc((size_t)r->n_jobs, sizeof *t);
    int *member = calloc((size_t)r->n_jobs, sizeof *member);
    int ordered = 1, fifo = 1, serial = 1, kernels_apart = 1;
    for (int k = 0; k < r->n_jobs; k++) {
        int64_t local;
        pw_queue_job_get_trace(q, k, &t[k]);
        pw_queue_job_place(q, k, &member[k], &local);
        if (t[k].kernel_start >= 0 && !(t[k].in_end <= t[k].kernel_start)) ordered = 0;
        if (t[k].out_start >= 0 && !(t[k].kernel_end <= t[k].out_start)) ordered = 0;
        if (t[k].issue_rank != k) fifo = 0;
    }
    for (int a = 0; a < r->n_jobs; a++)
        for (int b = 0; b < r->n_jobs; b++) {
            if (a == b || member[a] != member[b] || t[a].kernel_start < 0 || t[b].kernel_start < 0) continue;
            if (t[a].kernel_start < t[b].kernel_start && t[a].kernel_end > t[b].kernel_start) kernels_apart = 0;
            /* serial: all of a's stages before any of b's when a was issued first */
            const double a_end = t[a].out_end >= 0 ? t[a].out_end : t[a].kernel_end;
            if (t[a].issue_rank < t[b].issue_rank && a_end > t[b].in_start) serial = 0;
        }
    CHECK(ordered, "%s: a job's stages out of order", what);
    CHECK(kernels_apart, "%s: two kernels overlapped", what);
    if (r->order != PW_QUEUE_REORDER && (r->engines > 0 || r->gpu) && stats.devices == 1)
        CHECK(fifo, "%s: not issued in arrival order", what);
    if (r->order == PW_QUEUE_SERIAL && (r->engines > 0 || r->gpu) && stats.devices == 1)
        CHECK(serial, "%s: serial stages overlapped", what);
    if (r->gpus) printf("%s: %d device queue(s)\n", what, stats.devices);
    if (!r->gpu && r->engines > 0) {
        CHECK(s.max_kernels <= 1 && s.max_ins <= 1 && s.max_outs <= 1, "%s: stages at once: %d kernels %d ins %d outs",
              what, s.max_kernels, s.max_ins, s.max_outs);
        if (r->engines == 1) CHECK(s.max_copies <= 1, "%s: one engine ran %d copies at once", what, s.max_copies);
        if (r->budget) CHECK(s.max_resident <= r->budget, "%s: %lld resident, budget %lld", what,
                             (long long)s.max_resident, (long long)r->budget);
        CHECK(s.resident == 0, "%s: %lld bytes left on the device", what, (long long)s.resident);
        const int expect_cpu = r->fail_run > 0 || (r->budget && largest > r->budget);
        CHECK(expect_cpu ? stats.on_cpu > 0 : stats.on_cpu == 0, "%s: %lld jobs on the CPU", what,
              (long long)stats.on_cpu);
        CHECK(stats.device_failed == (r->fail_run > 0 && r->fail_run <= s.runs), "%s: device_failed %d", what,
              stats.device_failed);
    }
    free(t);
    free(member);
    free(ref);
    pw_queue_destroy(q);
    for (int k = 0; k < r->n_jobs; k++) free_job(&d[k]);
    free(d);
}

/* ---- several device queues (pw_queue over several GPUs; here simulated devices) ----------------- */

/* n simulated devices, one queue each under one pw_queue: every job right, each device given
 * some of them, the sums in the stats, each device's kernels one at a time; fail_device (or -1)
 * breaks at its 3rd kernel, its jobs then finish on the CPU. */
static void group_set(int n, int n_jobs, uint64_t seed, pw_queue_order order, int fail_device)
{
    char what[128];
    snprintf(what, sizeof what, "group of %d, %d jobs, seed %llu, %s, failing %d", n, n_jobs, (unsigned long long)seed,
             order_name(order), fail_device);
    job_data *d = calloc((size_t)n_jobs, sizeof *d);
    pw_status *ref = calloc((size_t)n_jobs, sizeof *ref);
    for (int k = 0; k < n_jobs; k++) {
        for (int c = 0; c < 2; c++) make_job(&d[k], c, seed * 1000 + (uint64_t)k, 0, 0);
        d[k].job[0].options.backend = PW_BACKEND_AUTO;
        ref[k] = pw_job_run(&d[k].job[1]);
    }
    pw_queue_options opt;
    pw_queue_options_init(&opt);
    opt.order = order;
    sim *s = calloc((size_t)n, sizeof *s);
    queue_device devs[4];
    for (int k = 0; k < n; k++) {
        devs[k] = sim_device(&s[k], 1 + k % 2, INT64_MAX / 4);
        if (k == fail_device) s[k].fail_run = 3;
    }
    pw_queue *q = NULL;
    pw_status st = pw_queue_create_group_on(&opt, devs, n, &q);
    CHECK(st == PW_OK, "%s: create: %s", what, pw_status_str(st));
    for (int k = 0; st == PW_OK && k < n_jobs; k++) {
        int64_t id = -1;
        CHECK(pw_queue_submit(q, &d[k].job[0], &id) == PW_OK && id == k, "%s: submit %d", what, k);
    }
    if (st == PW_OK) {
        CHECK(pw_queue_drain(q) == PW_OK, "%s: drain", what);
        int per_device[4] = {0}, kernels_apart = 1;
        queue_job_trace *t = calloc((size_t)n_jobs, sizeof *t);
        int *member = calloc((size_t)n_jobs, sizeof *member);
        for (int k = 0; k < n_jobs; k++) {
            int64_t local;
            CHECK(pw_queue_wait(q, k) == ref[k] && same_result(&d[k]), "%s: job %d (%s) differs", what, k,
                  pw_job_kind_name(d[k].job[0].kind));
            CHECK(pw_queue_job_place(q, k, &member[k], &local) == PW_OK && member[k] >= 0 && member[k] < n, "%s: place %d",
                  what, k);
            per_device[member[k]]++;
            pw_queue_job_get_trace(q, k, &t[k]);
        }
        for (int a = 0; a < n_jobs; a++)
            for (int b = 0; b < n_jobs; b++)
                if (a != b && member[a] == member[b] && t[a].kernel_start >= 0 && t[b].kernel_start >= 0 &&
                    t[a].kernel_start < t[b].kernel_start && t[a].kernel_end > t[b].kernel_start)
                    kernels_apart = 0;
        CHECK(kernels_apart, "%s: two kernels overlapped on one device", what);
        pw_queue_stats all, one;
        int64_t submitted = 0, on_cpu = 0;
        CHECK(pw_queue_get_stats(q, &all) == PW_OK && all.devices == n && all.submitted == n_jobs && all.done == n_jobs,
              "%s: stats: %d devices, %lld submitted, %lld done", what, all.devices, (long long)all.submitted,
              (long long)all.done);
        for (int k = 0; k < n; k++) {
            int device = 0;
            CHECK(pw_queue_get_device_stats(q, k, &one, &device) == PW_OK && one.submitted == per_device[k] && device == -1,
                  "%s: device %d: %lld submitted, %d placed", what, k, (long long)one.submitted, per_device[k]);
            CHECK(per_device[k] > 0, "%s: device %d got no job", what, k);
            CHECK(all.seconds >= one.seconds && all.remaining_seconds == 0, "%s: device %d's span above the group's", what, k);
            submitted += one.submitted, on_cpu += one.on_cpu;
            CHECK(s[k].max_kernels <= 1 && s[k].resident == 0, "%s: device %d: %d kernels at once, %lld bytes left", what,
                  k, s[k].max_kernels, (long long)s[k].resident);
        }
        CHECK(submitted == n_jobs && on_cpu == all.on_cpu && (fail_device < 0 ? all.on_cpu == 0 : all.device_failed),
              "%s: %lld submitted over the devices, %lld on the CPU, device_failed %d", what, (long long)submitted,
              (long long)on_cpu, all.device_failed);
        CHECK(pw_queue_get_device_stats(q, n, &one, NULL) == PW_ERR_INVALID_ARGUMENT, "%s: device %d", what, n);
        free(t);
        free(member);
        pw_queue_destroy(q);
    }
    for (int k = 0; k < n_jobs; k++) free_job(&d[k]);
    free(s);
    free(ref);
    free(d);
}

/* Jobs held in the device queues' windows (fewer than a window each) go on every device at once
 * when the queue is drained: each device's first kernel starts before the other's last one ends
 * (kernels of 50 ms, two a device: 100 ms apart would mean one device waited for the other). */
static void group_drain_overlaps(void)
{
    enum { JOBS = 4 };
    job_data d[JOBS];
    memset(d, 0, sizeof d);
    for (int k = 0; k < JOBS; k++) {
        for (int c = 0; c < 2; c++) make_job(&d[k], c, 4242 + (uint64_t)k, 0, 0);
        d[k].job[0].options.backend = PW_BACKEND_AUTO;
    }
    pw_queue_options opt;
    pw_queue_options_init(&opt);
    opt.window = 8;
    sim s[2];
    queue_device devs[2];
    for (int k = 0; k < 2; k++) devs[k] = sim_device(&s[k], 2, INT64_MAX / 4), s[k].kernel_us = 50000;
    pw_queue *q = NULL;
    CHECK(pw_queue_create_group_on(&opt, devs, 2, &q) == PW_OK, "group of 2: create");
    for (int k = 0; q && k < JOBS; k++) CHECK(pw_queue_submit(q, &d[k].job[0], NULL) == PW_OK, "group of 2: submit %d", k);
    if (q) {
        CHECK(pw_queue_drain(q) == PW_OK, "group of 2: drain");
        double first[2] = {1e30, 1e30}, last[2] = {0, 0};
        for (int k = 0; k < JOBS; k++) {
            int member;
            int64_t local;
            queue_job_trace t;
            pw_queue_job_place(q, k, &member, &local);
            pw_queue_job_get_trace(q, k, &t);
            if (t.kernel_start >= 0 && t.kernel_start < first[member]) first[member] = t.kernel_start;
            if (t.kernel_end > last[member]) last[member] = t.kernel_end;
        }
        CHECK(first[0] < last[1] && first[1] < last[0], "group of 2: the devices ran one after the other after a drain "
              "(kernels %.3f-%.3f and %.3f-%.3f s)", first[0], last[0], first[1], last[1]);
        pw_queue_destroy(q);
    }
    for (int k = 0; k < JOBS; k++) free_job(&d[k]);
}

/* The GPU list of the options: checked; on the CPU backend it is not used. */
static void group_options(void)
{
    pw_queue_options opt;
    pw_queue_options_init(&opt);
    pw_queue *q = NULL;
    const int twice[2] = {0, 0}, negative[1] = {-2}, many[PW_QUEUE_MAX_DEVICES + 1] = {0};
    struct {
        const int *devices;
        int n;
    } bad[] = {{twice, 2}, {negative, 1}, {NULL, 2}, {many, PW_QUEUE_MAX_DEVICES + 1}, {twice, -1}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        opt.devices = bad[k].devices, opt.n_devices = bad[k].n;
        CHECK(pw_queue_create(&opt, &q) == PW_ERR_INVALID_ARGUMENT, "device list %zu refused", k);
    }
    const int two[2] = {0, 1};
    opt.devices = two, opt.n_devices = 2, opt.backend = PW_BACKEND_CPU;
    pw_queue_stats s;
    CHECK(pw_queue_create(&opt, &q) == PW_OK && pw_queue_get_stats(q, &s) == PW_OK && s.devices == 1 &&
              s.backend == PW_BACKEND_CPU,
          "a CPU queue with a GPU list");
    pw_queue_destroy(q);
    CHECK(pw_queue_create_group_on(&opt, NULL, 0, &q) == PW_ERR_INVALID_ARGUMENT, "a group of none");
}

/* The GPU stage's copy teams cut each staging chunk into slices (pw_job_slice): they must cover it
 * exactly, in order, 4 KiB aligned -- including lengths just past a multiple of 16 KiB, which
 * an earlier rounding left 1-3 bytes short. */
static void slices(void)
{
    static const int64_t fixed[] = {0, 1, 4095, 4096, 4097, 1048576, 1048577, 1638401, 8388608, 8388611};
    int ok = 1;
    for (int trial = 0; trial < 4000; trial++) {
        const int64_t len = trial < 10 ? fixed[trial] : trial % 3 ? test_range(0, 1 << 24) : 16384 * test_range(1, 1024) + test_range(1, 3);
        for (int parts = 1; parts <= 8; parts++) {
            int64_t at = 0;
            for (int k = 0; k < parts; k++) {
                int64_t lo, hi;
                pw_job_slice(len, k, parts, &lo, &hi);
                if (hi < lo) hi = lo;
                if (lo != at || (lo % 4096 && lo != len)) ok = 0;
                at = hi;
            }
            if (at != len) ok = 0;
            if (!ok) {
                CHECK(0, "slices of %lld bytes in %d parts do not cover it", (long long)len, parts);
                return;
            }
        }
    }
    CHECK(ok, "slices");
}

/* The k-th allocation failing (PEERWAVE_DEBUG_FAIL_ALLOC), wherever it is -- the queue, a submit,
 * a stage, an engine inside a job: every call returns, each job's status is success with the
 * right result or PW_ERR_OUT_OF_MEMORY, the drain ends; nothing leaked (the sanitizer build). */
void pw_debug_alloc_reset(void);

static void failing_allocations(uint64_t seed)
{
    enum { N = 6 };
    for (int k = 1; k <= 24; k++) {
        job_data d[N];
        memset(d, 0, sizeof d);
        pw_status ref[N];
        for (int j = 0; j < N; j++) {
            for (int c = 0; c < 2; c++) make_job(&d[j], c, seed * 100 + (uint64_t)j, 0, 0);
            d[j].job[0].options.backend = PW_BACKEND_AUTO;
            ref[j] = pw_job_run(&d[j].job[1]);
        }
        char env[8];
        snprintf(env, sizeof env, "%d", k);
        setenv("PEERWAVE_DEBUG_FAIL_ALLOC", env, 1);
        pw_debug_alloc_reset();
        sim s;
        queue_device dev = sim_device(&s, 1 + k % 2, INT64_MAX / 4);
        pw_queue_options opt;
        pw_queue_options_init(&opt);
        opt.order = (pw_queue_order)(k % 3);
        pw_queue *q = NULL;
        pw_status st = pw_queue_create_on(&opt, &dev, &q);
        int queued[N] = {0};
        for (int j = 0; st == PW_OK && j < N; j++) {
            pw_status sub = pw_queue_submit(q, &d[j].job[0], NULL);
            CHECK(sub == PW_OK || sub == PW_ERR_OUT_OF_MEMORY, "allocation %d failing: submit %s", k, pw_status_str(sub));
            queued[j] = sub == PW_OK;
            if (!queued[j]) break; /* (ids follow the submits that took) */
        }
        if (st == PW_OK) {
            pw_queue_drain(q);
            for (int j = 0, id = 0; j < N; j++) {
                if (!queued[j]) continue;
                pw_status got = pw_queue_wait(q, id++);
                CHECK(got == PW_ERR_OUT_OF_MEMORY || (got == ref[j] && (got != PW_OK || same_result(&d[j]))),
                      "allocation %d failing: job %d (%s): %s", k, j, pw_job_kind_name(d[j].job[0].kind), pw_status_str(got));
            }
            pw_queue_destroy(q);
        } else {
            CHECK(st == PW_ERR_OUT_OF_MEMORY, "allocation %d failing: create %s", k, pw_status_str(st));
        }
        unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
        for (int j = 0; j < N; j++) free_job(&d[j]);
    }
}

static void bad_arguments(void)
{
    pw_queue_options opt;
    pw_queue_options_init(&opt);
    pw_queue *q = NULL;
    opt.window = 0;
    CHECK(pw_queue_create(&opt, &q) == PW_ERR_INVALID_ARGUMENT, "window 0");
    pw_queue_options_init(&opt);
    opt.memory_fraction = 1.5;
    CHECK(pw_queue_create(&opt, &q) == PW_ERR_INVALID_ARGUMENT, "memory fraction 1.5");
    CHECK(pw_queue_create(NULL, &q) == PW_ERR_NULL_ARGUMENT, "no options");
    pw_queue_options_init(&opt);
    opt.backend = PW_BACKEND_CPU;
    CHECK(pw_queue_create(&opt, &q) == PW_OK, "a CPU queue");
    pw_job job;
    pw_job_init(&job, PW_JOB_SW);
    CHECK(pw_queue_submit(q, &job, NULL) == PW_ERR_NULL_ARGUMENT, "a job without sequences");
    pw_sw_result res;
    job.u.sw.a = "ACGT", job.u.sw.b = "ACGT", job.u.sw.n = 0, job.u.sw.m = 4, job.u.sw.result = &res;
    CHECK(pw_queue_submit(q, &job, NULL) == PW_ERR_INVALID_SIZE, "an empty sequence");
    /* CUDA asked for on a queue without a GPU: refused, not run on the CPU (no CUDA in the build:
     * UNSUPPORTED; a build with CUDA: NO_DEVICE where no GPU answers, else UNSUPPORTED, the queue
     * being the CPU's) */
    job.u.sw.n = 4, job.options.backend = PW_BACKEND_CUDA;
    pw_status cuda_st = pw_queue_submit(q, &job, NULL);
    CHECK(cuda_st == PW_ERR_UNSUPPORTED || cuda_st == PW_ERR_NO_DEVICE, "a CUDA job on a CPU queue: %s",
          pw_status_str(cuda_st));
    job.options.backend = PW_BACKEND_AUTO;
    job.kind = PW_JOB_KIND_COUNT;
    CHECK(pw_queue_submit(q, &job, NULL) == PW_ERR_INVALID_ARGUMENT, "an unknown kind");
    pw_job_init(&job, PW_JOB_DTW);
    double x = 1;
    job.u.dtw.a = &x, job.u.dtw.b = &x, job.u.dtw.n = 1, job.u.dtw.m = 1, job.u.dtw.type = PW_I32;
    pw_dtw_result dr;
    job.u.dtw.result = &dr;
    CHECK(pw_queue_submit(q, &job, NULL) == PW_ERR_INVALID_ARGUMENT, "dtw of i32");
    CHECK(pw_queue_wait(q, 0) == PW_ERR_INVALID_ARGUMENT, "waiting for a job never submitted");
    pw_queue_stats stats;
    CHECK(pw_queue_get_stats(q, &stats) == PW_OK && stats.submitted == 0 && stats.backend == PW_BACKEND_CPU,
          "stats of an empty queue");
    CHECK(pw_queue_drain(q) == PW_OK, "drain of an empty queue");
    pw_queue_destroy(q);
    pw_queue_destroy(NULL);
    CHECK(strcmp(pw_job_kind_name(PW_JOB_INTHIST), "inthist") == 0 && strcmp(pw_job_kind_name(99), "?") == 0,
          "kind names");
}

int main(int argc, char **argv)
{
    const int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
    test_seed(20261125);
    const uint64_t base = test_rand() % 100000;
    if (gpu) {
        pw_queue_options opt;
        pw_queue_options_init(&opt);
        opt.backend = PW_BACKEND_CUDA;
        pw_queue *q = NULL;
        if (pw_queue_create(&opt, &q) != PW_OK) {
            printf("no CUDA device: skipped\n");
            return 77;
        }
        pw_queue_destroy(q);
        const int quick = getenv("PW_QUEUE_QUICK") != NULL; /* (under compute-sanitizer) */
        for (int order = 0; order < 3; order++)
            for (int k = 0; k < 4; k++)
                run_set(&(set_run){k == 2 && !quick ? 100 : 30, base + (uint64_t)k, k == 1 ? 7 : -1, k >= 2,
                                   (pw_queue_order)order, k == 3 ? 4 : 8, 0, 0, 0, 1, k == 0, 0});
        /* the queue over every GPU there is (up to 4; one queue a GPU) */
        for (int order = 0; order < 3; order++)
            run_set(&(set_run){quick ? 30 : 60, base + 20 + (uint64_t)order, 5, 0, (pw_queue_order)order, 8, 0, 0, 0, 1, 0, 4});
        return test_finish();
    }
    bad_arguments();
    group_options();
    group_drain_overlaps();
    slices();
    failing_allocations(base + 90);
    for (int k = 0; k < 3; k++) /* the CPU queue */
        run_set(&(set_run){20, base + (uint64_t)k, k == 1 ? 5 : -1, 0, PW_QUEUE_REORDER, 8, 0, 0, 0, 0, k == 2, 0});
    for (int engines = 1; engines <= 2; engines++)
        for (int order = 0; order < 3; order++)
            for (int k = 0; k < 4; k++)
                run_set(&(set_run){24, base + 10 * (uint64_t)engines + (uint64_t)k, k == 1 ? 9 : -1, 0,
                                   (pw_queue_order)order, k == 3 ? 3 : 8, engines, 0, 0, 0, k == 2, 0});
    /* many jobs in one queue, all submitted before the first is issued (the queue's lists grow
     * while its threads hold places in them) */
    run_set(&(set_run){150, base + 40, -1, 0, PW_QUEUE_FIFO, 8, 2, 0, 0, 0, 0, 0});
    run_set(&(set_run){150, base + 41, 77, 0, PW_QUEUE_REORDER, 8, 1, 0, 0, 0, 0, 0});
    /* a tight memory budget (some jobs larger than it: those run on the CPU) */
    for (int engines = 1; engines <= 2; engines++)
        for (int order = 0; order < 3; order++)
            run_set(&(set_run){24, base + 50 + (uint64_t)engines, -1, 0, (pw_queue_order)order, 8, engines, 120000, 0, 0, 0, 0});
    /* several devices under one queue (simulated GPUs), one of them breaking */
    for (int order = 0; order < 3; order++) group_set(2, 24, base + 70 + (uint64_t)order, (pw_queue_order)order, -1);
    group_set(3, 40, base + 75, PW_QUEUE_REORDER, -1);
    group_set(3, 30, base + 76, PW_QUEUE_FIFO, 1);
    /* the device breaks at its 5th kernel: the rest finish on the CPU */
    for (int engines = 1; engines <= 2; engines++)
        for (int order = 0; order < 3; order++)
            run_set(&(set_run){20, base + 60 + (uint64_t)engines, 3, 0, (pw_queue_order)order, 8, engines, 0, 5, 0, 0, 0});
    return test_finish();
}
