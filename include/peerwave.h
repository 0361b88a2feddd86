/*
 * peerwave.h - public C11 API of libpeerwave.
 *
 * PeerWave runs wavefront computations: H x W iteration spaces in which cell (i, j) reads cells
 * computed earlier in the same sweep (its upper, left and upper-left neighbours and, more
 * generally, any lexicographically earlier cell at a constant distance).  Tiles of the space are
 * grouped into tile-rows; each worker (a CPU thread or a persistent GPU thread block) owns whole
 * tile-rows and waits only on the progress counter of the tile-row above it (peer
 * synchronisation), instead of on a barrier across all workers.
 *
 * Conventions:
 *   - every function returns a pw_status; PW_OK is 0 and pw_status_str() names the others;
 *   - the library never prints, never exits and keeps no global state: options and results
 *     travel in structs owned by the caller;
 *   - row index i runs over the first sequence / the image rows, j over the second sequence /
 *     the image columns; all indices in results are 0-based;
 *   - a NULL options pointer means the defaults of pw_options_init().
 */
#ifndef PEERWAVE_H
#define PEERWAVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PW_VERSION_MAJOR 0
#define PW_VERSION_MINOR 1
#define PW_VERSION_PATCH 0

/* The library version as "MAJOR.MINOR.PATCH". */
const char *pw_version(void);

/* What this build of the library has, one line: the GPU backend (CUDA version and the GPU
 * architectures compiled for) or not, the run-time compiler (NVRTC) for user cells on the GPU,
 * and the multi-GPU transports (NCCL, MPI), e.g. "CUDA 13.0 (90-real, 80-virtual), NVRTC, no
 * NCCL, no MPI". */
const char *pw_build_info(void);

/* ---------------------------------------------------------------------------------------------
 * Status codes
 * ------------------------------------------------------------------------------------------- */
typedef enum pw_status {
    PW_OK = 0,
    PW_ERR_NULL_ARGUMENT,     /* a required pointer argument was NULL */
    PW_ERR_INVALID_ARGUMENT,  /* an option or parameter is out of its documented range */
    PW_ERR_INVALID_SIZE,      /* a size is zero, negative, or too small (fewer columns than bands) */
    PW_ERR_SIZE_OVERFLOW,     /* a cell or byte count does not fit in 64 bits / size_t */
    PW_ERR_ILLEGAL_DEPENDENCE,/* a dependence vector is not lexicographically positive */
    PW_ERR_INVALID_TILE,      /* a tile height or width is out of range */
    PW_ERR_UNSUPPORTED,       /* valid request this build or backend cannot do (named in docs) */
    PW_ERR_NO_DEVICE,         /* the CUDA backend was asked for and no usable GPU exists */
    PW_ERR_OUT_OF_MEMORY,     /* a host or device allocation failed; nothing is leaked */
    PW_ERR_OVERFLOW,          /* the result would not fit its type (scores, sums): nothing wraps */
    PW_ERR_BAD_INPUT,         /* input data is malformed (bad sequence letter, NaN series ...) */
    PW_ERR_THREAD,            /* the operating system refused to create a thread */
    PW_ERR_TIMEOUT,           /* a synchronisation wait passed the watchdog bound */
    PW_ERR_CUDA,              /* a CUDA runtime call failed */
    PW_ERR_COMPILE,           /* run-time compilation of a cell failed (cc on the CPU, NVRTC on the GPU); pw_error_detail
                                 has the start of the compiler's log */
    PW_ERR_CANCELLED,         /* the progress hook or the cancel flag stopped the run (pw_options);
                                 outputs are partial and must not be used */
    PW_ERR_INTERNAL,          /* a consistency check inside the library failed (a bug: please
                                 report it with pw_error_detail's text) */
    PW_STATUS_COUNT
} pw_status;

/* A constant English description of a status code (never NULL, also for unknown codes). */
const char *pw_status_str(pw_status status);

