/*
 * sw_pairs_gpus.c - many SW pairs over several GPUs (pw_sw_pairs_batch with devices listed): the
 * pairs cut into one contiguous part a GPU, of about equal cells (the GPUs are taken to be alike),
 * each part through the GPU's pipeline (pw_cuda_pairs_sw) on a thread of its own, whose host team
 * gets an equal share of the threads; the parts are disjoint, so each writes its own hits.  A GPU
 * named twice runs two pipelines side by side (the tests do that on a one-GPU machine).
 */
#include "sw_batch.h"

#ifdef PW_HAVE_CUDA
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../core/exec.h" /* pw_seconds_now */
#include "../core/status_detail.h"
#include "../cuda/pairs_sw.h"

typedef struct gpu_part {
    const pw_options *options;
    const pw_seq_set *a, *b;
    const pw_score_table *table;
    int32_t gap_open, gap_extend;
    const int64_t *list;
    int64_t count, cells;
    int device, threads;
    pw_sw_hit *hits;
    pw_batch_progress *progress;
    /* out */
    pw_status st;
    int lane_bits;
    int64_t recomputed;
    double seconds;
    char detail[256];
} gpu_part;

static void *part_main(void *arg)
{
    gpu_part *g = arg;
    pw_options o = *g->options;
    o.device = g->device;
    o.threads = g->threads;
    const double t0 = pw_seconds_now();
    g->st = g->count < 1 ? PW_OK
                         : pw_cuda_pairs_sw(&o, g->a, g->b, g->table, g->gap_open, g->gap_extend, g->list, g->count,
                                            g->hits, g->progress, &g->lane_bits, &g->recomputed);
    g->seconds = pw_seconds_now() - t0;
    if (g->st != PW_OK) snprintf(g->detail, sizeof g->detail, "GPU %d: %s", g->device, pw_error_detail());
    return NULL;
}

pw_status pw_sw_pairs_on_gpus(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b,
                              const pw_score_table *table, int32_t gap_open, int32_t gap_extend, const int64_t *list,
                              int64_t count, const int *devices, int n_devices, int threads, pw_sw_hit *hits,
                              pw_batch_progress *progress, pw_batch_info *info)
{
    gpu_part part[PW_BATCH_MAX_GPUS];
    pthread_t thread[PW_BATCH_MAX_GPUS];
    int started[PW_BATCH_MAX_GPUS] = {0};
    double total = 0;
    for (int64_t i = 0; i < count; i++) total += (double)a->length[list[i]] * (double)b->length[list[i]];
    /* part d: the pairs whose cells before them fall in [total d / n, total (d + 1) / n) */
    double seen = 0;
    int64_t from = 0;
    for (int d = 0; d < n_devices; d++) {
        int64_t to = from;
        int64_t cells = 0;
        while (to < count && (d == n_devices - 1 || seen < total * (d + 1) / n_devices)) {
            const int64_t c = a->length[list[to]] * b->length[list[to]];
            seen += (double)c, cells += c, to++;
        }
        part[d] = (gpu_part){options, a, b, table, gap_open, gap_extend, list + from, to - from, cells, devices[d],
                             threads / n_devices > 0 ? threads / n_devices : 1, hits, progress, PW_OK, 32, 0, 0, {0}};
        from = to;
    }
    for (int d = 0; d < n_devices; d++) started[d] = pthread_create(&thread[d], NULL, part_main, &part[d]) == 0;
    for (int d = 0; d < n_devices; d++) {
        if (started[d]) pthread_join(thread[d], NULL);
        else part_main(&part[d]); /* (no thread to be had: this one runs the part) */
    }
    pw_status st = PW_OK;
    info->gpus = n_devices;
    info->lane_bits = 16;
    info->recomputed = 0;
    info->gpu_share = info->gpu_rate = 0;
    for (int d = 0; d < n_devices; d++) {
        const gpu_part *g = &part[d];
        if (st == PW_OK && g->st != PW_OK) {
            st = g->st;
            pw_set_error_detail("%s", g->detail);
        }
        info->gpu_device[d] = g->device;
        info->gpu_device_share[d] = total > 0 ? (double)g->cells / total : 0;
        info->gpu_device_rate[d] = g->seconds > 0 ? (double)g->cells / g->seconds : 0;
        info->gpu_share += info->gpu_device_share[d];
        info->gpu_rate += info->gpu_device_rate[d];
        info->recomputed += g->recomputed;
        if (g->count > 0 && g->lane_bits == 32) info->lane_bits = 32; /* (16: every part ran them) */
    }
    return st;
}
#else
typedef int pw_sw_pairs_gpus_unused; /* (no CUDA: nothing here; ISO C wants a declaration) */
#endif
