/* sw_batch_drive.c - scoring a chunk of queries against the database on the devices the batch
 * options name: one backend, or the GPU and the CPU cores together under HDSS (or a static split),
 * each device pulling blocks of records from one queue (peerwave_batch.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sw_batch.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/batch_sw.h"
#endif

#define HDSS_ITEM_RECORDS 32 /* records an HDSS item: a whole CPU group on every vector set */

typedef struct engines {
    sw_batch_cpu *cpu;
#ifdef PW_HAVE_CUDA
    pw_cuda_batch *gpu;
#endif
    int gpu_lane_bits;
} engines;

/* One device of a shared run: the GPU, or a group of CPU threads. */
typedef struct device_worker {
    struct shared_run *run;
    int index;      /* in the scheduler */
    int gpu;        /* 1: the GPU session, else the CPU session with `threads` */
    int threads;
    pthread_t thread;
    pw_status status; /* its failure, if it failed */
    char detail[256]; /* and its pw_error_detail */
} device_worker;

typedef struct shared_run {
    char detail[256]; /* the first failure's pw_error_detail (thread-local: set again by the caller) */
    const sw_batch_score_job *job;
    const sw_batch_cpu_run *cpu_run;
    engines *e;
    pw_hdss *hdss;
    int64_t records;
    atomic_int abort_status; /* a failure that ends the whole run (cancel, out of memory on the CPU) */
    atomic_llong recomputed, long_pairs;
} shared_run;

/* Records [r0, r1) on one device. */
static pw_status score_range(shared_run *run, const device_worker *w, int64_t r0, int64_t r1)
{
    int64_t recomputed = 0, long_pairs = 0;
    pw_status st;
#ifdef PW_HAVE_CUDA
    if (w->gpu)
        st = pw_cuda_batch_score(run->e->gpu, r0, r1, run->job->scores, &recomputed, &long_pairs, run->job->progress);
    else
#endif
        st = pw_sw_batch_cpu_score(run->e->cpu, r0, r1, w->threads, run->job->scores, &recomputed);
    atomic_fetch_add(&run->recomputed, recomputed);
    atomic_fetch_add(&run->long_pairs, long_pairs);
    return st;
}

static void *device_loop(void *arg)
{
    device_worker *w = arg;
    shared_run *run = w->run;
    pw_hdss_block b;
    if (!w->gpu && !run->e->cpu) {
        /* the CPU's groups are made here, while the GPU already works (with a GPU this is the
         * only CPU worker): made before, they held the GPU back by the time it takes to
         * interleave the whole database */
        pw_status st = pw_sw_batch_cpu_create(run->cpu_run, run->job->queries, run->job->nq, &run->e->cpu);
        if (st != PW_OK) {
            snprintf(w->detail, sizeof w->detail, "%s", pw_error_detail());
            w->status = st;
            pw_hdss_fail(run->hdss, w->index);
            return NULL;
        }
    }
    while (!atomic_load(&run->abort_status) && pw_hdss_fetch(run->hdss, w->index, &b) == PW_OK && b.end > b.begin) {
        const int64_t r0 = b.begin * HDSS_ITEM_RECORDS, r1 = b.end * HDSS_ITEM_RECORDS;
        pw_status st = score_range(run, w, r0, r1 < run->records ? r1 : run->records);
        if (st == PW_OK) {
            pw_hdss_done(run->hdss, w->index, PW_HDSS_MEASURE);
        } else if (st == PW_ERR_CANCELLED || (!w->gpu && st == PW_ERR_OUT_OF_MEMORY)) {
            int expected = 0; /* the whole run stops */
            if (atomic_compare_exchange_strong(&run->abort_status, &expected, (int)st))
                snprintf(run->detail, sizeof run->detail, "%s", pw_error_detail());
        } else {
            snprintf(w->detail, sizeof w->detail, "%s", pw_error_detail());
            w->status = st; /* this device broke: its block goes to the others */
            pw_hdss_fail(run->hdss, w->index);
            break;
        }
    }
    return NULL;
}

