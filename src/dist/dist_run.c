/* dist_run.c - comms, the band split and the steps of every distributed call (dist_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_run.h"
#include "../core/alloc.h"
#include "../core/exec.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../cpu/team.h"
#include "../core/fnv1a.h"

int pw_comm_rank(const pw_comm *comm) { return comm ? comm->rank : -1; }
int pw_comm_size(const pw_comm *comm) { return comm ? comm->size : 0; }
int pw_dist_failure_take(pw_comm *comm)
{
    if (!comm) return -1;
    const int k = comm->failure_from;
    comm->failure_from = -1; /* (told once: a later error of this process is its own) */
    return k;
}

void pw_comm_set_chunk(pw_comm *comm, int64_t columns)
{
    if (comm) comm->chunk = columns > 0 ? columns : 0;
}

void pw_comm_set_direct(pw_comm *comm, int direct)
{
    if (comm) comm->direct_off = !direct;
}

void pw_comm_set_turns(pw_comm *comm, int turns)
{
    if (comm) comm->turns = turns != 0;
}

#ifndef PW_HAVE_NCCL
pw_status pw_comm_use_nccl(pw_comm *comm)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    pw_set_error_detail("this build has no NCCL (it comes with the CUDA toolkit: build with CUDA and MPI where libnccl is)");
    return PW_ERR_UNSUPPORTED;
}
#endif

void pw_comm_free(pw_comm *comm)
{
    if (!comm) return;
    if (comm->data_ops) comm->data_ops->destroy(comm->data_ctx);
    comm->ops->destroy(comm->ctx);
    free(comm->weights);
    free(comm->scratch);
    free(comm);
}

/* pw_comm_share_weight; measured: the weights are pw_comm_measure_weight's, where a 0 is a rank
 * whose measuring run failed (it says why itself), not a caller's bad number. */
static pw_status share_weight(pw_comm *comm, double weight, int measured)
{
    double *all = pw_malloc(sizeof *all * (size_t)comm->size);
    /* (a rank without memory for the weights still takes part, and says 0: every rank fails) */
    const double mine = all && weight > 0 && weight < 1e300 ? weight : 0; /* (checked on every rank below) */
    pw_status st = comm->ops->allgather(comm->ctx, &mine, all ? (void *)all : pw_comm_results(comm), sizeof mine);
    if (!all) {
        pw_set_error_detail("no memory for the ranks' weights");
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; st == PW_OK && k < comm->size; k++)
        if (!(all[k] > 0)) {
            if (measured) pw_set_error_detail("rank %d could not measure its speed (its own error says why)", k);
            else pw_set_error_detail("rank %d's weight is not a positive number", k);
            st = PW_ERR_INVALID_ARGUMENT;
        }
    if (st != PW_OK) {
        free(all);
        return st;
    }
    free(comm->weights);
    comm->weights = all;
    return PW_OK;
}

pw_status pw_comm_share_weight(pw_comm *comm, double weight)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    return share_weight(comm, weight, 0);
}

pw_status pw_comm_measure_weight(pw_comm *comm, const pw_options *options, double *weight)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    /* a short SW run on this rank's engine: its rate is the rank's weight (every app's bands cost
     * about the same per cell relative to the others') */
    pw_options o = pw_options_or_defaults(options);
    if (o.backend == PW_BACKEND_AUTO) o.backend = PW_BACKEND_CPU; /* (the bands' engine under AUTO: pw_dist_band_options) */
    pw_backend backend = PW_BACKEND_CPU;
    pw_status st = pw_backend_resolve(&o, &backend);
#ifndef PW_HAVE_CUDA
    if (o.backend == PW_BACKEND_CUDA) /* (worded as the device calls: apps/device_api.c) */
        pw_set_error_detail("measuring on the CUDA backend needs a build with CUDA (%s)", pw_build_info());
