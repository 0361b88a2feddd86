/*
 * sw_warp_rows_host.cuh - what the warp-rows engine's two host drivers share: sw_warp_rows.cu (one
 * GPU) and sw_warp_rows_gpus.cu (several, rounds dealt out): the kernels of an R, their launch,
 * the GPU's facts and the shape (kernel_desc.c's pw_swr_choose), and the checks of a run.
 */
#ifndef PW_CUDA_SW_WARP_ROWS_HOST_CUH
#define PW_CUDA_SW_WARP_ROWS_HOST_CUH

#include <time.h>

#include "sw_warp_rows.h"
#include "device/sw_warp_rows_proc.cuh"
#include "device_buffer.cuh"
#include "launch.h"
#include "../core/best_cell.h"
#include "../core/monitor.h"

/* The kernels of one R (rows a thread): 12 for the score (the sweep: ahead of 8, 16 and 20 on the
 * genome pair); 16 for the alignment search's saved rows, whose spacing is a multiple of 1024 (of
 * 32 R: each a tile-row's last row). */
struct swr_kernels {
    int r;
    const void *lanes32, *pairs16;
    void (*profile)(const uint8_t *, int, const int32_t *, int, int, uint32_t *);
};
template <int R, bool SAVE, bool MULTI = false, bool LINEAR = false>
static inline swr_kernels swr_kernels_of()
{
    return swr_kernels{R, (const void *)pw_swr_kernel<R, SAVE, MULTI, LINEAR>,
                       (const void *)pw_swr_pairs_kernel<R, SAVE, MULTI, LINEAR>, pw_swr_profile_kernel<R>};
}
#define SWR_SCORE_R 12
#define SWR_SAVE_R 16

/* A kernel's launch between two events of its own (created here, destroyed by swr_timed_end). */
struct swr_timed {
    cudaEvent_t e0 = NULL, e1 = NULL;
};
static inline pw_status swr_launch_async(const void *kernel, pw_swr_args args, int grid, size_t smem, cudaStream_t s,
                                         swr_timed *t)
{
    pw_status st = pw_from_cuda(cudaEventCreate(&t->e0));
    PW_THEN(st, pw_from_cuda(cudaEventCreate(&t->e1)));
    PW_THEN(st, pw_from_cuda(cudaEventRecord(t->e0, s)));
    void *params[] = {&args};
    if (st == PW_OK && !pw_allow_dynamic_smem(kernel, smem)) st = PW_ERR_UNSUPPORTED; /* (each GPU its own) */
    PW_THEN(st, pw_from_cuda(cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(PW_SWR_THREADS), params, smem, s)));
    PW_THEN(st, pw_from_cuda(cudaEventRecord(t->e1, s)));
    return st;
}
/* Waits for the kernel; its seconds into *seconds (0 where st is not PW_OK). */
static inline pw_status swr_timed_end(pw_status st, swr_timed *t, double *seconds)
{
    float ms = 0;
    if (t->e1) PW_THEN(st, pw_from_cuda(cudaEventSynchronize(t->e1)));
    PW_THEN(st, pw_from_cuda(cudaEventElapsedTime(&ms, t->e0, t->e1)));
    *seconds = st == PW_OK ? ms / 1e3 : 0;
    if (t->e0) cudaEventDestroy(t->e0);
    if (t->e1) cudaEventDestroy(t->e1);
    t->e0 = t->e1 = NULL;
    return st;
}

/* The shape of a run (kernel_desc.c's pw_swr_choose) and what the host adds to it. */
struct swr_shape {
    swr_kernels kern;
    pw_swr_shape s;
    int64_t most_blocks; /* of either lane width: the buffers' size, so a rerun fits them */
    size_t smem;
};

