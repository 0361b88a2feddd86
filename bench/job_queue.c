/*
 * job_queue.c - the job queue (CuMAS) on a mixed set of jobs: SW, DTW, SAT, INTHIST, HEAT and
 * SOR at sizes where copies and kernels take comparable time (some jobs copy-in heavy, some
 * copy-out heavy, some kernel heavy), submitted in random arrival orders, through three queues:
 *   serial  - one job at a time, nothing overlapped (one stream: the baseline);
 *   fifo    - stages overlapped on streams, arrival order;
 *   reorder - stages overlapped, a window of 8 ordered for the shortest makespan (the default).
 * Each queue first runs one warm-up order (its predictions learn the stages' rates), then the
 * measured orders; the time of an order is from its first submit to the end of its drain.  The
 * lower bound of each order is the flow-shop bound of the stage times measured in that run.
 * Every run's outputs must equal the jobs' direct runs (pw_job_run on the same backend), and
 * those equal the CPU engines' (bit-exact: integer tables, SW scores, DTW, HEAT/SOR grids;
 * --no-cpu-check skips this).
 *
 *   bench_job_queue [--orders N] [--copy-scale S] [--kernel-scale S] [--backend cpu|cuda] [--no-cpu-check]
 *                   [--gpus G]
 * The scales multiply the rows of the copy-heavy and the kernel-heavy jobs.  --gpus G: the queue
 * over GPUs 0 .. G-1, a device queue each (peerwave_batch.h); each order's bound is then the
 * largest of the GPUs' own bounds (every GPU's jobs' measured stages), not a bound of the whole.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peerwave_batch.h"
#include "../src/batch/flowshop.h"
#include "../src/batch/job.h"
#include "../src/batch/queue_device.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One job of the set: its spec, input (kept pristine: in-place jobs start from it every run),
 * the buffers the queue runs on, and the direct run's outputs to compare with. */
typedef struct job_spec {
    pw_job_kind kind;
    int64_t rows, cols;   /* image or grid; sw/dtw: the two lengths */
    pw_dtype in, out;     /* sat: input and output types; heat/sor/dtw: the type */
    int64_t count;        /* inthist: bins; heat/sor: sweeps */
    int kernel_heavy;     /* rows scaled by --kernel-scale, else by --copy-scale */
} job_spec;

/* The set, for an H100 whose host copies run at about 10 GB/s (pageable memory through pinned
 * staging): stages of a few milliseconds, some jobs dominated by the copy-in, some by the
 * copy-out, some by the kernel; the scales balance the three stages' totals on another machine
 * (the stage table the benchmark prints shows them). */
static const job_spec set[] = {
    /* copy-out heavy: narrow input, wide table */
    {PW_JOB_SAT, 2048, 4096, PW_U8, PW_I64, 0, 0},
    {PW_JOB_INTHIST, 1024, 2048, PW_U8, PW_I32, 16, 0},
    {PW_JOB_SAT, 4096, 4096, PW_U8, PW_I32, 0, 0},
    {PW_JOB_INTHIST, 2048, 2048, PW_U8, PW_I32, 4, 0},
    /* copy-in heavy: wide input, narrow table */
    {PW_JOB_SAT, 4096, 4096, PW_F64, PW_F32, 0, 0},
    {PW_JOB_SAT, 4096, 8192, PW_F64, PW_F32, 0, 0},
    /* kernel heavy */
    {PW_JOB_SW, 98304, 65536, PW_U8, PW_U8, 0, 1},
    {PW_JOB_DTW, 49152, 32768, PW_F32, PW_F32, 0, 1},
    {PW_JOB_HEAT, 4096, 4096, PW_F32, PW_F32, 128, 1},
    {PW_JOB_SW, 131072, 32768, PW_U8, PW_U8, 0, 1},
    /* both copies */
    {PW_JOB_HEAT, 4096, 4096, PW_F64, PW_F64, 2, 0},
    {PW_JOB_SOR, 4096, 4096, PW_F32, PW_F32, 16, 0},
};

typedef struct bench_job {
    char label[64];
    pw_job job;
    pw_image in, out, pristine;
    pw_sw_result sw, sw_ref;
    pw_dtw_result dtw, dtw_ref;
    double residual, residual_ref;
    void *out_ref; /* the direct run's output (sat, inthist, heat, sor) */
    size_t out_bytes;
    void *seq[2];
} bench_job;