#endif
    const int64_t n = backend == PW_BACKEND_CUDA ? 16384 : 2048;
    char *a = pw_malloc((size_t)n), *b = pw_malloc((size_t)n);
    double rate = 0;
    if (st == PW_OK && (!a || !b)) st = PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK) {
        uint64_t s = 88172645463325252ull;
        for (int64_t k = 0; k < n; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            a[k] = "ACGT"[s & 3], b[k] = "ACGT"[(s >> 9) & 3];
        }
        o.width_model = -1;
        o.progress = NULL, o.trace = NULL;
        pw_sw_result r;
        pw_sw_params params;
        pw_sw_params_init(&params);
        for (int k = 0; k < 2 && st == PW_OK; k++) { /* (the first run warms up) */
            const double t0 = pw_seconds_now();
            st = pw_sw(a, n, b, n, &params, &o, &r);
            rate = (double)n * (double)n / (pw_seconds_now() - t0 + 1e-9);
        }
    }
    free(a);
    free(b);
    /* every rank shares, also one whose run failed (its 0 makes every rank fail alike); that rank
     * keeps its own reason, which the sharing would overwrite */
    char why[256];
    snprintf(why, sizeof why, "%s", st != PW_OK ? pw_error_detail() : "");
    pw_status shared = share_weight(comm, st == PW_OK ? rate : 0, 1);
    if (st == PW_OK) st = shared;
    else pw_set_error_detail("%s", why);
    if (st == PW_OK && weight) *weight = rate;
    return st;
}

pw_status pw_comm_allgather(pw_comm *comm, const void *mine, void *all, size_t bytes)
{
    if (!comm || (bytes && (!mine || !all))) return PW_ERR_NULL_ARGUMENT;
    if (bytes > (SIZE_MAX - 1) / (size_t)comm->size) {
        pw_set_error_detail("%zu bytes from each of %d ranks: more than this machine can count", bytes, comm->size);
        return PW_ERR_SIZE_OVERFLOW;
    }
    return comm->ops->allgather(comm->ctx, mine, all, bytes);
}

/* Cuts between bands fall on multiples of this many columns where every band is wide enough
 * (DIST_SPLIT_QUANTUM x 4 columns or more): a band's first column then starts a 16-byte line for
 * every element type, so its vector loads and stores stay aligned (a cut at an odd column made
 * SAT f32's GPU bands 1.6x slower, measured 2026-11-30), and SAT's 128-column chunks are those of
 * one GPU, so float bands sum in the same order (equal bits). */
#define DIST_SPLIT_QUANTUM 128

/* The end of band k (exclusive) of n columns cut in proportion to the weights (NULL: equal). */
static int64_t split_end(const double *weights, int size, int k, int64_t n)
{
    if (k == size - 1) return n;
    double before = 0, total = 0;
    for (int q = 0; q < size; q++) {
        const double w = weights ? weights[q] : 1.0;
        total += w;
        if (q <= k) before += w;
    }
    const double end = (double)n * before / total;
    if (n >= (int64_t)size * DIST_SPLIT_QUANTUM * 4) return (int64_t)(end / DIST_SPLIT_QUANTUM + 0.5) * DIST_SPLIT_QUANTUM;
    return (int64_t)(end + 0.5);
}

pw_status pw_dist_split(const pw_comm *comm, int rank, int64_t n, int64_t *first, int64_t *count)
{
    if (!comm || !first || !count) return PW_ERR_NULL_ARGUMENT;
    if (rank < 0 || rank >= comm->size) return PW_ERR_INVALID_ARGUMENT;
    if (n < comm->size) {
        pw_set_error_detail("%lld columns cannot be split into %d bands of at least one: fewer ranks (sw and dtw: or the "
                            "longer sequence second, whose letters are the columns)", (long long)n, comm->size);
        return PW_ERR_INVALID_SIZE;
    }
    if (!comm->weights && n < (int64_t)comm->size * DIST_SPLIT_QUANTUM * 4) {
        const int64_t base = n / comm->size, extra = n % comm->size; /* the first `extra` bands get one more */
        *first = rank * base + (rank < extra ? rank : extra);
        *count = base + (rank < extra);
        return PW_OK;
    }
    /* band k ends at n x (weights up to k) / (all weights), rounded (to the quantum where the
     * bands are wide), each band keeping at least one column */
    int64_t start = 0, end = 0;
    for (int k = 0; k <= rank; k++) {
        start = end;
        end = split_end(comm->weights, comm->size, k, n);
        if (end < start + 1) end = start + 1;
        if (end > n - (comm->size - 1 - k)) end = n - (comm->size - 1 - k);
    }
    *first = start;
    *count = end - start;
    return PW_OK;
}