/* More about the most recent failure in the calling thread, like errno: for PW_ERR_CUDA and
 * PW_ERR_NO_DEVICE the CUDA error's name and message (e.g. "cudaErrorIllegalAddress: an illegal
 * memory access was encountered"); "" when there is none.  Successful calls leave it alone, and
 * so does a failure with nothing to add (its status says it all): like errno, clear it first
 * (pw_clear_error_detail) to read only what the next call says. */
const char *pw_error_detail(void);
void pw_clear_error_detail(void);

/* ---------------------------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------------------------- */
typedef enum pw_backend {
    PW_BACKEND_AUTO = 0, /* CUDA when the library was built with it and a GPU is present, else CPU */
    PW_BACKEND_CPU,
    PW_BACKEND_CUDA
} pw_backend;

typedef enum pw_strategy {
    PW_STRATEGY_PEER = 0,       /* persistent workers own tile-rows; peer progress counters (default) */
    PW_STRATEGY_SEQUENTIAL,     /* the plain loop nest on one thread: the reference */
    PW_STRATEGY_GLOBAL_BARRIER, /* every worker waits at a barrier after each tile diagonal */
    PW_STRATEGY_LAUNCH,         /* one kernel launch per tile diagonal (CUDA backend only) */
    PW_STRATEGY_TASKS           /* a tile is a task with a dependency counter; any ready tile runs
                                   on any free worker: CPU threads, or persistent GPU blocks fed
                                   from per-SM queues (seed 001 ch. 5) */
} pw_strategy;

typedef enum pw_tile_shape {
    PW_TILE_HYPER = 0, /* parallelogram tiles: h lanes x w diagonal steps, every step full */
    PW_TILE_SQUARE     /* axis-aligned h x w tiles (w = h unless given): 2n-1 steps per tile */
} pw_tile_shape;

/* The x86 vector instructions the CPU tile processors use (SW, DTW, SAT, INTHIST, HEAT/SOR;
 * docs/PERFORMANCE.md).  AUTO
 * = $PEERWAVE_SIMD if set (scalar, sse41, avx2, avx512), else the widest the processor has.
 * Asking for one the processor lacks is PW_ERR_UNSUPPORTED, never an illegal instruction. */
typedef enum pw_simd {
    PW_SIMD_AUTO = 0,
    PW_SIMD_SCALAR, /* the portable cell-at-a-time code, the reference */
    PW_SIMD_SSE41,  /* 8 lanes of 16 bits */
    PW_SIMD_AVX2,   /* 16 lanes */
    PW_SIMD_AVX512  /* 32 lanes (AVX-512BW) */
} pw_simd;

/* "scalar", "sse41", "avx2", "avx512" ("auto" for PW_SIMD_AUTO, NULL for other values). */
const char *pw_simd_name(pw_simd simd);

typedef enum pw_layout {
    PW_LAYOUT_AUTO = 0,  /* the layout measured faster (docs/PERFORMANCE.md) */
    PW_LAYOUT_ROW_MAJOR, /* the caller's row-major matrix, addressed in place */
    PW_LAYOUT_HYBRID     /* hybrid row/diagonal (seed paper 3.4): a step's cells consecutive */
} pw_layout;

/* One timed tile, delivered to a trace sink after the run (see pw_options.trace). */
typedef struct pw_trace_record {
    int32_t worker;    /* CPU thread or GPU block that ran the tile */
    int64_t tile_row;  /* tile-row index */
    int64_t tile_col;  /* tile index along the row (absolute step index / tile width) */
    int64_t wait_ns;   /* start of the wait for the tile-row above, ns since the run began */
    int64_t start_ns;  /* start of computation */
    int64_t end_ns;    /* end of computation */
} pw_trace_record;

/* Called once per tile after the run returns, from the calling thread, in no defined order. */
typedef void (*pw_trace_fn)(void *user, const pw_trace_record *record);

