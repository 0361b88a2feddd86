/*
 * dist_turns.c - which ranks share a device, the order their bands take turns in, and the run's
 * span (dist_turns.h; the turns themselves are passed by the band link: band_link.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dist_turns.h"
#include "dist_run.h"
#include "../core/status_detail.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

/* Which device this rank's band runs on: a GPU's bus id (ranks of one host may number their GPUs
 * differently) or "cpu", then the host (first, so that a long host name cannot cut the bus id
 * off); comm->debug_device_key stands in for it (tests). */
static void rank_device_key(const pw_comm *comm, pw_backend backend, int device, char *buf, size_t size)
{
    if (comm->debug_device_key) {
        snprintf(buf, size, "%s", comm->debug_device_key);
        return;
    }
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "?");
    host[sizeof host - 1] = 0;
    char bus[32] = "cpu";
#ifdef PW_HAVE_CUDA
    if (backend == PW_BACKEND_CUDA && pw_cuda_bus_id(device, bus, sizeof bus) != PW_OK) snprintf(bus, sizeof bus, "device %d", device);
#else
    (void)backend, (void)device;
#endif
    snprintf(buf, size, "%s@%s", bus, host);
}

typedef struct turn_entry {
    int32_t turns;
    char key[DIST_DEVICE_BYTES]; /* "": no device (a failed rank, or turns off) */
} turn_entry;

/* Rank k's round: how many ranks before it share its device. */
static int round_of(const turn_entry *all, int k)
{
    int round = 0;
    for (int j = 0; j < k; j++) round += strcmp(all[j].key, all[k].key) == 0;
    return round;
}

pw_status pw_dist_turn_peers(pw_comm *comm, pw_status local, pw_backend backend, int device, int in_place,
                          int64_t start_timeout_ns, int *prev, int *next)
{
    _Static_assert(sizeof(turn_entry) <= PW_COMM_ENTRY, "entries fit the scratch");
    turn_entry mine = {comm->turns, ""};
    *prev = *next = -1;
    if (comm->turns && !in_place && local == PW_OK) rank_device_key(comm, backend, device, mine.key, sizeof mine.key);
    turn_entry *all = (turn_entry *)(void *)pw_comm_gathered(comm); /* (no allocation: every rank takes part) */
    pw_status st = pw_dist_start_gather(comm, start_timeout_ns, &mine, all, sizeof mine); /* (a run's first collective) */
    if (st != PW_OK) return st;
    for (int k = 1; k < comm->size; k++)
        if (all[k].turns != all[0].turns) {
            pw_set_error_detail("rank %d takes turns on its device and rank %d does not: pw_comm_set_turns must be alike "
                                "on every rank", all[k].turns ? k : 0, all[k].turns ? 0 : k);
            return PW_ERR_INVALID_ARGUMENT;
        }
    if (!comm->turns || in_place) return PW_OK;
    for (int k = 1, left = 0; k < comm->size; left = k++) {
        if (!all[k].key[0] || !all[left].key[0]) continue; /* (a failed rank: every rank fails at the agreement) */
        const int r = round_of(all, k), l = round_of(all, left);
        if (r < l) {
            pw_set_error_detail("with turns, rank %d would run in round %d on its device, before rank %d on its left (round "
                                "%d): interleave the ranks of each device (rank k on device k mod G)", k, r, left, l);
            return PW_ERR_INVALID_ARGUMENT;
        }
    }
    for (int k = 0; mine.key[0] && k < comm->size; k++) {
        if (strcmp(all[k].key, mine.key) != 0) continue;
        if (k < comm->rank) *prev = k;
        if (k > comm->rank && *next < 0) *next = k;
    }
    return PW_OK;
}

pw_status pw_dist_run_span(pw_comm *comm, const int64_t times[3], double *span_s)
{
    int64_t(*all)[3] = (int64_t(*)[3])(void *)pw_comm_gathered(comm);
    pw_status st = comm->ops->allgather(comm->ctx, times, all, sizeof(int64_t[3]));
    int64_t began = 0, ended = 0;
    int any = 0;
    for (int k = 0; st == PW_OK && k < comm->size; k++) {
        if (!all[k][2]) continue;
        if (!any || all[k][0] < began) began = all[k][0];
        if (!any || all[k][1] > ended) ended = all[k][1];
        any = 1;
    }
    *span_s = any && ended > began ? (double)(ended - began) * 1e-9 : 0;
    return st;
}