static void *checked_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* Random values of type t: integers over their range, floats in [0, 100) in steps of 1/8. */
static pw_image image(pw_dtype t, int64_t rows, int64_t cols)
{
    const int64_t n = rows * cols;
    void *p = checked_malloc((size_t)n * pw_dtype_size(t));
    for (int64_t k = 0; k < n; k++) {
        const uint64_t r = next_rand();
        switch (t) {
        case PW_U8: ((uint8_t *)p)[k] = (uint8_t)r; break;
        case PW_U16: ((uint16_t *)p)[k] = (uint16_t)r; break;
        case PW_F32: ((float *)p)[k] = (float)(r % 800) / 8; break;
        default: ((double *)p)[k] = (double)(r % 800) / 8; break;
        }
    }
    return (pw_image){t, rows, cols, 0, p};
}

static char *dna(int64_t n)
{
    char *s = checked_malloc((size_t)n);
    for (int64_t k = 0; k < n; k++) s[k] = "ACGT"[next_rand() >> 62];
    return s;
}

static void make_job(bench_job *b, const job_spec *sp, double copy_scale, double kernel_scale, pw_backend backend)
{
    pw_job *j = &b->job;
    const double scale = sp->kernel_heavy ? kernel_scale : copy_scale;
    int64_t rows = (int64_t)((double)sp->rows * scale), cols = sp->cols;
    if (rows < 3) rows = 3;
    pw_job_init(j, sp->kind);
    j->options.backend = backend;
    j->options.width_model = -1; /* the fixed widths: no training run inside a measured order */
    switch (sp->kind) {
    case PW_JOB_SAT:
        snprintf(b->label, sizeof b->label, "sat %s->%s %ldx%ld", pw_dtype_name(sp->in), pw_dtype_name(sp->out),
                 (long)rows, (long)cols);
        b->in = image(sp->in, rows, cols);
        b->out_bytes = (size_t)(rows * cols) * pw_dtype_size(sp->out);
        b->out = (pw_image){sp->out, rows, cols, 0, checked_malloc(b->out_bytes)};
        j->u.sat.in = &b->in, j->u.sat.out = &b->out;
        break;
    case PW_JOB_INTHIST:
        snprintf(b->label, sizeof b->label, "inthist u8 %ldx%ld %ld bins", (long)rows, (long)cols, (long)sp->count);
        b->in = image(PW_U8, rows, cols);
        b->out_bytes = (size_t)(rows * cols * sp->count) * 4;
        j->u.inthist.in = &b->in, j->u.inthist.bins = (int)sp->count, j->u.inthist.lo = 0, j->u.inthist.hi = 256;
        j->u.inthist.out = checked_malloc(b->out_bytes);
        break;
    case PW_JOB_HEAT:
    case PW_JOB_SOR:
        snprintf(b->label, sizeof b->label, "%s %s %ldx%ld x %ld", pw_job_kind_name(sp->kind), pw_dtype_name(sp->in),
                 (long)rows, (long)cols, (long)sp->count);
        b->in = image(sp->in, rows, cols);
        b->out_bytes = (size_t)(rows * cols) * pw_dtype_size(sp->in);
        b->pristine = b->in;
        b->pristine.data = checked_malloc(b->out_bytes);
        memcpy(b->pristine.data, b->in.data, b->out_bytes);
        j->u.stencil.grid = &b->in, j->u.stencil.sweeps = sp->count;
        j->u.stencil.omega = 1.5, j->u.stencil.residual = &b->residual;
        break;
    case PW_JOB_SW:
        snprintf(b->label, sizeof b->label, "sw %ld x %ld", (long)rows, (long)cols);
        b->seq[0] = dna(rows), b->seq[1] = dna(cols);
        j->u.sw.a = b->seq[0], j->u.sw.n = rows, j->u.sw.b = b->seq[1], j->u.sw.m = cols;
        j->u.sw.result = &b->sw;
        break;
    default:
        snprintf(b->label, sizeof b->label, "dtw f32 %ld x %ld", (long)rows, (long)cols);
        b->seq[0] = image(PW_F32, 1, rows).data, b->seq[1] = image(PW_F32, 1, cols).data;
        j->u.dtw.type = PW_F32, j->u.dtw.a = b->seq[0], j->u.dtw.n = rows;
        j->u.dtw.b = b->seq[1], j->u.dtw.m = cols, j->u.dtw.result = &b->dtw;
        break;
    }
}