/* Where a running computation stands, handed to a progress hook (see pw_options.progress). */
typedef struct pw_progress {
    double fraction;     /* of the run's work finished, 0 .. 1 (tiles finished over tiles, in
                            cells: exact when the run ends, within a tile's cells before) */
    int64_t cells_done;  /* fraction * cells */
    int64_t cells;       /* cells of the whole run (sweeps, bins and planes included) */
    double seconds;      /* since the run began (argument checks and copies included) */
    double cells_per_second; /* cells_done / seconds */
    double eta_seconds;  /* time left at that rate; -1 before anything is done */
    int has_best;        /* 1 when best is known: pw_sw's best local score so far */
    int64_t best;        /* a score some cell has reached: <= the final score, and equal to it
                            at the end */
    int final;           /* 1 on the last call, after the computation finished (fraction 1) */
} pw_progress;

/* Called every pw_options.progress_interval_ms while a run computes, and once more at its end
 * (final = 1) when it succeeds, from one of the run's threads, one call at a time (on the CPU:
 * whichever worker thread finishes a tile first once the interval has passed; on the GPU: the
 * calling thread, while the kernel runs).  Return 0 to go on, nonzero
 * to stop the run: it then returns PW_ERR_CANCELLED soon after (within a tile on the CPU;
 * within a tile-row's wait or the next tile-row claimed on the GPU).  The hook must not call
 * back into the library with the same options. */
typedef int (*pw_progress_fn)(void *user, const pw_progress *progress);

typedef struct pw_options {
    pw_backend backend;     /* default PW_BACKEND_AUTO */
    pw_strategy strategy;   /* default PW_STRATEGY_PEER */
    pw_tile_shape shape;    /* default PW_TILE_HYPER */
    int tile_h;             /* rows per tile (lanes); 0 = automatic; else 1 .. PW_MAX_TILE_H */
    int64_t tile_w;         /* tile width / sync interval in steps; 0 = automatic (width_model);
                               else >= 1 */
    int threads;            /* CPU worker threads; 0 = one per processor the process may run on (its
                               affinity mask); else 1 .. PW_MAX_THREADS */
    int device;             /* CUDA device index (>= 0) */
    int rows_per_thread;    /* CUDA, SW and DTW: tile rows each thread computes per step (1, 2, 4
                               or 8; tile_h must be a multiple); 0 = automatic.  Other apps and
                               the CPU ignore it. */
    pw_layout layout;       /* CUDA, SAT/HEAT/SOR: device layout during the run (data in and out is
                               row-major either way; HYBRID converts on the device before and
                               after, outside the kernel time in pw_run_info) */
    int max_blocks;         /* CUDA: cap on persistent blocks (0 = as many as fit); e.g. to leave
                               SMs to other work.  Any value >= 1 is correct: tile-rows are
                               claimed in order, so fewer blocks only means less parallelism. */
    void *cuda_stream;      /* CUDA: a cudaStream_t to order the work on (NULL = the legacy default
                               stream).  Every call still returns only when its work is done. */
    int64_t watchdog_ms;    /* a peer wait that sees no progress for this long ends the run with
                               PW_ERR_TIMEOUT; 0 = default (10 s on CUDA, 120 s on the CPU) */
    pw_trace_fn trace;      /* NULL = no tracing (costs nothing); else receives every tile */
    void *trace_user;       /* passed to trace */
    pw_progress_fn progress;/* NULL = no progress reports (costs nothing); see pw_progress_fn.
                               CUDA: blocks write how many tiles they finished to mapped host
                               memory at most every 100 us each (docs/PERFORMANCE.md: its cost) */
    void *progress_user;    /* passed to progress */
    int64_t progress_interval_ms; /* between calls of progress; 0 = 500 */
    const volatile int *cancel; /* NULL, or a flag the caller may set to nonzero at any time (from
                               another thread or a signal handler): the run stops with
                               PW_ERR_CANCELLED as if the hook had asked.  Looked at every tile
                               on the CPU and at least every 10 ms on the GPU (not by the launch
                               strategy, a baseline, which also reports only at its end). */
    int width_model;        /* with tile_w 0, the host functions of the six applications (not the
                               _device ones, pw_run or user cells, which keep the fixed default):
                               0 = the tile-width model's width for peer runs of hyper tiles of at
                               least 2^26 cells, else the fixed default (the default; the CLI's
                               --tile-w auto); 1 = the model's width whatever the size (--tile-w
                               model); -1 = always the fixed default.  The model is fitted by
                               timed runs on the top-left corner of the input (train_ratio of its
                               rows and columns, a warm-up and six widths) unless the wisdom file
                               already holds a fit for this kind of run on this machine */
    double train_ratio;     /* the training corner's share of rows and of columns, in (0, 1];
                               0 = 0.1 */
    const char *wisdom;     /* the file where fits are remembered: NULL = $PEERWAVE_WISDOM, else
                               $XDG_CACHE_HOME/peerwave/wisdom.tsv or ~/.cache/peerwave/wisdom.tsv;
                               "none" = none (train every time).  A file that cannot be written
                               never fails a run */
    pw_simd simd;           /* CPU: the vector instructions of the tile processors (pw_simd) */
    int sw_prune;           /* SW on the GPU (its warp processor, any schedule): 1 = skip the parts
                               of the matrix that can no longer reach the best score found so far
                               (MASA-CUDAlign's block pruning), exact: the same score and end cell.
                               0 (the default) = compute every cell.  The CPU engines and the
                               alignment search's passes ignore it; pw_run_info.pruned_cells says
                               how much was skipped */
    int inthist_f32_edges;  /* inthist of an f32 image: how edge k of [lo, hi) in `bins` parts is
                               computed, each as numpy.histogram computes it.  0 (the default) =
                               k * ((hi - lo) / bins) + lo in double, rounded to float: numpy's
                               edges for a range given to it; 1 = the same in float arithmetic
                               from lo and hi as floats: numpy's (>= 2.0) edges for its default
                               range, the image's [min, max] (the CLI's and the Python module's
                               default range use it; numpy 1.x placed those as 0 does).  u8 and
                               u16 images ignore it */
    int inthist_closed;     /* inthist: 0 (the default) = bins half-open, [edge k, edge k + 1), so a
                               value equal to hi is in no bin; 1 = the last bin closed, [edge
                               bins - 1, hi], as numpy.histogram's is (the CLI and the Python
                               module set it) */
} pw_options;

