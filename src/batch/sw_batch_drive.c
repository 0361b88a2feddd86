/* sw_batch_drive.c - scoring a chunk of queries against the database on the devices the batch
 * options name: one backend, or the GPUs and the CPU cores together under HDSS (or a static
 * split), each device pulling blocks of records from one queue (peerwave_batch.h). */
#include <math.h>
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
/* An item's cost for HDSS is its cells (its records' letters times the query letters); a GPU
 * pays HDSS_RECORD_FILL columns a record besides (pw_hdss_device.item_cost): it takes a record
 * through a warp in letters + 31 steps a query segment (batch_sw_proc.cuh).  Costed in cells
 * alone, its rate fell along the queue (sorted longest first): an H200 trace (2026-11-29) fits
 * 3.2e12 cells/s plus 107 ns a record (37 columns of the five queries' 9091 letters), 3.0e12
 * cells/s on 620-letter records and 2.3e12 on 90-letter ones, and the GPU ended late.  With the
 * fill in every device's cost instead (46bcea9), the CPU's rate rose along the queue (it pays
 * no fill), the end-game gave its last blocks half of what it could do, and it waited 31 ms for
 * the GPU: a spread of 2.7-2.9% on the H200.  So the fill is the GPU's alone. */
#define HDSS_RECORD_FILL 31

typedef struct engines {
    sw_batch_cpu *cpu;
#ifdef PW_HAVE_CUDA
    pw_cuda_batch *gpu[PW_BATCH_MAX_GPUS]; /* a session a GPU that started, in the options' order */
#endif
    int n_gpu;
    int gpu_device[PW_BATCH_MAX_GPUS]; /* the sessions' CUDA devices */
    int gpus_failed;                   /* listed GPUs that could not take part */
    int gpu_lane_bits;
} engines;