uint64_t pw_dist_hash(const void *data, size_t bytes, uint64_t seed)
{
    return pw_fnv1a(PW_FNV1A_BASIS ^ seed, data, bytes);
}

typedef struct dist_report {
    int32_t status, remote;
    char detail[192];
} dist_report;

static dist_report report_of(pw_status st, int remote)
{
    dist_report r = {(int32_t)st, remote, {0}};
    if (st != PW_OK) snprintf(r.detail, sizeof r.detail, "%s", pw_error_detail());
    return r;
}

/* The first rank that failed by itself, else the first that failed; -1: none. */
static int deciding_rank(const dist_report *all, int size)
{
    int first = -1;
    for (int k = 0; k < size; k++) {
        if (all[k].status == PW_OK) continue;
        if (!all[k].remote) return k;
        if (first < 0) first = k;
    }
    return first;
}

static pw_status decide(pw_comm *comm, const dist_report *all)
{
    const int k = deciding_rank(all, comm->size);
    comm->failure_from = k;
    if (k < 0) return PW_OK;
    if (k == comm->rank) pw_set_error_detail("%s", all[k].detail); /* (its own words, as a single process would) */
    else pw_set_error_detail("rank %d: %s: %s", k, pw_status_str((pw_status)all[k].status), all[k].detail);
    return (pw_status)all[k].status;
}

pw_status pw_dist_agree(pw_comm *comm, pw_status local, const dist_signature *sig, const char *device)
{
    typedef struct entry {
        dist_report report;
        dist_signature sig;
        char device[DIST_DEVICE_BYTES];
    } entry;
    comm->failure_from = -1; /* (not the last run's: a failure before this agreement is this rank's own) */
    entry mine = {report_of(local, 0), *sig, {0}};
    snprintf(mine.device, sizeof mine.device, "%s", device ? device : "");
    mine.sig.word[DIST_SIGNATURE_WORDS - 1] = comm->run; /* (the ranks' calls must come in the same order too) */
    _Static_assert(sizeof(entry) <= PW_COMM_ENTRY && sizeof(dist_report) <= PW_COMM_ENTRY, "entries fit the scratch");
    entry *all = (entry *)(void *)pw_comm_gathered(comm); /* (no allocation: every rank takes part) */
    pw_status st = comm->ops->allgather(comm->ctx, &mine, all, sizeof mine);
    dist_report *reports = (dist_report *)(void *)pw_comm_reports(comm);
    if (st == PW_OK) {
        for (int k = 0; k < comm->size; k++) reports[k] = all[k].report;
        st = decide(comm, reports);
    }
    for (int k = 1; st == PW_OK && k < comm->size; k++)
        if (memcmp(&all[k].sig, &all[0].sig, sizeof all[0].sig) != 0) {
            pw_set_error_detail("rank %d was called with other arguments (sizes, parameters or inputs) than rank 0", k);
            st = PW_ERR_INVALID_ARGUMENT;
            comm->failure_from = 0; /* (every rank finds it alike: rank 0 tells it) */
        }
    for (int k = 1; st == PW_OK && !comm->weights && k < comm->size; k++)
        if (strcmp(all[k].device, all[0].device) != 0) {
            pw_set_error_detail("rank %d runs on %s, rank 0 on %s: bands of equal width would keep the faster waiting "
                                "for the slower; cut the bands by measured speed (--balance; pw_comm_measure_weight "
                                "or pw_comm_share_weight) or use devices of one model",
                                k, all[k].device[0] ? all[k].device : "the CPU", all[0].device[0] ? all[0].device : "the CPU");
            st = PW_ERR_INVALID_ARGUMENT;
            comm->failure_from = 0;
        }
    comm->run++;
    return st;
}