#define PW_MAX_TILE_H 4096
#define PW_MAX_THREADS 1024

/* Fill *options with the defaults named above. */
void pw_options_init(pw_options *options);

/* Where a run's tile width came from (pw_run_info.width_source). */
typedef enum pw_width_source {
    PW_WIDTH_DEFAULT = 0, /* the fixed default of the backend and application */
    PW_WIDTH_GIVEN,       /* options.tile_w */
    PW_WIDTH_MODEL        /* the tile-width model (options.width_model) */
} pw_width_source;

/* What the wisdom file did for a PW_WIDTH_MODEL run. */
typedef enum pw_wisdom_use {
    PW_WISDOM_OFF = 0, /* no file ("none", or no home directory) */
    PW_WISDOM_HIT,     /* the fit was there: no training */
    PW_WISDOM_SAVED,   /* trained, and remembered */
    PW_WISDOM_UNSAVED  /* trained; the file could not be written */
} pw_wisdom_use;

/* What a run actually used, filled in every result struct. */
typedef struct pw_run_info {
    pw_backend backend;   /* CPU or CUDA, never AUTO */
    pw_strategy strategy;
    pw_tile_shape shape;
    int tile_h;           /* tile height used (for SEQUENTIAL: 1) */
    int64_t tile_w;       /* tile width used (for SEQUENTIAL: W) */
    int threads;          /* CPU threads or GPU blocks used */
    int threads_available;/* threads or resident blocks the engine had before it kept at most one
                             per tile-row (what a larger problem would use) */
    int skew;             /* f: lane k of a tile-row is shifted (f+1)k columns (hyper tiles) */
    int64_t cells;        /* cells computed (per sweep times sweeps for HEAT/SOR) */
    double seconds;       /* wall time of the computation, excluding argument checks */
    pw_width_source width_source; /* where tile_w came from */
    pw_wisdom_use wisdom; /* PW_WIDTH_MODEL: whether the fit came from the wisdom file */
    double training_seconds;      /* PW_WIDTH_MODEL: the corner runs (0 on a wisdom hit) */
    int64_t training_rows, training_cols; /* the corner trained on (0 on a wisdom hit) */
    double model_d_s, model_tau_s; /* the fit: seconds a diagonal step, seconds a hand-off */
    pw_simd simd;         /* CPU: the vector instructions the tiles ran with (SCALAR where the
                             app or the parameters have no vector processor); CUDA: AUTO */
    int64_t pruned_cells; /* SW with options.sw_prune on the GPU: cells skipped (counted in
                             cells, and so in rates, all the same) */
    int lane_bits;        /* SW and DTW on the GPU: bits a cell's value took, 16 where two cells
                             shared a register (SW: halves relative to a moving base, any score),
                             else 32; 0 for other runs */
    int transposed;       /* SW and DTW: 1 when the run put b down the rows (the shorter sequence
                             there runs faster on every engine; results are a's and b's all the
                             same: README, "which way round, and where") */
} pw_run_info;

