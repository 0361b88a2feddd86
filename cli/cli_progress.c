/* cli_progress.c - what a long run shows on stderr: the library's progress hook
 * (pw_options.progress) feeds the fraction done, the rate, the time left and SW's best score so
 * far to the main thread, which prints them once a second while the run goes on on a helper
 * thread; Ctrl-C sets the library's cancel flag, so the run stops cleanly (a second Ctrl-C kills
 * the program as usual).  On a terminal the line is redrawn in place after two seconds; with
 * --progress (e.g. into a log file) it prints a line a second; --quiet shows nothing. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../src/core/exec.h"
#include "../src/core/env_number.h"
#include "../src/core/status_detail.h"
#include "../apps/sw_gpus.h"

/* What the hook saw last; the hook runs on one of the library's threads. */
static struct {
    pthread_mutex_t lock;
    pw_progress latest;
    int have;
} seen = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

static volatile int cancel_flag; /* the library's cancel flag: set by SIGINT */

static int progress_hook(void *user, const pw_progress *p)
{
    (void)user;
    pthread_mutex_lock(&seen.lock);
    seen.latest = *p;
    seen.have = 1;
    pthread_mutex_unlock(&seen.lock);
    return 0;
}

static void on_interrupt(int sig)
{
    cancel_flag = 1;
    signal(sig, SIG_DFL); /* a second Ctrl-C ends the program at once */
}

static int shows_progress(const cli_common *c) { return !c->quiet && (c->progress || isatty(STDERR_FILENO)); }

/* PEERWAVE_PROGRESS_AFTER_MS / _EVERY_MS in ms: fallback where unset, -1 where not a whole
 * number >= least (cli_progress_attach refuses it by name: "abc" and "-500" were taken as 0). */
static long progress_env_ms(const char *name, long least, long fallback)
{
    long long x = fallback;
    return pw_env_number(name, least, LONG_MAX, &x) < 0 ? -1 : (long)x;
}

double cli_progress_every_seconds(void)
{
    const long ms = progress_env_ms("PEERWAVE_PROGRESS_EVERY_MS", 1, 1000);
    return ms > 0 ? ms / 1000.0 : 1.0; /* (a value refused elsewhere: the default here) */
}

int cli_progress_attach(cli_common *c)
{
    const int after = progress_env_ms("PEERWAVE_PROGRESS_AFTER_MS", 0, 0) < 0;
    if (after || progress_env_ms("PEERWAVE_PROGRESS_EVERY_MS", 1, 1) < 0) {
        cli_error("%s='%s': a whole number of milliseconds %s expected (or leave it unset)",
                  after ? "PEERWAVE_PROGRESS_AFTER_MS" : "PEERWAVE_PROGRESS_EVERY_MS",
                  getenv(after ? "PEERWAVE_PROGRESS_AFTER_MS" : "PEERWAVE_PROGRESS_EVERY_MS"), after ? ">= 0" : ">= 1");
        return -1;
    }
    if (!shows_progress(c) || cli_in_batch()) return 0; /* a batch shows the queue's progress */
    c->options.progress = progress_hook;
    c->options.progress_user = NULL;
    const long every = progress_env_ms("PEERWAVE_PROGRESS_EVERY_MS", 1, 0); /* (see cli_run_job) */
    c->options.progress_interval_ms = every > 0 && every < 250 ? every : 250;
    c->options.cancel = &cancel_flag;
    return 0;
}

typedef struct job_state {
    cli_job_fn job;
    void *arg;
    pw_status status;
    int done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    char detail[256]; /* the job thread's pw_error_detail (per thread), for the caller's message */
} job_state;