int64_t pw_dist_start_timeout_ns(const pw_options *options)
{
    /* the caller's watchdog, else the CPU's default on every backend: ranks may still be setting
     * up (a GPU's context, its uploads) when they come, which the GPU's 10 s would not allow */
    const int64_t ms = options && options->watchdog_ms > 0 && options->watchdog_ms < INT64_MAX / 1000000
                           ? options->watchdog_ms : 120000;
    return ms * 1000000;
}

pw_status pw_dist_start_gather(pw_comm *comm, int64_t timeout_ns, const void *mine, void *all, size_t bytes)
{
    /* (MPI has no time-out for a collective: transport_mpi.c) */
    return comm->ops->allgather_within ? comm->ops->allgather_within(comm->ctx, mine, all, bytes, timeout_ns)
                                       : comm->ops->allgather(comm->ctx, mine, all, bytes);
}

pw_status pw_dist_band_options(const pw_options *options, pw_options *band, int64_t *watchdog_ns)
{
    if (options) *band = *options;
    else pw_options_init(band);
    /* AUTO is the CPU: GPU bands run when asked for (PW_BACKEND_CUDA), until they have been
     * measured on several GPUs (docs/DISTRIBUTED.md) */
    if (band->backend == PW_BACKEND_AUTO) band->backend = PW_BACKEND_CPU;
    if (band->strategy != PW_STRATEGY_PEER) {
        pw_set_error_detail("a distributed run uses the peer strategy on every rank");
        return PW_ERR_UNSUPPORTED;
    }
    pw_backend resolved = PW_BACKEND_CPU;
    if (pw_backend_resolve(band, &resolved) != PW_OK) resolved = PW_BACKEND_CPU; /* (the run says why) */
    *watchdog_ns = (band->watchdog_ms ? band->watchdog_ms : resolved == PW_BACKEND_CUDA ? 10000 : 120000) * 1000000;
    return PW_OK;
}

pw_status pw_dist_conclude(pw_comm *comm, pw_status status, int remote, const void *mine, void *all, size_t bytes)
{
    const size_t entry_bytes = sizeof(dist_report) + bytes;
    if (entry_bytes > PW_COMM_ENTRY) return PW_ERR_INTERNAL; /* (results are a few words: dist_apps.c) */
    unsigned char *out = pw_comm_gathered(comm), *in = pw_comm_own(comm); /* (no allocation, as in pw_dist_agree) */
    dist_report *reports = (dist_report *)(void *)pw_comm_reports(comm);
    comm->failure_from = -1;
    const dist_report r = report_of(status, remote);
    memcpy(in, &r, sizeof r);
    memcpy(in + sizeof r, mine, bytes);
    pw_status st = comm->ops->allgather(comm->ctx, in, out, entry_bytes);
    if (st == PW_OK) {
        for (int k = 0; k < comm->size; k++) {
            memcpy(&reports[k], out + (size_t)k * entry_bytes, sizeof reports[k]);
            memcpy((unsigned char *)all + (size_t)k * bytes, out + (size_t)k * entry_bytes + sizeof(dist_report), bytes);
        }
        st = decide(comm, reports);
    }
    return st;
}

pw_status pw_dist_message(pw_comm *c, int send, int peer, int kind, void *buf, size_t bytes)
{
    void *request;
    pw_status st = send ? c->ops->isend(c->ctx, peer, pw_comm_tag(c, kind), buf, bytes, &request)
                        : c->ops->irecv(c->ctx, peer, pw_comm_tag(c, kind), buf, bytes, &request);
    if (st != PW_OK) return st;
    unsigned round = 0;
    while (!c->ops->test(c->ctx, request, &st)) pw_backoff(&round);
    return st;
}

#define GATHER_BYTES ((size_t)32 << 20) /* a message of the gather at most */

/* (dist_run.h) */
/* Ranks that are threads of one process and hand in one buffer (cli's --gpus: one output
 * table, each band writing its own columns) have nothing to exchange: 1 on every rank then
 * (collective where the comm is shared; 0 at once elsewhere, alike on every rank). */
