/*
 * band_link.c - the thread that moves a band's edge columns (band_link.h).
 *
 * Counters, as in the engines: an incoming channel publishes sweep * rows + rows unpacked with a
 * release store after put_left / put_right wrote the values; the engine's wait reads it with an
 * acquire load.  An outgoing channel reads the engine's per-sweep "rows final" (a release max)
 * with an acquire load before get_last / get_first packs them.  Per sweep, because in-place
 * sweeps overlap: a later sweep's tile-row may report before an earlier sweep's last rows.
 *
 * Why packing before the next sweep overwrites a column is safe, and why an incoming chunk never
 * lands on values still to be read: docs/DISTRIBUTED.md, "Halo columns in place".
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "band_link.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"
#include "../cpu/team.h"

#define DEPTH 4 /* messages in flight a channel */
enum { WORD_END = 1, WORD_ABORT = 2 };

typedef struct direct_offer {
    uint32_t bytes;
    unsigned char data[PW_BAND_DIRECT_MAX];
} direct_offer;

typedef struct channel {
    int peer;               /* -1: no such channel */
    int tag, incoming;
    void (*put)(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src); /* incoming */
    void (*get)(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst);       /* outgoing */
    int64_t total;          /* chunks over the run */
    int64_t posted, done;   /* chunks handed to the transport / completed */
    void *request[DEPTH];
    unsigned char *buf[DEPTH];
    atomic_llong ready;     /* incoming: sweep * rows + rows unpacked */
    atomic_llong *final;    /* outgoing: per sweep, rows the engine reports final */
} channel;

struct pw_band_link {
    pw_comm *comm;
    const pw_data_path_ops *data; /* NULL: chunks go over the transport in host buffers; else
                                     this data path's device buffers (GPU bands over NCCL) */
    int64_t rows, sweeps, chunk, chunks; /* chunk rows; chunks a sweep */
    int64_t watchdog_ns;
    pw_band_io io;
    atomic_int attached;    /* io and the channels' buffers are set */
    atomic_int detached;    /* the data phase is over: the app's storage is not touched again */
    atomic_int app_gone;    /* the app detached (its engine has stopped) */
    atomic_int closed;      /* the neighbours' last words are in */
    int leaving;            /* (under lock) the thread left the data phase: attach comes too late */
    channel ch[4]; /* left in, last out, right in, first out */
    int ctl_peer[2];
    int ctl_word[2];
    void *ctl_request[2];
    /* The direct hand-over (core/band.h): in a shared address space each rank sends each
     * neighbour one offer once attached (bytes 0: none) and takes theirs, before any chunk. */
    direct_offer offer_out, offer_in[2];
    void *offer_request[4]; /* sends to the left and right neighbour, then receives */
    int offers;             /* (the link thread's) 0: not posted, 1: in flight, 2: swapped */
    atomic_int swapped;
    /* Turns (pw_comm_set_turns): this band's engine starts once the rank before it on its device
     * (turn_prev) has sent its word, and the rank after it (turn_next) gets this band's word once
     * its engine has stopped.  -1: none. */
    int turn_prev, turn_next;
    int turn_word;
    void *turn_request;     /* the word from turn_prev, in flight (the link's thread tests it) */
    atomic_int turn_have;   /* it is in (or there is none to wait for) */
    int64_t began_ns, ended_ns; /* (the app's thread) pw_now_ns when its engine could start (the
                               attach returned, or its first launch: engine_started) and when it
                               stopped (the detach came): 0 if not */
    int started;            /* (the app's thread) engine_started has set began_ns */
    int direct[2];          /* (written before swapped) the left / right side is direct */
    int offered;            /* (written before the data phase ends) this rank offered: a
                               neighbour may have taken it, whatever this side decided */
    atomic_int abandon;     /* the app or the engine gave up */
    atomic_int failed;      /* the link gave up: waits return -1 */
    atomic_int loaded;      /* the engine's kernel is loaded: data-path receives may be posted
                               (pw_band_edges.kernel_loaded) */
    pw_status status;       /* the link's failure (first one) */
    int remote;             /* it was a neighbour's */
    char detail[256];
    pthread_mutex_t lock;
    pthread_t thread;
    int running;
};

