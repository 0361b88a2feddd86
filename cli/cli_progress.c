/* cli_progress.c - run a library call on a helper thread so the main thread can show that a long
 * run is alive.  The library has no progress hook (its engines run on their own threads or on
 * the GPU), so this shows elapsed time, not a fraction. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

typedef struct job_state {
    cli_job_fn job;
    void *arg;
    pw_status status;
    int done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} job_state;

static void *job_thread(void *p)
{
    job_state *s = p;
    pw_status st = s->job(s->arg);
    pthread_mutex_lock(&s->lock);
    s->status = st;
    s->done = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

pw_status cli_run_job(const cli_common *c, const char *label, cli_job_fn job, void *arg)
{
    int tty = isatty(STDERR_FILENO);
    if (c->quiet || (!tty && !c->progress)) return job(arg);
    /* PEERWAVE_PROGRESS_AFTER_MS: the delay before the first report (tests set it to 0). */
    const char *after_env = getenv("PEERWAVE_PROGRESS_AFTER_MS");
    double after = after_env ? atof(after_env) / 1000.0 : 2.0;
    job_state s = {job, arg, PW_OK, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s.cond, &attr);
    pthread_t thread;
    if (pthread_create(&thread, NULL, job_thread, &s)) return job(arg);
    double start = now_seconds();
    int shown = 0;
    pthread_mutex_lock(&s.lock);
    while (!s.done) {
        double next = now_seconds() + (shown ? 1.0 : after);
        struct timespec until = {(time_t)next, (long)((next - (double)(time_t)next) * 1e9)};
        pthread_cond_timedwait(&s.cond, &s.lock, &until);
        if (s.done) break;
        double t = now_seconds() - start;
        if (t + 1e-3 < after) continue;
        if (tty) fprintf(stderr, "\rpeerwave: %s: running, %.0f s", label, t);
        else fprintf(stderr, "peerwave: %s: running, %.0f s\n", label, t);
        fflush(stderr);
        shown = 1;
    }
    pthread_mutex_unlock(&s.lock);
    pthread_join(thread, NULL);
    if (shown) fprintf(stderr, tty ? "\rpeerwave: %s: done in %.1f s\n" : "peerwave: %s: done in %.1f s\n",
                       label, now_seconds() - start);
    pthread_cond_destroy(&s.cond);
    pthread_condattr_destroy(&attr);
    return s.status;
}