/* HDSS or STATIC over the sessions that exist: the GPU and a CPU group, or two CPU groups. */
static pw_status shared_scoring(const sw_batch_score_job *job, const sw_batch_cpu_run *cpu_run, engines *e,
                                pw_batch_info *info)
{
    const sw_batch_db *db = job->db;
    int has_gpu = 0;
#ifdef PW_HAVE_CUDA
    has_gpu = e->gpu != NULL;
#endif
    device_worker w[2];
    pw_hdss_device dev[2];
    memset(w, 0, sizeof w);
    const int n_dev = 2;
    if (has_gpu) {
        w[0].gpu = 1;
        w[1].threads = job->threads > 1 ? job->threads - 1 : 1; /* a core drives the GPU */
        dev[0] = (pw_hdss_device){"gpu", PW_HDSS_GPU, job->batch->gpu_weight, 0};
        dev[1] = (pw_hdss_device){"cpu", PW_HDSS_CPU, job->batch->cpu_weight, 0};
    } else {
        w[0].threads = job->threads / 2 > 0 ? job->threads / 2 : 1;
        w[1].threads = job->threads - w[0].threads > 0 ? job->threads - w[0].threads : 1;
        dev[0] = (pw_hdss_device){"cpu0", PW_HDSS_CPU, job->batch->gpu_weight, 0};
        dev[1] = (pw_hdss_device){"cpu1", PW_HDSS_CPU, job->batch->cpu_weight, 0};
    }
    /* items of HDSS_ITEM_RECORDS sorted records, costed in cells against every query */
    int64_t query_letters = 0;
    for (int64_t q = 0; q < job->nq; q++) query_letters += job->queries[q].n;
    const int64_t n_items = (db->count + HDSS_ITEM_RECORDS - 1) / HDSS_ITEM_RECORDS;
    int64_t *costs = pw_malloc(sizeof *costs * (size_t)n_items);
    if (!costs) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t k = 0; k < n_items; k++) {
        const int64_t end = (k + 1) * HDSS_ITEM_RECORDS < db->count ? (k + 1) * HDSS_ITEM_RECORDS : db->count;
        if (__builtin_mul_overflow(db->at[end] - db->at[k * HDSS_ITEM_RECORDS], query_letters, &costs[k]))
            costs[k] = INT64_MAX / n_items; /* beyond any real run; the scheduler checks the sum */
    }
    /* a GPU block fills the GPU: at least 2048 items (65536 records, some waves of warps on a
     * large GPU), at most an eighth of the work (a small search still gives the CPU its part) */
    if (has_gpu) {
        const int64_t k = n_items < 2048 ? n_items : 2048;
        int64_t fill = 0, total = 0;
        for (int64_t i = 0; i < n_items; i++) total += costs[i], fill += i < k ? costs[i] : 0;
        dev[0].min_block = fill < total / 8 ? fill : total / 8;
    }
    pw_hdss_options ho;
    pw_hdss_options_init(&ho);
    ho.mode = job->batch->schedule == PW_BATCH_STATIC ? PW_HDSS_STATIC : PW_HDSS_ADAPTIVE;
    ho.min_block = (int64_t)1 << 24; /* 16M cells: a GPU launch's fixed cost stays small */
    shared_run run = {.job = job, .cpu_run = cpu_run, .e = e, .records = db->count};
    atomic_init(&run.abort_status, 0);
    atomic_init(&run.recomputed, 0);
    atomic_init(&run.long_pairs, 0);
    pw_status st = pw_hdss_create(dev, n_dev, costs, n_items, &ho, &run.hdss);
    free(costs);
    if (st != PW_OK) return st;
    pw_hdss_report rep = {0};
    pw_hdss_device_report dr[2];
    /* rounds: a device's worker stops at an empty block; a failure after that puts its block
     * back, and the devices still alive fetch again (hdss.h) */
    for (int round = 0; st == PW_OK; round++) {
        int started = 0;
        for (int d = 0; d < n_dev; d++) {
            w[d].run = &run;
            w[d].index = d;
            if (w[d].status != PW_OK) continue; /* failed */
            if (pthread_create(&w[d].thread, NULL, device_loop, &w[d]) == 0) started |= 1 << d;
        }
        for (int d = 0; d < n_dev; d++)
            if (started & 1 << d) pthread_join(w[d].thread, NULL);
        if (!started) st = PW_ERR_THREAD;
        if (atomic_load(&run.abort_status)) {
            st = (pw_status)atomic_load(&run.abort_status);
            if (run.detail[0]) pw_set_error_detail("%s", run.detail);
        }
        if (st != PW_OK) break;
        pw_hdss_get_report(run.hdss, &rep, dr, n_dev);
        if (rep.items_left == 0) break;
        if (w[0].status != PW_OK && w[1].status != PW_OK) {
            st = w[0].status; /* every device failed */
            pw_set_error_detail("%s", w[0].detail);
            break;
        }
        if (round > 4) st = PW_ERR_INTERNAL; /* work left that no live device takes */
    }
    if (st == PW_OK) {
        info->recomputed += atomic_load(&run.recomputed);
        info->long_pairs += atomic_load(&run.long_pairs);
        info->gpu_share = dr[0].share;
        info->cpu_share = dr[1].share;
        info->gpu_rate = dr[0].rate;
        info->cpu_rate = dr[1].rate;
        info->spread = rep.spread;
        info->devices_failed = (w[0].status != PW_OK) + (w[1].status != PW_OK);
        for (int d = 0; d < n_dev; d++) /* the search succeeded: say what broke, for the report */
            if (w[d].status != PW_OK)
                pw_set_error_detail("%s failed during the search (%s); the other device did its work", dev[d].name,
                                    w[d].detail);
    }
    pw_hdss_destroy(run.hdss);
    return st;
}

