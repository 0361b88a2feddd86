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
#include <stdlib.h>
#include <string.h>

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

static pw_status local_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    local_rank *r = ctx;
    group *g = r->g;
    pthread_mutex_lock(&g->lock);
    while (g->leaving) pthread_cond_wait(&g->changed, &g->lock); /* the last gather's readers */
    if (!g->gather && !g->arrived) {
        g->gather = malloc((size_t)g->size * bytes + 1); /* (malloc: see local_isend) */
        g->gather_bytes = bytes;
    }
    /* A rank with another size (a bug of the caller's) or no memory still arrives and leaves with
     * the others, so that every rank of the gather returns the error instead of waiting for ever. */
    if (!g->gather || g->gather_bytes != bytes) g->gather_failed = 1;
    else if (bytes) memcpy(g->gather + (size_t)r->rank * bytes, mine, bytes);
    if (++g->arrived == g->size) {
        g->leaving = 1;
        pthread_cond_broadcast(&g->changed);
    }
    while (!g->leaving) pthread_cond_wait(&g->changed, &g->lock);
    const int failed = g->gather_failed;
    if (!failed && bytes) memcpy(all, g->gather, (size_t)g->size * bytes);
    if (++g->left == g->size) {
        free(g->gather);
        g->gather = NULL;
        g->arrived = g->left = g->leaving = g->gather_failed = 0;
        pthread_cond_broadcast(&g->changed);
    }
    pthread_mutex_unlock(&g->lock);
    if (failed) {
        pw_set_error_detail("allgather of different sizes on the ranks, or out of memory");
        return PW_ERR_INTERNAL; /* (the ranks' code paths always agree: a bug) */
    }
    return PW_OK;
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
                                           local_destroy};

pw_status pw_comm_local(int ranks, pw_comm **comms)
{
    if (!comms) return PW_ERR_NULL_ARGUMENT;
    if (ranks < 1 || ranks > 1024) return PW_ERR_INVALID_ARGUMENT;
    group *g = pw_malloc(sizeof *g);
    if (!g) return PW_ERR_OUT_OF_MEMORY;
    *g = (group){.size = ranks};
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
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
                       .tag_runs = INT_MAX / PW_TAG_KINDS}; /* (tags: plain ints) */
        comms[k] = c;
    }
    return PW_OK;
}
