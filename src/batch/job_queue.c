/*
 * job_queue.c - the job queue (CuMAS, seed 001 ch. 4): jobs of the built-in applications, each
 * copy-in, kernel and copy-out on a device, the stages of different jobs overlapped, in an order
 * chosen to shorten the three-stage makespan (flowshop.h).  peerwave_batch.h has the contract.
 *
 * Threads (each stage function returns when its work is done, queue_device.h):
 *   copy-in (the issuer): picks the next job from the waiting ones (the order policy, against a
 *     model of the engines advanced by each issued job's predicted stages), waits for room in
 *     the device's memory budget, allocates and copies in.  With one copy engine it also does the
 *     copy-outs, in the order the model assumes: in_1, in_2, out_1, in_3, out_2, ...
 *   kernel: runs issued jobs one at a time, in issue order (one kernel fills the GPU, and two
 *     persistent spinning kernels sharing it could starve each other).
 *   copy-out (two copy engines): copies results back in issue order and frees the buffers.
 *   cpu: jobs that run on the CPU -- every job when there is no device; else a job that asks for
 *     the CPU, one larger than the memory budget, one the device had no memory for, and every job
 *     after the device failed (CUDA error or watchdog): it then finishes on the CPU, said in the
 *     stats.  A job's own failure (bad data) is its status; the others go on.
 * Predicted times: copies from bandwidths, kernels from seconds per cell of each application,
 * both learned from the stages measured so far (started from rough H100 figures).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flowshop.h"
#include "queue_device.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"

enum { JOB_WAITING, JOB_ISSUED, JOB_IN_DONE, JOB_KERNEL_DONE, JOB_DONE };

#define STAGE_LATENCY 10e-6   /* seconds a stage costs beyond its bytes or cells (a guess) */
#define LEARN_MIN_BYTES (1 << 20)

typedef struct qjob {
    pw_job job;
    job_layout layout;
    int state;
    int to_cpu;       /* runs (or runs again) on the CPU: set once, never cleared */
    int on_device;    /* holds device buffers (resident bytes counted) */
    pw_status status;
    char detail[256]; /* pw_error_detail of its failure */
    void *dev[JOB_MAX_BUFFERS];
    int passed;       /* later jobs issued before it (the window's patience) */
    queue_job_trace trace;
} qjob;

/* A growable list of job ids. */
typedef struct id_list {
    int64_t *at;
    int64_t n, cap;
} id_list;