/* ---------------------------------------------------------------------------------------------
 * Generic problems: your own recurrence
 * ------------------------------------------------------------------------------------------- */

/* "cell (i, j) reads cell (i - di, j - dj) computed earlier in this sweep".  Legal vectors are
 * lexicographically positive: di > 0, or di == 0 and dj > 0.  Full storage updates in place, so a
 * read of an old value (a cell updated later in the sweep: Gauss-Seidel's (i+1, j)) is listed
 * too, as the vector from (i, j) to that cell: (i+1, j) is {1, 0}, (i+1, j-1) {1, -1} (it must not
 * be updated before (i, j) reads it); a read left out is a race on the parallel engines. */
typedef struct pw_dep {
    int di;
    int dj;
} pw_dep;

#define PW_MAX_DEPS 64
#define PW_MAX_DEP_DISTANCE 65536

/* Check the vectors (PW_ERR_ILLEGAL_DEPENDENCE if any is not lexicographically positive or longer
 * than PW_MAX_DEP_DISTANCE; PW_ERR_INVALID_ARGUMENT for n_deps outside 1..PW_MAX_DEPS) and give
 * the skew f = max(0, max over di > 0 of ceil(-dj / di)) that makes every dependence point to an
 * earlier diagonal step. */
pw_status pw_deps_skew(const pw_dep *deps, int n_deps, int *skew);

typedef enum pw_storage {
    PW_STORAGE_FULL = 0, /* the caller's matrix holds every cell; the library schedules rows */
    PW_STORAGE_LINEAR    /* the library keeps one row and one column of cells: O(H + W) memory */
} pw_storage;

/* Full storage: compute cells (i, j_begin) .. (i, j_end - 1) of row i in increasing j, in place
 * in the caller's own matrix.  Called concurrently from several threads for disjoint cells. */
typedef void (*pw_row_fn)(void *user, int64_t i, int64_t j_begin, int64_t j_end);

/* Linear storage: compute cell (i, j) into out from its upper (i-1, j), left (i, j-1) and
 * upper-left (i-1, j-1) neighbours (each cell_size bytes, 8-byte aligned).  Concurrent calls. */
typedef void (*pw_cell_fn)(void *user, int64_t i, int64_t j, const void *up, const void *left,
                           const void *diag, void *out);

/* Linear storage: the value of a cell outside the space: row -1 (j = -1 .. W-1) or column -1. */
typedef void (*pw_boundary_fn)(void *user, int64_t i, int64_t j, void *out);

#define PW_MAX_CELL_SIZE 64

typedef struct pw_problem {
    int64_t rows, cols;      /* H and W, >= 1 */
    const pw_dep *deps;      /* dependence vectors (full storage; linear storage always reads the
                                three neighbours and ignores these: pass NULL) */
    int n_deps;
    pw_storage storage;
    pw_row_fn row;           /* full storage */
    size_t cell_size;        /* linear storage: 1 .. PW_MAX_CELL_SIZE */
    pw_cell_fn cell;         /* linear storage */
    pw_boundary_fn boundary; /* linear storage */
    void *last_row;          /* linear storage, optional: receives row H-1 (W cells) */
    void *last_col;          /* linear storage, optional: receives column W-1 (H cells) */
    void *user;              /* passed to the callbacks */
} pw_problem;

