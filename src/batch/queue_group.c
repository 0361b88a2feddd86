/*
 * queue_group.c - pw_queue (peerwave_batch.h): one device queue (job_queue.c) a GPU, or one for the
 * CPU, and where each job goes.
 *
 * A job goes to the device queue predicted to be done first with it: the one whose jobs not yet
 * done are predicted to take least (pw_dq_backlog, at the stage rates it has learned so far; ties:
 * fewer jobs not done, then the next after the last one chosen).  Jobs are bound when submitted:
 * a GPU slower than the others is seen only through the jobs it finished before later submits.  Each device queue then orders its own window,
 * overlaps its own stages and sends to the CPU what its GPU cannot take, as one queue alone does.
 * Ids are the group's, in submission order; each maps to a device queue and its id there.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "queue_device.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"

typedef struct placed {
    int32_t member;
    int64_t local;
} placed;

struct pw_queue {
    int n;
    device_queue *member[PW_QUEUE_MAX_DEVICES];
    int device[PW_QUEUE_MAX_DEVICES]; /* each one's CUDA device, -1: the CPU (or a simulated one) */
    pthread_mutex_t lock;             /* the map, and the choice of a member with its submit */
    int last;                         /* the member chosen last */
    placed *at;
    int64_t n_jobs, cap;
};

static void destroy_members(pw_queue *q)
{
    for (int k = 0; k < q->n; k++) pw_dq_destroy(q->member[k]);
    q->n = 0;
}

static pw_queue *group_new(void)
{
    pw_queue *q = pw_calloc(1, sizeof *q);
    if (q) pthread_mutex_init(&q->lock, NULL);
    return q;
}

static void group_free(pw_queue *q)
{
    destroy_members(q);
    pthread_mutex_destroy(&q->lock);
    free(q->at);
    free(q);
}

pw_status pw_queue_create_group_on(const pw_queue_options *options, const queue_device *devs, int n, pw_queue **queue)
{
    if (!options || !queue) {
        for (int k = 0; devs && k < n; k++)
            if (devs[k].destroy) devs[k].destroy(devs[k].ctx); /* (owned, also on failure) */
        return PW_ERR_NULL_ARGUMENT;
    }
    pw_queue *q = n >= 1 && n <= PW_QUEUE_MAX_DEVICES ? group_new() : NULL;
    pw_status st = n < 1 || n > PW_QUEUE_MAX_DEVICES ? PW_ERR_INVALID_ARGUMENT : q ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    for (int k = 0; k < n; k++) {
        if (st == PW_OK) {
            st = pw_dq_create_on(options, devs ? &devs[k] : NULL, &q->member[q->n]);
            if (st == PW_OK) q->device[q->n++] = -1;
        } else if (devs && devs[k].destroy) {
            devs[k].destroy(devs[k].ctx); /* (the queue owns them, also on failure) */
        }
    }
    if (st != PW_OK) {
        if (q) group_free(q);
        return st;
    }
    *queue = q;
    return PW_OK;
}

pw_status pw_queue_create_on(const pw_queue_options *options, const queue_device *dev, pw_queue **queue)
{
    return pw_queue_create_group_on(options, dev, 1, queue);
}

static pw_status check_options(const pw_queue_options *o)
{
    if (!(o->memory_fraction > 0 && o->memory_fraction <= 1) || o->staging_bytes < 4096 || o->device < 0 ||
        o->backend < PW_BACKEND_AUTO || o->backend > PW_BACKEND_CUDA)
        return PW_ERR_INVALID_ARGUMENT;
    if (o->n_devices < 0 || o->n_devices > PW_QUEUE_MAX_DEVICES || (o->n_devices > 0 && !o->devices)) {
        pw_set_error_detail("queue options: n_devices %d (0 .. %d, with the devices listed)", o->n_devices,
                            PW_QUEUE_MAX_DEVICES);
        return PW_ERR_INVALID_ARGUMENT;
    }
    for (int a = 0; a < o->n_devices; a++) {
        for (int b = 0; b < a; b++)
            if (o->devices[a] == o->devices[b]) {
                pw_set_error_detail("queue options: device %d twice", o->devices[a]);
                return PW_ERR_INVALID_ARGUMENT;
            }
        if (o->devices[a] < 0) {
            pw_set_error_detail("queue options: device %d", o->devices[a]);
            return PW_ERR_INVALID_ARGUMENT;
        }
    }
    return PW_OK;
}