struct device_queue {
    pw_queue_options opt;
    queue_device dev;
    int has_device;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    qjob **jobs;
    int64_t n_jobs, cap_jobs;
    id_list pending; /* waiting, in arrival order */
    id_list issued;  /* on the device's stages, in issue order */
    id_list cpu;     /* for the CPU thread, in order */
    int64_t kernel_next, out_next, cpu_next; /* positions in issued, issued, cpu */
    int64_t released; /* jobs with id below this are released: the window need not fill */
    int64_t done, failed, on_cpu;
    int stopping, device_failed;
    int64_t resident; /* bytes of job buffers on the device */
    pw_flow_state model;
    double spc[PW_JOB_KIND_COUNT];     /* device seconds a cell */
    double cpu_spc[PW_JOB_KIND_COUNT]; /* CPU seconds a cell */
    int spc_seen[PW_JOB_KIND_COUNT], cpu_seen[PW_JOB_KIND_COUNT];
    double bw_in, bw_out; /* bytes a second */
    int bw_in_seen, bw_out_seen;
    double t0, first_start, last_end;
    /* the jobs not done, as running sums (pw_dq_backlog: O(1) where the stats walk every job) */
    double open_in_bytes, open_out_bytes, open_cells[PW_JOB_KIND_COUNT];
    double busy_in, busy_kernel, busy_out;
    pthread_t thread[4];
    int threads;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double since(const device_queue *q) { return now() - q->t0; }

/* Room for `count` entries. */
static int list_reserve(id_list *l, int64_t count)
{
    if (count <= l->cap) return 0;
    int64_t cap = l->cap ? l->cap : 64;
    while (cap < count) cap *= 2;
    int64_t *p = realloc(l->at, sizeof *p * (size_t)cap);
    if (!p) return -1;
    l->at = p, l->cap = cap;
    return 0;
}

/* Room in every list for every job submitted (a job is at most once in each), so the threads
 * never grow them: submit does, under the lock. */
static int lists_reserve(device_queue *q, int64_t jobs)
{
    return list_reserve(&q->pending, jobs) || list_reserve(&q->issued, jobs) || list_reserve(&q->cpu, jobs);
}

void pw_queue_options_init(pw_queue_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->backend = PW_BACKEND_AUTO;
    o->order = PW_QUEUE_REORDER;
    o->window = 8;
    o->memory_fraction = 0.5;
    o->staging_bytes = 8 << 20;
}

/* ---- predictions ------------------------------------------------------------------------------ */

static pw_flow_job predict(const device_queue *q, const qjob *j)
{
    const job_layout *l = &j->layout;
    pw_flow_job e;
    e.s = STAGE_LATENCY + (double)l->bytes_in / q->bw_in;
    e.p = STAGE_LATENCY + l->cells * q->spc[j->job.kind];
    e.r = STAGE_LATENCY + (double)l->bytes_out / q->bw_out;
    return e;
}

/* A new measurement: the first replaces the starting guess, later ones are averaged in. */
static void learn(double *value, int *seen, double measured)
{
    if (!(measured > 0) || !isfinite(measured)) return;
    *value = *seen ? 0.5 * *value + 0.5 * measured : measured;
    *seen = 1;
}

static void start_guesses(device_queue *q)
{
    /* rough single-H100 figures; replaced by the first measurement of each */
    static const double device_cells_per_s[PW_JOB_KIND_COUNT] = {5e11, 5e11, 5e10, 1e11, 1e11, 1e11, 1e11};
    static const double cpu_cells_per_s[PW_JOB_KIND_COUNT] = {2e10, 5e9, 1e9, 1e9, 1e9, 1e9, 1e9};
    for (int k = 0; k < PW_JOB_KIND_COUNT; k++) {
        q->spc[k] = 1.0 / device_cells_per_s[k];
        q->cpu_spc[k] = 1.0 / cpu_cells_per_s[k];
    }
    q->bw_in = q->bw_out = 20e9;
}

/* ---- stages ----------------------------------------------------------------------------------- */

static void set_failure(qjob *j, pw_status st)
{
    j->status = st;
    snprintf(j->detail, sizeof j->detail, "%s", pw_error_detail());
}

/* A CUDA failure or a watchdog breaks the device, not the job. */
static int device_broke(pw_status st) { return st == PW_ERR_CUDA || st == PW_ERR_TIMEOUT; }

/* Locked: the job is finished (by whichever thread ran its last stage). */
static void job_done(device_queue *q, qjob *j)
{
    j->state = JOB_DONE;
    q->open_in_bytes -= (double)j->layout.bytes_in;
    q->open_out_bytes -= (double)j->layout.bytes_out;
    q->open_cells[j->job.kind] -= j->layout.cells;
    q->done++;
    if (j->status != PW_OK) q->failed++;
    q->last_end = since(q);
    pthread_cond_broadcast(&q->changed);
}

/* Locked: append id to the CPU thread's list (room reserved at submit). */
static void route_cpu(device_queue *q, int64_t id)
{
    qjob *j = q->jobs[id];
    j->to_cpu = 1;
    j->trace.on_cpu = 1;
    q->cpu.at[q->cpu.n++] = id;
    pthread_cond_broadcast(&q->changed);
}

/* Unlocked: allocate and copy in j's buffers.  PW_OK, or the failure (buffers freed).  Every
 * buffer is allocated before the first copy: the copy-in's end (its stream synchronised) then
 * orders the output buffers' allocations before the kernel too. */
static pw_status copy_in(device_queue *q, qjob *j)
{
    pw_status st = PW_OK;
    for (int k = 0; k < j->layout.count && st == PW_OK; k++) {
        const job_buffer *b = &j->layout.buffer[k];
        st = q->dev.alloc(q->dev.ctx, b->rows * b->row_bytes, &j->dev[k]);
    }
    for (int k = 0; k < j->layout.count && st == PW_OK; k++)
        if (j->layout.buffer[k].copy_in) st = q->dev.copy_in(q->dev.ctx, &j->layout.buffer[k], j->dev[k]);
    if (st != PW_OK) {
        for (int k = 0; k < j->layout.count; k++)
            if (j->dev[k]) q->dev.release(q->dev.ctx, j->dev[k]), j->dev[k] = NULL;
    }
    return st;
}

/* Unlocked: copy j's results out (when it ran) and free its buffers; then it is done, unless the
 * CPU runs it. */
static void copy_out(device_queue *q, int64_t id)
{
    pthread_mutex_lock(&q->lock);
    qjob *j = q->jobs[id];
    while (j->state < JOB_KERNEL_DONE) pthread_cond_wait(&q->changed, &q->lock);
    const int copy = !j->to_cpu && j->status == PW_OK;
    pthread_mutex_unlock(&q->lock);
    const double t = since(q);
    pw_status st = PW_OK;
    int in_place_touched = 0;
    for (int k = 0; k < j->layout.count && copy && st == PW_OK; k++) {
        const job_buffer *b = &j->layout.buffer[k];
        if (!b->copy_out) continue;
        int touched = 0;
        st = q->dev.copy_out(q->dev.ctx, j->dev[k], b, &touched);
        if (st != PW_OK && b->copy_in && touched) in_place_touched = 1;
    }
    const double t_end = since(q);
    for (int k = 0; k < j->layout.count; k++)
        if (j->dev[k]) q->dev.release(q->dev.ctx, j->dev[k]), j->dev[k] = NULL;
    pthread_mutex_lock(&q->lock);
    if (j->on_device) q->resident -= j->layout.bytes_device, j->on_device = 0;
    if (copy && j->layout.bytes_out > 0) {
        j->trace.out_start = t, j->trace.out_end = t_end;
        q->busy_out += t_end - t;
        if (st == PW_OK && j->layout.bytes_out >= LEARN_MIN_BYTES)
            learn(&q->bw_out, &q->bw_out_seen, (double)j->layout.bytes_out / (t_end - t));
    }
    if (st != PW_OK) {
        if (device_broke(st)) q->device_failed = 1;
        if (in_place_touched) set_failure(j, st); /* its input is partly overwritten: no rerun */
        else route_cpu(q, id);
    }
    if (!j->to_cpu) job_done(q, j);
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
}

/* Locked: the GPU pipeline has nothing in flight. */
static int device_idle(const device_queue *q) { return q->out_next == q->issued.n && q->kernel_next == q->issued.n; }

/* Locked: may the issuer take a job now? */
static int can_issue(const device_queue *q)
{
    if (q->pending.n == 0) return 0;
    if (q->opt.order == PW_QUEUE_SERIAL && !device_idle(q)) return 0;
    if (q->opt.order != PW_QUEUE_REORDER) return 1;
    return q->pending.n >= q->opt.window || q->pending.at[0] < q->released || q->stopping;
}

/* Locked: take the next job from pending (by the order policy). */
static int64_t pick_next(device_queue *q)
{
    int at = 0;
    if (q->opt.order == PW_QUEUE_REORDER) {
        const int m = (int)(q->pending.n < q->opt.window ? q->pending.n : q->opt.window);
        pw_flow_job win[PW_FLOW_WINDOW_MAX];
        for (int k = 0; k < m; k++) win[k] = predict(q, q->jobs[q->pending.at[k]]);
        if (device_idle(q)) pw_flow_state_init(&q->model, q->dev.copy_engines); /* start afresh */
        at = pw_flow_rolling_pick(win, q->jobs[q->pending.at[0]]->passed, m, q->opt.window, &q->model);
    }
    const int64_t id = q->pending.at[at];
    for (int k = 0; k < at; k++) q->jobs[q->pending.at[k]]->passed++;
    memmove(q->pending.at + at, q->pending.at + at + 1, sizeof(int64_t) * (size_t)(q->pending.n - at - 1));
    q->pending.n--;
    return id;
}

/* Locked (the lock is let go meanwhile): with one copy engine, the issuer's copy-out of id. */
static void issuer_copy_out(device_queue *q, int64_t id)
{
    pthread_mutex_unlock(&q->lock);
    copy_out(q, id);
    pthread_mutex_lock(&q->lock);
    q->out_next++;
    pthread_cond_broadcast(&q->changed);
}

static void *copy_in_thread(void *arg)
{
    device_queue *q = arg;
    const int one_engine = q->dev.copy_engines == 1;
    int64_t held = -1; /* one engine: the issued job whose copy-out comes after the next copy-in */
    int64_t rank = 0;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        if (!can_issue(q)) {
            if (held >= 0) { /* nothing to issue now: the held copy-out goes */
                issuer_copy_out(q, held);
                held = -1;
                continue;
            }
            if (q->stopping) break;
            pthread_cond_wait(&q->changed, &q->lock);
            continue;
        }
        const int64_t id = pick_next(q);
        qjob *j = q->jobs[id];
        j->trace.issue_rank = rank++;
        if (q->first_start < 0) q->first_start = since(q);
        if (j->job.options.backend == PW_BACKEND_CPU || q->device_failed ||
            j->layout.bytes_device > q->dev.memory_budget) {
            route_cpu(q, id);
            continue;
        }
        /* room on the device: the copy-outs free it (with one engine: the held one, now) */
        while (q->resident > 0 && q->resident + j->layout.bytes_device > q->dev.memory_budget) {
            if (held >= 0) {
                issuer_copy_out(q, held);
                held = -1;
            } else {
                pthread_cond_wait(&q->changed, &q->lock);
            }
        }
        q->resident += j->layout.bytes_device;
        j->on_device = 1;
        j->state = JOB_ISSUED;
        const pw_flow_job e = predict(q, j);
        pw_flow_state_add(&q->model, &e);
        q->issued.at[q->issued.n++] = id;
        pthread_mutex_unlock(&q->lock);
        const double t = since(q);
        pw_status st = copy_in(q, j);
        const double t_end = since(q);
        pthread_mutex_lock(&q->lock);
        j->trace.in_start = t, j->trace.in_end = t_end;
        q->busy_in += t_end - t;
        if (st == PW_OK && j->layout.bytes_in >= LEARN_MIN_BYTES)
            learn(&q->bw_in, &q->bw_in_seen, (double)j->layout.bytes_in / (t_end - t));
        if (st != PW_OK) {
            if (device_broke(st)) q->device_failed = 1;
            j->to_cpu = 1; /* the kernel thread passes it to the CPU */
        }
        j->state = JOB_IN_DONE;
        pthread_cond_broadcast(&q->changed);
        if (one_engine) {
            const int64_t previous = held;
            held = id;
            if (previous >= 0) issuer_copy_out(q, previous);
        }
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

static void *kernel_thread(void *arg)
{
    device_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        if (q->kernel_next == q->issued.n || q->jobs[q->issued.at[q->kernel_next]]->state < JOB_IN_DONE) {
            if (q->stopping && q->kernel_next == q->issued.n) break;
            pthread_cond_wait(&q->changed, &q->lock);
            continue;
        }
        const int64_t id = q->issued.at[q->kernel_next];
        qjob *j = q->jobs[id];
        if (j->to_cpu || q->device_failed) {
            route_cpu(q, id);
        } else {
            pthread_mutex_unlock(&q->lock);
            device_job dj;
            pw_job_on_device(&j->job, &j->layout, j->dev, &dj);
            const double t = since(q);
            pw_status st = q->dev.run(q->dev.ctx, &dj.job);
            const double t_end = since(q);
            pthread_mutex_lock(&q->lock);
            j->trace.kernel_start = t, j->trace.kernel_end = t_end;
            q->busy_kernel += t_end - t;
            if (st == PW_OK) {
                if (j->layout.cells > 0)
                    learn(&q->spc[j->job.kind], &q->spc_seen[j->job.kind],
                          (t_end - t - STAGE_LATENCY) / j->layout.cells);
            } else if (device_broke(st) || st == PW_ERR_OUT_OF_MEMORY) {
                if (device_broke(st)) q->device_failed = 1;
                route_cpu(q, id);
            } else {
                set_failure(j, st);
            }
        }
        j->state = JOB_KERNEL_DONE;
        q->kernel_next++;
        pthread_cond_broadcast(&q->changed);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

static void *copy_out_thread(void *arg)
{
    device_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        if (q->out_next == q->issued.n) {
            if (q->stopping) break;
            pthread_cond_wait(&q->changed, &q->lock);
            continue;
        }
        const int64_t id = q->issued.at[q->out_next];
        pthread_mutex_unlock(&q->lock);
        copy_out(q, id);
        pthread_mutex_lock(&q->lock);
        q->out_next++;
        pthread_cond_broadcast(&q->changed);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

static void *cpu_thread(void *arg)
{
    device_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        if (q->cpu_next == q->cpu.n) {
            if (q->stopping) break;
            pthread_cond_wait(&q->changed, &q->lock);
            continue;
        }
        qjob *j = q->jobs[q->cpu.at[q->cpu_next++]];
        if (q->first_start < 0) q->first_start = since(q);
        pthread_mutex_unlock(&q->lock);
        pw_job job = j->job;
        job.options.backend = PW_BACKEND_CPU;
        job.options.cuda_stream = NULL;
        const double t = now();
        pw_status st = pw_job_call(&job, 0);
        const double seconds = now() - t;
        pthread_mutex_lock(&q->lock);
        if (st == PW_OK) {
            j->status = PW_OK;
            if (j->layout.cells > 0)
                learn(&q->cpu_spc[j->job.kind], &q->cpu_seen[j->job.kind], seconds / j->layout.cells);
        } else {
            set_failure(j, st);
        }
        if (q->has_device) q->on_cpu++;
        job_done(q, j);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

/* ---- the API ---------------------------------------------------------------------------------- */

static void stop_threads(device_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->stopping = 1;
    q->released = q->n_jobs;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    for (int k = 0; k < q->threads; k++) pthread_join(q->thread[k], NULL);
    q->threads = 0;
}

static void free_queue(device_queue *q)
{
    if (q->has_device && q->dev.destroy) q->dev.destroy(q->dev.ctx);
    for (int64_t k = 0; k < q->n_jobs; k++) free(q->jobs[k]);
    free(q->jobs), free(q->pending.at), free(q->issued.at), free(q->cpu.at);
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->changed);
    free(q);
}

pw_status pw_dq_create_on(const pw_queue_options *options, const queue_device *dev, device_queue **queue)
{
    pw_status st = PW_OK;
    if (!options || !queue) st = PW_ERR_NULL_ARGUMENT;
    else if (options->order < PW_QUEUE_REORDER || options->order > PW_QUEUE_SERIAL ||
             options->window < 1 || options->window > PW_FLOW_WINDOW_MAX)
        st = PW_ERR_INVALID_ARGUMENT;
    else if (dev && (dev->copy_engines < 1 || dev->memory_budget < 1))
        st = PW_ERR_INVALID_ARGUMENT;
    device_queue *q = st == PW_OK ? pw_calloc(1, sizeof *q) : NULL;
    if (st == PW_OK && !q) st = PW_ERR_OUT_OF_MEMORY;
    if (st != PW_OK) {
        if (dev && dev->destroy) dev->destroy(dev->ctx);
        return st;
    }
    q->opt = *options;
    if (dev) q->dev = *dev, q->has_device = 1;
    if (q->has_device && q->dev.copy_engines > 2) q->dev.copy_engines = 2; /* a third adds no bandwidth */
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->changed, NULL);
    start_guesses(q);
    q->t0 = now();
    q->first_start = -1;
    pw_flow_state_init(&q->model, q->has_device ? q->dev.copy_engines : 2);
    void *(*fn[4])(void *);
    int n = 0;
    fn[n++] = cpu_thread;
    if (q->has_device) {
        fn[n++] = copy_in_thread;
        fn[n++] = kernel_thread;
        if (q->dev.copy_engines >= 2) fn[n++] = copy_out_thread;
    }
    for (int k = 0; k < n; k++) {
        if (pthread_create(&q->thread[k], NULL, fn[k], q) != 0) {
            stop_threads(q);
            free_queue(q);
            return PW_ERR_THREAD;
        }
        q->threads++;
    }
    *queue = q;
    return PW_OK;
}

/* A job that asks for the CUDA backend on a queue with no GPU fails as the host function alone
 * would (no CUDA in this build, or no device), not quietly on the CPU. */
static pw_status cuda_job_refused(const pw_job *job)
{
    pw_backend backend;
    pw_status st = pw_backend_resolve(&job->options, &backend); /* its own reason, detail set */
    if (st != PW_OK) return st;
    pw_set_error_detail("the job asks for the CUDA backend, and this queue runs on the CPU");
    return PW_ERR_UNSUPPORTED;
}

pw_status pw_dq_submit(device_queue *q, const pw_job *job, int64_t *id)
{
    if (!q || !job) return PW_ERR_NULL_ARGUMENT;
    qjob *j = pw_calloc(1, sizeof *j);
    if (!j) return PW_ERR_OUT_OF_MEMORY;
    pw_status st = pw_job_describe(job, &j->layout);
    if (st == PW_OK && job->options.backend == PW_BACKEND_CUDA && !q->has_device) st = cuda_job_refused(job);
    if (st != PW_OK) {
        free(j);
        return st;
    }
    j->job = *job;
    j->state = JOB_WAITING;
    j->trace = (queue_job_trace){-1, -1, -1, -1, -1, -1, -1, 0};
    pthread_mutex_lock(&q->lock);
    if (q->n_jobs == q->cap_jobs) {
        const int64_t cap = q->cap_jobs ? 2 * q->cap_jobs : 64;
        qjob **p = realloc(q->jobs, sizeof *p * (size_t)cap);
        if (p) q->jobs = p, q->cap_jobs = cap;
    }
    if (q->n_jobs == q->cap_jobs || lists_reserve(q, q->n_jobs + 1)) {
        pthread_mutex_unlock(&q->lock);
        free(j);
        return PW_ERR_OUT_OF_MEMORY;
    }
    const int64_t k = q->n_jobs++;
    q->jobs[k] = j;
    q->open_in_bytes += (double)j->layout.bytes_in;
    q->open_out_bytes += (double)j->layout.bytes_out;
    q->open_cells[j->job.kind] += j->layout.cells;
    if (q->has_device)
        q->pending.at[q->pending.n++] = k;
    else
        q->cpu.at[q->cpu.n++] = k;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    if (id) *id = k;
    return PW_OK;
}

pw_status pw_dq_wait(device_queue *q, int64_t id)
{
    if (!q) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&q->lock);
    if (id < 0 || id >= q->n_jobs) {
        pthread_mutex_unlock(&q->lock);
        return PW_ERR_INVALID_ARGUMENT;
    }
    q->released = q->n_jobs; /* every job waiting goes now (releasing only up to id would let the
                                window issue one job per job finished) */
    pthread_cond_broadcast(&q->changed);
    qjob *j = q->jobs[id];
    while (j->state != JOB_DONE) pthread_cond_wait(&q->changed, &q->lock);
    const pw_status st = j->status;
    char detail[sizeof j->detail];
    memcpy(detail, j->detail, sizeof detail);
    pthread_mutex_unlock(&q->lock);
    if (st != PW_OK && detail[0]) pw_set_error_detail("%s", detail);
    return st;
}

pw_status pw_dq_drain(device_queue *q)
{
    if (!q) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&q->lock);
    const int64_t n = q->n_jobs;
    pthread_mutex_unlock(&q->lock);
    pw_status first = PW_OK;
    for (int64_t k = 0; k < n; k++) {
        pw_status st = pw_dq_wait(q, k);
        if (first == PW_OK && st != PW_OK) first = st;
    }
    if (first != PW_OK) { /* the first failure's detail */
        for (int64_t k = 0; k < n; k++)
            if (pw_dq_wait(q, k) != PW_OK) break;
    }
    return first;
}

pw_status pw_dq_get_stats(device_queue *q, pw_queue_stats *s)
{
    if (!q || !s) return PW_ERR_NULL_ARGUMENT;
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&q->lock);
    s->backend = q->has_device && !q->device_failed ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    s->copy_engines = q->has_device ? q->dev.copy_engines : 0;
    s->submitted = q->n_jobs, s->done = q->done, s->failed = q->failed, s->on_cpu = q->on_cpu;
    s->device_failed = q->device_failed;
    s->seconds = q->first_start >= 0 ? (q->done == q->n_jobs ? q->last_end : since(q)) - q->first_start : 0;
    s->copy_in_seconds = q->busy_in, s->kernel_seconds = q->busy_kernel, s->copy_out_seconds = q->busy_out;
    /* the bound of the device jobs done, from their measured stages */
    pw_flow_job *measured = pw_malloc(sizeof *measured * (size_t)(q->n_jobs ? q->n_jobs : 1));
    int n = 0;
    double left_s = 0, left_p = 0, left_r = 0, left_cpu = 0;
    for (int64_t k = 0; k < q->n_jobs; k++) {
        const qjob *j = q->jobs[k];
        const queue_job_trace *t = &j->trace;
        if (j->state == JOB_DONE && !t->on_cpu && t->kernel_end >= 0 && measured) {
            measured[n].s = t->in_end >= 0 ? t->in_end - t->in_start : 0;
            measured[n].p = t->kernel_end - t->kernel_start;
            measured[n].r = t->out_end >= 0 ? t->out_end - t->out_start : 0;
            n++;
        }
        if (j->state == JOB_DONE) continue;
        if (!q->has_device || j->to_cpu || q->device_failed) {
            left_cpu += j->layout.cells * q->cpu_spc[j->job.kind];
        } else {
            const pw_flow_job e = predict(q, j);
            if (j->state < JOB_IN_DONE) left_s += e.s;
            if (j->state < JOB_KERNEL_DONE) left_p += e.p;
            left_r += e.r;
        }
    }
    const double device_left = fmax(left_s, fmax(left_p, left_r));
    s->remaining_seconds = fmax(device_left, left_cpu);
    if (n > 0 && pw_flow_lower_bound(measured, n, s->copy_engines, &s->lower_bound) != PW_OK) s->lower_bound = 0;
    free(measured);
    pthread_mutex_unlock(&q->lock);
    return PW_OK;
}