/* Run a user recurrence on the CPU backend (callbacks are host code).  PW_ERR_UNSUPPORTED for
 * PW_BACKEND_CUDA: GPU users instantiate the cell templates (see docs/EXTENDING.md). */
pw_status pw_run(const pw_problem *problem, const pw_options *options, pw_run_info *info);

/* ---------------------------------------------------------------------------------------------
 * Smith-Waterman-Gotoh local alignment (linear space)
 * ------------------------------------------------------------------------------------------- */
typedef enum pw_scoring {
    PW_SCORING_DNA = 0, /* match / mismatch on A C G T (case-insensitive); U counts as T; every
                           other letter (N, IUPAC codes) scores mismatch, also against itself */
    PW_SCORING_MATRIX   /* a substitution matrix, e.g. pw_matrix_by_name("BLOSUM62") */
} pw_scoring;

/* A substitution matrix over an alphabet of letters; letters not in it score as the wildcard.
 * Sequences are read case-insensitively, so the alphabet holds letters A-Z (either case, each
 * standing for both) and '*', each once; any other byte (a digit, '-', a space, a byte past
 * ASCII) or a letter given twice is refused (PW_ERR_INVALID_ARGUMENT, pw_error_detail names the
 * byte and its index).  A '*' in a sequence scores as the wildcard unless the alphabet has it. */
typedef struct pw_matrix {
    const char *name;
    const char *alphabet;  /* letters and '*', e.g. "ARNDCQEGHILKMFPSTWYVBZX*" */
    char wildcard;         /* a letter (or '*') of the alphabet, used for letters not in it (e.g. 'X') */
    int size;              /* strlen(alphabet) */
    const int8_t *scores;  /* size x size, row-major */
} pw_matrix;

/* A built-in matrix by case-insensitive name, or NULL.  Built in, the tables EMBOSS and parasail
 * use: BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80, BLOSUM90, PAM30, PAM70, PAM250 (alphabet
 * ARNDCQEGHILKMFPSTWYVBZX*; other letters score as X). */
const pw_matrix *pw_matrix_by_name(const char *name);

/* The index-th built-in matrix (0, 1, ...), or NULL past the last: for listing them. */
const pw_matrix *pw_matrix_at(int index);

typedef struct pw_sw_params {
    pw_scoring scoring;       /* default PW_SCORING_DNA */
    int match;                /* DNA: score of a match, >= 0 (default 2) */
    int mismatch;             /* DNA: score of a mismatch, <= 0 (default -1) */
    const pw_matrix *matrix;  /* PW_SCORING_MATRIX */
    int gap_open;             /* >= 0: a gap of length L costs gap_open + (L-1) gap_extend */
    int gap_extend;           /* >= 0; gap_open == gap_extend is a linear gap (default 1 and 1) */
} pw_sw_params;

#define PW_MAX_SCORE_MAGNITUDE (1 << 20) /* bound on |match|, |mismatch|, gap penalties */

void pw_sw_params_init(pw_sw_params *params);

typedef struct pw_sw_result {
    int32_t score;   /* best local score (0 when nothing aligns) */
    int64_t end_a;   /* 0-based end of the alignment in a; -1 when score is 0 */
    int64_t end_b;   /* 0-based end in b; -1 when score is 0 */
    pw_run_info info;
} pw_sw_result;

/* Best local alignment score of a (n letters) against b (m letters).  Ties: the end cell with the
 * smallest end_a, then the smallest end_b.  PW_ERR_OVERFLOW before any work if a score could
 * exceed 32 bits; PW_ERR_BAD_INPUT for bytes that are not letters or '*'. */
pw_status pw_sw(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                const pw_options *options, pw_sw_result *result);

/* ---------------------------------------------------------------------------------------------
 * Dynamic time warping (linear space)
 * ------------------------------------------------------------------------------------------- */