pw_status pw_queue_create(const pw_queue_options *options, pw_queue **queue)
{
    if (!options || !queue) return PW_ERR_NULL_ARGUMENT;
    pw_status st = check_options(options);
    if (st != PW_OK) return st;
    if (options->backend == PW_BACKEND_CPU) return pw_queue_create_on(options, NULL, queue);
#ifdef PW_HAVE_CUDA
    pw_queue *q = group_new();
    if (!q) return PW_ERR_OUT_OF_MEMORY;
    const int n = options->n_devices > 0 ? options->n_devices : 1;
    for (int k = 0; k < n && st == PW_OK; k++) {
        const int device = options->n_devices > 0 ? options->devices[k] : options->device;
        queue_device dev;
        pw_status opened = pw_queue_gpu_create(device, options->memory_fraction, options->staging_bytes, &dev);
        if (opened == PW_OK) {
            pw_queue_options one = *options;
            one.device = device;
            opened = pw_dq_create_on(&one, &dev, &q->member[q->n]); /* (owns dev now) */
            if (opened == PW_OK) q->device[q->n++] = device;
        }
        /* AUTO: a GPU that cannot be opened is left out (NO_DEVICE: not there); CUDA asked for,
         * or any other failure, ends it */
        if (opened != PW_OK && (options->backend == PW_BACKEND_CUDA || opened != PW_ERR_NO_DEVICE)) st = opened;
    }
    if (st == PW_OK && q->n == 0) { /* (AUTO, and no GPU could be opened: the CPU) */
        st = pw_dq_create_on(options, NULL, &q->member[0]);
        if (st == PW_OK) q->device[q->n++] = -1;
    }
    if (st != PW_OK) {
        group_free(q);
        return st;
    }
    *queue = q;
    return PW_OK;
#else
    if (options->backend == PW_BACKEND_CUDA) return PW_ERR_UNSUPPORTED;
    return pw_queue_create_on(options, NULL, queue);
#endif
}

/* The member a new job goes to (under q->lock): the least predicted work left, then the fewest
 * jobs not done, then the next after the last one chosen (so that idle members take turns). */
static int choose_member(pw_queue *q)
{
    if (q->n == 1) return 0;
    int best = -1;
    double best_left = 0;
    int64_t best_open = 0;
    for (int i = 1; i <= q->n; i++) {
        const int k = (q->last + i) % q->n;
        const double left = pw_dq_backlog(q->member[k]);
        const int64_t open = pw_dq_open_jobs(q->member[k]);
        if (best < 0 || left < best_left || (left == best_left && open < best_open)) best = k, best_left = left, best_open = open;
    }
    q->last = best < 0 ? 0 : best;
    return q->last;
}

pw_status pw_queue_submit(pw_queue *q, const pw_job *job, int64_t *id)
{
    if (!q || !job) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&q->lock);
    if (q->n_jobs == q->cap) {
        const int64_t cap = q->cap ? 2 * q->cap : 64;
        placed *p = realloc(q->at, sizeof *p * (size_t)cap);
        if (p) q->at = p, q->cap = cap;
    }
    if (q->n_jobs == q->cap) {
        pthread_mutex_unlock(&q->lock);
        return PW_ERR_OUT_OF_MEMORY;
    }
    const int member = choose_member(q);
    int64_t local = -1;
    pw_status st = pw_dq_submit(q->member[member], job, &local);
    if (st == PW_OK) {
        q->at[q->n_jobs] = (placed){member, local};
        if (id) *id = q->n_jobs;
        q->n_jobs++;
    }
    pthread_mutex_unlock(&q->lock);
    return st;
}

pw_status pw_queue_job_place(pw_queue *q, int64_t id, int *member, int64_t *local)
{
    if (!q || !member || !local) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&q->lock);
    const pw_status st = id >= 0 && id < q->n_jobs ? PW_OK : PW_ERR_INVALID_ARGUMENT;
    if (st == PW_OK) *member = q->at[id].member, *local = q->at[id].local;
    pthread_mutex_unlock(&q->lock);
    return st;
}