/* The GPU's facts for this R, then the shape for rows x cols, or PW_ERR_UNSUPPORTED. */
static inline pw_status swr_choose(const pw_plan *plan, pw_sw_engine_ask ask, int64_t rows, int64_t cols, int letters,
                            const swr_kernels &kern, swr_shape *sh)
{
    sh->kern = kern;
    int coop = 0, major = 0;
    pw_swr_gpu gpu = {0, 0, 0, 0, plan->workers > 0 ? plan->workers : 0};
    pw_status st = pw_from_cuda(cudaDeviceGetAttribute(&gpu.sms, cudaDevAttrMultiProcessorCount, plan->device));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, plan->device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, plan->device)));
    const size_t smem32 = pw_swr_smem_bytes(letters, kern.r, false), smem16 = pw_swr_smem_bytes(letters, kern.r, true);
    if (st == PW_OK && pw_allow_dynamic_smem(kern.lanes32, smem32))
        st = pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&gpu.per_sm32, kern.lanes32, PW_SWR_THREADS, smem32));
    if (st == PW_OK && pw_allow_dynamic_smem(kern.pairs16, smem16))
        st = pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&gpu.per_sm16, kern.pairs16, PW_SWR_THREADS, smem16));
    if (st != PW_OK) return st;
    gpu.dpx = major >= 9;
    if (!coop || !pw_swr_choose(&gpu, ask, kern.r, rows, cols, &sh->s)) return PW_ERR_UNSUPPORTED;
    const int64_t grid32 = (int64_t)gpu.sms * gpu.per_sm32, grid16 = (int64_t)gpu.sms * gpu.per_sm16;
    sh->most_blocks = grid16 > grid32 ? grid16 : grid32;
    sh->smem = sh->s.pairs ? smem16 : smem32;
    return PW_OK;
}

/* What only the tile engines do: block pruning, a band of a distributed run, a strategy other than
 * peer, the stuck-row fault injection, a trace.  (A progress hook and a cancel flag are watched
 * by swr_watch.) */
static inline bool swr_plan_allows(const pw_plan *plan)
{
    return !plan->sw_prune && !plan->band && plan->strategy == PW_STRATEGY_PEER && plan->stuck_row < 0 &&
           !plan->trace;
}

/* A run as the engine would make it: its kernels, orientation, shape and the 32-bit shape a pairs
 * run falls back to; the table's top score.  PW_ERR_UNSUPPORTED where the engine does not take it. */
struct swr_run {
    swr_kernels kern;
    int transposed;
    int64_t rows, cols;
    int letters;
    int32_t top;
    swr_shape sh, wide;
};
static inline pw_status swr_plan_run(const pw_plan *plan, pw_sw_engine_ask ask, int64_t n, int64_t m, const int32_t *scores,
                              int alphabet, int32_t gap_open, int32_t gap_extend, const pw_cuda_swr_saved &saved,
                              swr_run *run, bool several = false)
{
    const bool saving = saved.h && saved.slots > 0;
    run->kern = several  ? swr_kernels_of<SWR_SCORE_R, false, true>()
                : saving ? swr_kernels_of<SWR_SAVE_R, true>()
                         : swr_kernels_of<SWR_SCORE_R, false>();
    if (ask == PW_SW_ENGINE_TILES || !swr_plan_allows(plan) || n < 1 || m < 1 || alphabet < 1 || (several && saving) ||
        alphabet + 1 > PW_SWR_MAX_LETTERS || gap_open < 0 || gap_extend < 0 || gap_open > (1 << 14) ||
        gap_extend > (1 << 14) ||
        (saving && (saved.every % (32 * run->kern.r) != 0 || saved.every > INT32_MAX || saved.slots > INT32_MAX)))
        return PW_ERR_UNSUPPORTED;
    run->top = 0;
    for (int k = 0; k < alphabet * alphabet; k++) {
        if (scores[k] < -127 || scores[k] > 127) return PW_ERR_UNSUPPORTED;
        run->top = scores[k] > run->top ? scores[k] : run->top;
    }
    run->letters = alphabet + 1;
    /* the longer sequence down the rows (the caller's coordinates come back through `transposed`);
     * the saved rows are a's */
    run->transposed = n < m && !saving;
    run->rows = run->transposed ? m : n, run->cols = run->transposed ? n : m;
    pw_status st = swr_choose(plan, ask, run->rows, run->cols, run->letters, run->kern, &run->sh);
    /* a pairs run only where its 32-bit rerun, should 16 bits overflow, fits as well */
    if (st == PW_OK && run->sh.s.pairs)
        st = swr_choose(plan, PW_SW_ENGINE_ROWS32, run->rows, run->cols, run->letters, run->kern, &run->wide);
    /* A linear gap's score on one GPU runs the H-only cell (pw_swr_column_linear: 1.18x the shared
     * cell's rate in 16-bit pairs at 2000000^2 on an H200, tests/gpu/issue28_linear.sh) in the
     * shape chosen for the shared kernels: its fewer registers fit a fourth block an SM, which
     * would move pw_swr_choose's thresholds (measured at three) and send such a pair to 32-bit
     * lanes.  It fits wherever the shared kernel does, so the grid stays valid. */
    if (st == PW_OK && !several && !saving && gap_open == gap_extend) {
        const swr_kernels linear = swr_kernels_of<SWR_SCORE_R, false, false, true>();
        run->kern.lanes32 = run->sh.kern.lanes32 = run->wide.kern.lanes32 = linear.lanes32;
        run->kern.pairs16 = run->sh.kern.pairs16 = run->wide.kern.pairs16 = linear.pairs16;
    }
    return st;
}