/* A watch on the queue: an order that has not finished after 30 s has its state printed, once (a
 * stall must be diagnosable from the log of a machine given back since). */
typedef struct watch {
    pthread_mutex_t lock;
    pw_queue *q;
    double since; /* the current order's start; 0: none running */
    int stop;
} watch;

static void *watch_thread(void *p)
{
    watch *w = p;
    for (;;) {
        sleep(1);
        pthread_mutex_lock(&w->lock);
        if (w->stop) break;
        if (w->q && w->since > 0 && now() - w->since > 30) {
            printf("STALL: an order has run for 30 s\n");
            pw_queue_debug_dump(w->q, stdout);
            fflush(stdout);
            w->since = 0; /* once: a log that stops growing is bench/queue_stall.sh's sign */
        }
        pthread_mutex_unlock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static void watch_set(watch *w, pw_queue *q, double since)
{
    pthread_mutex_lock(&w->lock);
    w->q = q, w->since = since;
    pthread_mutex_unlock(&w->lock);
}

static void restore(bench_job *b)
{
    if (b->pristine.data) memcpy(b->in.data, b->pristine.data, b->out_bytes);
}

static void *output(bench_job *b)
{
    switch (b->job.kind) {
    case PW_JOB_SAT: return b->out.data;
    case PW_JOB_INTHIST: return b->job.u.inthist.out;
    case PW_JOB_HEAT:
    case PW_JOB_SOR: return b->in.data;
    default: return NULL;
    }
}

/* Keep this run's outputs as the reference (ref != 0) or compare with it. */
static int keep_or_compare(bench_job *b, int keep)
{
    void *o = output(b);
    if (keep) {
        if (o) b->out_ref = malloc(b->out_bytes), memcpy(b->out_ref, o, b->out_bytes);
        b->sw_ref = b->sw, b->dtw_ref = b->dtw, b->residual_ref = b->residual;
        return 1;
    }
    if (o && memcmp(o, b->out_ref, b->out_bytes)) return 0;
    if (b->job.kind == PW_JOB_SW)
        return b->sw.score == b->sw_ref.score && b->sw.end_a == b->sw_ref.end_a && b->sw.end_b == b->sw_ref.end_b;
    if (b->job.kind == PW_JOB_DTW) return b->dtw.distance == b->dtw_ref.distance;
    return 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* lines reach a log even if the run is cut short */
    int orders = 25, cpu_check = 1;
    double copy_scale = 1, kernel_scale = 1;
    pw_backend backend = PW_BACKEND_CUDA;
    int gpus = 0, gpu_list[PW_QUEUE_MAX_DEVICES];
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--orders") && k + 1 < argc) orders = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--copy-scale") && k + 1 < argc) copy_scale = atof(argv[++k]);
        else if (!strcmp(argv[k], "--kernel-scale") && k + 1 < argc) kernel_scale = atof(argv[++k]);
        else if (!strcmp(argv[k], "--backend") && k + 1 < argc)
            backend = !strcmp(argv[++k], "cpu") ? PW_BACKEND_CPU : PW_BACKEND_CUDA;
        else if (!strcmp(argv[k], "--no-cpu-check")) cpu_check = 0;
        else if (!strcmp(argv[k], "--gpus") && k + 1 < argc && (gpus = atoi(argv[++k])) >= 1 && gpus <= PW_QUEUE_MAX_DEVICES)
            for (int d = 0; d < gpus; d++) gpu_list[d] = d;
        else {
            fprintf(stderr, "usage: bench_job_queue [--orders N] [--copy-scale S] [--kernel-scale S] [--backend cpu|cuda] "
                            "[--no-cpu-check] [--gpus 1..16]\n");
            return 2;
        }
    }
    enum { MAX_JOBS = (int)(sizeof set / sizeof set[0]) };
    bench_job jobs[MAX_JOBS];
    memset(jobs, 0, sizeof jobs);
    const int n = MAX_JOBS;
    for (int k = 0; k < n; k++) make_job(&jobs[k], &set[k], copy_scale, kernel_scale, backend);
    int failures = 0;
    /* direct runs: the outputs every queue run must reproduce, their times */
    printf("job set: %d jobs, backend %s\n", n, backend == PW_BACKEND_CPU ? "cpu" : "cuda");
    for (int k = 0; k < n; k++) {
        const double t = now();
        pw_status st = pw_job_run(&jobs[k].job);
        printf("  %-30s direct %8.2f ms %s\n", jobs[k].label, 1e3 * (now() - t), pw_status_str(st));
        if (st != PW_OK) return 1;
        keep_or_compare(&jobs[k], 1);
        restore(&jobs[k]);
    }
    if (cpu_check && backend != PW_BACKEND_CPU) {
        int same = 0;
        for (int k = 0; k < n; k++) {
            bench_job *b = &jobs[k];
            if (b->job.kind == PW_JOB_SAT && (b->out.type == PW_F32 || b->out.type == PW_F64)) {
                same++; /* float SAT: the GPU sums by scans, another order (checked in test_gpu) */
                continue;
            }
            pw_job cpu = b->job;
            cpu.options.backend = PW_BACKEND_CPU;
            const double t = now();
            pw_status st = pw_job_run(&cpu);
            printf("  %-30s cpu %8.2f ms\n", b->label, 1e3 * (now() - t));
            const int ok = st == PW_OK && keep_or_compare(b, 0);
            if (!ok) printf("CPU CHECK FAILED: %s (%s)\n", b->label, pw_status_str(st));
            same += ok;
            restore(b);
        }
        printf("cpu check: %d of %d jobs equal the CPU engines\n", same, n);
        failures += same != n;
    }
    /* the arrival orders, the same for every queue */
    int(*perm)[MAX_JOBS] = malloc(sizeof *perm * (size_t)(orders + 1));
    for (int o = 0; o <= orders; o++) {
        for (int k = 0; k < n; k++) perm[o][k] = k;
        for (int k = n - 1; k > 0; k--) {
            const int r = (int)(next_rand() % (uint64_t)(k + 1)), t = perm[o][k];
            perm[o][k] = perm[o][r], perm[o][r] = t;
        }
    }
    static const pw_queue_order modes[3] = {PW_QUEUE_SERIAL, PW_QUEUE_FIFO, PW_QUEUE_REORDER};
    static const char *const mode_names[3] = {"serial", "fifo", "reorder"};
    double *seconds = calloc((size_t)(3 * orders), sizeof(double)), *bound = calloc((size_t)(3 * orders), sizeof(double));
    /* (several GPUs: the bound of any split of the jobs over them, beside each one's own) */
    double *split = calloc((size_t)(3 * orders), sizeof(double));
    int devices = 1;
    int engines = 0;
    watch w = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};
    pthread_t watcher;
    pthread_create(&watcher, NULL, watch_thread, &w);
    for (int m = 0; m < 3; m++) {
        pw_queue_options opt;
        pw_queue_options_init(&opt);
        opt.backend = backend;
        opt.order = modes[m];
        opt.devices = gpus ? gpu_list : NULL, opt.n_devices = gpus;
        pw_queue *q;
        pw_status st = pw_queue_create(&opt, &q);
        if (st != PW_OK) {
            printf("queue: %s\n", pw_status_str(st));
            return 1;
        }
        int64_t base = 0;
        for (int o = 0; o <= orders; o++) { /* order 0: the warm-up */
            for (int k = 0; k < n; k++) restore(&jobs[k]);
            const double t = now();
            watch_set(&w, q, t);
            for (int k = 0; k < n; k++) pw_queue_submit(q, &jobs[perm[o][k]].job, NULL);
            st = pw_queue_drain(q);
            const double elapsed = now() - t;
            watch_set(&w, NULL, 0);
            /* the bound of this order's measured stages */
            pw_flow_job stages[MAX_JOBS];
            int member_of[MAX_JOBS];
            for (int k = 0; k < n; k++) {
                queue_job_trace tr;
                int64_t local;
                pw_queue_job_get_trace(q, base + k, &tr);
                pw_queue_job_place(q, base + k, &member_of[k], &local);
                stages[k].s = tr.in_end >= 0 ? tr.in_end - tr.in_start : 0;
                stages[k].p = tr.kernel_end >= 0 ? tr.kernel_end - tr.kernel_start : 0;
                stages[k].r = tr.out_end >= 0 ? tr.out_end - tr.out_start : 0;
                if (tr.on_cpu) stages[k].s = stages[k].p = stages[k].r = 0;
            }
            base += n;
            pw_queue_stats stats;
            pw_queue_get_stats(q, &stats);
            engines = stats.copy_engines;
            double lb = 0; /* (several GPUs: the largest of each one's bound over its own jobs) */
            for (int g = 0; g < stats.devices; g++) {
                pw_flow_job mine[MAX_JOBS];
                int count = 0;
                double b = 0;
                for (int k = 0; k < n; k++)
                    if (member_of[k] == g) mine[count++] = stages[k];
                if (count && pw_flow_lower_bound(mine, count, engines > 0 ? engines : 2, &b) == PW_OK && b > lb) lb = b;
            }
            double any_split = lb;
            devices = stats.devices;
            if (devices > 1) pw_flow_lower_bound_split(stages, n, engines > 0 ? engines : 2, devices, &any_split);
            int same = st == PW_OK;
            for (int k = 0; k < n; k++) same &= keep_or_compare(&jobs[k], 0);
            if (!same) {
                printf("CHECK FAILED: %s order %d: %s\n", mode_names[m], o, pw_status_str(st));
                failures++;
            }
            if (o == 0) {
                if (m == 0) {
                    printf("stages measured one job at a time (ms: copy-in, kernel, copy-out):\n");
                    for (int k = 0; k < n; k++) {
                        const int i = perm[0][k];
                        printf("  %-30s %7.2f %7.2f %7.2f\n", jobs[i].label, 1e3 * stages[k].s, 1e3 * stages[k].p,
                               1e3 * stages[k].r);
                    }
                }
                continue;
            }
            printf("  %s order %d: %.2f ms\n", mode_names[m], o, 1e3 * elapsed);
            seconds[m * orders + o - 1] = elapsed;
            bound[m * orders + o - 1] = lb;
            split[m * orders + o - 1] = any_split;
        }
        pw_queue_stats stats;
        pw_queue_get_stats(q, &stats);
        printf("%-8s copy engines %d, on the CPU %lld, device failed %d\n", mode_names[m], stats.copy_engines,
               (long long)stats.on_cpu, stats.device_failed);
        pw_queue_destroy(q);
    }
    pthread_mutex_lock(&w.lock);
    w.stop = 1;
    pthread_mutex_unlock(&w.lock);
    pthread_join(watcher, NULL);
    printf("order  serial_ms  fifo_ms  reorder_ms  bound_ms  serial/reorder  fifo/reorder  reorder/bound%s\n",
           devices > 1 ? "  split_ms  reorder/split" : "");
    double sum_sr = 0, sum_fr = 0, worst_fifo = 0, fr_at_worst = 0, max_rb = 0, sum_rb = 0, sum_rs = 0, max_rs = 0;
    for (int o = 0; o < orders; o++) {
        const double s = seconds[o], f = seconds[orders + o], r = seconds[2 * orders + o], b = bound[2 * orders + o];
        const double sb = split[2 * orders + o];
        printf("%5d  %9.2f  %7.2f  %10.2f  %8.2f  %14.3f  %12.3f  %13.3f", o + 1, 1e3 * s, 1e3 * f, 1e3 * r, 1e3 * b,
               s / r, f / r, r / b);
        if (devices > 1) printf("  %8.2f  %13.3f", 1e3 * sb, r / sb);
        printf("\n");
        sum_sr += s / r, sum_fr += f / r, sum_rb += r / b, sum_rs += r / sb;
        if (r / sb > max_rs) max_rs = r / sb;
        if (f > worst_fifo) worst_fifo = f, fr_at_worst = f / r;
        if (r / b > max_rb) max_rb = r / b;
    }
    printf("summary: %d orders, %d copy engines: reorder vs serial %.3fx (goal >= 1.8), vs fifo %.3fx on average "
           "(goal >= 1.1), %.3fx on fifo's worst order (goal >= 1.3); reorder / bound %.3f average, %.3f worst "
           "(goal <= 1.1); %s\n",
           orders, engines, sum_sr / orders, sum_fr / orders, fr_at_worst, sum_rb / orders, max_rb,
           failures ? "CHECKS FAILED" : "every result checked");
    if (devices > 1)
        printf("over %d GPUs: reorder / the bound of any split %.3f average, %.3f worst (each GPU's bound above is of the "
               "jobs it got)\n", devices, sum_rs / orders, max_rs);
    return failures ? 1 : 0;
}
