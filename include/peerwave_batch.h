/*
 * peerwave_batch.h - many jobs at once: database search (every query against every record of a
 * database, or record i against record i), the HDSS scheduler across devices and the job queue.
 *
 * The engines (docs/BATCH.md): many small matrices at once, not one large one.  On the CPU one
 * query against a group of records of similar length, one record a vector lane (16-bit lanes,
 * saturation detected and the pair recomputed in 32 bits); on the GPU one warp an alignment, the
 * query's rows down the warp's threads, the record streamed through it (16-bit packed DPX lanes
 * where the scores allow, overflow detected and recomputed in 32 bits).  Records too long for
 * those go to the single-pair engine (pw_sw).  The search computes scores only; the end cells
 * of the hits kept are found again by pw_sw (the same tie rule).
 */
#ifndef PEERWAVE_BATCH_H
#define PEERWAVE_BATCH_H

#include "peerwave.h"
#include "peerwave_runtime.h" /* pw_cell: user cells as queue jobs */

#ifdef __cplusplus
extern "C" {
#endif

/* count sequences: seq[k] has length[k] letters (>= 1; not NUL-terminated necessarily). */
typedef struct pw_seq_set {
    int64_t count;
    const char *const *seq;
    const int64_t *length;
} pw_seq_set;

/* One hit: a query against a record. */
typedef struct pw_sw_hit {
    int64_t query;      /* index in the query set (pw_sw_pairs: the pair's index) */
    int64_t record;     /* index in the database; -1: an empty slot (fewer records than top) */
    int32_t score;      /* best local score, as pw_sw */
    int64_t end_query;  /* 0-based end cell of the best alignment, ties as pw_sw; -1 when the */
    int64_t end_record; /* score is 0 */
} pw_sw_hit;

/* Where a search runs (pw_batch_options.schedule). */
typedef enum pw_batch_schedule {
    PW_BATCH_ONE = 0, /* one backend: pw_options.backend (AUTO: the GPU when present, else the CPU) */
    PW_BATCH_HDSS,    /* the GPU and the CPU cores together: blocks of records from one queue, sized
                         by the rates HDSS measures (below); without a GPU, two CPU groups.  The GPU
                         takes part whatever pw_options.backend says (AUTO is assumed) */
    PW_BATCH_STATIC   /* the same devices, shares fixed by gpu_weight and cpu_weight (e.g. the rates
                         a previous run reported): the baseline HDSS is compared with */
} pw_batch_schedule;

#define PW_BATCH_MAX_GPUS 16

typedef struct pw_batch_options {
    pw_batch_schedule schedule;
    double gpu_weight, cpu_weight; /* STATIC: relative speeds (> 0); gpu_weight is each GPU's */
    /* HDSS and STATIC: the GPUs that take part, each with its own session pulling its own blocks
     * from the one queue (CUDA device numbers, none twice, at most PW_BATCH_MAX_GPUS); NULL or 0:
     * pw_options.device alone.  A GPU that cannot start (its memory too small for the database)
     * leaves its share to the others (pw_batch_info.devices_failed). */
    const int *devices;
    int n_devices;
} pw_batch_options;

/* What a batch run did. */
typedef struct pw_batch_info {
    pw_backend backend;  /* CPU or CUDA */
    pw_simd simd;        /* CPU: the vector set of the batch kernel (SCALAR: none) */
    int lane_bits;       /* 16 when narrow lanes ran (some pairs may have been recomputed), else 32 */
    int64_t pairs;       /* alignments scored */
    int64_t cells;       /* their cells: the sum of n x m */
    int64_t recomputed;  /* pairs whose narrow lanes saturated, scored again with 32-bit lanes */
    int64_t long_pairs;  /* pairs scored by pw_sw (a record too long for the batch kernel) */
    double seconds;      /* scoring: wall time from the first pair to the last (no reading, no
                            encoding, no end cells of the hits) */
    double total_seconds;/* the whole call */
    /* HDSS and STATIC: the devices' shares of the work, their rates (work/s) and the spread of
       their finish times over the scoring time (0 for PW_BATCH_ONE).  The SW search's work is
       its cells plus 31 columns a record (the GPU's warp fill, src/batch/sw_batch_drive.c): the
       scheduler's cost, in which the GPU's rate holds along a queue of mixed lengths. */
    double gpu_share, cpu_share, gpu_rate, cpu_rate, spread;
    /* HDSS and STATIC with GPUs: how many took part, and each one's CUDA device, share and rate
       (gpu_share and gpu_rate are their sums) */
    int gpus;
    int gpu_device[PW_BATCH_MAX_GPUS];
    double gpu_device_share[PW_BATCH_MAX_GPUS], gpu_device_rate[PW_BATCH_MAX_GPUS];
    int devices_failed;  /* HDSS, STATIC: devices that failed (or could not start: a database larger
                            than the GPU's memory) while the others did the work; pw_error_detail
                            says which and why */
} pw_batch_info;

/* Every query against every record of db (batch: NULL = PW_BATCH_ONE).  The progress hook sees
 * the whole search (cells: every query's letters times every record's; pw_batch_info.cells),
 * reported as groups of pairs finish (a CPU group against a query; on the GPU a query against a
 * block of records), then once final after the hits' end cells; the cancel flag and a hook that
 * says stop end it with PW_ERR_CANCELLED within such a group.  The same for pw_sw_pairs,
 * pw_dtw_search and pw_dtw_pairs (a pair at a time).  For each query its `top` (>= 1) best hits, best
 * first (score descending, then record index ascending), in hits[q * top + k] (queries->count x
 * top of them); slots past the number of records have record -1 and score 0.  Options: backend
 * (AUTO: the GPU when present), threads and simd for the CPU, device, progress and cancel.  Errors before any work: a letter the scoring does not accept
 * (PW_ERR_BAD_INPUT, pw_error_detail names the set and the record), empty sets or sequences
 * (PW_ERR_INVALID_SIZE), scores that could pass 32 bits (PW_ERR_OVERFLOW). */
pw_status pw_sw_search(const pw_seq_set *queries, const pw_seq_set *db, const pw_sw_params *params,
                       const pw_options *options, const pw_batch_options *batch, int top, pw_sw_hit *hits,
                       pw_batch_info *info);

/* Record k of a against record k of b (the same count): hits[k], with query = record = k. */
pw_status pw_sw_pairs(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                      const pw_options *options, pw_sw_hit *hits, pw_batch_info *info);

/* pw_sw_pairs on the batch options' GPUs (batch NULL: pw_sw_pairs): with several devices listed
 * (and the GPU backend, asked for or AUTO with one present) the pairs are cut into one part a GPU
 * of about equal cells (GPUs of one model are assumed), each part through that GPU's engine side
 * by side, and pw_batch_info's gpus, gpu_device, gpu_device_share and gpu_device_rate say how it
 * went; a listed GPU that fails fails the call (PW_ERR_NO_DEVICE and the like, pw_error_detail
 * names it).  One device listed: that GPU.  Only PW_BATCH_ONE: PW_ERR_UNSUPPORTED otherwise (the
 * HDSS and static splits are the search's).  On the CPU backend the list is not used. */
pw_status pw_sw_pairs_batch(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                            const pw_options *options, const pw_batch_options *batch, pw_sw_hit *hits,
                            pw_batch_info *info);

/* ---- dynamic time warping over many series ---------------------------------------------- */

/* count series: values[k] has length[k] samples (>= 1, finite). */
typedef struct pw_series_set {
    int64_t count;
    const double *const *values;
    const int64_t *length;
} pw_series_set;

typedef struct pw_dtw_hit {
    int64_t query;   /* index in the query set (pw_dtw_pairs: the pair's index) */
    int64_t record;  /* index in the database; -1: an empty slot (fewer records than top) */
    double distance; /* as pw_dtw_f64 computes it, bit for bit */
} pw_dtw_hit;

/* Every query series against every series of db: each query's `top` nearest (distance
 * ascending, then the smaller record index) in hits[q * top + k], each distance bit for bit
 * pw_dtw_f64's.  On the GPU (options.backend CUDA, or AUTO with one present): a warp a pair, the
 * query's rows in segments of 128 (src/cuda/batch_dtw.cu); under AUTO a GPU that cannot hold the
 * sets leaves them to the CPU, and info.backend says where they ran.  On the CPU each pair is
 * pw_dtw_f64 on one thread (its vector processor where options.simd allows), the pairs over all
 * cores (options.threads).  Errors before any work: NaN or infinite samples (PW_ERR_BAD_INPUT,
 * pw_error_detail names the set and the series), empty sets or series (PW_ERR_INVALID_SIZE).  A
 * distance past double's range (an infinity, as pw_dtw_f64) ends the run with PW_ERR_OVERFLOW,
 * pw_error_detail naming the query, the record and their lengths. */
pw_status pw_dtw_search(const pw_series_set *queries, const pw_series_set *db, pw_dtw_cost cost,
                        const pw_options *options, int top, pw_dtw_hit *hits, pw_batch_info *info);

/* Series k of a against series k of b (the same count): hits[k]. */
pw_status pw_dtw_pairs(const pw_series_set *a, const pw_series_set *b, pw_dtw_cost cost,
                       const pw_options *options, pw_dtw_hit *hits, pw_batch_info *info);

/* ---------------------------------------------------------------------------------------------
 * HDSS, the heterogeneous self-scheduler (seed 001 ch. 3, with DESIGN.md section 9's errata):
 * one loop's items shared by GPUs and CPU worker groups that pull blocks from one queue (the
 * implementation: src/batch/hdss.c).  pw_status results, the text of a failure in
 * pw_error_detail().
 *
 * The work is N items (records) in order, each with a cost in cells (and, where a device pays
 * something more an item, pw_hdss_device.item_cost: the device is then planned in its own units,
 * cells plus that an item).  A device asks for a block
 * (pw_hdss_fetch), runs it, and says it is done (pw_hdss_done); a block is a range of whole items
 * [begin, end) sized in cells.  Blocks are sized so that every device ends at the same time:
 *
 *   adaptive   each device starts with its first block (pw_hdss_device.first_block, else its
 *              minimum block) and doubles it while its block times
 *              are fitted by least squares to t = alpha + x / R (a fixed cost alpha per block, a
 *              rate R in cells/s; weighted by 1 / t^2, as a block's time varies in proportion to
 *              it; a device's first block is its warm-up and only counts as a sample, so the
 *              second gives the first rate and the third the first alpha); the rate is stable once it has 3 samples and the last two fits agree within
 *              3% (or once the adaptive blocks hold 20% of the cells, the chapter's cap).  The
 *              chapter's rule (a log fit's slope) never settles; this fit gives the block
 *              x* = alpha R (1 - p) / p at which the fixed cost is the fraction p of a block's
 *              time: p = max(tolerance / 4, min(tolerance, S / 4)), S the other devices' share of
 *              the rates (a device doing nearly all the work pays in fixed costs only a part of
 *              what the others add).  A device alone in the plan while another is still on its
 *              first blocks keeps doubling (it cannot know yet when the others will be done).
 *   weighted   blocks proportional to the rates: each device's block is R_d times one block time,
 *              the longest of the devices' x* / R (so no device pays more than p in fixed costs),
 *              and never more than half of the device's time to T (below) while that half is at
 *              least its minimum block, so that a rate that drifts is measured again before the
 *              last blocks are planned.  Once stable the fit goes on with the past decayed (rates
 *              move with the items), all blocks weighing alike, alpha too where the blocks'
 *              sizes differ enough to tell it from R.
 *   end-game   when a device has less than two blocks left before the common predicted finish
 *              time T (the queue shared by rate, blocks in flight counted; with item costs, the
 *              least T by which the devices, in the order they become free, would take the whole
 *              queue from its front -- or its back, pw_hdss_device.from_back -- each whole items
 *              in its own units), it gets what it can
 *              finish by T; a device whose minimum block would end after T gets nothing, so a
 *              slow CPU does not delay the end.  Items are whole: an item no other device can
 *              finish by T goes to one that can (or that finishes it first), and a device passes
 *              over the items too long for its share (the queue keeps them for the others).
 *   static     (the baseline) blocks proportional to the caller's weights, no adaptation.
 *
 * Usage: one worker thread per device runs
 *
 *     pw_hdss_block b;
 *     while (pw_hdss_fetch(h, d, &b) == PW_OK && b.end > b.begin) {
 *         run items [b.begin, b.end) on device d;
 *         pw_hdss_done(h, d, PW_HDSS_MEASURE);   (or pw_hdss_fail(h, d) if the device broke)
 *     }
 *
 * An empty block means "nothing more for this device": stop its worker.  The other devices'
 * blocks in flight finish the run.  If one of them then fails, its block goes back to the queue
 * and the devices still working take it; if none is left (every other worker had stopped),
 * pw_hdss_get_report's items_left is not 0 and the caller fetches again with any device that has
 * not failed: the scheduler calls nobody back by itself.
 *
 * All functions are thread-safe (one mutex per scheduler); a device has at most one block in
 * flight.
 */
/* The kinds are bits, so pw_hdss_options.kinds can name a subset. */
typedef enum pw_hdss_kind {
    PW_HDSS_GPU = 1,
    PW_HDSS_CPU = 2  /* a group of CPU cores run by one worker */
} pw_hdss_kind;

typedef enum pw_hdss_mode {
    PW_HDSS_ADAPTIVE = 0, /* HDSS: rates measured during the run */
    PW_HDSS_STATIC        /* blocks proportional to pw_hdss_device.weight, no adaptation */
} pw_hdss_mode;

typedef struct pw_hdss_device {
    const char *name;  /* for reports (copied); NULL: "gpu<d>" or "cpu<d>" */
    pw_hdss_kind kind;
    double weight;     /* STATIC: its relative speed, e.g. a training run's report rate (cells/s);
                          >= 0, 0 = no share; ADAPTIVE ignores it */
    int64_t min_block; /* the least it asks for (a GPU needs enough work to fill it), and its
                          first block unless first_block says more; 0 = pw_hdss_options.min_block */
    int64_t first_block; /* ADAPTIVE: cells of its first block, where more than min_block (the
                          search: 65536 records fill a GPU, and the first ones of its queue,
                          sorted longest first, cost the most); 0 or less than min_block:
                          min_block.  STATIC ignores it.  (Added 2026-11-29: code built against
                          an older header must be rebuilt: before 1.0 this struct may grow.) */
    int64_t item_cost;   /* ADAPTIVE: what every item costs this device besides its cells (>= 0;
                          0: nothing), e.g. a GPU's fill of a warp a record where a CPU engine
                          pays none.  Its rate, blocks, min_block and first_block are then in
                          its own units (cells plus item_cost an item), so that one rate holds
                          for long items and short ones on every device (so is
                          pw_hdss_options.min_block where it stands in for a device's); plans
                          and reports are in cells.  STATIC ignores it.  (Added 2026-11-29, as
                          first_block.) */
    int from_back;       /* ADAPTIVE: nonzero, its blocks come from the queue's far end (the
                          search's queue is sorted longest first: a CPU group, for which a short
                          record costs no more a cell than a long one where it is a GPU's worst,
                          takes the short ones, and a block of few long records would leave
                          most of its threads idle).  STATIC ignores it.  (Added 2026-11-30.) */
    int64_t min_items;   /* ADAPTIVE: the fewest items a block of it holds where the queue's range
                          it comes from has them (0: no such floor), whatever their cells: a GPU
                          that runs an item a warp is underfilled by fewer items than its warps,
                          and a cost floor (min_block) cannot say that where items' costs vary
                          (on an H200 a block of 103 items -- 3296 long records, 1648 warps of
                          the 3168 the search's kernel holds -- ran at 2.3e12 cells/s against
                          3.2e12 in full blocks).  STATIC ignores it.  (Added 2026-11-30.) */
} pw_hdss_device;

/* A clock in seconds; only differences matter.  Tests pass a virtual one.  It is called with the
 * scheduler's lock held, so it must not call the scheduler. */
typedef double (*pw_hdss_clock_fn)(void *ctx);

typedef struct pw_hdss_options {
    pw_hdss_mode mode;
    unsigned kinds;         /* devices that take part, PW_HDSS_GPU | PW_HDSS_CPU bits; 0 = all.
                               PW_HDSS_GPU alone is the "GPU only" run; the others get nothing */
    int64_t min_block;      /* cells of the first block and the least any block asks for; 0 =
                               65536 (every block is whole items, so it may hold more) */
    double tolerance;       /* p: a block's fixed cost may be this fraction of its time, in
                               (0, 0.5]; 0 = 0.03 (a device's own p is at most a quarter of the
                               others' share of the rates, and at least tolerance / 4) */
    int static_rounds;      /* STATIC: blocks per device (its share cut in this many); 0 = 1 */
    pw_hdss_clock_fn clock; /* NULL: CLOCK_MONOTONIC */
    void *clock_ctx;
} pw_hdss_options;

/* The defaults above (the same as a zeroed struct). */
void pw_hdss_options_init(pw_hdss_options *options);

typedef struct pw_hdss pw_hdss; /* opaque */

/* A scheduler for n_items items over n_devices devices.  costs: n_items cells, each >= 0; NULL
 * means every item costs 1 (it is not kept: the scheduler copies what it needs).  options: NULL
 * for the defaults.  Errors: PW_ERR_NULL_ARGUMENT (devices, out), PW_ERR_INVALID_SIZE
 * (n_devices <= 0, n_items < 0), PW_ERR_INVALID_ARGUMENT (a negative cost or weight, options out
 * of range, no device of the kinds asked for, STATIC without a positive weight),
 * PW_ERR_SIZE_OVERFLOW (the costs' sum passes INT64_MAX), PW_ERR_OUT_OF_MEMORY.  *out is NULL on
 * failure. */
pw_status pw_hdss_create(const pw_hdss_device *devices, int n_devices, const int64_t *costs,
                         int64_t n_items, const pw_hdss_options *options, pw_hdss **out);

/* Frees it (NULL is fine).  No call on it may be running. */
void pw_hdss_destroy(pw_hdss *hdss);

typedef struct pw_hdss_block {
    int64_t begin, end; /* items [begin, end); begin == end: nothing more for this device */
    int64_t cells;      /* their cost */
} pw_hdss_block;

/* The next block for device d.  PW_ERR_INVALID_ARGUMENT when d is out of range or already has a
 * block in flight; a failed device, or one of a kind left out, gets empty blocks. */
pw_status pw_hdss_fetch(pw_hdss *hdss, int device, pw_hdss_block *block);

/* Pass as seconds to pw_hdss_done: the scheduler times the block itself, fetch to done. */
#define PW_HDSS_MEASURE (-1.0)

/* Device d finished its block.  seconds: how long the block took on the device (measured by the
 * caller, e.g. with CUDA events), or PW_HDSS_MEASURE.  PW_ERR_INVALID_ARGUMENT when d has no
 * block in flight or seconds is NaN. */
pw_status pw_hdss_done(pw_hdss *hdss, int device, double seconds);

/* Device d broke: its block in flight (if any) goes back to the queue for the others and it gets
 * nothing more (calling it again is harmless). */
pw_status pw_hdss_fail(pw_hdss *hdss, int device);

typedef struct pw_hdss_device_report {
    const char *name;   /* valid until pw_hdss_destroy */
    pw_hdss_kind kind;
    int failed;
    int64_t items, cells, blocks; /* done (not a failed block) */
    double share;       /* of all the cells done */
    double rate;        /* cells/s: the scheduler's estimate (the fit, then tracked over the
                           last blocks; with an item_cost, over the cost of a cell of its blocks
                           done); with no fit yet (one block: a STATIC share) its cells over
                           its busy time, 0 before its first block.  Good STATIC weights. */
    double fixed_cost;  /* alpha, seconds per block */
    int64_t best_block; /* x*, in its own units (cells plus item_cost an item; 0 before a stable
                           fit) */
    double busy;        /* seconds: the sum of its blocks' times */
    double finish;      /* seconds after the first fetch when its last block was done */
} pw_hdss_device_report;

typedef struct pw_hdss_report {
    int64_t items_done, cells_done;
    int64_t items_left; /* not done yet: in the queue or in flight */
    double makespan;    /* seconds from the first fetch to the last done */
    double spread;      /* (latest - earliest finish) over the devices that did work and did not
                           fail, / makespan */
} pw_hdss_report;

/* Where the run stands.  devices: NULL, or room for n_devices reports (the first
 * min(n_devices, the scheduler's devices) are filled). */
pw_status pw_hdss_get_report(pw_hdss *hdss, pw_hdss_report *report, pw_hdss_device_report *devices,
                             int n_devices);

/* ---------------------------------------------------------------------------------------------
 * The job queue (CuMAS, seed 001 ch. 4; docs/BATCH.md).  Many independent jobs of the built-in
 * applications, each with host buffers; on the GPU every job is three stages -- copy-in (host to
 * device through a pinned staging pool), kernel, copy-out -- and the stages of different jobs
 * overlap: one job's copies run while another job's kernel runs.  The queue picks the order in
 * which jobs are issued (a window of waiting jobs ordered to shorten the three-stage makespan,
 * from each stage's predicted time) and keeps one kernel on the GPU at a time (each job's kernel
 * fills the GPU).  Without a GPU, jobs run one after another on the CPU engines.
 * ------------------------------------------------------------------------------------------- */

typedef enum pw_job_kind {
    PW_JOB_SW = 0,  /* pw_sw */
    PW_JOB_DTW,     /* pw_dtw_f32 / pw_dtw_f64 */
    PW_JOB_SAT,     /* pw_sat */
    PW_JOB_INTHIST, /* pw_inthist */
    PW_JOB_HEAT,    /* pw_heat (in place) */
    PW_JOB_SOR,     /* pw_sor (in place) */
    PW_JOB_CELL,    /* pw_cell_run: a user cell (peerwave_runtime.h).  The runtime moves its own
                       buffers, so on the GPU its copies are part of its kernel stage and do not
                       overlap other jobs' kernels */
    PW_JOB_KIND_COUNT
} pw_job_kind;

/* One job: the arguments of the application's host function.  Buffers are the caller's: they
 * are read and written in place (not copied at submit), so the caller must leave them alone
 * until the job is done.  Results (sw/dtw result, residual, info) are written when it is. */
typedef struct pw_job {
    pw_job_kind kind;
    union {
        struct { const char *a; int64_t n; const char *b; int64_t m; pw_sw_params params;
                 pw_sw_result *result; } sw;
        struct { pw_dtype type; /* PW_F32 or PW_F64 */ const void *a; int64_t n; const void *b;
                 int64_t m; pw_dtw_cost cost; pw_dtw_result *result; } dtw;
        struct { const pw_image *in; pw_image *out; } sat;
        struct { const pw_image *in; int bins; double lo, hi; int32_t *out; } inthist;
        struct { pw_image *grid; int64_t sweeps; double omega; /* SOR only */
                 double *residual; /* may be NULL */ } stencil;
        struct { pw_cell *cell; pw_cell_args args; /* (copied: its arrays are the caller's) */
                 pw_cell_result *result; } cell;
    } u;
    pw_options options; /* as for the host function (backend CPU: the job runs on the CPU); the
                           queue sets device and cuda_stream of GPU jobs */
    pw_run_info *info;  /* may be NULL (sw and dtw: also in their result) */
} pw_job;

/* A job with its kind and default options (pw_options_init); fill u and info. */
void pw_job_init(pw_job *job, pw_job_kind kind);

/* Run one job now on the calling thread: the application's host function. */
pw_status pw_job_run(const pw_job *job);

/* The application's name ("sw", "dtw", "sat", "inthist", "heat", "sor", "cell"), or "?". */
const char *pw_job_kind_name(pw_job_kind kind);

typedef enum pw_queue_order {
    PW_QUEUE_REORDER = 0, /* a window of waiting jobs ordered for the shortest makespan (the
                             default): branch and bound up to 8 jobs, NEH above */
    PW_QUEUE_FIFO,        /* arrival order, stages overlapped */
    PW_QUEUE_SERIAL       /* arrival order, one job at a time, nothing overlapped (the baseline) */
} pw_queue_order;

#define PW_QUEUE_MAX_DEVICES 16

typedef struct pw_queue_options {
    pw_backend backend;      /* AUTO (the default): the GPU when present, else the CPU */
    int device;              /* CUDA device (default 0) */
    /* Several GPUs (NULL or 0: `device` alone): CUDA devices, none twice, at most
     * PW_QUEUE_MAX_DEVICES; each gets a queue of its own (its stages, window and staging), and a
     * job submitted goes to the one predicted to be done first.  With AUTO the GPUs that cannot
     * be opened are left out (all of them: the CPU); with CUDA any one is an error. */
    const int *devices;
    int n_devices;
    pw_queue_order order;
    int window;              /* REORDER: jobs ordered together (default 8, 1 .. 64) */
    double memory_fraction;  /* of the device's free memory that the jobs' buffers may hold at
                                once (default 0.5); a job whose buffers alone exceed it runs on
                                the CPU (its info says so) */
    int64_t staging_bytes;   /* pinned staging: bytes of each of its buffers (default 8 MiB; two
                                a direction) */
} pw_queue_options;

void pw_queue_options_init(pw_queue_options *options);

typedef struct pw_queue pw_queue; /* opaque */

/* Errors: PW_ERR_NULL_ARGUMENT, PW_ERR_INVALID_ARGUMENT (a bad option), PW_ERR_NO_DEVICE (CUDA
 * asked for and absent), PW_ERR_UNSUPPORTED (CUDA asked for in a build without it),
 * PW_ERR_OUT_OF_MEMORY, PW_ERR_CUDA. */
pw_status pw_queue_create(const pw_queue_options *options, pw_queue **queue);

/* Add a job (the struct is copied, its buffers are not).  Its arguments are checked here as the
 * host function would check them (PW_ERR_* of that function; nothing queued); a job whose
 * options.backend is CUDA on a queue without a GPU is refused so (PW_ERR_UNSUPPORTED,
 * PW_ERR_NO_DEVICE or PW_ERR_CUDA), not run on the CPU (on a queue with a GPU it runs on the CPU
 * only as any job does: too large for the memory budget, or after the GPU failed).  The queue may
 * hold it back until `window` jobs wait, to choose among them: pw_queue_wait and
 * pw_queue_drain release every waiting job.  *id (may be NULL): the job's number, 0, 1, ... */
pw_status pw_queue_submit(pw_queue *queue, const pw_job *job, int64_t *id);

/* Wait until job `id` is done: its own status (PW_OK, or its failure). */
pw_status pw_queue_wait(pw_queue *queue, int64_t id);

/* Wait until every job submitted so far is done: PW_OK, or the status of the first (by id) that
 * failed. */
pw_status pw_queue_drain(pw_queue *queue);

/* Where the queue stands (for progress displays and reports; safe at any time). */
typedef struct pw_queue_stats {
    pw_backend backend;     /* where GPU-able jobs run: CUDA or CPU */
    int copy_engines;       /* the device's copy engines used (1 or 2; 0 on the CPU) */
    int64_t submitted, done, failed;
    int64_t on_cpu;         /* jobs that ran on the CPU although the queue has a GPU: backend
                               CPU asked for, too large for its memory, or the GPU failed */
    int device_failed;      /* the GPU failed mid-run: the rest went to the CPU */
    double seconds;         /* from the first job's start to the last job's end so far */
    double copy_in_seconds, kernel_seconds, copy_out_seconds; /* busy time of each stage */
    double lower_bound;     /* no order of the GPU jobs done could take less (flow-shop bound of
                               their measured stage times) */
    double remaining_seconds; /* predicted time to finish the jobs not yet done (the ETA) */
    int devices;            /* the device queues (one a GPU; 1 on the CPU): the figures above are
                               their sums, seconds, lower_bound and remaining_seconds their
                               largest (pw_queue_get_device_stats: each one's) */
} pw_queue_stats;

pw_status pw_queue_get_stats(pw_queue *queue, pw_queue_stats *stats);

/* Device queue k's (0 .. stats.devices - 1) own figures, and its CUDA device (-1: the CPU). */
pw_status pw_queue_get_device_stats(pw_queue *queue, int k, pw_queue_stats *stats, int *device);

/* Drain, then free the queue (NULL: nothing). */
void pw_queue_destroy(pw_queue *queue);

#ifdef __cplusplus
}
#endif

#endif