/* One GPU's part of a run: its stream and buffers (sized for the largest shape of the run, so a
 * 32-bit rerun fits them); in_full and in_prod only on several GPUs. */
struct swr_gpu {
    cudaStream_t s;
    pw_device_buffer<uint32_t> profile, prod, cons, in_prod;
    pw_device_buffer<int32_t> table;
    pw_device_buffer<int2> ring, full, in_full;
    pw_device_buffer<int4> warp_best;
    pw_device_buffer<int> flags; /* overflow, error */
    pw_device_buffer<uint8_t> rows_seq, cols_seq; /* (several GPUs: the letters, one copy a GPU) */
    const uint8_t *cols = nullptr;                /* the column letters the kernels read, on this GPU */
    explicit swr_gpu(cudaStream_t st)
        : s(st), profile(st), prod(st), cons(st), in_prod(st), table(st), ring(st), full(st), in_full(st),
          warp_best(st), flags(st), rows_seq(st), cols_seq(st)
    {
    }
};

/* g's buffers for the run, and the profile of row_seq (device letters); on the current device. */
static inline pw_status swr_gpu_setup(swr_gpu &g, const swr_run &run, const int32_t *scores, int alphabet,
                                      const uint8_t *row_seq, bool several)
{
    /* the table the way the kernels read it: [row letter][column letter] */
    int32_t table_rc[PW_SWR_MAX_LETTERS * PW_SWR_MAX_LETTERS];
    for (int x = 0; x < alphabet; x++)
        for (int y = 0; y < alphabet; y++)
            table_rc[x * alphabet + y] = run.transposed ? scores[y * alphabet + x] : scores[x * alphabet + y];
    const int64_t max_warps = run.sh.most_blocks * PW_SWR_BLOCK_WARPS;
    const int64_t max_span = run.cols + 64 * max_warps + 256 + 1; /* (the pairs' lag at most) */
    const size_t profile_words = (size_t)run.sh.s.tile_rows * run.letters * (run.kern.r / 4) * 32;
    pw_status st = pw_cuda_reserve((double)profile_words * 4 + (double)max_warps * (PW_SWR_RING * 8 + 32) +
                                   (several ? 4.0 : 2.0) * (double)max_span * 8 + 64);
    PW_THEN(st, g.profile.alloc(profile_words));
    PW_THEN(st, g.table.upload(table_rc, (size_t)alphabet * alphabet));
    PW_THEN(st, g.ring.alloc((size_t)max_warps * PW_SWR_RING));
    PW_THEN(st, g.full.alloc(2 * (size_t)max_span));
    PW_THEN(st, g.prod.alloc((size_t)max_warps));
    PW_THEN(st, g.cons.alloc((size_t)max_warps));
    PW_THEN(st, g.warp_best.alloc((size_t)max_warps));
    PW_THEN(st, g.flags.alloc(2));
    if (several) {
        PW_THEN(st, g.in_full.alloc(2 * (size_t)max_span));
        PW_THEN(st, g.in_prod.alloc(1));
    }
    if (st != PW_OK) return st;
    run.kern.profile<<<1024, 256, 0, g.s>>>(row_seq, (int)run.rows, g.table.ptr, run.letters, (int)run.sh.s.tile_rows,
                                           g.profile.ptr);
    return pw_from_cuda(cudaGetLastError());
}

/* Zeroes g's counters and flags for a launch of shape sh. */
static inline pw_status swr_gpu_reset(swr_gpu &g, const swr_shape &sh)
{
    pw_status st = pw_from_cuda(cudaMemsetAsync(g.prod.ptr, 0, sizeof(unsigned) * (size_t)sh.s.warps, g.s));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(g.cons.ptr, 0, sizeof(unsigned) * (size_t)sh.s.warps, g.s)));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(g.flags.ptr, 0, 2 * sizeof(int), g.s)));
    if (g.in_prod.ptr) PW_THEN(st, pw_from_cuda(cudaMemsetAsync(g.in_prod.ptr, 0, sizeof(unsigned), g.s)));
    return st;
}