static void link_fail(pw_band_link *l, pw_status st, int remote, const char *fmt, ...)
{
    pthread_mutex_lock(&l->lock);
    if (l->status == PW_OK) {
        l->status = st;
        l->remote = remote;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(l->detail, sizeof l->detail, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&l->lock);
    atomic_store(&l->failed, 1);
}

/* Rows [i0, i1) and the sweep of chunk k. */
static void chunk_rows(const pw_band_link *l, int64_t k, int64_t *sweep, int64_t *i0, int64_t *i1)
{
    *sweep = k / l->chunks;
    *i0 = (k % l->chunks) * l->chunk;
    *i1 = *i0 + l->chunk < l->rows ? *i0 + l->chunk : l->rows;
}

/* ---- the engine's callbacks ------------------------------------------------------------------ */

/* c NULL: the offers' swap (need 1). */
static long long ready_now(pw_band_link *l, channel *c)
{
    return c ? atomic_load_explicit(&c->ready, memory_order_acquire) : atomic_load_explicit(&l->swapped, memory_order_acquire);
}

static int wait_ready(pw_band_link *l, channel *c, long long need, const char *what)
{
    long long seen = ready_now(l, c);
    if (seen >= need) return 0;
    unsigned round = 0;
    int64_t since = pw_now_ns();
    for (;;) {
        pw_backoff(&round);
        long long now = ready_now(l, c);
        if (now >= need) return 0;
        if (atomic_load_explicit(&l->failed, memory_order_relaxed)) return -1;
        if (now != seen) {
            seen = now;
            since = pw_now_ns();
        } else if ((round & 63) == 0 && pw_now_ns() - since > l->watchdog_ns) {
            if (c)
                link_fail(l, PW_ERR_TIMEOUT, 0, "rank %d: no %s column from rank %d for %.1f s", l->comm->rank, what,
                          c->peer, (double)l->watchdog_ns * 1e-9);
            else
                link_fail(l, PW_ERR_TIMEOUT, 0, "rank %d: no %s from its neighbours for %.1f s", l->comm->rank, what,
                          (double)l->watchdog_ns * 1e-9);
            return -1;
        }
    }
}

static int edge_wait_left(void *ctx, int64_t sweep, int64_t rows)
{
    pw_band_link *l = ctx;
    return wait_ready(l, &l->ch[0], (long long)(sweep * l->rows + rows), "left neighbour's");
}

static int edge_wait_right(void *ctx, int64_t sweep, int64_t rows)
{
    pw_band_link *l = ctx;
    if (sweep == 0) return 0; /* the initial values: the app read them with its band */
    return wait_ready(l, &l->ch[2], (long long)((sweep - 1) * l->rows + rows), "right neighbour's");
}

static void report(channel *c, int64_t sweep, int64_t rows)
{
    atomic_llong *f = &c->final[sweep];
    long long old = atomic_load_explicit(f, memory_order_relaxed);
    while (old < rows && !atomic_compare_exchange_weak_explicit(f, &old, rows, memory_order_release, memory_order_relaxed)) {
    }
}

static void edge_last_done(void *ctx, int64_t sweep, int64_t rows) { report(&((pw_band_link *)ctx)->ch[1], sweep, rows); }
static void edge_first_done(void *ctx, int64_t sweep, int64_t rows) { report(&((pw_band_link *)ctx)->ch[3], sweep, rows); }

static void edge_abandon(void *ctx)
{
    pw_band_link *l = ctx;
    atomic_store(&l->abandon, 1);
}

static int edge_broken(void *ctx) { return atomic_load(&((pw_band_link *)ctx)->failed); }

static int edge_peer_direct(void *ctx, int side, const void **peer)
{
    pw_band_link *l = ctx;
    *peer = NULL;
    if (!l->comm->shared || l->ctl_peer[side] < 0) return 0; /* (no offers are swapped) */
    if (wait_ready(l, NULL, 1, "offer of a direct hand-over") != 0) return -1;
    if (!l->direct[side]) return 0;
    *peer = l->offer_in[side].data;
    return 1;
}

/* ---- the link's thread ----------------------------------------------------------------------- */

/* PEERWAVE_DEBUG_LINK=1: a line on stderr for each chunk a channel packs, posts, completes and
 * unpacks (where a run over a new data path stops: tests/gpu/nccl_debug.sh) */
static int debug_link(void)
{
    static int on = -1;
    if (on < 0) on = getenv("PEERWAVE_DEBUG_LINK") != NULL;
    return on;
}
static void edge_engine_started(void *ctx)
{
    pw_band_link *l = ctx; /* (the app's thread, as the attach that set began_ns first) */
    if (!l->started) l->started = 1, l->began_ns = pw_now_ns();
}

static void edge_kernel_loaded(void *ctx)
{
    pw_band_link *l = ctx;
    if (debug_link()) fprintf(stderr, "peerwave link: rank %d: the engine's kernel is loaded\n", l->comm->rank);
    atomic_store_explicit(&l->loaded, 1, memory_order_release);
}

#define LINK_DEBUG(l, c, what, k)                                                                                  \
    (debug_link() ? (void)fprintf(stderr, "peerwave link: rank %d: channel %d (rank %d) chunk %lld %s\n",           \
                                  (l)->comm->rank, (int)((c) - (l)->ch), (c)->peer, (long long)(k), what)          \
                  : (void)0)

/* A chunk's message, its completion and its cancellation: over the data path where the link has
 * one, else over the transport with the channel's tag. */
static pw_status chunk_post(pw_band_link *l, channel *c, void *buf, size_t bytes, void **request)
{
    if (l->data)
        return c->incoming ? l->data->irecv(l->comm->data_ctx, c->peer, buf, bytes, request)
                           : l->data->isend(l->comm->data_ctx, c->peer, buf, bytes, request);
    return c->incoming ? l->comm->ops->irecv(l->comm->ctx, c->peer, c->tag, buf, bytes, request)
                       : l->comm->ops->isend(l->comm->ctx, c->peer, c->tag, buf, bytes, request);
}

static int chunk_test(pw_band_link *l, void *request, pw_status *st)
{
    return l->data ? l->data->test(l->comm->data_ctx, request, st) : l->comm->ops->test(l->comm->ctx, request, st);
}

/* 1: the buffer is free again; 0: the transport may still read it. */
static int chunk_cancel(pw_band_link *l, void *request)
{
    if (!l->data) return l->comm->ops->cancel(l->comm->ctx, request);
    l->data->cancel(l->comm->data_ctx, request);
    return 1;
}

/* Move what can move on channel c now.  1 if anything did, 0 if not, -1 on a transport error. */
static int channel_step(pw_band_link *l, channel *c)
{
    int moved = 0;
    while (c->done < c->posted) { /* complete in order (a transport delivers one tag in order) */
        const int slot = (int)(c->done % DEPTH);
        pw_status st;
        if (!chunk_test(l, c->request[slot], &st)) break;
        c->request[slot] = NULL;
        if (st != PW_OK) return -1;
        LINK_DEBUG(l, c, "completed", c->done);
        if (c->incoming) {
            int64_t sweep, i0, i1;
            chunk_rows(l, c->done, &sweep, &i0, &i1);
            c->put(l->io.app, sweep, i0, i1, c->buf[slot]);
            atomic_store_explicit(&c->ready, (long long)(sweep * l->rows + i1), memory_order_release);
            LINK_DEBUG(l, c, "unpacked", c->done);
        }
        c->done++;
        moved = 1;
    }
    while (c->posted < c->total && c->posted - c->done < DEPTH) {
        const int slot = (int)(c->posted % DEPTH);
        int64_t sweep, i0, i1;
        chunk_rows(l, c->posted, &sweep, &i0, &i1);
        const size_t bytes = (size_t)(i1 - i0) * l->io.bytes_per_row;
        pw_status st;
        if (c->incoming && l->data && !atomic_load_explicit(&l->loaded, memory_order_acquire)) break; /* (band.h) */
        if (!c->incoming) {
            if (l->comm->debug_mute && c == &l->ch[3] && sweep == l->sweeps - 1) break; /* (fault injection) */
            if (atomic_load_explicit(&c->final[sweep], memory_order_acquire) < i1) break;
            LINK_DEBUG(l, c, "packing", c->posted);
            c->get(l->io.app, sweep, i0, i1, c->buf[slot]);
        }
        st = chunk_post(l, c, c->buf[slot], bytes, &c->request[slot]);
        if (st != PW_OK) return -1;
        LINK_DEBUG(l, c, "posted", c->posted);
        c->posted++;
        moved = 1;
    }
    return moved;
}

/* Give up the channel's requests in flight (a failed run).  A buffer the transport may still read
 * (an MPI send let go) is left allocated -- leaked -- rather than freed under it. */
static void channel_cancel(pw_band_link *l, channel *c)
{
    for (int64_t k = c->done; k < c->posted; k++) {
        const int slot = (int)(k % DEPTH);
        if (!chunk_cancel(l, c->request[slot])) c->buf[slot] = NULL; /* (left to the transport) */
        c->request[slot] = NULL;
    }
    c->posted = c->done;
}

static void send_word(pw_band_link *l, int word)
{
    for (int side = 0; side < 2; side++) {
        if (l->ctl_peer[side] < 0) continue;
        void *request;
        static const int words[3] = {0, WORD_END, WORD_ABORT};
        if (l->comm->ops->isend(l->comm->ctx, l->ctl_peer[side], pw_comm_tag(l->comm, PW_TAG_CONTROL), &words[word], sizeof(int),
                                &request) != PW_OK)
            continue; /* (a transport that cannot send is broken: the neighbour's data waits time out) */
        pw_status st;
        unsigned round = 0;
        while (!l->comm->ops->test(l->comm->ctx, request, &st)) pw_backoff(&round);
    }
}

/* A neighbour's word arrived: 1 if it was ABORT. */
static int poll_words(pw_band_link *l, int *pending)
{
    int abort = 0;
    *pending = 0;
    for (int side = 0; side < 2; side++) {
        if (!l->ctl_request[side]) continue;
        pw_status st;
        if (l->comm->ops->test(l->comm->ctx, l->ctl_request[side], &st)) {
            l->ctl_request[side] = NULL;
            if (st != PW_OK || l->ctl_word[side] == WORD_ABORT) {
                abort = 1;
                /* (after this rank gave up by itself, a neighbour's ABORT is only the echo) */
                if (!atomic_load(&l->abandon)) link_fail(l, PW_ERR_INTERNAL, 1, "rank %d gave up", l->ctl_peer[side]);
            }
        } else {
            (*pending)++;
        }
    }
    return abort;
}

/* The offers of a direct hand-over, on the link's thread once attached: 1 when swapped (or there
 * is nothing to swap), 0 while in flight, -1 on a transport error.  A side is direct when both
 * ranks offered and the app accepts the neighbour's offer (symmetric: both sides decide alike);
 * its channels then carry no chunks. */
static int swap_offers(pw_band_link *l)
{
    if (l->offers == 2) return 1;
    const pw_transport_ops *ops = l->comm->ops;
    void *tctx = l->comm->ctx;
    const int tag = pw_comm_tag(l->comm, PW_TAG_DIRECT);
    if (!l->comm->shared) {
        l->offers = 2;
        atomic_store_explicit(&l->swapped, 1, memory_order_release);
        return 1;
    }
    if (l->offers == 0) {
        const int offer = !l->comm->direct_off && l->io.direct && l->io.direct_bytes && l->io.direct_bytes <= PW_BAND_DIRECT_MAX;
        l->offer_out.bytes = offer ? (uint32_t)l->io.direct_bytes : 0;
        l->offered = offer;
        if (offer) memcpy(l->offer_out.data, l->io.direct, l->io.direct_bytes);
        for (int side = 0; side < 2; side++) {
            if (l->ctl_peer[side] < 0) continue;
            if (ops->isend(tctx, l->ctl_peer[side], tag, &l->offer_out, sizeof l->offer_out, &l->offer_request[side]) != PW_OK ||
                ops->irecv(tctx, l->ctl_peer[side], tag, &l->offer_in[side], sizeof l->offer_in[side], &l->offer_request[2 + side]) != PW_OK)
                return -1;
        }
        l->offers = 1;
    }
    int pending = 0;
    for (int k = 0; k < 4; k++) {
        pw_status st;
        if (!l->offer_request[k]) continue;
        if (!ops->test(tctx, l->offer_request[k], &st)) {
            pending = 1;
            continue;
        }
        l->offer_request[k] = NULL;
        if (st != PW_OK) return -1;
    }
    if (pending) return 0;
    for (int side = 0; side < 2; side++) {
        const direct_offer *in = &l->offer_in[side];
        l->direct[side] = l->ctl_peer[side] >= 0 && l->offer_out.bytes && in->bytes == l->offer_out.bytes &&
                          l->io.direct_ok && l->io.direct_ok(l->io.app, in->data);
    }
    if (l->direct[0]) l->ch[0].total = l->ch[3].total = 0; /* (the left side's chunks: none through the link) */
    if (l->direct[1]) l->ch[1].total = l->ch[2].total = 0;
    l->offers = 2;
    atomic_store_explicit(&l->swapped, 1, memory_order_release);
    return 1;
}

/* The trailing watchdog's failure: which channels still wait, and for what. */
static void link_stalled(pw_band_link *l)
{
    static const char *names[4] = {"from the left", "to the right", "from the right", "to the left"};
    char what[160] = "";
    size_t at = 0;
    for (int k = 0; k < 4 && at < sizeof what; k++) {
        const channel *c = &l->ch[k];
        if (c->peer < 0 || c->done >= c->total) continue;
        int n = snprintf(what + at, sizeof what - at, "%s%s (rank %d): %lld of %lld chunks", at ? ", " : "", names[k], c->peer,
                         (long long)c->done, (long long)c->total);
        if (n > 0) at += (size_t)n;
    }
    link_fail(l, PW_ERR_TIMEOUT, 0, "rank %d: its engine is done, and no chunk moved for %.1f s; still to move %s",
              l->comm->rank, (double)l->watchdog_ns * 1e-9, what);
}

/* The turn's word from turn_prev, on the link's thread (it alone tests requests). */
static void turn_step(pw_band_link *l)
{
    pw_status st;
    if (!l->turn_request || !l->comm->ops->test(l->comm->ctx, l->turn_request, &st)) return;
    l->turn_request = NULL;
    if (st != PW_OK) link_fail(l, PW_ERR_INTERNAL, 0, "rank %d: the transport failed: %s", l->comm->rank, pw_error_detail());
    if (debug_link()) fprintf(stderr, "peerwave link: rank %d: its turn (rank %d is done)\n", l->comm->rank, l->turn_prev);
    atomic_store_explicit(&l->turn_have, 1, memory_order_release);
}

/* Once this band's engine has stopped (whatever became of it), the word to the next rank on its
 * device: its engine may start.  A rank that failed sends it too; the next one then learns of the
 * failure from its own neighbours. */
static void turn_pass(pw_band_link *l)
{
    if (l->turn_next < 0) return;
    unsigned round = 0;
    while (!atomic_load_explicit(&l->app_gone, memory_order_acquire)) {
        turn_step(l);
        pw_backoff(&round);
    }
    static const int word = 1;
    void *request;
    pw_status st = l->comm->ops->isend(l->comm->ctx, l->turn_next, pw_comm_tag(l->comm, PW_TAG_TURN), &word, sizeof word, &request);
    round = 0;
    if (st == PW_OK)
        while (!l->comm->ops->test(l->comm->ctx, request, &st)) pw_backoff(&round);
    /* (a word that did not go: this rank fails, so that its neighbours hear ABORT and the failure
     * reaches the rank that waits for the turn, as any failure does) */
    if (st != PW_OK)
        link_fail(l, PW_ERR_INTERNAL, 0, "rank %d: the transport failed passing the turn to rank %d", l->comm->rank, l->turn_next);
}

static void *link_main(void *arg)
{
    pw_band_link *l = arg;
    unsigned round = 0;
    int pending;
    /* Once this band's engine has stopped, its waits (and their watchdog) are over: the chunks
     * still to move (the last sweep's, which the neighbour's engine may not even read, or sends
     * the neighbour never takes) get the same bound here, so a neighbour that stops sending or
     * taking after it started ends this rank with a clear reason instead of a wait without end. */
    int64_t still_since = 0;
    /* the data: until every chunk moved, or someone gave up */
    for (;;) {
        if (atomic_load(&l->abandon) || atomic_load(&l->failed)) break;
        if (poll_words(l, &pending)) break; /* (END cannot come before our data is all there) */
        turn_step(l);
        int moved = 0, open = 0, unheard = 0; /* unheard: an open channel that never completed a chunk */
        const int swap = atomic_load_explicit(&l->attached, memory_order_acquire) ? swap_offers(l) : 0;
        if (swap < 0) {
            link_fail(l, PW_ERR_INTERNAL, 0, "rank %d: the transport failed: %s", l->comm->rank, pw_error_detail());
            break;
        }
        if (swap > 0) {
            for (int k = 0; k < 4; k++) {
                channel *c = &l->ch[k];
                if (c->peer < 0) continue;
                const int r = channel_step(l, c);
                if (r < 0) {
                    link_fail(l, PW_ERR_INTERNAL, 0, "rank %d: the transport failed: %s", l->comm->rank, pw_error_detail());
                    break;
                }
                moved |= r;
                open |= c->done < c->total;
                unheard |= c->done < c->total && c->done == 0;
            }
            if (!open && !atomic_load(&l->failed)) break;
        }
        /* (a channel that never completed a chunk may have a neighbour still setting up -- a large
         * upload -- while this band is already done: no clock until each has shown it is there;
         * a neighbour that gives up before then sends ABORT) */
        if (moved || unheard || !atomic_load_explicit(&l->app_gone, memory_order_acquire)) {
            still_since = 0;
        } else if (!still_since) {
            still_since = pw_now_ns();
        } else if (l->watchdog_ns > 0 && pw_now_ns() - still_since > l->watchdog_ns) {
            link_stalled(l);
            break;
        }
        if (moved) round = 0;
        else pw_backoff(&round);
    }
    pthread_mutex_lock(&l->lock); /* (an attach after this point is refused: the channels stay as they are) */
    l->leaving = 1;
    pthread_mutex_unlock(&l->lock);
    const int ok = !atomic_load(&l->abandon) && !atomic_load(&l->failed);
    if (!ok) {
        atomic_store(&l->failed, 1); /* the engine's waits give up */
        for (int k = 0; k < 4; k++)
            if (l->ch[k].peer >= 0) channel_cancel(l, &l->ch[k]);
        for (int k = 0; k < 4; k++) /* (offers are only swapped between threads: their buffers are free again) */
            if (l->offer_request[k]) (void)l->comm->ops->cancel(l->comm->ctx, l->offer_request[k]);
    }
    atomic_store_explicit(&l->detached, 1, memory_order_release);
    if (l->offered) {
        /* A direct hand-over (offered: a neighbour may have taken the offer even where this side
         * did not get as far as deciding): the neighbours' engines may write into this band's
         * storage and this one's into theirs, so the last word waits until this band's engine
         * has stopped (the app detached), and the app's detach until the neighbours' words are
         * in -- no storage goes while a neighbour's kernel may still write into it.  Meanwhile a
         * neighbour's ABORT still fails the link (the engine's wait then cancels the kernel). */
        round = 0;
        while (!atomic_load_explicit(&l->app_gone, memory_order_acquire)) {
            if (poll_words(l, &pending)) atomic_store(&l->failed, 1);
            turn_step(l);
            pw_backoff(&round);
        }
    }
    /* (a failure's ABORT goes before the turn, which waits for this band's app to stop) */
    const int failed_now = !ok || atomic_load(&l->abandon) || atomic_load(&l->failed);
    if (failed_now) send_word(l, WORD_ABORT);
    turn_pass(l);
    if (!failed_now) send_word(l, !atomic_load(&l->abandon) && !atomic_load(&l->failed) ? WORD_END : WORD_ABORT);
    /* the neighbours' words: each sends exactly one, when it is done or gives up */
    round = 0;
    for (;;) {
        poll_words(l, &pending);
        turn_step(l);
        if (!pending) break;
        pw_backoff(&round);
    }
    /* (the app waits for its turn in attach on what turn_step sees: the thread stays while it may) */
    if (l->turn_request && !atomic_load(&l->turn_have)) {
        round = 0;
        while (l->turn_request && !atomic_load_explicit(&l->app_gone, memory_order_acquire)) {
            turn_step(l);
            pw_backoff(&round);
        }
    }
    if (l->turn_request) (void)l->comm->ops->cancel(l->comm->ctx, l->turn_request); /* (never came: a failed run) */
    l->turn_request = NULL;
    atomic_store_explicit(&l->closed, 1, memory_order_release);
    return NULL;
}

static pw_status attach_locked(pw_band_link *l, const pw_band_io *io, pw_band_edges *edges);

void pw_band_link_times(const pw_band_link *l, int64_t *began_ns, int64_t *ended_ns)
{
    *began_ns = l->began_ns;
    *ended_ns = l->ended_ns;
}

static pw_status link_attach(void *ctx, const pw_band_io *io, pw_band_edges *edges)
{
    pw_band_link *l = ctx;
    pthread_mutex_lock(&l->lock);
    pw_status st = l->leaving ? PW_ERR_TIMEOUT : attach_locked(l, io, edges); /* (too late: the link gave up) */
    pthread_mutex_unlock(&l->lock);
    /* This band's turn on its device: its storage is attached (the left neighbour's column comes
     * in meanwhile), its engine starts once the rank before it on the device is done.  No clock:
     * that rank's engine has its own, and a failure anywhere reaches this link as an ABORT. */
    unsigned round = 0;
    while (st == PW_OK && !atomic_load_explicit(&l->turn_have, memory_order_acquire)) {
        if (atomic_load(&l->failed)) st = PW_ERR_TIMEOUT;
        pw_backoff(&round);
    }
    if (st == PW_OK) l->began_ns = pw_now_ns();
    return st;
}

static pw_status attach_locked(pw_band_link *l, const pw_band_io *io, pw_band_edges *edges)
{
    l->io = *io;
    l->ch[0].put = io->put_left;
    l->ch[1].get = io->get_last;
    l->ch[2].put = io->put_right;
    l->ch[3].get = io->get_first;
    for (int k = 0; k < 4; k++) {
        channel *c = &l->ch[k];
        if (!c->put && !c->get) c->peer = -1; /* the app has no such edge (no in-place sweeps) */
        if (c->peer < 0) continue;
        const size_t bytes = (size_t)l->chunk * io->bytes_per_row + 1;
        for (int s = 0; s < DEPTH; s++) {
            if (l->data) {
                const pw_status st = l->data->alloc(l->comm->data_ctx, bytes, (void **)&c->buf[s]);
                if (st != PW_OK) return st;
            } else if (!(c->buf[s] = pw_malloc(bytes))) {
                return PW_ERR_OUT_OF_MEMORY;
            }
        }
        if (!c->incoming) {
            if (!(c->final = pw_malloc(sizeof *c->final * (size_t)(l->sweeps > 0 ? l->sweeps : 1))))
                return PW_ERR_OUT_OF_MEMORY;
            for (int64_t s = 0; s < l->sweeps; s++) atomic_init(&c->final[s], 0);
        }
    }
    *edges = (pw_band_edges){l, l->ch[0].peer >= 0 ? edge_wait_left : NULL, l->ch[2].peer >= 0 ? edge_wait_right : NULL,
                             l->ch[1].peer >= 0 ? edge_last_done : NULL, l->ch[3].peer >= 0 ? edge_first_done : NULL,
                             edge_abandon, edge_broken, edge_peer_direct, l->data ? l->data->free_sms(l->comm->data_ctx) : 0,
                             l->data ? edge_kernel_loaded : NULL, edge_engine_started};
    atomic_store_explicit(&l->attached, 1, memory_order_release);
    return PW_OK;
}

static void link_detach(void *ctx, pw_status status)
{
    pw_band_link *l = ctx;
    if (debug_link()) fprintf(stderr, "peerwave link: rank %d: the engine stopped: %s\n", l->comm->rank, pw_status_str(status));
    if (!l->ended_ns) l->ended_ns = pw_now_ns();
    if (status != PW_OK) atomic_store(&l->abandon, 1);
    atomic_store_explicit(&l->app_gone, 1, memory_order_release);
    unsigned round = 0;
    while (!atomic_load_explicit(&l->detached, memory_order_acquire)) pw_backoff(&round);
    /* (a direct hand-over offered: until the neighbours' engines have stopped too) */
    if (l->offered)
        while (!atomic_load_explicit(&l->closed, memory_order_acquire)) pw_backoff(&round);
}

/* A link that could not even be set up (out of memory): its neighbours still get one word each
 * (ABORT) and give theirs, as every rank sends and takes exactly one word a neighbour per run. */
static void link_abort_alone(pw_comm *comm)
{
    static const int abort_word = WORD_ABORT;
    int words[2];
    for (int side = 0; side < 2; side++) {
        const int peer = side ? comm->rank + 1 : comm->rank - 1;
        if (peer < 0 || peer >= comm->size) continue;
        void *send = NULL, *recv = NULL;
        pw_status st;
        unsigned round = 0;
        if (comm->ops->isend(comm->ctx, peer, pw_comm_tag(comm, PW_TAG_CONTROL), &abort_word, sizeof(int), &send) == PW_OK)
            while (!comm->ops->test(comm->ctx, send, &st)) pw_backoff(&round);
        if (comm->ops->irecv(comm->ctx, peer, pw_comm_tag(comm, PW_TAG_CONTROL), &words[side], sizeof(int), &recv) == PW_OK)
            while (!comm->ops->test(comm->ctx, recv, &st)) pw_backoff(&round);
    }
}

pw_status pw_band_link_start(pw_comm *comm, int64_t rows, int64_t sweeps, int64_t watchdog_ns, int gpu, int turn_prev,
                             int turn_next, int64_t col0, int64_t cols, int64_t total_cols, pw_band *band, pw_band_link **link)
{
    pw_band_link *l = pw_malloc(sizeof *l);
    if (!l) {
        link_abort_alone(comm);
        return PW_ERR_OUT_OF_MEMORY;
    }
    memset(l, 0, sizeof *l);
    l->comm = comm;
    l->data = gpu ? comm->data_ops : NULL;
    l->rows = rows;
    l->sweeps = sweeps;
    l->watchdog_ns = watchdog_ns;
    /* The default chunk: on the CPU a 256th of the rows (at least 64); a GPU's chunk through the
     * host costs a few copies and synchronisations (about 10 us each), so a 32nd (at least 256):
     * HEAT 16384^2, 8 sweeps, two bands sharing an H100 spent 95 ms in 64-row chunks against 9.5
     * ms on one band (docs/DISTRIBUTED.md).  Direct hand-overs do not use chunks. */
    const int64_t asked = comm->chunk, parts = gpu ? 32 : 256, least = gpu ? 256 : 64;
    l->chunk = asked > 0 ? asked : (rows + parts - 1) / parts > least ? (rows + parts - 1) / parts : least;
    if (l->chunk > rows) l->chunk = rows;
    l->chunks = (rows + l->chunk - 1) / l->chunk;
    const int left = comm->rank > 0 ? comm->rank - 1 : -1, right = comm->rank + 1 < comm->size ? comm->rank + 1 : -1;
    const int peers[4] = {left, right, right, left}, tags[4] = {PW_TAG_RIGHTWARD, PW_TAG_RIGHTWARD, PW_TAG_LEFTWARD, PW_TAG_LEFTWARD};
    for (int k = 0; k < 4; k++) {
        channel *c = &l->ch[k];
        c->peer = peers[k];
        c->tag = pw_comm_tag(comm, tags[k]);
        c->incoming = k % 2 == 0;
        c->total = sweeps * l->chunks;
        atomic_init(&c->ready, 0);
    }
    atomic_init(&l->attached, 0);
    atomic_init(&l->swapped, 0);
    atomic_init(&l->detached, 0);
    atomic_init(&l->app_gone, 0);
    atomic_init(&l->closed, 0);
    atomic_init(&l->abandon, 0);
    atomic_init(&l->failed, 0);
    atomic_init(&l->loaded, 0);
    if (debug_link())
        fprintf(stderr, "peerwave link: rank %d: a band of columns [%lld, %lld) of %lld, %lld rows, %lld sweeps, chunks of %lld rows%s\n",
                comm->rank, (long long)col0, (long long)(col0 + cols), (long long)total_cols, (long long)rows, (long long)sweeps,
                (long long)l->chunk, l->data ? ", over the data path" : "");
    l->turn_prev = turn_prev;
    l->turn_next = turn_next;
    atomic_init(&l->turn_have, turn_prev < 0);
    pthread_mutex_init(&l->lock, NULL);
    l->ctl_peer[0] = left;
    l->ctl_peer[1] = right;
    pw_status st = PW_OK;
    for (int side = 0; side < 2 && st == PW_OK; side++)
        if (l->ctl_peer[side] >= 0)
            st = comm->ops->irecv(comm->ctx, l->ctl_peer[side], pw_comm_tag(l->comm, PW_TAG_CONTROL), &l->ctl_word[side], sizeof(int),
                                  &l->ctl_request[side]);
    if (st == PW_OK && turn_prev >= 0)
        st = comm->ops->irecv(comm->ctx, turn_prev, pw_comm_tag(comm, PW_TAG_TURN), &l->turn_word, sizeof(int), &l->turn_request);
    if (st == PW_OK && pthread_create(&l->thread, NULL, link_main, l) != 0) {
        /* no thread: the link's last words on this one, so the neighbours end too (ABORT) */
        atomic_store(&l->abandon, 1);
        atomic_store(&l->app_gone, 1); /* (no app will come: the turn goes on at once) */
        link_main(l);
        st = PW_ERR_THREAD;
    }
    if (st != PW_OK) {
        for (int side = 0; side < 2; side++)
            if (l->ctl_request[side]) (void)comm->ops->cancel(comm->ctx, l->ctl_request[side]);
        if (l->turn_request) (void)comm->ops->cancel(comm->ctx, l->turn_request);
        pthread_mutex_destroy(&l->lock);
        free(l);
        if (st != PW_ERR_THREAD) link_abort_alone(comm);
        return st;
    }
    l->running = 1;
    *band = (pw_band){col0, cols, total_cols, link_attach, link_detach, l};
    *link = l;
    return PW_OK;
}

pw_status pw_band_link_finish(pw_band_link *l, pw_status app_status, int *remote)
{
    if (app_status != PW_OK) atomic_store(&l->abandon, 1);
    /* (an app that never detached has stopped too: the trailing watchdog applies) */
    atomic_store_explicit(&l->app_gone, 1, memory_order_release);
    pthread_join(l->thread, NULL);
    pw_status st = l->status;
    *remote = l->remote;
    if (st != PW_OK) pw_set_error_detail("%s", l->detail);
    for (int k = 0; k < 4; k++) {
        for (int s = 0; s < DEPTH; s++) {
            if (l->data) l->data->free(l->comm->data_ctx, l->ch[k].buf[s]);
            else free(l->ch[k].buf[s]);
        }
        free(l->ch[k].final);
    }
    pthread_mutex_destroy(&l->lock);
    free(l);
    return st;
}
