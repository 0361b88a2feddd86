/*
 * transport_local.c - ranks that are threads of one process (transport.h): the tests of the
 * distributed path without MPI, and one process driving several devices.
 *
 * A send copies the message into the group's mailbox and is complete at once; a receive takes
 * the oldest message from its peer with its tag when it is tested.  One mutex guards the group:
 * messages are row chunks of kilobytes, a few per tile, so the lock is not where time goes.
 */
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"

typedef struct message {
    struct message *next;
    int from, to, tag;
    size_t bytes;
    unsigned char data[];
} message;

typedef struct group {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int size, handles;
    message *head, *tail;  /* every undelivered message, oldest first */
    unsigned char *gather; /* allgather: size x gather_bytes */
    size_t gather_bytes;
    int arrived, left, leaving;
    int gather_failed; /* a rank brought another size (or no memory): every rank of that gather fails */
    int64_t last_arrival_ns; /* the gather's latest arrival (CLOCK_MONOTONIC, as `changed` waits) */
    char out_of_step[512]; /* a gather timed out (local_allgather_within): why, and every later one fails */
    unsigned char here[];  /* size: which ranks arrived at the gather */
} group;

typedef struct local_rank {
    group *g;
    int rank;
} local_rank;

typedef struct request {
    int from, tag;
    void *buf;
    size_t bytes;
    int is_send;
} request;

static pw_status local_isend(void *ctx, int peer, int tag, const void *buf, size_t bytes, void **req)
{
    local_rank *r = ctx;
    /* (malloc, not pw_malloc: the transport stands for MPI, whose own allocations the library's
     * fault injection does not reach either; a failure here is the transport's, as MPI's would be) */
    message *m = malloc(sizeof *m + bytes);
    request *q = malloc(sizeof *q);
    if (!m || !q) {
        free(m);
        free(q);
        return PW_ERR_OUT_OF_MEMORY;
    }
    m->next = NULL;
    m->from = r->rank;
    m->to = peer;
    m->tag = tag;
    m->bytes = bytes;
    if (bytes) memcpy(m->data, buf, bytes);
    *q = (request){.is_send = 1};
    pthread_mutex_lock(&r->g->lock);
    if (r->g->tail) r->g->tail->next = m;
    else r->g->head = m;
    r->g->tail = m;
    pthread_mutex_unlock(&r->g->lock);
    *req = q;
    return PW_OK;
}

static pw_status local_irecv(void *ctx, int peer, int tag, void *buf, size_t bytes, void **req)
{
    (void)ctx;
    request *q = malloc(sizeof *q); /* (malloc: see local_isend) */
    if (!q) return PW_ERR_OUT_OF_MEMORY;
    *q = (request){peer, tag, buf, bytes, 0};
    *req = q;
    return PW_OK;
}

static int local_test(void *ctx, void *req, pw_status *status)
{
    local_rank *r = ctx;
    request *q = req;
    *status = PW_OK;
    if (q->is_send) {
        free(q);
        return 1;
    }
    group *g = r->g;
    pthread_mutex_lock(&g->lock);
    message *prev = NULL, *m = g->head;
    while (m && !(m->to == r->rank && m->from == q->from && m->tag == q->tag)) prev = m, m = m->next;
    if (m) {
        if (prev) prev->next = m->next;
        else g->head = m->next;
        if (g->tail == m) g->tail = prev;
    }
    pthread_mutex_unlock(&g->lock);
    if (!m) return 0;
    if (m->bytes != q->bytes) {
        pw_set_error_detail("rank %d sent a message of %zu bytes where rank %d expected %zu (tag %d)", m->from,
                            m->bytes, r->rank, q->bytes, q->tag);
        *status = PW_ERR_INTERNAL;
    } else if (m->bytes) {
        memcpy(q->buf, m->data, m->bytes);
    }
    free(m);
    free(q);
    return 1;
}