double pw_dq_backlog(device_queue *q)
{
    pthread_mutex_lock(&q->lock);
    double kernel = 0;
    const double *spc = q->has_device && !q->device_failed ? q->spc : q->cpu_spc;
    for (int k = 0; k < PW_JOB_KIND_COUNT; k++) kernel += fmax(q->open_cells[k], 0) * spc[k];
    const double copies = q->has_device && !q->device_failed ? fmax(fmax(q->open_in_bytes, 0) / q->bw_in, fmax(q->open_out_bytes, 0) / q->bw_out) : 0;
    pthread_mutex_unlock(&q->lock);
    return fmax(kernel, copies);
}

int64_t pw_dq_open_jobs(device_queue *q)
{
    pthread_mutex_lock(&q->lock);
    const int64_t open = q->n_jobs - q->done;
    pthread_mutex_unlock(&q->lock);
    return open;
}

void pw_dq_release(device_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->released = q->n_jobs;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
}

void pw_dq_span(device_queue *q, double *start, double *end)
{
    pthread_mutex_lock(&q->lock);
    *start = q->first_start >= 0 ? q->t0 + q->first_start : -1;
    *end = q->first_start >= 0 ? q->t0 + (q->done == q->n_jobs ? q->last_end : since(q)) : -1;
    pthread_mutex_unlock(&q->lock);
}