/* One device of a shared run: a GPU, or a group of CPU threads. */
typedef struct device_worker {
    struct shared_run *run;
    int index;      /* in the scheduler */
    int gpu;        /* 1: the GPU session e->gpu[session], else the CPU session with `threads` */
    int session;
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
        st = pw_cuda_batch_score(run->e->gpu[w->session], r0, r1, run->job->scores, &recomputed, &long_pairs,
                                 run->job->progress);
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
        /* the CPU's groups are made here, while the GPUs already work (with a GPU this is the
         * only CPU worker): made before, they held the GPUs back by the time it takes to
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

/* HDSS or STATIC over the sessions that exist: the GPUs and a CPU group, or two CPU groups. */
static pw_status shared_scoring(const sw_batch_score_job *job, const sw_batch_cpu_run *cpu_run, engines *e,
                                pw_batch_info *info)
{
    const sw_batch_db *db = job->db;
    const int n_gpu = e->n_gpu;
    enum { MOST = PW_BATCH_MAX_GPUS + 2 };
    device_worker w[MOST];
    pw_hdss_device dev[MOST];
    char names[MOST][16];
    memset(w, 0, sizeof w);
    const int n_dev = n_gpu ? n_gpu + 1 : 2;
    if (n_gpu) {
        for (int g = 0; g < n_gpu; g++) {
            w[g].gpu = 1, w[g].session = g;
            snprintf(names[g], sizeof names[g], n_gpu > 1 ? "gpu%d" : "gpu", e->gpu_device[g]);
            dev[g] = (pw_hdss_device){names[g], PW_HDSS_GPU, job->batch->gpu_weight, 0, 0, 0, 0, 0};
        }
        /* a core drives each GPU */
        w[n_gpu].threads = job->threads > n_gpu ? job->threads - n_gpu : 1;
        /* The CPU group takes its blocks from the queue's far end, the shortest records: a GPU
         * pays its fill a record there (a record of 40 letters costs it three times its cells)
         * and the CPU none, and at the front a CPU block of a few items of long records ran a
         * thread an item (an H200, 2026-11-30: 98% of the records 16-64 letters, 2% 2000-6000;
         * from the front the CPU's first blocks of 1-7 items ran at 1e10-5e10 cells/s against its
         * 1.5e11 on the short ones, and HDSS took 0.87x the GPU alone's time, 0.80x a static
         * split's, which had given the CPU the short tail) */
        dev[n_gpu] = (pw_hdss_device){"cpu", PW_HDSS_CPU, job->batch->cpu_weight, 0, 0, 0, 1, 0};
    } else {
        w[0].threads = job->threads / 2 > 0 ? job->threads / 2 : 1;
        w[1].threads = job->threads - w[0].threads > 0 ? job->threads - w[0].threads : 1;
        dev[0] = (pw_hdss_device){"cpu0", PW_HDSS_CPU, job->batch->gpu_weight, 0, 0, 0, 0, 0};
        dev[1] = (pw_hdss_device){"cpu1", PW_HDSS_CPU, job->batch->cpu_weight, 0, 0, 0, 0, 0};
    }
    /* items of HDSS_ITEM_RECORDS sorted records, costed in cells against every query; a GPU's
     * item cost is its records' fill (HDSS_RECORD_FILL) */
    int64_t query_letters = 0;
    for (int64_t q = 0; q < job->nq; q++) query_letters += job->queries[q].n;
    const int64_t n_items = (db->count + HDSS_ITEM_RECORDS - 1) / HDSS_ITEM_RECORDS;
    int64_t *costs = pw_malloc(sizeof *costs * (size_t)n_items);
    if (!costs) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t k = 0; k < n_items; k++) {
        const int64_t end = (k + 1) * HDSS_ITEM_RECORDS < db->count ? (k + 1) * HDSS_ITEM_RECORDS : db->count;
        const int64_t begin = k * HDSS_ITEM_RECORDS;
        const int64_t columns = db->at[end] - db->at[begin];
        if (__builtin_mul_overflow(columns, query_letters, &costs[k]))
            costs[k] = INT64_MAX / n_items; /* beyond any real run; the scheduler checks the sum */
    }
    /* a GPU block fills the GPU: at least 2048 items (65536 records, some waves of warps on a
     * large GPU), at most an eighth of the work shared by the GPUs (a small search still gives
     * every device its part).  The queue is sorted longest first: 2048 items cost the most at its
     * front (the first block) and the least at its end (the least a later block asks for: with
     * the front's cost the GPU's last block was a fifth of the run, and the end-game could not
     * end the devices together). */
    if (n_gpu) {
        const int64_t k = n_items < 2048 ? n_items : 2048;
        int64_t fill; /* (the GPU's units; a last item of fewer records is charged a whole one's) */
        if (__builtin_mul_overflow((int64_t)HDSS_RECORD_FILL * HDSS_ITEM_RECORDS, query_letters, &fill))
            fill = 0; /* (beyond any real search: the costs' sum fails in pw_hdss_create first) */
        double front = 0, back = 0, total = 0; /* (doubles: sums that pass INT64_MAX fail in create) */
        for (int64_t i = 0; i < n_items; i++) {
            const double c = (double)costs[i] + (double)fill;
            total += c, front += i < k ? c : 0, back += i >= n_items - k ? c : 0;
        }
        const double most = fmin(total / 8 / n_gpu, 4e18);
        for (int g = 0; g < n_gpu; g++)
            dev[g].first_block = (int64_t)fmin(front, most), dev[g].min_block = (int64_t)fmin(back, most),
            dev[g].item_cost = fill;
        /* ... and at least the items that fill it wherever the queue has them: the cost floors
         * above are the back's, which at the front's long records is a few items (an H200 ran
         * 103 items, 1648 warps of its 3168, at 0.7x its rate); but no more than an eighth of
         * the items a GPU, so that a small search still gives every device its part */
#ifdef PW_HAVE_CUDA
        for (int g = 0; g < n_gpu; g++) {
            const int64_t fill = (pw_cuda_batch_fill_records(e->gpu[g]) + HDSS_ITEM_RECORDS - 1) / HDSS_ITEM_RECORDS;
            const int64_t eighth = n_items / 8 / n_gpu;
            dev[g].min_items = fill < eighth ? fill : eighth;
        }
#endif
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
    pw_hdss_device_report dr[MOST];
    /* rounds: a device's worker stops at an empty block; a failure after that puts its block
     * back, and the devices still alive fetch again (hdss.h) */
    int failed = 0;
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
        failed = 0;
        for (int d = 0; d < n_dev; d++) failed += w[d].status != PW_OK;
        if (failed == n_dev) {
            st = w[0].status; /* every device failed */
            pw_set_error_detail("%s", w[0].detail);
            break;
        }
        if (round > 4) st = PW_ERR_INTERNAL; /* work left that no live device takes */
    }
    if (st == PW_OK) {
        info->recomputed += atomic_load(&run.recomputed);
        info->long_pairs += atomic_load(&run.long_pairs);
        const int cpu_at = n_gpu ? n_gpu : 1; /* (no GPU: "gpu" stands for CPU group 0) */
        info->gpu_share = info->gpu_rate = 0;
        for (int d = 0; d < cpu_at; d++) {
            info->gpu_share += dr[d].share;
            info->gpu_rate += dr[d].rate;
        }
        info->gpus = n_gpu;
        for (int g = 0; g < n_gpu; g++) {
            info->gpu_device[g] = e->gpu_device[g];
            info->gpu_device_share[g] = dr[g].share;
            info->gpu_device_rate[g] = dr[g].rate;
        }
        info->cpu_share = dr[cpu_at].share;
        info->cpu_rate = dr[cpu_at].rate;
        info->spread = rep.spread;
        int failed_here = e->gpus_failed; /* (per chunk of queries: the search reports its worst chunk) */
        for (int d = 0; d < n_dev; d++) failed_here += w[d].status != PW_OK;
        if (failed_here > info->devices_failed) info->devices_failed = failed_here;
        for (int d = 0; d < n_dev; d++) /* the search succeeded: say what broke, for the report */
            if (w[d].status != PW_OK)
                pw_set_error_detail("%s failed during the search (%s); the other devices did its work", dev[d].name,
                                    w[d].detail);
    }
    pw_hdss_destroy(run.hdss);
    return st;
}

