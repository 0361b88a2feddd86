/*
 * nccl_path.c - GPU bands' chunks over NCCL between MPI ranks (transport.h's data path,
 * pw_comm_use_nccl): point-to-point ncclSend / ncclRecv from and into device buffers, NVLink
 * inside a host and the network between hosts, with no copy through host memory.  MPI still
 * starts the ranks and carries the control words, the offers and the collectives.
 *
 * One NCCL communicator of two ranks for each direction of each neighbour pair, each with a
 * stream of its own: a path carries messages one way only, so the sender's ncclSends and the
 * receiver's ncclRecvs pair up in the order issued, and a receive waiting on the left neighbour
 * never holds up a send to the right one (one communicator for everything would put all of a
 * rank's operations in one order, which both neighbours would have to follow).  Rank r makes the
 * ids of the pair (r, r + 1); the ranks swap them with the comm's allgather and make their
 * communicators in one NCCL group.
 *
 * NCCL moves data with kernels of its own, which need room on an SM: beside a persistent kernel
 * holding every SM they make no progress at all (bench/nccl_hop.cu, 2 H200s: blocked with no SM
 * free; 135-150 us a hop with 1-8 free, 20 us on idle GPUs).  Each communicator's kernels take one
 * CTA (maxCTAs), and a band whose chunks go this way leaves an SM's worth of blocks a
 * communicator to them (free_sms, launch.cu).
 *
 * NCCL connects the two ranks of a communicator lazily, inside the first ncclSend / ncclRecv, and
 * that call blocks on the host until the peer makes its own: on the link's thread it would stop
 * every other channel (the first test hung so: rank 0's first receive from rank 1 waited for a
 * send rank 1 could only make once rank 0's chunks had arrived).  So open connects every
 * communicator with a one-byte exchange in one group, all ranks at once.
 *
 * NCCL's own copies between the GPUs of one host are kernels too (its P2P transport), and beside a
 * band's persistent kernel they stall: the genomes' SW over 2 MPI ranks on 2 H200s (9a669a3) moved
 * 26 of 32 chunks, then none for 10 s, whatever the band's grid (--max-blocks 924, 792, 528) or
 * NCCL's threads; the first chunk never arrived within 4 s at times.  With NCCL_P2P_USE_CUDA_MEMCPY=1
 * (NCCL's proxy thread moves the data with the copy engines) the same run completes (11.8 s, the
 * host path 6.25 s), so pw_comm_use_nccl sets it where the caller has not (setenv without
 * overwrite, before any communicator exists: NCCL reads it when it initialises).  Between hosts
 * the network transport's proxy moves the data; a green context leaving whole SMs to NCCL is the
 * fix not made (docs/DISTRIBUTED.md).
 *
 * A failed run cannot take back an ncclSend or ncclRecv: the communicators are aborted (their
 * kernels end), and the next open makes them again on every rank (open is collective and asks
 * every rank whether it needs to).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "transport.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"

enum { LEFT, RIGHT };

/* PEERWAVE_DEBUG_NCCL=1: a line on stderr for each step (open, make, each message posted and done) */
static int debug_on(void)
{
    static int on = -1;
    if (on < 0) on = getenv("PEERWAVE_DEBUG_NCCL") != NULL;
    return on;
}
#define DEBUG(...) (debug_on() ? (void)fprintf(stderr, "peerwave nccl: " __VA_ARGS__) : (void)0)

typedef struct nccl_link {
    ncclComm_t comm; /* NULL: none (no neighbour on that side) */
    cudaStream_t stream;
    int peer; /* the neighbour's rank in the two-rank communicator */
} nccl_link;

/* The links' chunk buffers are kept from run to run (a link asks for 4 channels x 4 in flight): a
 * cudaFree synchronises the whole device, and NCCL may keep what it learnt of a buffer's address
 * (its registration of user buffers), which a new allocation at the same address would not match. */
#define POOL_BUFFERS 16

typedef struct pooled_buffer {
    void *at;
    size_t bytes;
    int used;
} pooled_buffer;

typedef struct nccl_path {
    int made, device, rank, size;
    int failed;       /* a run was given up (cancel): the next open makes the communicators again */
    unsigned char *warm; /* device bytes for the connecting exchange: one sent, one a receive */
    nccl_link send[2], recv[2]; /* to / from the LEFT and RIGHT neighbour */
    pooled_buffer pool[POOL_BUFFERS]; /* on pool_device */
    int pool_device;
} nccl_path;