/* The kernels' arguments on g for shape sh (one GPU; the caller adds the several GPUs' words). */
static inline pw_swr_args swr_gpu_args(swr_gpu &g, const swr_run &run, const swr_shape &sh, const uint8_t *col_seq,
                                       int32_t gap_open, int32_t gap_extend, long long watchdog_ns)
{
    /* the pairs' stored 0 (device/sw_warp_rows_proc.cuh): room below it for a score of -128 and
     * for E and F, which reach gap_open + gap_extend below a true 0 (at most 2^15: each gap is
     * at most 2^14 here, so the floor is at most 0) */
    const int pair_floor = -32768 + (gap_open + gap_extend > 128 ? gap_open + gap_extend : 128);
    pw_swr_args args = {g.profile.ptr, col_seq, (int)sh.s.tile_rows, (int)run.rows, (int)run.cols, run.letters,
                        gap_open, gap_extend, (int)sh.s.warps, (int)sh.s.lag, g.ring.ptr, g.full.ptr, g.prod.ptr,
                        g.cons.ptr, run.transposed, 32767 - run.top, pair_floor, g.flags.ptr, g.warp_best.ptr,
                        g.flags.ptr + 1, watchdog_ns ? watchdog_ns : PW_CUDA_WATCHDOG_NS};
    args.gpus = 1, args.gpu = 0;
    return args;
}

/* g's warps' bests (`warps` of them) merged into (*bs, *bi, *bj) by pw_sw's rule: the best score,
 * then the smallest row, then column. */
static inline pw_status swr_gpu_best(swr_gpu &g, int64_t warps, int32_t *bs, int32_t *bi, int32_t *bj)
{
    int4 *bests = (int4 *)malloc(sizeof(int4) * (size_t)warps);
    if (!bests) return PW_ERR_OUT_OF_MEMORY;
    const pw_status st = g.warp_best.download(bests, (size_t)warps);
    for (int64_t w = 0; st == PW_OK && w < warps; w++) {
        const int4 b = bests[w];
        if (b.x > 0 && pw_best_cell_better(b.x, b.y, b.z, *bs, *bi, *bj)) *bs = b.x, *bi = b.y, *bj = b.z;
    }
    free(bests);
    return st;
}

/* The progress of a launch of shape sh on `gpus` GPUs, from its warps' counters (copied to the
 * host, [gpu][prod, cons][warps]): each warp's furthest counter is its global round and column,
 * so the cells done are within a round's columns of a warp of the truth. */
struct swr_progress {
    const unsigned *counts;
    int gpus;
    int64_t warps, span, rounds, cells;
    int64_t *reported; /* the most reported so far in this run: a 32-bit rerun does not go back */
};
static inline int64_t swr_cells_done(const void *ctx)
{
    const swr_progress *p = (const swr_progress *)ctx;
    double done = 0, whole = 0;
    for (int x = 0; x < p->gpus; x++) {
        const unsigned *prod = p->counts + (size_t)x * 2 * p->warps, *cons = prod + p->warps;
        const int64_t mine = p->rounds > x ? (p->rounds - x + p->gpus - 1) / p->gpus : 0; /* rounds x, x + G, ... */
        whole += (double)p->warps * (double)mine * (double)p->span;
        for (int64_t w = 0; w < p->warps; w++) {
            const int64_t v = prod[w] > cons[w] ? prod[w] : cons[w], g = v / p->span;
            if (g >= x) done += (double)((g - x) / p->gpus * p->span + v % p->span);
        }
    }
    const double f = whole > 0 ? done / whole : 0;
    const int64_t cells = (int64_t)((f < 1 ? f : 1) * (double)p->cells);
    if (cells > *p->reported) *p->reported = cells;
    return *p->reported;
}

/* Waits for the kernels of t[0 .. gpus) on gs[x] (device devices[x]; shape sh, n x m cells in
 * all) while the plan's progress hook and cancel flag watch: every 10 ms (or the hook's interval)
 * the warps' counters come over on streams of their own and pw_monitor_tick reports; when it says
 * stop, GPU 0's overflow word (every GPU's) is raised, which every warp leaves on (at its next
 * wait, or its 1024-column check), and *cancelled is set.  Without a monitor, the plain waits.
 * *seconds: the slowest kernel's.  Every kernel is waited for, whatever st says. */