pw_status pw_batch_devices_check(const pw_batch_options *batch)
{
    if (batch->n_devices < 0 || batch->n_devices > PW_BATCH_MAX_GPUS || (batch->n_devices > 0 && !batch->devices)) {
        pw_set_error_detail("batch options: n_devices %d (0 .. %d, with the devices listed)", batch->n_devices,
                            PW_BATCH_MAX_GPUS);
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (batch->n_devices > 1 && batch->schedule == PW_BATCH_ONE) {
        pw_set_error_detail("batch options: several GPUs share a search under HDSS or STATIC, not ONE");
        return PW_ERR_INVALID_ARGUMENT;
    }
    for (int a = 0; a < batch->n_devices; a++) {
        if (batch->devices[a] < 0) {
            pw_set_error_detail("batch options: device %d", batch->devices[a]);
            return PW_ERR_INVALID_ARGUMENT;
        }
        for (int b = 0; b < a; b++)
            if (batch->devices[a] == batch->devices[b]) {
                pw_set_error_detail("batch options: device %d twice", batch->devices[a]);
                return PW_ERR_INVALID_ARGUMENT;
            }
    }
    return PW_OK;
}

#ifdef PW_HAVE_CUDA
/* The GPU sessions: one for ONE (a CUDA backend), shared: one a GPU of the batch options' list (or
 * the options' device).  Shared, a GPU that cannot start leaves its work to the other devices;
 * scores beyond the profile's bytes send everything to the CPU. */
static pw_status open_gpus(const sw_batch_score_job *job, int shared, engines *e)
{
    pw_backend b = PW_BACKEND_CPU;
    pw_options o = *job->options;
    if (o.backend == PW_BACKEND_CPU) o.backend = PW_BACKEND_AUTO; /* shared: the GPUs if there are any */
    if (pw_backend_resolve(&o, &b) != PW_OK || b != PW_BACKEND_CUDA) return PW_OK;
    const int listed = job->batch->n_devices > 0, n = listed ? job->batch->n_devices : 1; /* (ONE: at most one) */
    char failures[256] = "";
    for (int g = 0; g < n; g++) {
        if (listed) o.device = job->batch->devices[g];
        if (o.device != job->options->device) o.cuda_stream = NULL; /* (the caller's stream is its device's) */
        pw_cuda_batch *session = NULL;
        pw_status st = pw_cuda_batch_create(&o, job->db, job->table, job->gap_open, job->gap_extend, job->queries, job->nq,
                                            &session, &e->gpu_lane_bits);
        if (st == PW_OK) {
            e->gpu_device[e->n_gpu] = o.device;
            e->gpu[e->n_gpu++] = session;
            continue;
        }
        if (st == PW_ERR_UNSUPPORTED) break; /* (the same on every GPU) */
        if (!shared) return st;
        size_t at = strlen(failures);
        snprintf(failures + at, sizeof failures - at, "%sGPU %d could not take part (%s: %s)", at ? "; " : "", o.device,
                 pw_status_str(st), pw_error_detail());
        e->gpus_failed++;
    }
    if (failures[0]) pw_set_error_detail("%s; the other devices did the work", failures);
    return PW_OK;
}
#endif

pw_status pw_sw_batch_score(const sw_batch_score_job *job, pw_batch_info *info)
{
    engines e = {0};
    pw_status st = PW_OK;
    const int shared = job->batch->schedule != PW_BATCH_ONE;
#ifdef PW_HAVE_CUDA
    if (shared || info->backend == PW_BACKEND_CUDA) {
        st = open_gpus(job, shared, &e);
        info->backend = e.n_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        if (e.n_gpu && !shared) info->lane_bits = e.gpu_lane_bits; /* shared: the CPU's are reported */
    }
#endif
    sw_batch_cpu_run run = {job->db, job->table, job->gap_open, job->gap_extend, job->simd, job->progress};
    /* (shared with a GPU: the CPU worker makes its session itself) */
    if (st == PW_OK && (shared ? !e.n_gpu : info->backend == PW_BACKEND_CPU))
        st = pw_sw_batch_cpu_create(&run, job->queries, job->nq, &e.cpu);
    if (st == PW_OK && shared) {
        st = shared_scoring(job, &run, &e, info);
    } else if (st == PW_OK) {
#ifdef PW_HAVE_CUDA
        if (e.n_gpu)
            st = pw_cuda_batch_score(e.gpu[0], 0, job->db->count, job->scores, &info->recomputed, &info->long_pairs,
                                     job->progress);
        else
#endif
            st = pw_sw_batch_cpu_score(e.cpu, 0, job->db->count, job->threads, job->scores, &info->recomputed);
    }
    pw_sw_batch_cpu_destroy(e.cpu);
#ifdef PW_HAVE_CUDA
    for (int g = 0; g < e.n_gpu; g++) pw_cuda_batch_destroy(e.gpu[g]);
#endif
    return st;
}
