/*
 * align_internal.h - the pieces of src/align/ (the alignment subsystem, include/peerwave_align.h).
 *
 *   sw_start.c       the start of a local alignment, from its end cell and score (one pass
 *                    backwards, pruned to the cells that can still be on an optimal alignment)
 *   myers_miller.c   the global alignment of a rectangle in linear space (Myers and Miller's
 *                    divide and conquer for affine gaps), its passes on the CPU or, while large,
 *                    on the GPU (gotoh_gpu.c)
 *   sw_align.c       pw_sw_align: score pass, start, rectangle, CIGAR and counts; the rescoring
 *   alignment_view.c the three-line view
 *   sw_strips.c      the alignment through rows saved by the score pass (the GPU's way)
 *   align_pool.c     independent parts on a pool of threads
 *   dtw_path.c       Hirschberg's divide and conquer for DTW warping paths
 *   dtw_strips.c     the warping path through saved rows
 *
 * Costs inside Myers-Miller are what the paper uses: a gap of k letters costs g + h k (g = gap_open
 * - gap_extend, h = gap_extend), a pair costs -score; everything else is in scores.
 */
#ifndef PW_ALIGN_INTERNAL_H
#define PW_ALIGN_INTERNAL_H

#include <stdint.h>

#include "peerwave.h"

/* An alignment as a string of operations, one a column. */
enum {
    PW_OP_PAIR = 'M',   /* a letter of a against a letter of b */
    PW_OP_A_ONLY = 'I', /* a letter of a against a gap (CIGAR I: a is the query) */
    PW_OP_B_ONLY = 'D'  /* a letter of b against a gap (CIGAR D) */
};

/* The scoring as the alignment passes need it: sequences encoded into table indices. */
typedef struct pw_align_scoring {
    const int32_t *scores; /* alphabet x alphabet */
    int alphabet;
    int32_t max_score;     /* largest entry */
    int32_t gap_open, gap_extend;
} pw_align_scoring;

/* One pass of Myers-Miller over a rectangles rows x cols (a forward pass; a reverse pass is the
 * same over reversed letters): for the last row's nodes j = 0 .. cols, cc[j] = the least cost of
 * reaching node (rows, j) from (0, 0), dd[j] = the least cost among paths whose last column is a
 * letter of a against a gap.  tb: the cost of opening a run of a-only columns at the very start
 * (g, or 0 when it continues a run outside).  Returns PW_OK or an error of the GPU path. */
typedef pw_status (*pw_mm_pass_fn)(void *ctx, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                                   int32_t tb, int32_t *cc, int32_t *dd);

typedef struct pw_mm_passes {
    pw_mm_pass_fn big;        /* NULL, or a pass for rectangles of at least big_cells cells */
    void *big_ctx;
    int64_t big_cells;
} pw_mm_passes;

/* The global alignment of a[0..rows) against b[0..cols) (both already encoded; ra and rb the
 * whole sequences reversed: ra[k] = a_whole[n_whole - 1 - k], with a at offset a_off of the
 * whole) whose cost is least, as operations into ops (room for rows + cols; the count in
 * *count).  threads: CPU threads to use (>= 1).  *cells counts the cells computed.
 * open_top / open_bottom (pw_myers_miller): 1 when a run of a-letters against gaps at the very
 * start / end opens there (pays g), 0 when it goes on a run outside the rectangle (the parts of
 * sw_strips.c). */
typedef struct pw_mm_job {
    const uint8_t *a, *b;       /* the whole encoded sequences */
    const uint8_t *ra, *rb;     /* the same reversed */
    int64_t n, m;               /* their lengths */
    pw_align_scoring scoring;
    pw_mm_passes passes;
    int threads;
    const volatile int *cancel; /* pw_options.cancel: looked at before every split */
} pw_mm_job;

pw_status pw_myers_miller(const pw_mm_job *job, int64_t a0, int64_t rows, int64_t b0, int64_t cols,
                          int open_top, int open_bottom, char *ops, int64_t *count, int64_t *cells);

/* The CPU pass (pw_mm_pass_fn with ctx = the scoring). */
pw_status pw_mm_pass_cpu(void *scoring, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                         int32_t tb, int32_t *cc, int32_t *dd);

/* The start of an optimal local alignment of score `score` > 0 that ends with the pair (end_a,
 * end_b): the nearest one (largest start_a, then largest start_b).  ra / rb as above (whole
 * sequences reversed, lengths n and m).  PW_ERR_INTERNAL if there is none (a wrong end cell). */
