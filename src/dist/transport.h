/*
 * transport.h - how the ranks of a distributed run talk: point-to-point messages that complete in
 * the background, and one collective (allgather).  Two transports implement it: MPI
 * (transport_mpi.c, one rank per process, started by mpirun) and threads of one process
 * (transport_local.c: the tests, and one process driving several devices).  The band link and
 * the distributed apps are written once against this interface.
 *
 * Threading: during a run only the band link's thread calls isend / irecv / test / cancel; the
 * calling thread uses allgather only when no link runs (MPI_THREAD_SERIALIZED is enough).
 */
#ifndef PW_DIST_TRANSPORT_H
#define PW_DIST_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "peerwave_dist.h"

typedef struct pw_transport_ops {
    /* Start sending / receiving `bytes` bytes to / from rank `peer` with `tag` (0 .. 32767);
     * *request for test.  Messages between two ranks with one tag arrive in the order sent. */
    pw_status (*isend)(void *ctx, int peer, int tag, const void *buf, size_t bytes, void **request);
    pw_status (*irecv)(void *ctx, int peer, int tag, void *buf, size_t bytes, void **request);
    /* 1: complete (the request is gone; *status says how it went), 0: not yet. */
    int (*test)(void *ctx, void *request, pw_status *status);
    /* Give up a request that may never complete (a failed run).  1: its buffer is free again; 0:
     * the transport may still read it (an MPI send let go), so the caller must not free it. */
    int (*cancel)(void *ctx, void *request);
    /* Every rank's `bytes` bytes at mine into all (size x bytes, in rank order); collective. */
    pw_status (*allgather)(void *ctx, const void *mine, void *all, size_t bytes);
    void (*destroy)(void *ctx);
    /* allgather for the collective that starts a run (pw_dist_start_gather), where a rank that never
     * makes the call would keep the others waiting for ever: once no rank has arrived for
     * timeout_ns, every rank that did returns PW_ERR_TIMEOUT naming the ranks that did not, and
     * every later collective of the comm fails at once (its ranks are out of step).  NULL where
     * the transport cannot time a collective out (MPI: transport_mpi.c says why). */
    pw_status (*allgather_within)(void *ctx, const void *mine, void *all, size_t bytes, int64_t timeout_ns);
} pw_transport_ops;

/* A data path for GPU bands' chunks between device buffers, beside the transport that carries
 * everything else (control words, offers, collectives): NCCL (nccl_path.c, pw_comm_use_nccl).
 * Only the band link uses it, and only for GPU bands (band_link.c); messages between two ranks in
 * one direction arrive in the order sent (no tags: each direction of each neighbour pair is a
 * path of its own). */
typedef struct pw_data_path_ops {
    /* Collective over the comm's ranks, before each GPU band run (dist_apps.c): the path on this
     * rank's `device`, (re)made where any rank needs it; the same status on every rank. */
    pw_status (*open)(void *ctx, pw_comm *comm, int device);
    pw_status (*alloc)(void *ctx, size_t bytes, void **buf); /* a chunk buffer on the device */
    void (*free)(void *ctx, void *buf);
    pw_status (*isend)(void *ctx, int peer, const void *buf, size_t bytes, void **request);
    pw_status (*irecv)(void *ctx, int peer, void *buf, size_t bytes, void **request);
    int (*test)(void *ctx, void *request, pw_status *status); /* as pw_transport_ops.test */
    /* A failed run's request: the path is torn down (the next open makes it again); its buffer is
     * free again. */
    void (*cancel)(void *ctx, void *request);
    void (*destroy)(void *ctx);
    int (*free_sms)(void *ctx); /* SMs a band's kernel must leave free on its GPU, for the path's
                                   own kernels (once open) */
} pw_data_path_ops;

struct pw_comm {
    const pw_transport_ops *ops;
    void *ctx;
    int rank, size;
    unsigned run;  /* distributed calls made so far: tags of different calls never meet */
    int64_t chunk; /* pw_comm_set_chunk: rows a hand-over chunk carries, 0 = automatic */
    int shared;    /* the ranks share one address space (threads of one process): engines may
                      write into each other's memory (core/band.h, direct hand-over) */
    int direct_off; /* pw_comm_set_direct(comm, 0) */
    double *weights; /* pw_comm_share_weight: every rank's, in rank order; NULL = equal bands */
    unsigned char *scratch; /* the collectives' buffers, allocated with the comm (dist_run.h: a
                               collective that could not allocate would leave the others waiting) */
    const pw_data_path_ops *data_ops; /* NULL, or GPU bands' chunks go this way (pw_comm_use_nccl) */
    void *data_ctx;
    int debug_mute; /* fault injection (tests): this rank's link never sends the last sweep's
                       leftward chunks, which the left neighbour's engine does not read -- only
                       the links' trailing watchdog can end that run (band_link.c) */
    const char *debug_device_key; /* tests: pw_comm_debug_device_key */
    int turns;     /* pw_comm_set_turns: ranks that share a device run their one-way bands one
                      after another, in rank order (band_link.c) */
    int failure_from; /* the rank whose failure the last agreement decided, -1: none (dist_run.c:
                         the CLI's other ranks then leave the message to it and to rank 0) */
    unsigned tag_runs; /* runs before the tags repeat: what the transport's largest tag allows
                          (MPI_TAG_UB, at least 4096 runs); 0: 4096.  A message a failed run left
                          unreceived can only meet a run this many runs later. */
};

/* Fault injection for the tests (pw_comm.debug_mute). */
static inline void pw_comm_debug_mute(pw_comm *c, int mute) { c->debug_mute = mute; }
/* For the tests: the device this rank's band says it runs on, for turns (dist_turns.c), in place
 * of its GPU's bus id or its host (NULL: the real one). */
static inline void pw_comm_debug_device_key(pw_comm *c, const char *key) { c->debug_device_key = key; }

/* The scratch's parts: per rank PW_COMM_ENTRY bytes for what a collective gathers, as much again
 * for its reports, and PW_COMM_RESULT bytes for the callers' gathered results. */
#define PW_COMM_ENTRY 512
#define PW_COMM_RESULT 64
static inline size_t pw_comm_scratch_bytes(int size) { return (size_t)size * (2 * PW_COMM_ENTRY + PW_COMM_RESULT) + PW_COMM_ENTRY; }
/* The gathered entries, the reports, this rank's own entry, the results. */
static inline unsigned char *pw_comm_gathered(const pw_comm *c) { return c->scratch; }
static inline unsigned char *pw_comm_reports(const pw_comm *c) { return c->scratch + (size_t)c->size * PW_COMM_ENTRY; }
static inline unsigned char *pw_comm_own(const pw_comm *c) { return c->scratch + (size_t)c->size * 2 * PW_COMM_ENTRY; }
static inline void *pw_comm_results(const pw_comm *c) { return c->scratch + (size_t)c->size * 2 * PW_COMM_ENTRY + PW_COMM_ENTRY; }

/* Tags: a run's own (comm->run, as the ranks' calls come in the same order), a kind each. */
enum { PW_TAG_RIGHTWARD, PW_TAG_LEFTWARD, PW_TAG_CONTROL, PW_TAG_CHAIN, PW_TAG_GATHER, PW_TAG_DIRECT, PW_TAG_TURN, PW_TAG_TRAIN, PW_TAG_KINDS };
/* (MPI guarantees tags up to 32767: 4096 runs of 8 kinds) */
static inline int pw_comm_tag(const pw_comm *comm, int kind)
{
    return (int)(comm->run % (comm->tag_runs ? comm->tag_runs : 4096u)) * PW_TAG_KINDS + kind;
}

#endif