/* Every device queue's waiting jobs released (a wait or a drain: no GPU holds its window back
 * while another's jobs are waited for). */
static void release_all(pw_queue *q)
{
    for (int k = 0; k < q->n; k++) pw_dq_release(q->member[k]);
}

pw_status pw_queue_wait(pw_queue *q, int64_t id)
{
    int member;
    int64_t local;
    if (!q) return PW_ERR_NULL_ARGUMENT;
    pw_status st = pw_queue_job_place(q, id, &member, &local);
    if (st != PW_OK) return st;
    release_all(q);
    return pw_dq_wait(q->member[member], local);
}

pw_status pw_queue_drain(pw_queue *q)
{
    if (!q) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&q->lock);
    const int64_t n = q->n_jobs;
    pthread_mutex_unlock(&q->lock);
    /* every device queue's jobs released at once, then the first failure by id (and its detail) */
    release_all(q);
    int64_t first = -1;
    for (int64_t k = 0; k < n; k++)
        if (pw_queue_wait(q, k) != PW_OK && first < 0) first = k;
    return first < 0 ? PW_OK : pw_queue_wait(q, first); /* (again: its detail last) */
}

pw_status pw_queue_get_device_stats(pw_queue *q, int k, pw_queue_stats *s, int *device)
{
    if (!q || !s) return PW_ERR_NULL_ARGUMENT;
    if (k < 0 || k >= q->n) return PW_ERR_INVALID_ARGUMENT;
    pw_status st = pw_dq_get_stats(q->member[k], s);
    s->devices = 1;
    if (device) *device = q->device[k];
    return st;
}

pw_status pw_queue_get_stats(pw_queue *q, pw_queue_stats *s)
{
    if (!q || !s) return PW_ERR_NULL_ARGUMENT;
    memset(s, 0, sizeof *s);
    s->backend = PW_BACKEND_CPU;
    double first = -1, last = -1; /* (the span: the earliest start to the latest end, one clock) */
    for (int k = 0; k < q->n; k++) {
        double start, end;
        pw_dq_span(q->member[k], &start, &end);
        if (start >= 0 && (first < 0 || start < first)) first = start;
        if (end > last) last = end;
        pw_queue_stats m;
        pw_status st = pw_dq_get_stats(q->member[k], &m);
        if (st != PW_OK) return st;
        if (m.backend == PW_BACKEND_CUDA) s->backend = PW_BACKEND_CUDA;
        if (m.copy_engines > s->copy_engines) s->copy_engines = m.copy_engines;
        s->submitted += m.submitted, s->done += m.done, s->failed += m.failed, s->on_cpu += m.on_cpu;
        s->device_failed |= m.device_failed;
        s->copy_in_seconds += m.copy_in_seconds, s->kernel_seconds += m.kernel_seconds;
        s->copy_out_seconds += m.copy_out_seconds;
        /* (the device queues run side by side: the bound and the ETA are their largest) */
        s->lower_bound = fmax(s->lower_bound, m.lower_bound);
        s->remaining_seconds = fmax(s->remaining_seconds, m.remaining_seconds);
    }
    s->seconds = first >= 0 && last > first ? last - first : 0;
    s->devices = q->n;
    return PW_OK;
}

pw_status pw_queue_job_get_trace(pw_queue *q, int64_t id, queue_job_trace *trace)
{
    int member;
    int64_t local;
    if (!q || !trace) return PW_ERR_NULL_ARGUMENT;
    pw_status st = pw_queue_job_place(q, id, &member, &local);
    return st == PW_OK ? pw_dq_job_get_trace(q->member[member], local, trace) : st;
}

void pw_queue_debug_dump(pw_queue *q, FILE *f)
{
    for (int k = 0; k < q->n; k++) {
        if (q->n > 1) fprintf(f, "device queue %d (device %d):\n", k, q->device[k]);
        pw_dq_debug_dump(q->member[k], f);
    }
}

void pw_queue_destroy(pw_queue *q)
{
    if (!q) return;
    pw_queue_drain(q);
    group_free(q);
}