static int local_cancel(void *ctx, void *req)
{
    (void)ctx;
    free(req); /* (a send copied its message at once: nothing reads the buffer) */
    return 1;
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* "rank 2" or "ranks 2, 5 and 3 more": the ranks whose here[k] is `arrived`, as many as fit. */
static void rank_list(const group *g, int arrived, char *buf, size_t size)
{
    int count = 0;
    for (int k = 0; k < g->size; k++) count += g->here[k] == arrived;
    size_t at = (size_t)snprintf(buf, size, "rank%s ", count > 1 ? "s" : "");
    int listed = 0;
    for (int k = 0; k < g->size; k++) {
        if (g->here[k] != arrived || at + 24 >= size) continue;
        at += (size_t)snprintf(buf + at, size - at, "%s%d", listed++ ? ", " : "", k);
    }
    if (listed < count) snprintf(buf + at, size - at, " and %d more", count - listed);
}

/* A gather that waited timeout_ns since its last arrival: every rank in it leaves with
 * PW_ERR_TIMEOUT, and the group is out of step for good -- a rank that comes later would only
 * meet the others' next call (called with the lock held). */
static void time_out(group *g, int64_t timeout_ns)
{
    char missing[64], waiting[64];
    rank_list(g, 0, missing, sizeof missing);
    rank_list(g, 1, waiting, sizeof waiting);
    snprintf(g->out_of_step, sizeof g->out_of_step,
             "%s of %d never came to the start of a distributed run (%s waited %.1f s for it: options.watchdog_ms); "
             "every rank must make the same pw_dist_* calls; this comm is out of step now: free it",
             missing, g->size, waiting, (double)timeout_ns * 1e-9);
    g->leaving = 1;
    pthread_cond_broadcast(&g->changed);
}

/* timeout_ns 0: wait for every rank however long it takes (the collectives inside a run, which
 * every rank reaches once it has started: its link's watchdog bounds the run itself). */
static pw_status local_gather(local_rank *r, const void *mine, void *all, size_t bytes, int64_t timeout_ns)
{
    group *g = r->g;
    pthread_mutex_lock(&g->lock);
    while (g->leaving) pthread_cond_wait(&g->changed, &g->lock); /* the last gather's readers */
    if (g->out_of_step[0]) {
        char why[sizeof g->out_of_step];
        memcpy(why, g->out_of_step, sizeof why);
        pthread_mutex_unlock(&g->lock);
        pw_set_error_detail("%s", why);
        return PW_ERR_TIMEOUT;
    }
    if (!g->gather && !g->arrived) {
        g->gather = malloc((size_t)g->size * bytes + 1); /* (malloc: see local_isend) */
        g->gather_bytes = bytes;
    }
    /* A rank with another size (a bug of the caller's) or no memory still arrives and leaves with
     * the others, so that every rank of the gather returns the error instead of waiting for ever. */
    if (!g->gather || g->gather_bytes != bytes) g->gather_failed = 1;
    else if (bytes) memcpy(g->gather + (size_t)r->rank * bytes, mine, bytes);
    g->here[r->rank] = 1;
    g->last_arrival_ns = now_ns();
    if (++g->arrived == g->size) {
        g->leaving = 1;
        pthread_cond_broadcast(&g->changed);
    }
    while (!g->leaving) {
        if (!timeout_ns) {
            pthread_cond_wait(&g->changed, &g->lock);
            continue;
        }
        const int64_t deadline = g->last_arrival_ns + timeout_ns; /* (an arrival moves it on) */
        if (now_ns() >= deadline) {
            time_out(g, timeout_ns);
            break;
        }
        const struct timespec until = {(time_t)(deadline / 1000000000), (long)(deadline % 1000000000)};
        pthread_cond_timedwait(&g->changed, &g->lock, &until);
    }
    const int failed = g->gather_failed, timed_out = g->out_of_step[0] != 0;
    char why[sizeof g->out_of_step];
    memcpy(why, g->out_of_step, sizeof why);
    if (!failed && !timed_out && bytes) memcpy(all, g->gather, (size_t)g->size * bytes);
    if (++g->left == g->arrived) { /* (every rank, or after a time-out every rank that came) */
        free(g->gather);
        g->gather = NULL;
        g->arrived = g->left = g->leaving = g->gather_failed = 0;
        memset(g->here, 0, (size_t)g->size);
        pthread_cond_broadcast(&g->changed);
    }
    pthread_mutex_unlock(&g->lock);
    if (timed_out) {
        pw_set_error_detail("%s", why);
        return PW_ERR_TIMEOUT;
    }
    if (failed) {
        pw_set_error_detail("allgather of different sizes on the ranks, or out of memory");
        return PW_ERR_INTERNAL; /* (the ranks' code paths always agree: a bug) */
    }
    return PW_OK;
}

static pw_status local_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    return local_gather(ctx, mine, all, bytes, 0);
}

static pw_status local_allgather_within(void *ctx, const void *mine, void *all, size_t bytes, int64_t timeout_ns)
{
    return local_gather(ctx, mine, all, bytes, timeout_ns > 0 ? timeout_ns : 0);
}

static void local_destroy(void *ctx)
{
    local_rank *r = ctx;
    group *g = r->g;
    pthread_mutex_lock(&g->lock);
    const int last = --g->handles == 0;
    pthread_mutex_unlock(&g->lock);
    free(r);
    if (!last) return;
    for (message *m = g->head, *next; m; m = next) next = m->next, free(m);
    free(g->gather);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->changed);
    free(g);
}

static const pw_transport_ops local_ops = {local_isend, local_irecv, local_test, local_cancel, local_allgather,
                                           local_destroy, local_allgather_within};

pw_status pw_comm_local(int ranks, pw_comm **comms)
{
    if (!comms) return PW_ERR_NULL_ARGUMENT;
    if (ranks < 1 || ranks > 1024) return PW_ERR_INVALID_ARGUMENT;
    group *g = pw_malloc(sizeof *g + (size_t)ranks);
    if (!g) return PW_ERR_OUT_OF_MEMORY;
    memset(g, 0, sizeof *g + (size_t)ranks);
    g->size = ranks;
    pthread_mutex_init(&g->lock, NULL);
    pthread_condattr_t monotonic; /* (a gather's time-out counts on CLOCK_MONOTONIC, as now_ns) */
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&g->changed, &monotonic);
    pthread_condattr_destroy(&monotonic);
    for (int k = 0; k < ranks; k++) {
        local_rank *r = pw_malloc(sizeof *r);
        pw_comm *c = pw_malloc(sizeof *c);
        unsigned char *scratch = pw_malloc(pw_comm_scratch_bytes(ranks));
        if (!r || !c || !scratch) {
            free(r);
            free(c);
            free(scratch);
            for (int i = 0; i < k; i++) pw_comm_free(comms[i]);
            if (k == 0) {
                pthread_mutex_destroy(&g->lock);
                pthread_cond_destroy(&g->changed);
                free(g);
            }
            return PW_ERR_OUT_OF_MEMORY;
        }
        *r = (local_rank){g, k};
        g->handles++;
        *c = (pw_comm){.ops = &local_ops, .ctx = r, .rank = k, .size = ranks, .shared = 1, .scratch = scratch,
                       .tag_runs = INT_MAX / PW_TAG_KINDS, .failure_from = -1}; /* (tags: plain ints) */
        comms[k] = c;
    }
    return PW_OK;
}