static void *job_thread(void *p)
{
    job_state *s = p;
    pw_status st = s->job(s->arg);
    pthread_mutex_lock(&s->lock);
    snprintf(s->detail, sizeof s->detail, "%s", pw_error_detail());
    s->status = st;
    s->done = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* "1.23 Gcells/s" */
static void format_rate(char *out, size_t size, double per_second)
{
    const char *unit = "";
    if (per_second >= 1e12) per_second /= 1e12, unit = "T";
    else if (per_second >= 1e9) per_second /= 1e9, unit = "G";
    else if (per_second >= 1e6) per_second /= 1e6, unit = "M";
    else if (per_second >= 1e3) per_second /= 1e3, unit = "k";
    snprintf(out, size, "%.3g %scells/s", per_second, unit);
}

/* "1h02m", "3m05s", "42s" */
static void format_duration(char *out, size_t size, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(out, size, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else if (t >= 60) snprintf(out, size, "%ldm%02lds", t / 60, t % 60);
    else snprintf(out, size, "%lds", t);
}

/* One status line: "running, 5 s" before the first report, then
 * "42.0% 1.23 Tcells/s ETA 12s best 1234 (5 s)". */
static void format_status(char *out, size_t size, double elapsed)
{
    pthread_mutex_lock(&seen.lock);
    const pw_progress p = seen.latest;
    const int have = seen.have;
    pthread_mutex_unlock(&seen.lock);
    if (!have || p.cells_done == 0) {
        snprintf(out, size, "running, %.0f s", elapsed);
        return;
    }
    char rate[32], eta[32] = "?", best[48] = "";
    format_rate(rate, sizeof rate, p.cells_per_second);
    if (p.eta_seconds >= 0) format_duration(eta, sizeof eta, p.eta_seconds);
    if (p.has_best) snprintf(best, sizeof best, " best %lld", (long long)p.best);
    snprintf(out, size, "%5.1f%% %s ETA %s%s (%.0f s)", 100.0 * p.fraction, rate, eta, best, elapsed);
}

static pw_status run_library_job(void *job) { return pw_job_run(job); }

static pw_comm *dist_comm;
static int dist_balance; /* --balance: measure each rank's weight first */
static pw_status run_dist_job(void *job)
{
    pw_status st = dist_balance ? pw_comm_measure_weight(dist_comm, &((pw_job *)job)->options, NULL) : PW_OK;
    return st == PW_OK ? pw_dist_job_run(dist_comm, job) : st;
}

/* --gpus / --devices: the job as bands of columns over these GPUs, a rank a thread of this process
 * (pw_comm_local); rank 0 runs here and writes the caller's results, the others into their own. */
typedef struct device_rank {
    pw_comm *comm;
    pw_job job;
    pw_sw_result sw;
    pw_dtw_result dtw;
    pw_cell_result cell;
    pw_image table;     /* HEAT, SOR: its own copy of the grid (swept in place: a band's halo
                           columns are its own copies of its neighbours' edges) */
    double residual;
    pw_run_info info;
    pw_status st;
} device_rank;

/* A rank other than 0 writes its own results, not the caller's (the ranks are threads of this
 * process).  SAT and INTHIST ranks write their columns into the caller's one output table: with
 * one buffer there is nothing to gather (pw_dist_gather_columns), and the host holds one table, not
 * one a GPU.  HEAT and SOR sweep their own copies of the grid (a band's halo columns are its own
 * copies of its neighbours' edges) and gather.  A user cell's GPU bands share the caller's grid and
 * last row and column (each band uploads its part before any band writes back, and writes only its
 * own columns: src/jit/cell_bands.c). */
static pw_status rank_results(device_rank *r)
{
    pw_job *j = &r->job;
    j->info = &r->info;
    if (j->kind == PW_JOB_SW) j->u.sw.result = &r->sw;
    if (j->kind == PW_JOB_DTW) j->u.dtw.result = &r->dtw;
    if (j->kind == PW_JOB_CELL) j->u.cell.result = &r->cell;
    if (j->kind == PW_JOB_HEAT || j->kind == PW_JOB_SOR) {
        const pw_image *g = j->u.stencil.grid;
        const size_t elem = pw_dtype_size(g->type), row = (size_t)g->cols * elem;
        const int64_t stride = g->stride ? g->stride : g->cols;
        r->table = (pw_image){g->type, g->rows, g->cols, 0, malloc((size_t)g->rows * row + 1)};
        if (!r->table.data) return PW_ERR_OUT_OF_MEMORY;
        for (int64_t i = 0; i < g->rows; i++)
            memcpy((char *)r->table.data + (size_t)i * row, (const char *)g->data + (size_t)(i * stride) * elem, row);
        j->u.stencil.grid = &r->table;
        if (j->u.stencil.residual) j->u.stencil.residual = &r->residual;
    }

    return PW_OK;
}

static void *device_rank_main(void *p)
{
    device_rank *r = p;
    r->st = dist_balance ? pw_comm_measure_weight(r->comm, &r->job.options, NULL) : PW_OK;
    if (r->st == PW_OK) r->st = pw_dist_job_run(r->comm, &r->job);
    return NULL;
}

/* The ranks' threads start their run only once every one of them exists (a rank missing from
 * the first collective would leave the others waiting for ever): 1 go, -1 give up. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int state;
} start_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};

static void open_gate(int state)
{
    pthread_mutex_lock(&start_gate.lock);
    start_gate.state = state;
    pthread_cond_broadcast(&start_gate.changed);
    pthread_mutex_unlock(&start_gate.lock);
}

static void *device_rank_thread(void *p)
{
    pthread_mutex_lock(&start_gate.lock);
    while (start_gate.state == 0) pthread_cond_wait(&start_gate.changed, &start_gate.lock);
    const int go = start_gate.state > 0;
    pthread_mutex_unlock(&start_gate.lock);
    return go ? device_rank_main(p) : NULL;
}

static const cli_common *devices_of;
static pw_status run_on_devices(void *arg)
{
    pw_job *job = arg;
    const cli_common *c = devices_of;
    /* --bands-per-gpu K: K ranks a GPU, rank k on the k mod G-th, taking turns on it (a cyclic
     * split of the columns: pw_comm_set_turns) */
    const int per_gpu = c->bands_per_gpu > 1 ? c->bands_per_gpu : 1, n = c->n_devices * per_gpu;
    enum { MOST = 64 }; /* (cli_util.c refuses more) */
    pw_comm *comms[MOST];
    device_rank ranks[MOST];
    pthread_t ids[MOST];
    int started[MOST] = {0};
    if (n > MOST) return PW_ERR_INVALID_ARGUMENT;
    pw_status st = pw_comm_local(n, comms);
    if (st != PW_OK) return st;
    for (int k = 0; k < n; k++) {
        device_rank *r = &ranks[k];
        *r = (device_rank){.comm = comms[k], .job = *job};
        if (per_gpu > 1) pw_comm_set_turns(comms[k], 1);
        r->job.options.device = c->devices[k % c->n_devices];
        r->job.options.backend = PW_BACKEND_CUDA;
        if (k > 0 && st == PW_OK) st = rank_results(r); /* (its own results: rank 0's are the caller's) */
    }
    start_gate.state = 0;
    for (int k = 1; k < n && st == PW_OK; k++)
        if (!(started[k] = pthread_create(&ids[k], NULL, device_rank_thread, &ranks[k]) == 0)) st = PW_ERR_THREAD;
    open_gate(st == PW_OK ? 1 : -1);
    if (st == PW_OK) device_rank_main(&ranks[0]);
    for (int k = 1; k < n; k++)
        if (started[k]) pthread_join(ids[k], NULL);
    for (int k = 0; k < n; k++) {
        pw_comm_free(comms[k]);
        if (k > 0) free(ranks[k].table.data);
    }
    return st == PW_OK ? ranks[0].st : st;
}

/* --gpus / --devices, SW: the pair's rounds of warps dealt over the GPUs (apps/sw_gpus.h), where
 * the warp-rows engine takes it; PW_ERR_UNSUPPORTED (nothing run) sends it to the bands. */
static pw_status run_sw_on_gpus(void *arg)
{
    pw_job *job = arg;
    const pw_status st = pw_sw_on_gpus(job->u.sw.a, job->u.sw.n, job->u.sw.b, job->u.sw.m, &job->u.sw.params,
                                       &job->options, devices_of->devices, devices_of->n_devices, job->u.sw.result);
    if (st == PW_OK && job->info) *job->info = job->u.sw.result->info;
    return st;
}

pw_status cli_run_pw_job(const cli_common *c, const char *label, pw_job *job)
{
    pw_set_error_detail("%s", ""); /* (a detail printed after a failure is this run's, never an earlier call's) */
    if (cli_in_batch()) return cli_batch_run_job(job);
    dist_balance = c->balance;
    if (c->n_devices > 1 || c->bands_per_gpu > 1) {
        if (c->bands_per_gpu > 1 && job->kind != PW_JOB_SW && job->kind != PW_JOB_DTW) {
            pw_set_error_detail("--bands-per-gpu: sw and dtw only (their bands hand over one column, in one direction, "
                                "and keep little on the GPU)");
            return PW_ERR_UNSUPPORTED;
        }
        devices_of = c;
        if (job->kind == PW_JOB_SW && c->bands_per_gpu <= 1) { /* one long pair: the warp-rows engine's rounds */
            const pw_status st = cli_run_job(c, label, run_sw_on_gpus, job);
            if (st != PW_ERR_UNSUPPORTED) return st;
        }
        return cli_run_job(c, label, run_on_devices, job);
    }
    if (c->n_devices == 1) job->options.device = c->devices[0];
    if ((dist_comm = cli_mpi_comm())) {
        if (job->options.backend == PW_BACKEND_AUTO) job->options.backend = PW_BACKEND_CPU; /* (bands: CPU so far) */
        return cli_run_job(c, label, run_dist_job, job);
    }
    return cli_run_job(c, label, run_library_job, job);
}

pw_status cli_run_job(const cli_common *c, const char *label, cli_job_fn job, void *arg)
{
    pw_set_error_detail("%s", "");
    if (cli_in_batch()) return cli_batch_refuse(label);
    if (!shows_progress(c)) return job(arg);
    const int tty = isatty(STDERR_FILENO);
    /* under mpirun rank 0 alone shows the run's progress (every rank's cancel flag still works: a
     * Ctrl-C stops all of them); every rank printed an unlabelled line before */
    const int quiet_rank = cli_mpi_rank() != 0;
    /* PEERWAVE_PROGRESS_AFTER_MS: the delay before the first report (tests set it to 0). */
    double after = progress_env_ms("PEERWAVE_PROGRESS_AFTER_MS", 0, tty ? 2000 : 1000) / 1000.0;
    /* PEERWAVE_PROGRESS_EVERY_MS: between lines (1 s; tests shorten it) */
    const double every = progress_env_ms("PEERWAVE_PROGRESS_EVERY_MS", 1, 1000) / 1000.0;
    job_state s = {job, arg, PW_OK, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, ""};
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s.cond, &attr);
    pthread_mutex_lock(&seen.lock);
    seen.have = 0;
    pthread_mutex_unlock(&seen.lock);
    cancel_flag = 0;
    /* (a program started with SIGINT ignored, e.g. in the background, keeps ignoring it) */
    void (*old_handler)(int) = signal(SIGINT, SIG_IGN);
    if (old_handler != SIG_IGN) signal(SIGINT, on_interrupt);
    pthread_t thread;
    const int threaded = pthread_create(&thread, NULL, job_thread, &s) == 0;
    if (!threaded) { /* no helper thread: run it here, without a display */
        s.status = job(arg);
        s.done = 1;
    }
    double start = pw_seconds_now();
    int shown = 0, width = 0;
    char line[160];
    pthread_mutex_lock(&s.lock);
    while (!s.done) {
        double next = pw_seconds_now() + (shown ? every : after);
        struct timespec until = {(time_t)next, (long)((next - (double)(time_t)next) * 1e9)};
        pthread_cond_timedwait(&s.cond, &s.lock, &until);
        if (s.done) break;
        double t = pw_seconds_now() - start;
        if (t + 1e-3 < after || quiet_rank) continue;
        format_status(line, sizeof line, t);
        if (tty) { /* redraw in place; blanks cover a longer previous line */
            int n = (int)strlen(line);
            fprintf(stderr, "\rpeerwave: %s: %s%*s", label, line, width > n ? width - n : 0, "");
            width = n;
        } else {
            fprintf(stderr, "peerwave: %s: %s\n", label, line);
        }
        fflush(stderr);
        shown = 1;
    }
    pthread_mutex_unlock(&s.lock);
    if (threaded) {
        pthread_join(thread, NULL);
        pw_set_error_detail("%s", s.detail); /* (the detail is per thread: the job's, here) */
    }
    signal(SIGINT, old_handler == SIG_ERR ? SIG_DFL : old_handler);
    if (shown) {
        const char *how = s.status == PW_ERR_CANCELLED ? "stopped" : s.status == PW_OK ? "done" : "failed";
        fprintf(stderr, tty ? "\rpeerwave: %s: %s after %.1f s%*s\n" : "peerwave: %s: %s after %.1f s%*s\n", label, how,
                pw_seconds_now() - start, width > 24 ? width - 24 : 0, "");
    }
    pthread_cond_destroy(&s.cond);
    pthread_condattr_destroy(&attr);
    return s.status;
}