typedef struct nccl_request {
    cudaEvent_t done; /* recorded on the link's stream after the operation */
    nccl_link *link;
} nccl_request;

/* What the ranks gather at open: whether each needs the communicators (re)made, then the ids of
 * the pair it leads (rank r: to r + 1 and back) and whether getting them worked. */
typedef struct nccl_entry {
    int need, ok, device;
    ncclUniqueId rightward, leftward;
} nccl_entry;

static pw_status cuda_status(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return PW_OK;
    pw_set_error_detail("%s: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? PW_ERR_OUT_OF_MEMORY : PW_ERR_CUDA;
}

static pw_status nccl_status(ncclResult_t r, const char *what)
{
    /* (ncclInProgress too is a failure: the communicators are blocking ones, and an operation
     * not yet enqueued when its event is recorded would let the buffer go early) */
    if (r == ncclSuccess) return PW_OK;
    pw_set_error_detail("%s: %s", what, ncclGetErrorString(r));
    return PW_ERR_INTERNAL;
}

/* Tear the communicators down: destroyed after a good run, aborted after a failed one (an
 * operation may still wait for a neighbour that is gone).  Both calls may wait for the
 * communicator's other rank to make the same call (NCCL synchronises the ranks of a communicator
 * as it frees them), so every rank takes its communicators in one global order: pair by pair
 * from the left, the rightward one of a pair before its leftward one.  Left pair then right: on
 * rank r, (r - 1 -> r) = recv[LEFT], (r -> r - 1) = send[LEFT], then (r -> r + 1) = send[RIGHT],
 * (r + 1 -> r) = recv[RIGHT] -- rank r + 1 takes the pair (r, r + 1) first, in the same order.
 * (Sends first on every rank, as before, paired rank 0's 0 -> 1 with rank 1's 1 -> 0: a
 * suspect of the hang at the end of test_dist --mpi --gpu --nccl on 2 H200s.) */
static void unmake(nccl_path *p, int abort)
{
    nccl_link *links[4] = {&p->recv[LEFT], &p->send[LEFT], &p->send[RIGHT], &p->recv[RIGHT]};
    int any = 0;
    for (int k = 0; k < 4; k++) any |= links[k]->comm != NULL || links[k]->stream != NULL;
    p->made = 0;
    /* (nothing made: no cudaSetDevice, which since CUDA 12 makes a context on that device -- the
     * first open's unmake put one of 500 MiB on device 0 in every rank not on device 0) */
    if (!any) return;
    cudaSetDevice(p->device);
    for (int k = 0; k < 4; k++) {
        nccl_link *l = links[k];
        if (l->comm) (void)(abort ? ncclCommAbort(l->comm) : ncclCommDestroy(l->comm));
        if (l->stream) cudaStreamDestroy(l->stream);
        *l = (nccl_link){NULL, NULL, 0};
    }
}

/* Connect every communicator now (NCCL would on its first operation, blocking the caller until
 * the peer's): a byte each way in one group, on every rank at once (open is collective). */
static pw_status connect_all(nccl_path *p)
{
    pw_status st = p->warm ? PW_OK : cuda_status(cudaMalloc((void **)&p->warm, 4), "cudaMalloc");
    if (st != PW_OK) return st;
    st = nccl_status(ncclGroupStart(), "ncclGroupStart");
    for (int side = LEFT; st == PW_OK && side <= RIGHT; side++) {
        if (p->send[side].comm)
            st = nccl_status(ncclSend(p->warm, 1, ncclUint8, p->send[side].peer, p->send[side].comm, p->send[side].stream),
                             "ncclSend (connecting)");
        if (st == PW_OK && p->recv[side].comm)
            st = nccl_status(ncclRecv(p->warm + 1 + side, 1, ncclUint8, p->recv[side].peer, p->recv[side].comm,
                                      p->recv[side].stream),
                             "ncclRecv (connecting)");
    }
    const pw_status end = nccl_status(ncclGroupEnd(), "connecting the communicators");
    if (st == PW_OK) st = end;
    nccl_link *links[4] = {&p->send[LEFT], &p->send[RIGHT], &p->recv[LEFT], &p->recv[RIGHT]};
    for (int k = 0; st == PW_OK && k < 4; k++)
        if (links[k]->comm) st = cuda_status(cudaStreamSynchronize(links[k]->stream), "connecting the communicators");
    return st;
}

/* Make this rank's four communicators (fewer at the ends) from the gathered ids. */
static pw_status make(nccl_path *p, const nccl_entry *all)
{
    pw_status st = cuda_status(cudaSetDevice(p->device), "cudaSetDevice");
    /* (the left pair's ids are rank r - 1's, where this rank is the communicator's rank 1; the
     * right pair's are this rank's own, where it is rank 0) */
    struct {
        nccl_link *link;
        const ncclUniqueId *id;
        int me;
    } plan[4] = {{&p->recv[LEFT], p->rank > 0 ? &all[p->rank - 1].rightward : NULL, 1},
                 {&p->send[LEFT], p->rank > 0 ? &all[p->rank - 1].leftward : NULL, 1},
                 {&p->send[RIGHT], p->rank + 1 < p->size ? &all[p->rank].rightward : NULL, 0},
                 {&p->recv[RIGHT], p->rank + 1 < p->size ? &all[p->rank].leftward : NULL, 0}};
    for (int k = 0; st == PW_OK && k < 4; k++)
        if (plan[k].id) st = cuda_status(cudaStreamCreateWithFlags(&plan[k].link->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    if (st != PW_OK) return st;
    /* (in one group: NCCL makes them together, so no order of pairs can deadlock) */
    st = nccl_status(ncclGroupStart(), "ncclGroupStart");
    for (int k = 0; st == PW_OK && k < 4; k++) {
        if (!plan[k].id) continue;
        plan[k].link->peer = 1 - plan[k].me;
        ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
        config.blocking = 1;
        config.maxCTAs = 1; /* (a chunk is small: one CTA moves it, and takes the least room beside the band) */
        st = nccl_status(ncclCommInitRankConfig(&plan[k].link->comm, 2, *plan[k].id, plan[k].me, &config),
                         "ncclCommInitRankConfig");
    }
    const pw_status end = nccl_status(ncclGroupEnd(), "ncclCommInitRankConfig (the group)");
    if (st == PW_OK) st = end;
    return st == PW_OK ? connect_all(p) : st;
}

static pw_status path_open(void *ctx, pw_comm *comm, int device)
{
    nccl_path *p = ctx;
    nccl_entry *mine = (nccl_entry *)(void *)pw_comm_own(comm), *all = (nccl_entry *)(void *)pw_comm_gathered(comm);
    /* (the comm's scratch: sizeof(nccl_entry) is checked against PW_COMM_ENTRY at pw_comm_use_nccl) */
    memset(mine, 0, sizeof *mine);
    mine->need = !p->made || p->device != device || p->failed;
    pw_status st = comm->ops->allgather(comm->ctx, mine, all, sizeof *mine);
    if (st != PW_OK) return st;
    int need = 0;
    for (int k = 0; k < comm->size; k++) need |= all[k].need;
    DEBUG("rank %d: open on device %d, %s\n", comm->rank, device, need ? "making the communicators" : "as made");
    if (!need) return PW_OK;
    /* (aborted, not destroyed: a neighbour's run may have failed with an operation of ours still
     * waiting on it, which ncclCommDestroy would wait for) */
    unmake(p, 1);
    p->failed = 0;
    p->device = device;
    p->rank = comm->rank;
    p->size = comm->size;
    memset(mine, 0, sizeof *mine);
    mine->ok = 1;
    mine->device = device;
    if (comm->rank + 1 < comm->size) {
        st = nccl_status(ncclGetUniqueId(&mine->rightward), "ncclGetUniqueId");
        if (st == PW_OK) st = nccl_status(ncclGetUniqueId(&mine->leftward), "ncclGetUniqueId");
        mine->ok = st == PW_OK;
    }
    pw_status gathered = comm->ops->allgather(comm->ctx, mine, all, sizeof *mine);
    if (gathered != PW_OK) return gathered;
    for (int k = 0; k < comm->size; k++)
        if (!all[k].ok) {
            if (st == PW_OK) pw_set_error_detail("rank %d could not get NCCL's ids", k);
            return st == PW_OK ? PW_ERR_INTERNAL : st;
        }
    st = make(p, all);
    DEBUG("rank %d: made: %s\n", comm->rank, pw_status_str(st));
    /* every rank's outcome, so that all fail together */
    int ok = st == PW_OK, *oks = pw_comm_results(comm);
    gathered = comm->ops->allgather(comm->ctx, &ok, oks, sizeof ok);
    if (st == PW_OK && gathered == PW_OK)
        for (int k = 0; k < comm->size; k++)
            if (!oks[k]) {
                pw_set_error_detail("rank %d could not make its NCCL communicators", k);
                st = PW_ERR_INTERNAL;
                break;
            }
    if (st == PW_OK) st = gathered;
    if (st != PW_OK) {
        unmake(p, 1);
        return st;
    }
    p->made = 1;
    return PW_OK;
}

static void pool_release(nccl_path *p)
{
    for (int k = 0; k < POOL_BUFFERS; k++) {
        if (p->pool[k].at) {
            cudaSetDevice(p->pool_device);
            cudaFree(p->pool[k].at);
        }
        p->pool[k] = (pooled_buffer){NULL, 0, 0};
    }
}

/* A free pooled buffer of at least `bytes` (the smallest such), else a free slot's buffer grown,
 * else a new one. */
static pw_status path_alloc(void *ctx, size_t bytes, void **buf)
{
    nccl_path *p = ctx;
    if (p->pool_device != p->device) pool_release(p);
    p->pool_device = p->device;
    int best = -1, spare = -1;
    for (int k = 0; k < POOL_BUFFERS; k++) {
        const pooled_buffer *b = &p->pool[k];
        if (b->used) continue;
        if (b->at && b->bytes >= bytes && (best < 0 || b->bytes < p->pool[best].bytes)) best = k;
        if (spare < 0 || !b->at) spare = k;
    }
    if (best < 0 && spare < 0) {
        pw_set_error_detail("NCCL: more than %d chunk buffers asked for", POOL_BUFFERS);
        return PW_ERR_INTERNAL;
    }
    if (best < 0) {
        pooled_buffer *b = &p->pool[spare];
        pw_status st = cuda_status(cudaSetDevice(p->device), "cudaSetDevice");
        if (st == PW_OK && b->at) cudaFree(b->at);
        *b = (pooled_buffer){NULL, 0, 0};
        if (st == PW_OK) st = cuda_status(cudaMalloc(&b->at, bytes ? bytes : 1), "cudaMalloc (a chunk buffer)");
        if (st != PW_OK) return st;
        b->bytes = bytes;
        best = spare;
    }
    p->pool[best].used = 1;
    *buf = p->pool[best].at;
    DEBUG("rank %d: chunk buffer %d of %zu bytes for a link\n", p->rank, best, bytes);
    return PW_OK;
}

static void path_free(void *ctx, void *buf)
{
    nccl_path *p = ctx;
    for (int k = 0; buf && k < POOL_BUFFERS; k++)
        if (p->pool[k].at == buf) p->pool[k].used = 0;
}

/* The link to or from `peer` (a neighbour). */
static nccl_link *link_to(nccl_path *p, nccl_link pair[2], int peer)
{
    nccl_link *l = peer == p->rank - 1 ? &pair[LEFT] : peer == p->rank + 1 ? &pair[RIGHT] : NULL;
    return l && l->comm ? l : NULL;
}

static pw_status post(nccl_path *p, nccl_link *l, int send, void *buf, size_t bytes, void **request)
{
    if (!l) {
        pw_set_error_detail("NCCL: no communicator to that rank (not a neighbour, or not made)");
        return PW_ERR_INTERNAL;
    }
    nccl_request *r = pw_malloc(sizeof *r);
    if (!r) return PW_ERR_OUT_OF_MEMORY;
    r->link = l;
    pw_status st = cuda_status(cudaSetDevice(p->device), "cudaSetDevice");
    if (st == PW_OK) st = cuda_status(cudaEventCreateWithFlags(&r->done, cudaEventDisableTiming), "cudaEventCreate");
    if (st != PW_OK) {
        free(r);
        return st;
    }
    st = send ? nccl_status(ncclSend(buf, bytes, ncclUint8, l->peer, l->comm, l->stream), "ncclSend")
              : nccl_status(ncclRecv(buf, bytes, ncclUint8, l->peer, l->comm, l->stream), "ncclRecv");
    if (st == PW_OK) st = cuda_status(cudaEventRecord(r->done, l->stream), "cudaEventRecord");
    if (st != PW_OK) {
        cudaEventDestroy(r->done);
        free(r);
        return st;
    }
    DEBUG("rank %d: %s %zu bytes %s rank %d posted\n", p->rank, send ? "send" : "receive", bytes, send ? "to" : "from",
          l == &p->send[LEFT] || l == &p->recv[LEFT] ? p->rank - 1 : p->rank + 1);
    *request = r;
    return PW_OK;
}

static pw_status path_isend(void *ctx, int peer, const void *buf, size_t bytes, void **request)
{
    nccl_path *p = ctx;
    return post(p, link_to(p, p->send, peer), 1, (void *)buf, bytes, request);
}

static pw_status path_irecv(void *ctx, int peer, void *buf, size_t bytes, void **request)
{
    nccl_path *p = ctx;
    return post(p, link_to(p, p->recv, peer), 0, buf, bytes, request);
}

static int path_test(void *ctx, void *request, pw_status *status)
{
    const nccl_path *p = ctx;
    nccl_request *r = request;
    /* (on the rank's device: a thread that never chose one would make a context on device 0 --
     * seen on rank 1 of 2 H200s at 1e7d730, 520 MiB of GPU 0) */
    cudaSetDevice(p->device);
    const cudaError_t e = cudaEventQuery(r->done);
    *status = PW_OK;
    if (e == cudaErrorNotReady) {
        ncclResult_t async = ncclSuccess;
        if (ncclCommGetAsyncError(r->link->comm, &async) == ncclSuccess && async == ncclSuccess) return 0;
        *status = nccl_status(async == ncclSuccess ? ncclInternalError : async, "NCCL (a chunk in flight)");
    } else if (e != cudaSuccess) {
        *status = cuda_status(e, "NCCL chunk (its event)");
    }
    DEBUG("a message done: %s\n", pw_status_str(*status));
    cudaEventDestroy(r->done);
    free(r);
    return 1;
}

static void path_cancel(void *ctx, void *request)
{
    nccl_path *p = ctx;
    nccl_request *r = request;
    unmake(p, 1); /* (the operation's kernel ends with its communicator; the buffer is free) */
    p->failed = 1;
    cudaEventDestroy(r->done);
    free(r);
}

static void path_destroy(void *ctx)
{
    nccl_path *p = ctx;
    unmake(p, p->failed);
    pool_release(p);
    if (p->warm) {
        cudaSetDevice(p->device);
        cudaFree(p->warm);
    }
    free(p);
}

/* An SM a communicator this rank has (2 at the ends of the row, 4 between, 1 for one-way bands
 * at the ends would do, but the links do not say which way their app goes). */
static int path_free_sms(void *ctx)
{
    const nccl_path *p = ctx;
    return (p->send[LEFT].comm != NULL) + (p->send[RIGHT].comm != NULL) + (p->recv[LEFT].comm != NULL) +
           (p->recv[RIGHT].comm != NULL);
}

static const pw_data_path_ops nccl_ops = {path_open, path_alloc, path_free, path_isend, path_irecv,
                                          path_test, path_cancel, path_destroy, path_free_sms};

pw_status pw_comm_use_nccl(pw_comm *comm)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    if (comm->shared) {
        pw_set_error_detail("NCCL carries chunks between processes (pw_comm_mpi); ranks that are threads of one process "
                            "hand over directly");
        return PW_ERR_UNSUPPORTED;
    }
    _Static_assert(sizeof(nccl_entry) <= PW_COMM_ENTRY, "the NCCL ids fit a collective's entry");
    if (comm->data_ops) return PW_OK;
    setenv("NCCL_P2P_USE_CUDA_MEMCPY", "1", 0); /* (the copy engines, not kernels beside the band's: above) */
    nccl_path *p = pw_malloc(sizeof *p);
    if (!p) return PW_ERR_OUT_OF_MEMORY;
    memset(p, 0, sizeof *p);
    comm->data_ops = &nccl_ops;
    comm->data_ctx = p;
    return PW_OK;
}