pw_status pw_sw_find_start(const pw_align_scoring *s, const uint8_t *ra, int64_t n, const uint8_t *rb,
                           int64_t m, int64_t end_a, int64_t end_b, int32_t score, int64_t *start_a,
                           int64_t *start_b, int64_t *cells, const volatile int *cancel);

/* The optimal local alignment through rows saved by the score pass (sw_strips.c): the score pass
 * itself (on the GPU's SW kernel when use_gpu, else a loop on the CPU) into *res, the start node
 * into *start_a / *start_b and the operations from there to the end into ops (room for n + m),
 * their number in *count.  job->passes: the parts' large Myers-Miller passes (the GPU's, or
 * none). */
typedef struct pw_strips_stats {
    double seconds_score, seconds_strips; /* the score pass; the strips' search */
    int64_t cells_strips, cells_parts;    /* the strips' passes; the parts' Myers-Miller */
} pw_strips_stats;
/* use_gpu: the score pass on the GPU where it can run there.  cpu_tiles_only: on the CPU only the
 * vector tiles' score pass (apps/sw_saving.h), else PW_ERR_UNSUPPORTED before anything else runs
 * (nor where the store cannot be allocated): the caller's Myers-Miller then. */
pw_status pw_sw_by_strips(const pw_mm_job *job, const pw_options *options, int use_gpu, int cpu_tiles_only,
                          pw_sw_result *res, int64_t *start_a, int64_t *start_b, char *ops, int64_t *count,
                          pw_strips_stats *stats);

/* CPU threads for the passes: options->threads, else one per online core. */
int pw_align_threads(const pw_options *options);

/* fn(first) and fn(second), the first on a new thread when `parallel` (and one can be made):
 * the two passes of a split, and the two parts after it. */
void pw_align_run_both(int parallel, void *(*fn)(void *), void *first, void *second);
/* fn(item) for each of count items (size bytes apart), on up to `threads` threads taking them
 * in turn; returns the number of workers (the threads each item may use: threads / that). */
int pw_align_pool_run(void *items, size_t size, int64_t count, int threads, void (*fn)(void *item));
/* Rows between saved rows of an n x m search whose store keeps 8 bytes a column: about n /
 * strips, a multiple of 1024, raised until the store fits its cap ($PEERWAVE_PATH_STORE_MB);
 * $PEERWAVE_PATH_ROWS when set.  >= n: none.  The strips wanted, measured on the H100
 * (docs/ALIGN.md): DTW 128; SW 256 (retrieval of a 1 Mb pair: K 4096 1.36 s, 2048 1.49 s, 1024
 * 2.90 s). */
#define PW_DTW_STRIPS 128
#define PW_SW_STRIPS 256
int64_t pw_align_strip_rows(int64_t n, int64_t m, int64_t strips);
/* The switches $PEERWAVE_PATH_ROWS, _STORE_MB, _STRIP_H, _FULL_CELLS and $PEERWAVE_ALIGN_GPU_CELLS
 * (align_env.c): pw_align_env_check is PW_ERR_INVALID_ARGUMENT (detail: which) when one is set to
 * anything but a whole number >= 1, checked as an alignment starts; pw_align_env_int is its value,
 * else `fallback`. */
pw_status pw_align_env_check(void);
int64_t pw_align_env_int(const char *name, int64_t fallback);
/* The tile height of the strips' passes (SW and DTW): $PEERWAVE_PATH_STRIP_H, else 32.  A strip is
 * K rows, so its wavefront has K / height tile-rows: short tiles keep more of the GPU busy (H100,
 * bench/strip_heights.sh: DTW f64 262144^2 strips 1.03 s at 32, 1.69 s at 64 (the linear apps'
 * height), 2.51 s at 128; SW 1 Mb strips' GPU time 0.22 s at 32, 0.30 s at 64). */
#define PW_STRIP_TILE_H 32
int64_t pw_align_strip_tile_h(void);
/* PW_ERR_OUT_OF_MEMORY for a store of `slots` saved rows of m columns (8 bytes each) every `every`
 * rows that could not be had (on the GPU when gpu), with a detail naming the cap that lowers it. */
pw_status pw_align_store_failed(int64_t slots, int64_t m, int64_t every, int gpu);
/* The threads of a part for its two halves: split between them when they run in parallel, else
 * all for each (they run one after the other). */
void pw_align_share_threads(int parallel, int threads, int *first, int *second);

#endif