pw_status pw_sw_batch_score(const sw_batch_score_job *job, pw_batch_info *info)
{
    engines e = {0};
    pw_status st = PW_OK;
    const int shared = job->batch->schedule != PW_BATCH_ONE;
#ifdef PW_HAVE_CUDA
    if (shared || info->backend == PW_BACKEND_CUDA) {
        pw_backend b = PW_BACKEND_CPU;
        pw_options o = *job->options;
        if (o.backend == PW_BACKEND_CPU) o.backend = PW_BACKEND_AUTO; /* shared: the GPU if there is one */
        if (pw_backend_resolve(&o, &b) == PW_OK && b == PW_BACKEND_CUDA) {
            st = pw_cuda_batch_create(&o, job->db, job->table, job->gap_open, job->gap_extend, job->queries, job->nq,
                                      &e.gpu, &e.gpu_lane_bits);
            /* scores beyond the profile's bytes: the CPU; shared, any failure (a database larger than
             * the GPU's memory) leaves the work to the CPU groups */
            if (st == PW_ERR_UNSUPPORTED || (shared && st != PW_OK)) {
                if (st != PW_ERR_UNSUPPORTED) {
                    char why[256];
                    snprintf(why, sizeof why, "%s", pw_error_detail());
                    pw_set_error_detail("the GPU could not take part (%s: %s); the CPU did the work", pw_status_str(st), why);
                    info->devices_failed++;
                }
                st = PW_OK;
            }
        }
        info->backend = e.gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        if (e.gpu && !shared) info->lane_bits = e.gpu_lane_bits; /* shared: the CPU's are reported */
    }
#endif
    sw_batch_cpu_run run = {job->db, job->table, job->gap_open, job->gap_extend, job->simd, job->progress};
    int gpu_session = 0;
#ifdef PW_HAVE_CUDA
    gpu_session = e.gpu != NULL;
#endif
    /* (shared with a GPU: the CPU worker makes its session itself) */
    if (st == PW_OK && (shared ? !gpu_session : info->backend == PW_BACKEND_CPU))
        st = pw_sw_batch_cpu_create(&run, job->queries, job->nq, &e.cpu);
    if (st == PW_OK && shared) {
        st = shared_scoring(job, &run, &e, info);
    } else if (st == PW_OK) {
#ifdef PW_HAVE_CUDA
        if (e.gpu)
            st = pw_cuda_batch_score(e.gpu, 0, job->db->count, job->scores, &info->recomputed, &info->long_pairs,
                                     job->progress);
        else
#endif
            st = pw_sw_batch_cpu_score(e.cpu, 0, job->db->count, job->threads, job->scores, &info->recomputed);
    }
    pw_sw_batch_cpu_destroy(e.cpu);
#ifdef PW_HAVE_CUDA
    pw_cuda_batch_destroy(e.gpu);
#endif
    return st;
}