static inline pw_status swr_watch(const pw_plan *plan, swr_gpu *const *gs, const int *devices, int gpus,
                                  const swr_shape &sh, int64_t n, int64_t m, pw_status st, swr_timed *t, double *seconds,
                                  bool *cancelled, int64_t *reported)
{
    *cancelled = false;
    const pw_monitor *mon = &plan->monitor;
    cudaStream_t side[16] = {0};
    unsigned *counts = NULL;
    const size_t words = 2 * (size_t)sh.s.warps;
    const bool watching = st == PW_OK && pw_monitor_on(mon) && gpus <= 16;
    if (watching) {
        for (int x = 0; x < gpus && st == PW_OK; x++) {
            st = pw_from_cuda(cudaSetDevice(devices[x]));
            PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&side[x], cudaStreamNonBlocking)));
        }
        PW_THEN(st, pw_from_cuda(cudaHostAlloc((void **)&counts, sizeof(unsigned) * words * gpus, cudaHostAllocDefault)));
    }
    swr_progress p = {counts, gpus, sh.s.warps, (int64_t)m + sh.s.lag + 1, sh.s.rounds, n * m, reported};
    const int64_t wait_ns = mon->interval_ns > 0 && mon->interval_ns < 10000000 ? mon->interval_ns : 10000000;
    for (bool running = watching && st == PW_OK; running;) {
        running = false;
        for (int x = 0; x < gpus; x++) running = running || (t[x].e1 && cudaEventQuery(t[x].e1) == cudaErrorNotReady);
        if (!running) break;
        const struct timespec nap = {0, (long)wait_ns};
        nanosleep(&nap, NULL);
        if (*cancelled || st != PW_OK) continue;
        pw_status c = PW_OK;
        for (int x = 0; x < gpus && c == PW_OK; x++) {
            c = pw_from_cuda(cudaSetDevice(devices[x]));
            PW_THEN(c, pw_from_cuda(cudaMemcpyAsync(counts + x * words, gs[x]->prod.ptr, sizeof(unsigned) * (size_t)sh.s.warps,
                                                    cudaMemcpyDeviceToHost, side[x])));
            PW_THEN(c, pw_from_cuda(cudaMemcpyAsync(counts + x * words + sh.s.warps, gs[x]->cons.ptr,
                                                    sizeof(unsigned) * (size_t)sh.s.warps, cudaMemcpyDeviceToHost, side[x])));
            PW_THEN(c, pw_from_cuda(cudaStreamSynchronize(side[x])));
        }
        if (c == PW_OK && pw_monitor_tick(mon, swr_cells_done, &p, side[0])) {
            static const int one = 1; /* (pageable: the copy is staged, done when the call returns) */
            c = pw_from_cuda(cudaSetDevice(devices[0]));
            PW_THEN(c, pw_from_cuda(cudaMemcpyAsync(gs[0]->flags.ptr, &one, sizeof one, cudaMemcpyHostToDevice, side[0])));
            PW_THEN(c, pw_from_cuda(cudaStreamSynchronize(side[0])));
            *cancelled = true;
        }
        if (c != PW_OK) st = c; /* (the kernels still run to their ends, waited for below) */
    }
    cudaGetLastError(); /* (the event queries' "not ready") */
    *seconds = 0;
    for (int x = 0; x < gpus; x++) {
        double kernel_s = 0;
        cudaSetDevice(devices[x]);
        const pw_status end = t[x].e1 ? swr_timed_end(PW_OK, &t[x], &kernel_s) : PW_OK;
        if (st == PW_OK) st = end;
        *seconds = kernel_s > *seconds ? kernel_s : *seconds;
    }
    if (watching && st == PW_OK && !*cancelled) {
        cudaSetDevice(devices[0]);
        pw_monitor_finish(mon, n * m, side[0]);
    }
    for (int x = 0; x < gpus; x++)
        if (side[x]) {
            cudaSetDevice(devices[x]);
            cudaStreamDestroy(side[x]);
        }
    cudaSetDevice(devices[0]);
    if (counts) cudaFreeHost(counts);
    return st;
}

/* A run's launches on `gpus` GPUs (gs[x] on devices[x]; one GPU: its plain kernels, with the
 * alignment search's saved rows where given): every GPU's words zeroed before any kernel starts
 * (the others read GPU 0's flags and write into the next GPU's counter), the kernels, the watch;
 * again with 32-bit lanes where the pairs passed their range.  *sh: the shape that finished;
 * *seconds: the slowest GPU's kernel time, summed over the attempts. */