static int one_buffer(pw_comm *c, const void *data, pw_status *st)
{
    *st = PW_OK;
    if (!c->shared) return 0;
    const void **all = (const void **)(void *)pw_comm_gathered(c);
    *st = c->ops->allgather(c->ctx, &data, all, sizeof data);
    int same = *st == PW_OK;
    for (int k = 1; same && k < c->size; k++) same = all[k] == all[0];
    return same;
}

pw_status pw_dist_gather_columns(pw_comm *c, void *data, size_t elem, int64_t rows, int64_t cols, int planes,
                                int64_t col_offset, int64_t interior_cols)
{
    pw_status shared_st;
    if (one_buffer(c, data, &shared_st) || shared_st != PW_OK) return shared_st;
    /* one buffer for the largest band, agreed on by every rank before any message (a rank without
     * it must not leave the others waiting) */
    int64_t widest = 0, first, count;
    for (int k = 0; k < c->size; k++)
        if (pw_dist_split(c, k, interior_cols, &first, &count) == PW_OK && count > widest) widest = count;
    const size_t widest_bytes = (size_t)widest * elem;
    int64_t per = (int64_t)(GATHER_BYTES / (widest_bytes ? widest_bytes : 1));
    if (per < 1) per = 1;
    if (per > rows) per = rows;
    unsigned char *buf = pw_malloc(widest_bytes * (size_t)per + 1);
    int ok = buf != NULL, *oks = pw_comm_results(c);
    pw_status st = pw_comm_allgather(c, &ok, oks, sizeof ok);
    for (int k = 0; st == PW_OK && k < c->size; k++)
        if (!oks[k]) st = PW_ERR_OUT_OF_MEMORY;
    for (int k = 0; k < c->size && st == PW_OK; k++) {
        st = pw_dist_split(c, k, interior_cols, &first, &count);
        const size_t row_bytes = (size_t)count * elem;
        for (int d = 0; d < c->size && st == PW_OK; d++) {
            if (d == k || (c->rank != k && c->rank != d)) continue;
            for (int p = 0; p < planes && st == PW_OK; p++)
                for (int64_t i0 = 0; i0 < rows && st == PW_OK; i0 += per) {
                    const int64_t i1 = i0 + per < rows ? i0 + per : rows;
                    unsigned char *at = (unsigned char *)data + ((size_t)p * (size_t)(rows * cols) +
                                                                (size_t)(i0 * cols + col_offset + first)) * elem;
                    if (c->rank == k) {
                        for (int64_t i = i0; i < i1; i++)
                            memcpy(buf + (size_t)(i - i0) * row_bytes, at + (size_t)((i - i0) * cols) * elem, row_bytes);
                        st = pw_dist_message(c, 1, d, PW_TAG_GATHER, buf, row_bytes * (size_t)(i1 - i0));
                    } else {
                        st = pw_dist_message(c, 0, k, PW_TAG_GATHER, buf, row_bytes * (size_t)(i1 - i0));
                        for (int64_t i = i0; st == PW_OK && i < i1; i++)
                            memcpy(at + (size_t)((i - i0) * cols) * elem, buf + (size_t)(i - i0) * row_bytes, row_bytes);
                    }
                }
        }
    }
    free(buf);
    return st;
}

pw_status pw_dist_from_last_rank(pw_comm *c, void *buf, size_t bytes)
{
    const int last = c->size - 1;
    pw_status st = PW_OK;
    for (int d = 0; d < last && st == PW_OK; d++) {
        if (c->rank != last && c->rank != d) continue;
        for (size_t at = 0; at < bytes && st == PW_OK; at += GATHER_BYTES) {
            const size_t n = bytes - at < GATHER_BYTES ? bytes - at : GATHER_BYTES;
            st = pw_dist_message(c, c->rank == last, c->rank == last ? d : last, PW_TAG_GATHER, (unsigned char *)buf + at, n);
        }
    }
    return st;
}