typedef enum pw_dtw_cost {
    PW_DTW_ABSOLUTE = 0, /* c = |a_i - b_j| */
    PW_DTW_SQUARED       /* c = (a_i - b_j)^2 */
} pw_dtw_cost;

typedef struct pw_dtw_result {
    double distance;     /* D(n-1, m-1) */
    pw_run_info info;
} pw_dtw_result;

/* D(i,j) = c(a_i, b_j) + min(D(i-1,j), D(i,j-1), D(i-1,j-1)), D(-1,-1) = 0, other boundaries
 * +inf.  Computed in double (pw_dtw_f64) or float (pw_dtw_f32).  PW_ERR_BAD_INPUT for NaN or
 * infinite samples. */
pw_status pw_dtw_f64(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                     const pw_options *options, pw_dtw_result *result);
pw_status pw_dtw_f32(const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                     const pw_options *options, pw_dtw_result *result);

/* ---------------------------------------------------------------------------------------------
 * Images and grids (full storage)
 * ------------------------------------------------------------------------------------------- */
typedef enum pw_dtype {
    PW_U8 = 0,
    PW_U16,
    PW_I32,
    PW_I64,
    PW_F32,
    PW_F64,
    PW_DTYPE_COUNT
} pw_dtype;

/* Size in bytes of one element (0 for an unknown type) and a short name ("u8", "f32" ...). */
size_t pw_dtype_size(pw_dtype type);
const char *pw_dtype_name(pw_dtype type);

/* A row-major 2-D array.  stride is in elements (>= cols); 0 means cols. */
typedef struct pw_image {
    pw_dtype type;
    int64_t rows, cols, stride;
    void *data;
} pw_image;

/* Summed-area table: S(i,j) = x(i,j) + S(i-1,j) + S(i,j-1) - S(i-1,j-1).
 * in: u8, u16, i32, f32 or f64; out: i32, i64, f32 or f64 with the same rows and cols.
 * Integer input to integer output is exact; float input needs float output (else
 * PW_ERR_UNSUPPORTED).  Integer outputs: PW_ERR_OVERFLOW, before any work, when the sum of |x|
 * over the image exceeds the output type (use a wider type).  Float outputs are accumulated in
 * their own type in a fixed order, identical on every engine. */
pw_status pw_sat(const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info);

/* 1 if pw_sat of `in` into an output of type `out` cannot overflow, 0 if it would (or `in` is
 * not a valid image): lets a caller pick the narrowest safe type.  Float outputs: every input
 * value finite and the sum of |x| within half the type's largest value (a pass over the input,
 * which pw_sat itself does not make: there an overflow becomes an infinity or a NaN, as in any
 * IEEE sum). */
int pw_sat_fits(const pw_image *in, pw_dtype out);

/* Integral histogram with `bins` bins (1 .. PW_MAX_BINS): out is bins planes of rows x cols i32,
 * plane b at out + b * rows * cols, each the SAT of [bin(x) == b].  Bins split the half-open
 * range [lo, hi) into equal parts, a value going to the bin whose edges hold it, the edges placed
 * as numpy.histogram places them (float32 edges for an f32 image; options->inthist_f32_edges);
 * values outside [lo, hi) (and NaN) fall in no bin -- with options->inthist_closed = 1 a value
 * equal to hi is in the last bin, as numpy.histogram counts it.  For u8 use [0, 256) to get one
 * bin per value.  in: u8, u16 or f32.  PW_ERR_OVERFLOW if rows * cols exceeds INT32_MAX. */
#define PW_MAX_BINS 4096
pw_status pw_inthist(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                     const pw_options *options, pw_run_info *info);

/* numpy.histogram's default range for an f32 image (host memory): [min, max] of its values with
 * *closed = 1 (the max belongs to the last bin: pw_inthist with options->inthist_closed = 1
 * counts it there, or pw_inthist_close_last_bin adds it after a half-open run); one value v: [v - 0.5, v + 0.5) (wider where 0.5
 * is below v's float precision) and *closed = 0.  Run pw_inthist with options->inthist_f32_edges
 * = 1 for numpy's (>= 2.0) edges of that range.  PW_ERR_BAD_INPUT for a NaN or an infinity
 * (numpy refuses such a range too), PW_ERR_UNSUPPORTED for another type. */