static inline pw_status swr_attempts(const pw_plan *plan, swr_gpu *const *gs, const int *devices, int gpus,
                                     const swr_run &run, int64_t n, int64_t m, int32_t gap_open, int32_t gap_extend,
                                     const pw_cuda_swr_saved &saved, swr_shape *sh, double *seconds)
{
    *sh = run.sh;
    *seconds = 0;
    int flag[2] = {0, 0};
    int64_t reported = 0; /* (progress: cells reported so far) */
    pw_status st = PW_OK;
    while (st == PW_OK) {
        for (int x = 0; x < gpus && st == PW_OK; x++) {
            st = pw_from_cuda(cudaSetDevice(devices[x]));
            PW_THEN(st, swr_gpu_reset(*gs[x], *sh));
        }
        for (int x = 0; x < gpus && gpus > 1 && st == PW_OK; x++) st = pw_from_cuda(cudaStreamSynchronize(gs[x]->s));
        swr_timed t[16];
        for (int x = 0; x < gpus && st == PW_OK; x++) {
            swr_gpu &g = *gs[x], &next = *gs[(x + 1) % gpus];
            pw_swr_args args = swr_gpu_args(g, run, *sh, g.cols, gap_open, gap_extend, plan->watchdog_ns);
            if (gpus > 1) {
                args.gpus = gpus, args.gpu = x;
                args.in_full = g.in_full.ptr, args.in_prod = g.in_prod.ptr;
                args.out_full = next.in_full.ptr, args.out_prod = next.in_prod.ptr, args.down_cons0 = next.cons.ptr;
                args.overflow = gs[0]->flags.ptr, args.error = gs[0]->flags.ptr + 1;
            } else if (saved.h && saved.slots > 0) {
                args.saved_h = saved.h, args.saved_f = saved.f;
                args.every = (int)saved.every, args.slots = (int)saved.slots;
                args.linear = gap_open == gap_extend, args.linear_f = saved.linear_f;
            }
            st = pw_from_cuda(cudaSetDevice(devices[x]));
            PW_THEN(st, swr_launch_async(sh->s.pairs ? run.kern.pairs16 : run.kern.lanes32, args, (int)sh->s.grid,
                                         sh->smem, g.s, &t[x]));
        }
        if (st != PW_OK && gpus > 1) { /* a launch failed: the kernels already running leave on the error word */
            const int one = 1;
            cudaSetDevice(devices[0]);
            cudaMemcpy(gs[0]->flags.ptr + 1, &one, sizeof one, cudaMemcpyHostToDevice);
        }
        double slowest = 0;
        bool cancelled = false;
        st = swr_watch(plan, gs, devices, gpus, *sh, n, m, st, t, &slowest, &cancelled, &reported);
        *seconds += slowest;
        PW_THEN(st, pw_from_cuda(cudaSetDevice(devices[0])));
        PW_THEN(st, gs[0]->flags.download(flag, 2));
        if (st == PW_OK && cancelled) {
            pw_set_error_detail("cancelled (the progress hook or the cancel flag)");
            st = PW_ERR_CANCELLED;
        }
        if (st != PW_OK) break;
        if (flag[1]) {
            pw_set_error_detail("the SW warp-rows engine saw no progress for the watchdog interval");
            st = PW_ERR_TIMEOUT;
            break;
        }
        if (!(sh->s.pairs && flag[0])) break;
        *sh = run.wide; /* past the pairs' range: 32-bit lanes */
    }
    return st;
}

/* The report of a run of shape sh over n x m cells. */
static inline void swr_info(pw_run_info *info, const swr_run &run, const swr_shape &sh, int64_t n, int64_t m,
                            double seconds, int gpus)
{
    if (!info) return;
    info->backend = PW_BACKEND_CUDA;
    info->strategy = PW_STRATEGY_PEER;
    info->shape = PW_TILE_HYPER;
    info->tile_h = 32 * run.kern.r;
    info->tile_w = 32;
    info->threads = (int)(sh.s.grid * gpus);
    info->threads_available = (int)(sh.s.available_blocks * gpus);
    info->skew = 0;
    info->cells += n * m;
    info->seconds += seconds;
    info->lane_bits = sh.s.pairs ? 16 : 32;
}

#endif