pw_status pw_dq_job_get_trace(device_queue *q, int64_t id, queue_job_trace *trace)
{
    if (!q || !trace) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&q->lock);
    pw_status st = id >= 0 && id < q->n_jobs ? PW_OK : PW_ERR_INVALID_ARGUMENT;
    if (st == PW_OK) *trace = q->jobs[id]->trace;
    pthread_mutex_unlock(&q->lock);
    return st;
}

void pw_dq_debug_dump(device_queue *q, FILE *f)
{
    pthread_mutex_lock(&q->lock);
    fprintf(f, "queue: %lld jobs, %lld done; pending %lld, issued %lld, kernel_next %lld, out_next %lld, cpu %lld/%lld; "
               "resident %lld of %lld; released %lld; device_failed %d\n",
            (long long)q->n_jobs, (long long)q->done, (long long)q->pending.n, (long long)q->issued.n,
            (long long)q->kernel_next, (long long)q->out_next, (long long)q->cpu_next, (long long)q->cpu.n,
            (long long)q->resident, (long long)q->dev.memory_budget, (long long)q->released, q->device_failed);
    for (int64_t k = 0; k < q->n_jobs; k++)
        if (q->jobs[k]->state != JOB_DONE)
            fprintf(f, "  job %lld (%s): state %d, to_cpu %d, status %s\n", (long long)k,
                    pw_job_kind_name(q->jobs[k]->job.kind), q->jobs[k]->state, q->jobs[k]->to_cpu,
                    pw_status_str(q->jobs[k]->status));
    pthread_mutex_unlock(&q->lock);
}

void pw_dq_destroy(device_queue *q)
{
    if (!q) return;
    pw_dq_drain(q);
    stop_threads(q);
    free_queue(q);
}