pw_status pw_inthist_default_range(const pw_image *in, double *lo, double *hi, int *closed);

/* The pixels of an f32 image (host) equal to hi, as a summed-area table, added to the last of
 * `bins` planes (host): numpy.histogram's closed last bin after a pw_inthist over [lo, hi)
 * (options->inthist_closed = 1 gets the same in the run itself, for every type and backend). */
pw_status pw_inthist_close_last_bin(const pw_image *in, int bins, double hi, int32_t *planes);

/* Gauss-Seidel heat sweeps, in place, boundary rows/columns fixed:
 * A(i,j) = (A(i-1,j) + A(i,j-1) + A(i+1,j) + A(i,j+1)) / 4 on the interior, `sweeps` times,
 * summed in the grid's type as (((A(i+1,j) + A(i,j+1)) + A(i,j-1)) + A(i-1,j)) on every engine
 * (SOR too), so results are bit-identical across backends and schedules.
 * grid: f32 or f64, rows and cols >= 3.  residual (if non-NULL): the root mean square over the
 * interior of (sum of the 4 neighbours)/4 - A(i,j) after the last sweep, in double: each row's
 * squares summed left to right, the rows' sums added top to bottom -- one order on every engine,
 * device and band split, so the residual is bit-identical too.  PW_ERR_BAD_INPUT for a NaN or
 * infinite value and PW_ERR_OVERFLOW for one over a quarter of the type's largest (four of them
 * would overflow a neighbour sum), before any work; PW_ERR_OVERFLOW also when a run's residual
 * is not finite (over-relaxation can grow values; the grid is then not trustworthy). */
pw_status pw_heat(pw_image *grid, int64_t sweeps, const pw_options *options, double *residual,
                  pw_run_info *info);

/* Successive over-relaxation (seed 002, Eq. 6.4), omega in (0, 2), in place:
 * A(i,j) = (1 - omega) A(i,j) + omega/4 (A(i-1,j) + A(i,j-1) + A(i+1,j) + A(i,j+1)). */
pw_status pw_sor(pw_image *grid, int64_t sweeps, double omega, const pw_options *options,
                 double *residual, pw_run_info *info);

/* ---------------------------------------------------------------------------------------------
 * CUDA device memory
 *
 * The same computations on data already on the GPU: every pointer (sequences, series, image and
 * grid data, inthist's out) is a device pointer on options->device; results structs and residual
 * stay on the host.  Arguments are checked exactly as by the host functions; the checks that
 * read the data (SAT overflow, NaN samples, sequence letters) run on the device.  Work is ordered
 * on options->cuda_stream and finished when the call returns.  The residual of heat/sor is
 * summed on the device (the rows' sums added on the host), in the host functions' order; their
 * grids' values are not read before the run (a residual that is not finite is PW_ERR_OVERFLOW).
 * PW_ERR_INVALID_ARGUMENT for PW_BACKEND_CPU; PW_ERR_UNSUPPORTED in builds without CUDA.
 * ------------------------------------------------------------------------------------------- */
pw_status pw_sw_device(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                       const pw_options *options, pw_sw_result *result);
pw_status pw_dtw_f32_device(const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                            const pw_options *options, pw_dtw_result *result);
pw_status pw_dtw_f64_device(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                            const pw_options *options, pw_dtw_result *result);
pw_status pw_sat_device(const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info);
pw_status pw_inthist_device(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                            const pw_options *options, pw_run_info *info);
pw_status pw_heat_device(pw_image *grid, int64_t sweeps, const pw_options *options, double *residual,
                         pw_run_info *info);
pw_status pw_sor_device(pw_image *grid, int64_t sweeps, double omega, const pw_options *options,
                        double *residual, pw_run_info *info);

#ifdef __cplusplus
}
#endif
#endif /* PEERWAVE_H */
