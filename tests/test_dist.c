/*
 * test_dist.c - one wavefront over several ranks (peerwave_dist.h) against the same run in one
 * process, bit for bit: SW, DTW (f32, f64), SAT (integer and float tables), INTHIST, and HEAT and
 * SOR (pipelined sweeps, the residual too) on random shapes (down to one column a rank), random
 * chunk sizes, tiles and threads.  Then the failures:
 * a rank with other arguments, a rank with bad input, too few columns, a rank that is cancelled
 * (every rank must return an error, none may hang), ranks on different backends.
 *
 *   test_dist              ranks are threads of this process (pw_comm_local), 1 .. 4 of them
 *   mpirun -np N test_dist --mpi    ranks are MPI processes (pw_comm_mpi); CTest runs N = 2, 3
 *   mpirun -np N test_dist --mpi --gpu [--nccl]   the GPU cases below with ranks as MPI processes,
 *                          rank k on device k mod PW_TEST_GPUS, chunks through the hosts or (--nccl:
 *                          pw_comm_use_nccl, a GPU a rank) over NCCL (tests/gpu/multi.sh)
 *   test_dist --gpu        every app's bands on the GPU, 2 and 3 ranks as threads sharing it
 *   PW_TEST_GPUS=G test_dist --gpu   the same with rank k on device k mod G (up to 4 ranks when G >= 4)
 *                          (PW_TEST_SERIAL_KERNELS=1: at most one sweep, for compute-sanitizer)
 *
 * Every rank draws the same cases from the same seed; each compares its own results (SW's and
 * DTW's whole answer, its band of the SAT and INTHIST tables and of the swept grid) with the
 * single-process run.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdatomic.h>
#include <pthread.h>
#include <string.h>

#include "test_util.h"
#include "peerwave_dist.h" /* (and peerwave_runtime.h through peerwave_batch.h) */
#include "../apps/sat_accuracy.h"
#include "../src/core/auto_width.h"
#include "../src/cpu/team.h" /* pw_now_ns */
#include "../src/dist/transport.h" /* pw_comm_debug_mute */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int64_t range(rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1)); }

/* What one rank saw: failures counted and the first one described, for the main thread to check
 * (the CHECK counters are not shared between threads). */
typedef struct rank_log {
    int failures, checks;
    char first[256];
    const char *context, *first_context; /* what the cases at hand have in common (NULL: nothing) */
} rank_log;

#define EXPECT(log, cond, ...)                                                      \
    do {                                                                            \
        (log)->checks++;                                                            \
        if (!(cond) && !(log)->failures++) {                                        \
            snprintf((log)->first, sizeof (log)->first, __VA_ARGS__);               \
            (log)->first_context = (log)->context;                                  \
        }                                                                           \
    } while (0)

static inline void set_context(rank_log *log, const char *context) { log->context = context; }

/* Options every rank of a case shares (drawn from the case's generator); the single-process run
 * uses the CPU engines too. */
static pw_options case_options(rng *r)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.threads = (int)range(r, 1, 2);
    if (range(r, 0, 1)) {
        o.tile_h = (int)range(r, 1, 8);
        o.tile_w = range(r, 1, 12);
    }
    o.simd = range(r, 0, 1) ? PW_SIMD_AUTO : PW_SIMD_SCALAR; /* (bands run the vector processors too) */
    o.width_model = -1;
    o.watchdog_ms = 20000;
    return o;
}

static void random_dna(rng *r, char *s, int64_t n)
{
    for (int64_t k = 0; k < n; k++) s[k] = "ACGT"[range(r, 0, 3)];
}

static void case_sw(pw_comm *c, rng *r, rank_log *log)
{
    const int ranks = pw_comm_size(c);
    const int64_t n = range(r, 1, 120), m = range(r, ranks, 150);
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    random_dna(r, a, n);
    random_dna(r, b, m);
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.match = (int)range(r, 1, 5);
    p.mismatch = -(int)range(r, 0, 5);
    p.gap_extend = (int)range(r, 0, 3);
    p.gap_open = p.gap_extend + (int)range(r, 0, 4);
    pw_options o = case_options(r);
    pw_sw_result whole, dist;
    pw_status s1 = pw_sw(a, n, b, m, &p, &o, &whole);
    pw_status s2 = pw_dist_sw(c, a, n, b, m, &p, &o, &dist);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "sw %lldx%lld: %s / %s (%s)", (long long)n, (long long)m, pw_status_str(s1),
           pw_status_str(s2), pw_error_detail());
    EXPECT(log, s2 != PW_OK || (dist.score == whole.score && dist.end_a == whole.end_a && dist.end_b == whole.end_b),
           "sw %lldx%lld on %d ranks: score %d (%lld, %lld), one process %d (%lld, %lld)", (long long)n, (long long)m, ranks,
           dist.score, (long long)dist.end_a, (long long)dist.end_b, whole.score, (long long)whole.end_a,
           (long long)whole.end_b);
    EXPECT(log, s2 != PW_OK || dist.info.cells == n * m, "sw %lldx%lld on %d ranks: the result counts %lld cells",
           (long long)n, (long long)m, ranks, (long long)dist.info.cells);
    free(a);
    free(b);
}

static void case_dtw(pw_comm *c, rng *r, rank_log *log)
{
    const int ranks = pw_comm_size(c);
    const int64_t n = range(r, 1, 100), m = range(r, ranks, 130);
    const int f64 = (int)range(r, 0, 1);
    const pw_dtw_cost cost = range(r, 0, 1) ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
    float *af = malloc(sizeof *af * (size_t)n), *bf = malloc(sizeof *bf * (size_t)m);
    for (int64_t k = 0; k < n; k++) af[k] = (float)(a[k] = (double)range(r, -1000, 1000) / 37.0);
    for (int64_t k = 0; k < m; k++) bf[k] = (float)(b[k] = (double)range(r, -1000, 1000) / 37.0);
    pw_options o = case_options(r);
    pw_dtw_result whole, dist;
    pw_status s1 = f64 ? pw_dtw_f64(a, n, b, m, cost, &o, &whole) : pw_dtw_f32(af, n, bf, m, cost, &o, &whole);
    pw_status s2 = f64 ? pw_dist_dtw_f64(c, a, n, b, m, cost, &o, &dist) : pw_dist_dtw_f32(c, af, n, bf, m, cost, &o, &dist);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "dtw %lldx%lld: %s / %s (%s)", (long long)n, (long long)m, pw_status_str(s1),
           pw_status_str(s2), pw_error_detail());
    EXPECT(log, s2 != PW_OK || memcmp(&dist.distance, &whole.distance, sizeof whole.distance) == 0,
           "dtw f%d %lldx%lld on %d ranks: %.17g, one process %.17g", f64 ? 64 : 32, (long long)n, (long long)m, ranks,
           dist.distance, whole.distance);
    EXPECT(log, s2 != PW_OK || dist.info.cells == n * m, "dtw %lldx%lld on %d ranks: the result counts %lld cells",
           (long long)n, (long long)m, ranks, (long long)dist.info.cells);
    free(a);
    free(b);
    free(af);
    free(bf);
}

/* A user recurrence of two 8-byte fields: an edit distance (its boundary depends on the column)
 * and a hash of the cell's position and its neighbours', which no cell with a wrong (i, j) or a
 * wrong neighbour can reproduce. */
typedef struct gen_cell {
    int64_t d;
    uint64_t h;
} gen_cell;

typedef struct gen_user {
    const char *a, *b;
} gen_user;

static void gen_compute(void *user, int64_t i, int64_t j, const void *up, const void *left, const void *diag, void *out)
{
    const gen_user *u = user;
    const gen_cell *pu = up, *pl = left, *pd = diag;
    gen_cell v;
    const int64_t sub = pd->d + (u->a[i] == u->b[j] ? 0 : 1), gap = (pu->d < pl->d ? pu->d : pl->d) + 1;
    v.d = sub < gap ? sub : gap;
    v.h = (pu->h * 31u + pl->h * 17u + pd->h * 7u + (uint64_t)i * 1000003u + (uint64_t)j) ^ (v.h = 0x9E3779B97F4A7C15ull);
    memcpy(out, &v, sizeof v);
}

static void gen_boundary(void *user, int64_t i, int64_t j, void *out)
{
    (void)user;
    gen_cell v = {i < 0 ? j + 1 : i + 1, (uint64_t)(i * 131 + j * 7 + 5)};
    memcpy(out, &v, sizeof v);
}

static void case_generic(pw_comm *c, rng *r, rank_log *log)
{
    const int ranks = pw_comm_size(c);
    const int64_t n = range(r, 1, 90), m = range(r, ranks, 150);
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    random_dna(r, a, n);
    random_dna(r, b, m);
    gen_user u = {a, b};
    gen_cell *row1 = malloc(sizeof *row1 * (size_t)m), *row2 = malloc(sizeof *row2 * (size_t)m);
    gen_cell *col1 = malloc(sizeof *col1 * (size_t)n), *col2 = malloc(sizeof *col2 * (size_t)n);
    pw_problem p;
    memset(&p, 0, sizeof p);
    p.rows = n, p.cols = m, p.storage = PW_STORAGE_LINEAR, p.cell_size = sizeof(gen_cell);
    p.cell = gen_compute, p.boundary = gen_boundary, p.user = &u;
    pw_options o = case_options(r);
    p.last_row = row1, p.last_col = col1;
    pw_status s1 = pw_run(&p, &o, NULL);
    p.last_row = row2, p.last_col = col2;
    pw_run_info info;
    pw_status s2 = pw_dist_run(c, &p, &o, &info);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK && !memcmp(row1, row2, sizeof *row1 * (size_t)m) &&
                    !memcmp(col1, col2, sizeof *col1 * (size_t)n) && info.cells == n * m,
           "pw_dist_run %lldx%lld on %d ranks: %s / %s (%s); last row %s, last column %s", (long long)n, (long long)m, ranks,
           pw_status_str(s1), pw_status_str(s2), pw_error_detail(), memcmp(row1, row2, sizeof *row1 * (size_t)m) ? "differs" : "equal",
           memcmp(col1, col2, sizeof *col1 * (size_t)n) ? "differs" : "equal");
    free(a), free(b), free(row1), free(row2), free(col1), free(col2);
}

/* A user cell over the ranks (pw_dist_cell_run) against pw_cell_run: a local-alignment-like cell
 * with PW_REDUCE(max) whose boundary depends on the column, one pw_cell shared by the ranks of
 * this process (the distributed run holds its lock only to compile). */
static pw_cell *shared_cell, *stencil_cell, *grid_cell;
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;
/* The test's cells, made once for every rank of the process (NULL: it did not compile). */
static void make_shared_cell(void)
{
    static const char stencil[] = "PW_FORM(stencil)\nPW_VALUE(double)\nPW_PARAM(double, w)\n"
                                  "PW_FN pw_value pw_cell(const pw_ctx *c, pw_value self, pw_value up, pw_value left, "
                                  "pw_value down, pw_value right)\n"
                                  "{ return self + c->w * (up + 2.0 * left + down + 0.5 * right - 4.5 * self); }\n";
    if (pw_cell_create(stencil, "dist_stencil", &stencil_cell) != PW_OK) stencil_cell = NULL;
    /* the same neighbours in the grid form, which sees its position and takes an input by column */
    static const char grid[] = "PW_FORM(grid)\nPW_VALUE(double)\nPW_PARAM(double, w)\nPW_INPUT(double, bias, j)\n"
                               "PW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_HALO(1)\n"
                               "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
                               "{ pw_value self = pw_at(c, i, j), up = pw_at(c, i - 1, j), left = pw_at(c, i, j - 1);\n"
                               "  pw_value down = pw_at(c, i + 1, j), right = pw_at(c, i, j + 1);\n"
                               "  return self + c->w * (up + 2.0 * left + down + 0.5 * right - 4.5 * self) + c->bias[j] * (double)(i % 3)"
                               " + (j == c->cols - 1 ? 0.25 : 0.0); }\n";
    if (pw_cell_create(grid, "dist_grid", &grid_cell) != PW_OK) grid_cell = NULL;
    static const char text[] = "PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUT(uint8_t, a, i)\nPW_INPUT(uint8_t, b, j)\n"
                               "PW_PARAM(int32_t, gap)\nPW_REDUCE(max)\n"
                               "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)\n"
                               "{ return (pw_value)((i < 0 ? j + 7 : i + 3) % 5); }\n"
                               "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, "
                               "pw_value diag)\n{ pw_value v = diag + (c->a[i] == c->b[j] ? 2 : -1);\n"
                               "  if (up - c->gap > v) v = up - c->gap;\n  if (left - c->gap > v) v = left - c->gap;\n"
                               "  return v > 0 ? v : 0; }\n";
    if (pw_cell_create(text, "dist_cell", &shared_cell) != PW_OK) shared_cell = NULL;
}

/* dist_options: the distributed run's (NULL: the CPU's, as the reference's); n and m at most
 * max_n and max_m. */
static void case_cell(pw_comm *c, rng *r, const pw_options *dist_options, int64_t max_n, int64_t max_m, rank_log *log)
{
    pthread_once(&shared_once, make_shared_cell);
    const int ranks = pw_comm_size(c);
    const int64_t n = range(r, 1, max_n), m = range(r, ranks, max_m);
    unsigned char *a = malloc((size_t)n), *b = malloc((size_t)m);
    random_dna(r, (char *)a, n);
    random_dna(r, (char *)b, m);
    const void *inputs[2] = {a, b};
    const double gap = (double)range(r, 1, 3);
    int32_t *row1 = malloc(sizeof *row1 * (size_t)m), *row2 = malloc(sizeof *row2 * (size_t)m);
    int32_t *col1 = malloc(sizeof *col1 * (size_t)n), *col2 = malloc(sizeof *col2 * (size_t)n);
    pw_cell_args args = {.rows = n, .cols = m, .inputs = inputs, .params = &gap, .last_row = row1, .last_col = col1};
    pw_options o = case_options(r);
    pw_cell_result one, dist;
    pw_status s1 = shared_cell ? pw_cell_run(shared_cell, &args, &o, &one) : PW_ERR_COMPILE;
    args.last_row = row2, args.last_col = col2;
    const pw_options *od = dist_options ? dist_options : &o;
    pw_status s2 = pw_dist_cell_run(c, shared_cell, &args, od, &dist);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK && !memcmp(one.last, dist.last, 4) && !memcmp(one.best, dist.best, 4) &&
                    one.best_i == dist.best_i && one.best_j == dist.best_j && !memcmp(row1, row2, 4 * (size_t)m) &&
                    !memcmp(col1, col2, 4 * (size_t)n) && (od->backend != PW_BACKEND_CUDA || dist.info.backend == PW_BACKEND_CUDA) &&
                    dist.info.cells == n * m,
           "pw_dist_cell_run %s %lldx%lld on %d ranks: %s / %s (%s); best %d at (%lld, %lld), one process %d at (%lld, %lld)",
           od->backend == PW_BACKEND_CUDA ? "gpu" : "cpu", (long long)n, (long long)m, ranks, pw_status_str(s1),
           pw_status_str(s2), pw_error_detail(), *(int32_t *)dist.best,
           (long long)dist.best_i, (long long)dist.best_j, *(int32_t *)one.best, (long long)one.best_i, (long long)one.best_j);
    free(a), free(b), free(row1), free(row2), free(col1), free(col2);
}

/* A stencil cell (in-place sweeps, halo columns both ways) over the ranks against pw_cell_run:
 * the whole grid on every rank afterwards, bit for bit. */
static void case_stencil_cell(pw_comm *c, rng *r, const pw_options *dist_options, int64_t max_rows, int64_t max_cols,
                              rank_log *log)
{
    pthread_once(&shared_once, make_shared_cell);
    const int ranks = pw_comm_size(c);
    const int64_t rows = range(r, 1, max_rows), cols = range(r, ranks, max_cols), sweeps = range(r, 1, 5);
    const size_t cells = (size_t)((rows + 2) * (cols + 2));
    double *one = malloc(sizeof *one * cells), *dist = malloc(sizeof *dist * cells);
    for (size_t k = 0; k < cells; k++) one[k] = dist[k] = (double)range(r, -1000, 1000) / 17.0;
    const double w = 0.05 + (double)range(r, 0, 10) / 100.0;
    /* the stencil cell or its grid-form twin (whose j and cols must be the whole space's) */
    const int as_grid = (int)range(r, 0, 1);
    pw_cell *cell = as_grid ? grid_cell : stencil_cell;
    double *bias = malloc(sizeof *bias * (size_t)cols);
    for (int64_t j = 0; j < cols; j++) bias[j] = (double)range(r, -8, 8) / 64.0;
    const void *inputs[1] = {bias};
    pw_cell_args args = {.rows = rows, .cols = cols, .params = &w, .grid = one, .sweeps = sweeps,
                         .inputs = as_grid ? inputs : NULL};
    pw_options o = case_options(r);
    pw_cell_result res1, res2;
    pw_status s1 = cell ? pw_cell_run(cell, &args, &o, &res1) : PW_ERR_COMPILE;
    args.grid = dist;
    const pw_options *od = dist_options ? dist_options : &o;
    pw_status s2 = pw_dist_cell_run(c, cell, &args, od, &res2);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK && !memcmp(one, dist, sizeof *one * cells) &&
                    (od->backend != PW_BACKEND_CUDA || res2.info.backend == PW_BACKEND_CUDA),
           "pw_dist_cell_run (%s, %s) %lldx%lld x %lld sweeps on %d ranks: %s / %s (%s); grid %s", as_grid ? "grid" : "stencil",
           od->backend == PW_BACKEND_CUDA ? "gpu" : "cpu", (long long)rows,
           (long long)cols, (long long)sweeps, ranks, pw_status_str(s1), pw_status_str(s2), pw_error_detail(),
           memcmp(one, dist, sizeof *one * cells) ? "differs" : "equal");
    /* one value of the last rank's grid other: every rank refuses (each holds the whole grid; the
     * ranks ran and wrote a mixed grid before its contents entered their agreement) */
    if (ranks > 1 && cell) {
        if (pw_comm_rank(c) == ranks - 1) dist[cells / 2] += 1;
        const pw_status s3 = pw_dist_cell_run(c, cell, &args, od, &res2);
        EXPECT(log, s3 == PW_ERR_INVALID_ARGUMENT, "a %s cell's grid other on one rank: %s (%s)", as_grid ? "grid" : "stencil",
               pw_status_str(s3), pw_error_detail());
    }
    free(one), free(dist), free(bias);
}

/* Grid and grid3 cells whose dependences reach further than a stencil's (a diagonal, wider
 * halos, a grid3 cell's j slabs and its k halo), in bands against pw_cell_run, bit for bit:
 * integers, so that any value read from a wrong sweep shows. */
typedef struct wide_cell {
    const char *name, *text;
    int reach, halo, three_d; /* reach: the largest dj (every band holds at least that many columns) */
    /* three_d: 1 a grid3 cell, 2 one the 3-D processor takes (GPU bands run only those) */
} wide_cell;

static const wide_cell wide_cells[] = {
    {"diagonal", "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_DEP(1, 1)\nPW_HALO(1)\n"
                 "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
                 "{ return (pw_at(c, i, j) * 3 + pw_at(c, i - 1, j - 1) * 5 + pw_at(c, i + 1, j + 1) * 7 + pw_at(c, i - 1, j)\n"
                 "          + pw_at(c, i + 1, j) * 11 + pw_at(c, i, j - 1) * 13 + pw_at(c, i, j + 1) * 2 + i * 31 + j * 17) % 1000003; }\n",
     1, 1, 0},
    {"reach 3", "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(2, 0)\nPW_DEP(0, 3)\nPW_DEP(1, 2)\nPW_HALO(3)\n"
                "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
                "{ return (pw_at(c, i, j) * 3 + pw_at(c, i - 2, j) * 5 + pw_at(c, i + 2, j) * 7 + pw_at(c, i, j - 3) * 11\n"
                "          + pw_at(c, i, j + 3) * 13 + pw_at(c, i - 1, j - 2) * 2 + pw_at(c, i + 1, j + 2) * 19 + j) % 999983; }\n",
     3, 3, 0},
    {"grid3 upwind", "PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 0, 0)\nPW_DEP3(0, 1, 0)\nPW_DEP3(0, 0, 1)\nPW_HALO(1)\n"
                     "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
                     "{ return (pw_at3(c, i, j, k) * 3 + pw_at3(c, i - 1, j, k) * 5 + pw_at3(c, i, j - 1, k) * 7\n"
                     "          + pw_at3(c, i, j, k - 1) * 11 + pw_at3(c, i, j + 1, k) + i + 2 * j + 3 * k) % 1000003; }\n",
     1, 1, 2},
    /* the same on a halo of 2: a GPU band's storage wider than its edges (side 2, width 1), columns
     * of planes + 4 values */
    {"grid3 upwind, halo 2", "PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 0, 0)\nPW_DEP3(0, 1, 0)\nPW_DEP3(0, 0, 1)\nPW_HALO(2)\n"
                             "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
                             "{ return (pw_at3(c, i, j, k) * 3 + pw_at3(c, i - 1, j, k) * 5 + pw_at3(c, i, j - 1, k) * 7\n"
                             "          + pw_at3(c, i, j, k - 1) * 11 + pw_at3(c, i, j + 1, k) + i + 2 * j + 3 * k) % 999983; }\n",
     1, 2, 2},
    {"grid3 slabs", "PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 1, -1)\nPW_DEP3(0, 2, 0)\nPW_DEP3(0, 0, 1)\nPW_HALO(2)\n"
                    "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
                    "{ return (pw_at3(c, i, j, k) * 3 + pw_at3(c, i - 1, j - 1, k + 1) * 5 + pw_at3(c, i + 1, j + 1, k - 1) * 7\n"
                    "          + pw_at3(c, i, j - 2, k) * 11 + pw_at3(c, i, j + 2, k) * 13 + pw_at3(c, i, j, k - 1) + k) % 999983; }\n",
     2, 2, 1},
    {"two rows below", "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(2, 1)\nPW_DEP(0, 1)\nPW_HALO(2)\n"
                       "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
                       "{ return (pw_at(c, i, j) * 3 + pw_at(c, i - 2, j - 1) * 5 + pw_at(c, i + 2, j + 1) * 7\n"
                       "          + pw_at(c, i, j - 1) * 11 + pw_at(c, i, j + 1) * 13 + i) % 1000003; }\n",
     1, 2, 0},
    /* no halo: the cell keeps to the grid itself (bands of it start at grid row 0) */
    {"no halo", "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_HALO(0)\n"
                "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
                "{ pw_value v = pw_at(c, i, j) * 3 + i * 7 + j;\n"
                "  if (i > 0) v += pw_at(c, i - 1, j) * 5;\n  if (i + 1 < c->rows) v += pw_at(c, i + 1, j) * 11;\n"
                "  if (j > 0) v += pw_at(c, i, j - 1) * 13;\n  if (j + 1 < c->cols) v += pw_at(c, i, j + 1) * 2;\n"
                "  return v % 999983; }\n",
     1, 0, 0},
};
#define WIDE_CELLS (int)(sizeof wide_cells / sizeof wide_cells[0])
/* grid3 cells that bands refuse, with their dependence named */
static const char *const refused_cells[][2] = {
    {"PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, -1, 0)\nPW_HALO(1)\n"
     "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k) { return pw_at3(c, i - 1, j + 1, k) + 1; }\n",
     "PW_DEP3(1, -1, 0)"},
    {"PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 0, -1)\nPW_HALO(1)\n"
     "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k) { return pw_at3(c, i - 1, j, k + 1) + 1; }\n",
     "PW_DEP3(1, 0, -1)"},
};
static pw_cell *wide_compiled[WIDE_CELLS], *refused_compiled[2];
static pthread_once_t wide_once = PTHREAD_ONCE_INIT;

static void make_wide_cells(void)
{
    for (int k = 0; k < WIDE_CELLS; k++)
        if (pw_cell_create(wide_cells[k].text, wide_cells[k].name, &wide_compiled[k]) != PW_OK) wide_compiled[k] = NULL;
    for (int k = 0; k < 2; k++)
        if (pw_cell_create(refused_cells[k][0], "refused", &refused_compiled[k]) != PW_OK) refused_compiled[k] = NULL;
}

/* dist_options: the bands' (NULL: the CPU's, as the reference's); GPU bands refuse grid3 cells
 * that the 3-D processor does not take. */
static void case_wide_cell(pw_comm *c, rng *r, const wide_cell *w, const pw_options *dist_options, rank_log *log)
{
    const int ranks = pw_comm_size(c);
    pw_cell *cell = wide_compiled[w - wide_cells];
    /* (GPU bands on the 3-D processor: half the time several of its 32 x 32 tiles a band in j and k) */
    const int big3 = dist_options && dist_options->backend == PW_BACKEND_CUDA && w->three_d == 2 && range(r, 0, 1);
    const int64_t rows = range(r, 1, dist_options ? 120 : 30), cols = range(r, (int64_t)ranks * w->reach, big3 ? 200 : 40);
    const int64_t sweeps = range(r, 1, 4), planes = w->three_d ? range(r, 1, big3 ? 70 : 7) : 1, h = w->halo;
    const size_t cells = (size_t)((rows + 2 * h) * (cols + 2 * h) * (w->three_d ? planes + 2 * h : 1));
    int64_t *one = malloc(sizeof *one * cells), *dist = malloc(sizeof *dist * cells);
    for (size_t k = 0; k < cells; k++) one[k] = dist[k] = range(r, 0, 1000000);
    pw_cell_args args = {.rows = rows, .cols = cols, .planes = planes, .grid = one, .sweeps = sweeps};
    pw_options o = case_options(r);
    pw_cell_result res1, res2;
    pw_status s1 = cell ? pw_cell_run(cell, &args, &o, &res1) : PW_ERR_COMPILE;
    args.grid = dist;
    /* chunks of a row or a few: a wait that stops short of the rows a cell reads then shows */
    pw_comm_set_chunk(c, range(r, 1, 3));
    pw_options band = dist_options ? *dist_options : o;
    const pw_options *od = &band;
    const int gpu = od->backend == PW_BACKEND_CUDA;
    if (gpu) {
        /* narrow tiles (an edge of several columns spans tiles: its report must wait for the last)
         * and every other rank on one block (its neighbours run ahead and wait on it at every
         * tile-row: a wait one row short then reads rows not yet sent) */
        band.tile_h = 8 << range(r, 0, 2);
        band.tile_w = range(r, 1, 4);
        if (pw_comm_rank(c) % 2) band.max_blocks = 1;
    }
    pw_status s2 = pw_dist_cell_run(c, cell, &args, od, &res2);
    pw_comm_set_chunk(c, 0);
    /* (weighted splits, some cases' own, may cut a band narrower than the reach: refused then) */
    int64_t narrowest = cols, first, count;
    for (int q = 0; q < ranks; q++)
        if (pw_dist_split(c, q, cols, &first, &count) == PW_OK && count < narrowest) narrowest = count;
    const int gpu_refuses = gpu && w->three_d == 1;
    if (gpu_refuses) {
        EXPECT(log, s2 == PW_ERR_UNSUPPORTED && strstr(pw_error_detail(), "grid3"), "GPU bands of (%s): %s (%s)", w->name,
               pw_status_str(s2), pw_error_detail());
    } else if (narrowest < w->reach) {
        EXPECT(log, s2 == PW_ERR_INVALID_SIZE && strstr(pw_error_detail(), "fewer than"),
               "a (%s) band of %lld columns, narrower than its reach: %s (%s)", w->name, (long long)narrowest,
               pw_status_str(s2), pw_error_detail());
    } else {
    EXPECT(log, s1 == PW_OK && s2 == PW_OK && !memcmp(one, dist, sizeof *one * cells) && res2.info.cells == rows * cols * planes * sweeps &&
                    res2.info.backend == od->backend,
           "pw_dist_cell_run (%s, %s) %lldx%lldx%lld x %lld sweeps on %d ranks: %s / %s (%s); grid %s, %lld cells", w->name,
           gpu ? "gpu" : "cpu",
           (long long)rows, (long long)cols, (long long)planes, (long long)sweeps, ranks, pw_status_str(s1), pw_status_str(s2),
           pw_error_detail(), memcmp(one, dist, sizeof *one * cells) ? "differs" : "equal", (long long)res2.info.cells);
    }
    /* bands narrower than the reach: refused alike on every rank */
    if (w->reach > 1 && ranks > 1 && !gpu_refuses) { /* (GPU bands refuse those grid3 cells first) */
        args.cols = (int64_t)ranks * w->reach - 1;
        const pw_status s3 = pw_dist_cell_run(c, cell, &args, od, &res2);
        EXPECT(log, s3 == PW_ERR_INVALID_SIZE && strstr(pw_error_detail(), "fewer than"),
               "a (%s) band narrower than its reach: %s (%s)", w->name, pw_status_str(s3), pw_error_detail());
    }
    /* grid3 dependences bands cannot take: refused on every rank, the dependence named */
    if (w->three_d && ranks > 1) {
        const int q = (int)range(r, 0, 1);
        int64_t *zero = calloc((size_t)((rows + 2) * (cols + 2) * 4), sizeof *zero); /* (halo 1, 2 planes) */
        pw_cell_args refused = {.rows = rows, .cols = cols, .planes = 2, .grid = zero, .sweeps = 1};
        const pw_status s4 = pw_dist_cell_run(c, refused_compiled[q], &refused, od, &res2);
        free(zero);
        EXPECT(log, s4 == PW_ERR_UNSUPPORTED && strstr(pw_error_detail(), refused_cells[q][1]), "bands of %s: %s (%s)",
               refused_cells[q][1], pw_status_str(s4), pw_error_detail());
    }
    free(one), free(dist);
}

/* Band widths of a case (>= 1 each) and this rank's first column. */
static int64_t band_widths(rng *r, int ranks, int rank, int64_t *cols, int64_t *col0)
{
    int64_t total = 0;
    for (int k = 0; k < ranks; k++) {
        const int64_t w = range(r, 1, 30);
        if (k == rank) *cols = w, *col0 = total;
        total += w;
    }
    return total;
}

static void case_sat(pw_comm *c, rng *r, rank_log *log)
{
    static const pw_dtype pairs[][2] = {{PW_U8, PW_I32}, {PW_U8, PW_I64}, {PW_U16, PW_I64}, {PW_I32, PW_I64},
                                        {PW_F32, PW_F32}, {PW_F64, PW_F64}, {PW_U8, PW_F32}, {PW_I32, PW_F64}};
    const int pick = (int)range(r, 0, 7);
    const pw_dtype tin = pairs[pick][0], tout = pairs[pick][1];
    const int64_t rows = range(r, 1, 60);
    int64_t cols = 0, col0 = 0;
    const int64_t total = band_widths(r, pw_comm_size(c), pw_comm_rank(c), &cols, &col0);
    const size_t si = pw_dtype_size(tin), so = pw_dtype_size(tout);
    unsigned char *in = malloc((size_t)(rows * total) * si), *out = malloc((size_t)(rows * total) * so);
    unsigned char *band = malloc((size_t)(rows * cols) * so);
    for (int64_t k = 0; k < rows * total; k++) {
        const int64_t v = range(r, -200, 200);
        switch (tin) {
        case PW_U8: in[k] = (uint8_t)(v & 255); break;
        case PW_U16: ((uint16_t *)in)[k] = (uint16_t)(v * 100 & 0xffff); break;
        case PW_I32: ((int32_t *)in)[k] = (int32_t)(v * 1000); break;
        case PW_F32: ((float *)in)[k] = (float)v / 7.0f; break;
        default: ((double *)in)[k] = (double)v / 7.0; break;
        }
    }
    pw_options o = case_options(r);
    pw_image whole_in = {tin, rows, total, 0, in}, whole_out = {tout, rows, total, 0, out};
    pw_image band_in = {tin, rows, cols, total, in + (size_t)col0 * si}, band_out = {tout, rows, cols, 0, band};
    pw_run_info i1, i2;
    pw_status s1 = pw_sat(&whole_in, &whole_out, &o, &i1);
    pw_status s2 = pw_dist_sat(c, &band_in, &band_out, &o, &i2);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "sat %lldx%lld: %s / %s (%s)", (long long)rows, (long long)total,
           pw_status_str(s1), pw_status_str(s2), pw_error_detail());
    EXPECT(log, s2 != PW_OK || i2.cells == i1.cells, "sat %lldx%lld: the bands report %lld cells, one process %lld",
           (long long)rows, (long long)total, (long long)i2.cells, (long long)i1.cells);
    int same = 1;
    for (int64_t i = 0; s2 == PW_OK && i < rows; i++)
        same &= memcmp(band + (size_t)(i * cols) * so, out + (size_t)(i * total + col0) * so, (size_t)cols * so) == 0;
    EXPECT(log, same, "sat %s->%s %lldx%lld: rank %d's band (columns %lld..) differs from one process",
           pw_dtype_name(tin), pw_dtype_name(tout), (long long)rows, (long long)total, pw_comm_rank(c), (long long)col0);
    free(in);
    free(out);
    free(band);
}

static void case_inthist(pw_comm *c, rng *r, rank_log *log)
{
    const int64_t rows = range(r, 1, 40);
    int64_t cols = 0, col0 = 0;
    const int64_t total = band_widths(r, pw_comm_size(c), pw_comm_rank(c), &cols, &col0);
    const int bins = (int)range(r, 1, 6);
    uint8_t *in = malloc((size_t)(rows * total));
    for (int64_t k = 0; k < rows * total; k++) in[k] = (uint8_t)range(r, 0, 255);
    int32_t *out = malloc(sizeof *out * (size_t)(rows * total * bins)), *band = malloc(sizeof *band * (size_t)(rows * cols * bins));
    pw_options o = case_options(r);
    pw_image whole_in = {PW_U8, rows, total, 0, in}, band_in = {PW_U8, rows, cols, total, in + col0};
    pw_run_info i1, i2;
    pw_status s1 = pw_inthist(&whole_in, bins, 0, 256, out, &o, &i1);
    pw_status s2 = pw_dist_inthist(c, &band_in, bins, 0, 256, band, &o, &i2);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "inthist: %s / %s (%s)", pw_status_str(s1), pw_status_str(s2), pw_error_detail());
    EXPECT(log, s2 != PW_OK || i2.cells == i1.cells, "inthist %lldx%lld: the bands report %lld cells, one process %lld",
           (long long)rows, (long long)total, (long long)i2.cells, (long long)i1.cells);
    int same = 1;
    for (int b = 0; s2 == PW_OK && b < bins; b++)
        for (int64_t i = 0; i < rows; i++)
            same &= memcmp(band + (b * rows + i) * cols, out + (b * rows + i) * total + col0, sizeof *out * (size_t)cols) == 0;
    EXPECT(log, same, "inthist %d bins %lldx%lld: rank %d's band differs", bins, (long long)rows, (long long)total,
           pw_comm_rank(c));
    free(in);
    free(out);
    free(band);
}

/* n random values of a HEAT/SOR grid, f64 or f32 */
static void random_grid(rng *r, int f64, void *grid, int64_t n)
{
    for (int64_t k = 0; k < n; k++) {
        const double v = (double)range(r, -1000, 1000) / 13.0;
        if (f64) ((double *)grid)[k] = v;
        else ((float *)grid)[k] = (float)v;
    }
}

static void case_stencil(pw_comm *c, rng *r, rank_log *log)
{
    const int64_t rows = range(r, 3, 50);
    int64_t cols = 0, col0 = 0;
    const int64_t total = band_widths(r, pw_comm_size(c), pw_comm_rank(c), &cols, &col0) + 2;
    const int f64 = (int)range(r, 0, 1), sor = (int)range(r, 0, 1);
    const int64_t sweeps = range(r, 0, 6);
    const double omega = 0.5 + (double)range(r, 0, 100) / 80.0;
    const size_t size = f64 ? sizeof(double) : sizeof(float), bytes = size * (size_t)(rows * total);
    unsigned char *whole = malloc(bytes), *mine = malloc(bytes);
    random_grid(r, f64, whole, rows * total);
    memcpy(mine, whole, bytes); /* (each rank its own copy: the link writes its halo columns) */
    pw_options o = case_options(r);
    pw_image g = {f64 ? PW_F64 : PW_F32, rows, total, 0, whole};
    pw_image band = {g.type, rows, cols + 2, total, mine + (size_t)col0 * size};
    double r1 = -1, r2 = -2;
    pw_run_info i1, i2;
    pw_status s1 = sor ? pw_sor(&g, sweeps, omega, &o, &r1, &i1) : pw_heat(&g, sweeps, &o, &r1, &i1);
    pw_status s2 = sor ? pw_dist_sor(c, &band, sweeps, omega, &o, &r2, &i2) : pw_dist_heat(c, &band, sweeps, &o, &r2, &i2);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "%s %lldx%lld: %s / %s (%s)", sor ? "sor" : "heat", (long long)rows,
           (long long)total, pw_status_str(s1), pw_status_str(s2), pw_error_detail());
    EXPECT(log, s2 != PW_OK || i2.cells == i1.cells, "%s %lldx%lld x %lld: the bands report %lld cells, one process %lld",
           sor ? "sor" : "heat", (long long)rows, (long long)total, (long long)sweeps, (long long)i2.cells,
           (long long)i1.cells);
    int same = 1;
    for (int64_t i = 0; s2 == PW_OK && i < rows; i++) /* the band's own columns */
        same &= memcmp(mine + (size_t)(i * total + col0 + 1) * size, whole + (size_t)(i * total + col0 + 1) * size,
                       (size_t)cols * size) == 0;
    EXPECT(log, same && (s2 != PW_OK || memcmp(&r1, &r2, sizeof r1) == 0),
           "%s f%d %lldx%lld x %lld sweeps on %d ranks: rank %d's band %s, residual %.17g, one process %.17g",
           sor ? "sor" : "heat", f64 ? 64 : 32, (long long)rows, (long long)total, (long long)sweeps, pw_comm_size(c),
           pw_comm_rank(c), same ? "equal" : "differs", r2, r1);
    free(whole);
    free(mine);
}

/* Every rank must return `want` (with the reason in pw_error_detail), none may hang. */
static void case_failures(pw_comm *c, rank_log *log)
{
    const int rank = pw_comm_rank(c), ranks = pw_comm_size(c);
    const char *a = "ACGTACGTAC", *b = "ACGGTACGTTACAG";
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.watchdog_ms = 20000;
    pw_sw_result res;
    pw_status st;
    if (ranks > 1) { /* the last rank with a shorter a */
        st = pw_dist_sw(c, a, rank == ranks - 1 ? 9 : 10, b, 14, &p, &o, &res);
        EXPECT(log, st == PW_ERR_INVALID_ARGUMENT, "other arguments on a rank: %s", pw_status_str(st));
        st = pw_dist_sw(c, rank == ranks - 1 ? "ACGTAC!TAC" : a, 10, b, 14, &p, &o, &res);
        EXPECT(log, st == PW_ERR_INVALID_ARGUMENT, "other input on one rank: %s (%s)", pw_status_str(st), pw_error_detail());
        /* a rank cancelled before its first tile: the others' waits end (the link's ABORT) */
        volatile int stop = 1;
        pw_options cancelled = o;
        if (rank == ranks / 2) cancelled.cancel = &stop;
        char *long_a = malloc(4000), *long_b = malloc(400);
        memset(long_a, 'A', 4000);
        memset(long_b, 'C', 400);
        st = pw_dist_sw(c, long_a, 4000, long_b, 400, &p, &cancelled, &res);
        EXPECT(log, st == PW_ERR_CANCELLED, "a cancelled rank: %s on rank %d (%s)", pw_status_str(st), rank, pw_error_detail());
        free(long_a);
        free(long_b);
        /* rank 1 never sends the last sweep's leftward chunks (debug_mute), which no engine
         * reads: every engine ends well, and only the links' trailing watchdog can end the run
         * -- a clear timeout on every rank, not a wait without end */
        enum { ROWS = 40, TOTAL = 64 };
        int64_t col0 = 0, cols = 0;
        pw_dist_split(c, rank, TOTAL - 2, &col0, &cols);
        float *grid = calloc(ROWS * TOTAL, sizeof *grid);
        for (int k = 0; k < ROWS * TOTAL; k++) grid[k] = (float)(k % 17);
        pw_image band = {PW_F32, ROWS, cols + 2, TOTAL, grid + col0};
        pw_options quick = o;
        quick.watchdog_ms = 1000;
        pw_comm_debug_mute(c, rank == 1);
        const int64_t began = pw_now_ns();
        st = pw_dist_heat(c, &band, 3, &quick, NULL, NULL);
        const double waited = (double)(pw_now_ns() - began) * 1e-9;
        pw_comm_debug_mute(c, 0);
        EXPECT(log, st == PW_ERR_TIMEOUT && waited < 30, "a rank that stops sending after the engines: %s after %.1f s on rank %d (%s)",
               pw_status_str(st), waited, rank, pw_error_detail());
        free(grid);
        /* a user cell with another parameter on one rank: refused by every rank (the signature) */
        pthread_once(&shared_once, make_shared_cell);
        const unsigned char sa[5] = "ACGTA", sb[7] = "CGTACGA";
        const void *inputs[2] = {sa, sb};
        const double gap = rank == ranks - 1 ? 2 : 1;
        pw_cell_args args = {.rows = 5, .cols = 7, .inputs = inputs, .params = &gap};
        pw_cell_result res_cell;
        st = pw_dist_cell_run(c, shared_cell, &args, &o, &res_cell);
        EXPECT(log, st == PW_ERR_INVALID_ARGUMENT, "a cell with another parameter on one rank: %s (%s)", pw_status_str(st),
               pw_error_detail());
    }
    st = pw_dist_sw(c, "ACGTAC!TAC", 10, b, 14, &p, &o, &res); /* (found inside every rank's band run) */
    EXPECT(log, st == PW_ERR_BAD_INPUT, "bad input: %s (%s)", pw_status_str(st), pw_error_detail());
    st = pw_dist_sw(c, a, 10, b, ranks - 1 > 0 ? ranks - 1 : 0, &p, &o, &res);
    EXPECT(log, st == PW_ERR_INVALID_SIZE, "fewer columns than ranks: %s", pw_status_str(st));
    if (ranks > 1) { /* one rank on the GPU, the others on the CPU: their edges differ, every rank refuses */
        pw_options mixed = o;
        mixed.backend = rank == 0 ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        float cells[5 * 8] = {0};
        pw_image grid = {PW_F32, 5, 3, 8, cells + rank % 6};
        st = pw_dist_heat(c, &grid, 2, &mixed, NULL, NULL);
        /* (with a GPU: the backends differ; without one, or without CUDA: rank 0 cannot run) */
        EXPECT(log, st == PW_ERR_INVALID_ARGUMENT || st == PW_ERR_NO_DEVICE || st == PW_ERR_UNSUPPORTED,
               "rank 0 on the CUDA backend, the others on the CPU: %s", pw_status_str(st));
    }
    /* a measured weight: every rank gets a positive one, and a bad one fails every rank */
    double measured = 0;
    st = pw_comm_measure_weight(c, &o, &measured);
    EXPECT(log, st == PW_OK && measured > 0, "pw_comm_measure_weight: %s, %g", pw_status_str(st), measured);
    if (strncmp(pw_build_info(), "no CUDA", 7) == 0) { /* every rank says why (not the sharing's "weight is not a positive number") */
        pw_options cuda = o;
        cuda.backend = PW_BACKEND_CUDA;
        st = pw_comm_measure_weight(c, &cuda, &measured);
        EXPECT(log, st == PW_ERR_UNSUPPORTED && strstr(pw_error_detail(), "needs a build with CUDA (no CUDA"),
               "pw_comm_measure_weight on CUDA without CUDA: %s (%s)", pw_status_str(st), pw_error_detail());
    }
    st = pw_comm_share_weight(c, rank == ranks - 1 ? -1.0 : 1.0);
    EXPECT(log, st == PW_ERR_INVALID_ARGUMENT, "a negative weight on one rank: %s", pw_status_str(st));
    /* and the comm still works after all that */
    pw_sw_result whole;
    st = pw_dist_sw(c, a, 10, b, 14, &p, &o, &res);
    pw_status s1 = pw_sw(a, 10, b, 14, &p, &o, &whole);
    EXPECT(log, st == PW_OK && s1 == PW_OK && res.score == whole.score, "a run after the failures: %s", pw_status_str(st));
}

/* pw_dist_job_run's SAT and INTHIST jobs: each rank with its own output (the others' columns
 * gathered into it) and, ranks that are threads of one process, all with one output (each band
 * writes its own columns: nothing to gather) -- both equal to one process's run. */
enum { ONE_ROWS = 23, ONE_COLS = 41, ONE_BINS = 3 };
static int mpi_processes; /* (defined below: --mpi, the ranks are processes) */
static int64_t one_sat[ONE_ROWS * ONE_COLS];
static int32_t one_hist[ONE_BINS * ONE_ROWS * ONE_COLS];

static void case_job_outputs(pw_comm *c, rng *r, rank_log *log)
{
    unsigned char mine[ONE_ROWS * ONE_COLS]; /* (alike on every rank: the shared draw) */
    for (int k = 0; k < ONE_ROWS * ONE_COLS; k++) mine[k] = (unsigned char)range(r, 0, 255);
    pw_image in = {PW_U8, ONE_ROWS, ONE_COLS, 0, mine};
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.watchdog_ms = 20000;
    int64_t *ref = malloc(sizeof *ref * ONE_ROWS * ONE_COLS), *own = malloc(sizeof *own * ONE_ROWS * ONE_COLS);
    int32_t *href = malloc(sizeof *href * ONE_BINS * ONE_ROWS * ONE_COLS), *hown = malloc(sizeof *hown * ONE_BINS * ONE_ROWS * ONE_COLS);
    pw_image out_ref = {PW_I64, ONE_ROWS, ONE_COLS, 0, ref};
    pw_status s1 = pw_sat(&in, &out_ref, &o, NULL), s3 = pw_inthist(&in, ONE_BINS, 0, 256, href, &o, NULL);
    for (int shared = 0; shared <= !mpi_processes; shared++) {
        pw_image out = {PW_I64, ONE_ROWS, ONE_COLS, 0, shared ? one_sat : own};
        pw_job job;
        pw_job_init(&job, PW_JOB_SAT);
        job.u.sat.in = &in, job.u.sat.out = &out, job.options = o;
        pw_status s2 = pw_dist_job_run(c, &job);
        EXPECT(log, s1 == PW_OK && s2 == PW_OK && !memcmp(out.data, ref, sizeof *ref * ONE_ROWS * ONE_COLS),
               "sat job, %s output: %s (%s)", shared ? "one" : "its own", pw_status_str(s2), pw_error_detail());
        pw_job_init(&job, PW_JOB_INTHIST);
        job.u.inthist.in = &in, job.u.inthist.bins = ONE_BINS, job.u.inthist.lo = 0, job.u.inthist.hi = 256;
        job.u.inthist.out = shared ? one_hist : hown, job.options = o;
        s2 = pw_dist_job_run(c, &job);
        EXPECT(log, s3 == PW_OK && s2 == PW_OK && !memcmp(job.u.inthist.out, href, sizeof *href * ONE_BINS * ONE_ROWS * ONE_COLS),
               "inthist job, %s output: %s (%s)", shared ? "one" : "its own", pw_status_str(s2), pw_error_detail());
        int dummy = 0, all[64];
        if (pw_comm_size(c) <= 64) (void)pw_comm_allgather(c, &dummy, all, sizeof dummy); /* (all compared: the
                                                                                             buffers may be reused) */
    }
    free(ref), free(own), free(href), free(hown);
}

/* Turns on devices laid out in other ways (pw_comm_debug_device_key stands in for the GPUs): two
 * devices interleaved (A B A B ..) run and give one process's answer; ranks of a device in a block
 * (A A .. B) are refused on every rank, as are ranks that disagree on turns. */
static void case_turn_layouts(pw_comm *c, rank_log *log)
{
    const int rank = pw_comm_rank(c), ranks = pw_comm_size(c);
    if (ranks < 2) return;
    const char *a = "ACGTTGCAACGTAGGCTAGCTAGGATCCAT", *b = "GATTACAGATTACAACGTAGCTAGCATGCATCGAT";
    const int64_t n = (int64_t)strlen(a), m = (int64_t)strlen(b);
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o = {0};
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.watchdog_ms = 20000;
    pw_sw_result whole, dist;
    pw_status s1 = pw_sw(a, n, b, m, &p, &o, &whole);
    pw_comm_set_turns(c, 1);
    pw_comm_debug_device_key(c, rank % 2 ? "B" : "A");
    pw_status s2 = pw_dist_sw(c, a, n, b, m, &p, &o, &dist);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK && dist.score == whole.score && dist.end_a == whole.end_a &&
                    dist.end_b == whole.end_b && dist.info.seconds > 0,
           "turns on two interleaved devices: %s (%s): %d, one process %d, %g s", pw_status_str(s2), pw_error_detail(),
           dist.score, whole.score, dist.info.seconds);
    if (ranks >= 3) { /* the last rank alone on B, in round 0 after rank ranks - 2 in a later round on A */
        pw_comm_debug_device_key(c, rank == ranks - 1 ? "B" : "A");
        s2 = pw_dist_sw(c, a, n, b, m, &p, &o, &dist);
        EXPECT(log, s2 == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "interleave"),
               "turns with a device's ranks in a block: %s (%s)", pw_status_str(s2), pw_error_detail());
    }
    pw_comm_debug_device_key(c, NULL);
    pw_comm_set_turns(c, rank != 0); /* rank 0 alone without */
    s2 = pw_dist_sw(c, a, n, b, m, &p, &o, &dist);
    EXPECT(log, s2 == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "alike"), "turns on some ranks only: %s (%s)",
           pw_status_str(s2), pw_error_detail());
    pw_comm_set_turns(c, 0);
    s2 = pw_dist_sw(c, a, n, b, m, &p, &o, &dist); /* and the comm still works */
    EXPECT(log, s2 == PW_OK && dist.score == whole.score, "a run after the turns' layouts: %s", pw_status_str(s2));
}

static void rank_main(pw_comm *c, uint64_t seed, int cases, rank_log *log)
{
    rng r = {seed};
    for (int k = 0; k < cases; k++) {
        pw_comm_set_chunk(c, range(&r, 0, 3) ? range(&r, 1, 40) : 0);
        /* ranks of one host taking turns (one after another: the CPU's bands share its cores) or
         * running at once; in-place sweeps ignore turns */
        pw_comm_set_turns(c, range(&r, 0, 3) == 0);
        if (k % 10 == 5) { /* band widths by weight (a rank's own, from the shared draw): results stay the same */
            double w = 1;
            for (int q = 0; q <= pw_comm_rank(c); q++) w = (double)range(&r, 1, 8);
            for (int q = pw_comm_rank(c) + 1; q < pw_comm_size(c); q++) (void)range(&r, 1, 8);
            pw_status st = pw_comm_share_weight(c, w);
            EXPECT(log, st == PW_OK, "pw_comm_share_weight: %s", pw_status_str(st));
            int64_t total = 0, first, count, expect_first = 0;
            for (int q = 0; q < pw_comm_size(c); q++) { /* the split covers every column once, none empty */
                st = pw_dist_split(c, q, 97, &first, &count);
                EXPECT(log, st == PW_OK && first == expect_first && count >= 1, "weighted split of 97: rank %d [%lld, +%lld)",
                       q, (long long)first, (long long)count);
                expect_first = first + count;
                total += count;
            }
            EXPECT(log, total == 97, "weighted split covers %lld of 97 columns", (long long)total);
            /* wide bands: every cut on a multiple of 128 columns, the split still whole */
            const int64_t wide = 128 * 4 * (int64_t)pw_comm_size(c) * 7 + 13;
            expect_first = 0;
            for (int q = 0; q < pw_comm_size(c); q++) {
                st = pw_dist_split(c, q, wide, &first, &count);
                EXPECT(log, st == PW_OK && first == expect_first && count >= 1 && first % 128 == 0,
                       "weighted split of %lld: rank %d [%lld, +%lld)", (long long)wide, q, (long long)first, (long long)count);
                expect_first = first + count;
            }
            EXPECT(log, expect_first == wide, "weighted split covers %lld of %lld columns", (long long)expect_first, (long long)wide);
        }
        switch (range(&r, 0, 8)) {
        case 8: /* every one of them (small: they cost little) */
            pthread_once(&wide_once, make_wide_cells);
            for (int k = 0; k < WIDE_CELLS; k++) case_wide_cell(c, &r, &wide_cells[k], NULL, log);
            break;
        case 7: case_stencil_cell(c, &r, NULL, 40, 60, log); break;
        case 6: case_cell(c, &r, NULL, 80, 140, log); break;
        case 5: case_generic(c, &r, log); break;
        case 0: case_sw(c, &r, log); break;
        case 1: case_dtw(c, &r, log); break;
        case 2: case_sat(c, &r, log); break;
        case 3: case_inthist(c, &r, log); break;
        default: case_stencil(c, &r, log); break;
        }
    }
    pw_comm_set_turns(c, 0);
    case_job_outputs(c, &r, log);
    case_turn_layouts(c, log);
    case_failures(c, log);
    /* and again with turns: a rank that fails (or waits for its turn) ends every rank alike */
    pw_comm_set_turns(c, 1);
    set_context(log, "turns");
    case_failures(c, log);
    set_context(log, NULL);
    pw_comm_set_turns(c, 0);
}

/* PW_TEST_GPUS=G: rank k on device k mod G (the hand-over between GPUs: peer memory or the host);
 * unset, every rank on device 0 */
static int test_gpus(void)
{
    const char *v = getenv("PW_TEST_GPUS");
    const int g = v ? atoi(v) : 1;
    return g >= 1 ? g : 1;
}

static int mpi_processes; /* --mpi: the ranks are processes (GPUs they share are time-sliced) */

#ifdef PW_HAVE_CUDA
/* --gpu: the GPU bands of every app with ranks as threads sharing this machine's GPU, each on its
 * own stream and a share of the SMs (two persistent kernels must not starve each other), against
 * the CPU engines in one process, bit for bit. */
pw_status pw_cuda_stream_create(int device, void **stream); /* (src/cuda/pw_cuda.h) */
void pw_cuda_stream_destroy(void *stream);

/* SAT and INTHIST bands on the GPU (the prefix-sum processor, row carries across the edges)
 * against pw_sat / pw_inthist on the CPU: integer tables bit for bit, float ones within
 * sat_accuracy.h's bound (the scans add in another order than the recurrence). */
static void gpu_table_cases(pw_comm *c, rng *r, const pw_options *gpu, rank_log *log)
{
    const int ranks = pw_comm_size(c), rank = pw_comm_rank(c), f32 = (int)range(r, 0, 2) == 0;
    const int64_t rows = range(r, 1, range(r, 0, 1) ? 300 : 3000);
    const int64_t total = range(r, ranks, range(r, 0, 1) ? 700 : 5000);
    int64_t col0 = 0, cols = 0;
    pw_comm_set_chunk(c, range(r, 0, 1) ? range(r, 1, 300) : 0);
    EXPECT(log, pw_dist_split(c, rank, total, &col0, &cols) == PW_OK, "split %lld columns", (long long)total);
    const int bins = (int)range(r, 1, 9);
    uint8_t *px = malloc((size_t)(rows * total));
    float *fx = malloc(sizeof *fx * (size_t)(rows * total));
    for (int64_t k = 0; k < rows * total; k++) px[k] = (uint8_t)range(r, 0, 255), fx[k] = (float)range(r, -500, 500) / 7.0f;
    pw_options cpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    /* SAT: u8 -> i32 exact, or f32 -> f32 within the bound */
    const pw_dtype tin = f32 ? PW_F32 : PW_U8, tout = f32 ? PW_F32 : PW_I32;
    void *in = f32 ? (void *)fx : (void *)px;
    const size_t si = pw_dtype_size(tin);
    unsigned char *whole = malloc(4 * (size_t)(rows * total)), *band = malloc(4 * (size_t)(rows * cols) + 1);
    pw_image whole_in = {tin, rows, total, 0, in}, whole_out = {tout, rows, total, 0, whole};
    pw_image band_in = {tin, rows, cols, total, (unsigned char *)in + (size_t)col0 * si}, band_out = {tout, rows, cols, 0, band};
    pw_status s1 = pw_sat(&whole_in, &whole_out, &cpu, NULL), s2 = pw_dist_sat(c, &band_in, &band_out, gpu, NULL);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "gpu sat %s %lldx%lld on %d ranks: %s (%s)", pw_dtype_name(tin), (long long)rows,
           (long long)total, ranks, pw_status_str(s2), pw_error_detail());
    if (s2 == PW_OK && !f32) {
        int same = 1;
        for (int64_t i = 0; i < rows; i++) same &= memcmp(band + (size_t)(i * cols) * 4, whole + (size_t)(i * total + col0) * 4, (size_t)cols * 4) == 0;
        EXPECT(log, same, "gpu sat u8 %lldx%lld: rank %d's band differs from the CPU", (long long)rows, (long long)total, rank);
    } else if (s2 == PW_OK) { /* the band's columns into the whole table, then the bound over it */
        for (int64_t i = 0; i < rows; i++) memcpy(whole + (size_t)(i * total + col0) * 4, band + (size_t)(i * cols) * 4, (size_t)cols * 4);
        const double ratio = pw_sat_error_ratio(&whole_in, &whole_out);
        EXPECT(log, ratio >= 0 && ratio <= 1, "gpu sat f32 %lldx%lld: error %.3g of the bound (rank %d)", (long long)rows,
               (long long)total, ratio, rank);
    }
    free(whole);
    free(band);
    /* INTHIST: exact */
    int32_t *hist = malloc(sizeof *hist * (size_t)(rows * total * bins)), *mine = malloc(sizeof *mine * (size_t)(rows * cols * bins));
    pw_image pin = {PW_U8, rows, total, 0, px}, pband = {PW_U8, rows, cols, total, px + col0};
    s1 = pw_inthist(&pin, bins, 0, 256, hist, &cpu, NULL);
    s2 = pw_dist_inthist(c, &pband, bins, 0, 256, mine, gpu, NULL);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "gpu inthist %d bins %lldx%lld on %d ranks: %s (%s)", bins, (long long)rows,
           (long long)total, ranks, pw_status_str(s2), pw_error_detail());
    int same = 1;
    for (int b = 0; s2 == PW_OK && b < bins; b++)
        for (int64_t i = 0; i < rows; i++)
            same &= memcmp(mine + (b * rows + i) * cols, hist + (b * rows + i) * total + col0, sizeof *hist * (size_t)cols) == 0;
    EXPECT(log, same, "gpu inthist %d bins %lldx%lld: rank %d's band differs from the CPU", bins, (long long)rows,
           (long long)total, rank);
    free(hist);
    free(mine);
    free(px);
    free(fx);
}

/* HEAT and SOR bands on the GPU (halo columns both ways, pipelined sweeps) against pw_heat /
 * pw_sor on the CPU: the band's columns and the residual bit for bit.  serial: a tool runs the
 * kernels one at a time (compute-sanitizer), so at most one sweep -- with two, each band waits for
 * the other's previous sweep and neither could finish while the other waits to start. */
static void gpu_stencil_case(pw_comm *c, rng *r, const pw_options *gpu, int serial, rank_log *log)
{
    const int ranks = pw_comm_size(c), rank = pw_comm_rank(c), f64 = (int)range(r, 0, 1), sor = (int)range(r, 0, 1);
    const int64_t rows = range(r, 3, range(r, 0, 1) ? 300 : 3000), interior = range(r, ranks, range(r, 0, 1) ? 500 : 4000);
    const int64_t total = interior + 2, sweeps = serial ? range(r, 0, 1) : range(r, 0, 10);
    const double omega = 0.5 + (double)range(r, 0, 100) / 80.0;
    int64_t col0 = 0, cols = 0;
    EXPECT(log, pw_dist_split(c, rank, interior, &col0, &cols) == PW_OK, "split %lld columns", (long long)interior);
    const size_t size = f64 ? sizeof(double) : sizeof(float), bytes = size * (size_t)(rows * total);
    unsigned char *whole = malloc(bytes), *mine = malloc(bytes);
    random_grid(r, f64, whole, rows * total);
    memcpy(mine, whole, bytes);
    pw_options cpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    pw_image g = {f64 ? PW_F64 : PW_F32, rows, total, 0, whole};
    pw_image band = {g.type, rows, cols + 2, total, mine + (size_t)col0 * size};
    double r1 = -1, r2 = -2;
    pw_status s1 = sor ? pw_sor(&g, sweeps, omega, &cpu, &r1, NULL) : pw_heat(&g, sweeps, &cpu, &r1, NULL);
    pw_status s2 = sor ? pw_dist_sor(c, &band, sweeps, omega, gpu, &r2, NULL) : pw_dist_heat(c, &band, sweeps, gpu, &r2, NULL);
    EXPECT(log, s1 == PW_OK && s2 == PW_OK, "gpu %s %lldx%lld, %lld sweeps on %d ranks: %s (%s)", sor ? "sor" : "heat",
           (long long)rows, (long long)total, (long long)sweeps, ranks, pw_status_str(s2), pw_error_detail());
    int same = 1;
    for (int64_t i = 0; s2 == PW_OK && i < rows; i++) /* the band's own columns */
        same &= memcmp(mine + (size_t)(i * total + col0 + 1) * size, whole + (size_t)(i * total + col0 + 1) * size, (size_t)cols * size) == 0;
    EXPECT(log, same && (s2 != PW_OK || memcmp(&r1, &r2, sizeof r1) == 0),
           "gpu %s %s %lldx%lld, %lld sweeps: rank %d's band %s, residual %.17g against the CPU's %.17g", sor ? "sor" : "heat",
           f64 ? "f64" : "f32", (long long)rows, (long long)total, (long long)sweeps, rank, same ? "equal" : "differs", r2, r1);
    free(whole);
    free(mine);
}

/* b (m letters) made of a's letters with a run of other letters inserted across rank 0's band
 * edge: the best alignment then carries a long gap (E, the horizontal one) from one band into the
 * next, so a hand-over that loses E makes it cost a second gap opening. */
static void b_with_gap_at_edge(pw_comm *c, rng *r, const char *a, int64_t n, char *b, int64_t m)
{
    int64_t first, edge;
    if (pw_dist_split(c, 0, m, &first, &edge) != PW_OK) return;
    const int64_t gap = range(r, 4, m / 2 < 40 ? m / 2 : 40), at = edge - gap / 2 > 0 ? edge - gap / 2 : 0;
    for (int64_t j = 0, from = 0; j < m; j++) {
        if (j >= at && j < at + gap) continue; /* (the inserted run keeps its random letters) */
        b[j] = from < n ? a[from++] : b[j];
    }
}

static void gpu_cases(pw_comm *c, uint64_t seed, int cases, rank_log *log)
{
    rng r = {seed};
    void *stream = NULL;
    const int gpus = test_gpus(), device = pw_comm_rank(c) % gpus, sharing = (pw_comm_size(c) + gpus - 1) / gpus;
    pw_status st = pw_cuda_stream_create(device, &stream);
    EXPECT(log, st == PW_OK, "stream: %s", pw_status_str(st));
    for (int k = 0; st == PW_OK && k < cases; k++) {
        const int ranks = pw_comm_size(c), dtw = (int)range(&r, 0, 1);
        const int64_t n = range(&r, 1, k < cases / 2 ? 400 : 20000), m = range(&r, ranks, k < cases / 2 ? 500 : 20000);
        pw_comm_set_chunk(c, range(&r, 0, 2) ? range(&r, 1, 300) : 0);
        /* the hand-over: direct (the kernels write into each other's memory) or through the
         * link and the host */
        /* (compute-sanitizer runs copies behind kernels too: a band through the host could wait
         * for a chunk queued behind its own kernel, so only direct hand-overs there) */
        const int direct = range(&r, 0, 2) != 0 || getenv("PW_TEST_SERIAL_KERNELS");
        pw_comm_set_direct(c, direct);
        /* ranks sharing a GPU in turns (cyclic bands) or at once */
        pw_comm_set_turns(c, range(&r, 0, 2) == 0);
        set_context(log, direct ? "direct hand-over" : "hand-over through the host");
        pw_options cpu, gpu;
        pw_options_init(&cpu);
        cpu.backend = PW_BACKEND_CPU;
        gpu = cpu;
        gpu.backend = PW_BACKEND_CUDA;
        gpu.cuda_stream = stream;
        gpu.device = device;
        /* (ranks sharing a GPU: each kernel a share of its SMs; a GPU to itself: all of them) */
        gpu.max_blocks = sharing > 1 ? 132 / sharing / 2 : 0;
        /* (a hand-over that never comes fails in seconds, not minutes; under compute-sanitizer a
         * neighbour's kernel may take that long) */
        /* (ranks that are processes sharing a GPU time-slice it, kernel against kernel: a band may
         * wait out its neighbour's slices) */
        gpu.watchdog_ms = getenv("PW_TEST_SERIAL_KERNELS") || (mpi_processes && sharing > 1) ? 60000 : 5000;
        if (!dtw) {
            char *a = malloc((size_t)n), *b = malloc((size_t)m);
            random_dna(&r, a, n);
            random_dna(&r, b, m);
            if (range(&r, 0, 1) && m > 8) b_with_gap_at_edge(c, &r, a, n, b, m);
            pw_sw_params p;
            pw_sw_params_init(&p);
            p.gap_extend = (int)range(&r, 1, 2);
            p.gap_open = p.gap_extend + (int)range(&r, 0, 3);
            pw_sw_result whole, dist;
            pw_status s1 = pw_sw(a, n, b, m, &p, &cpu, &whole), s2 = pw_dist_sw(c, a, n, b, m, &p, &gpu, &dist);
            EXPECT(log, s1 == PW_OK && s2 == PW_OK && dist.score == whole.score && dist.end_a == whole.end_a &&
                            dist.end_b == whole.end_b && dist.info.backend == PW_BACKEND_CUDA,
                   "gpu sw %lldx%lld on %d ranks: %s (%s): %d (%lld, %lld), CPU %d (%lld, %lld)", (long long)n, (long long)m,
                   ranks, pw_status_str(s2), pw_error_detail(), dist.score, (long long)dist.end_a, (long long)dist.end_b,
                   whole.score, (long long)whole.end_a, (long long)whole.end_b);
            /* a band of many cells takes the width model's width for its own share (trained on
             * its corners before the ranks start: dist_apps.c) */
            int64_t col0 = 0, cols = 0;
            pw_dist_split(c, pw_comm_rank(c), m, &col0, &cols);
            const int model = pw_width_from_model(&gpu, n, cols);
            EXPECT(log, s2 != PW_OK || dist.info.width_source == (model ? PW_WIDTH_MODEL : PW_WIDTH_DEFAULT),
                   "gpu sw %lldx%lld on %d ranks: width source %d, expected %s", (long long)n, (long long)m, ranks,
                   (int)dist.info.width_source, model ? "the model" : "the default");
            free(a);
            free(b);
        } else {
            float *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
            for (int64_t i = 0; i < n; i++) a[i] = (float)range(&r, -500, 500) / 17.0f;
            for (int64_t j = 0; j < m; j++) b[j] = (float)range(&r, -500, 500) / 17.0f;
            pw_dtw_result whole, dist;
            pw_status s1 = pw_dtw_f32(a, n, b, m, PW_DTW_ABSOLUTE, &cpu, &whole);
            pw_status s2 = pw_dist_dtw_f32(c, a, n, b, m, PW_DTW_ABSOLUTE, &gpu, &dist);
            EXPECT(log, s1 == PW_OK && s2 == PW_OK && memcmp(&dist.distance, &whole.distance, sizeof whole.distance) == 0,
                   "gpu dtw %lldx%lld on %d ranks: %s (%s): %.9g, CPU %.9g", (long long)n, (long long)m, ranks,
                   pw_status_str(s2), pw_error_detail(), dist.distance, whole.distance);
            free(a);
            free(b);
        }
        gpu_table_cases(c, &r, &gpu, log);
        gpu_stencil_case(c, &r, &gpu, getenv("PW_TEST_SERIAL_KERNELS") != NULL, log);
        /* users' cells on GPU bands (src/jit/cell_bands.c): a linear cell wide enough for several
         * tiles a band, a stencil cell of a few tile-rows */
        case_cell(c, &r, &gpu, k < cases / 2 ? 300 : 3000, k < cases / 2 ? 600 : 6000, log);
        case_stencil_cell(c, &r, &gpu, k < cases / 2 ? 40 : 400, k < cases / 2 ? 60 : 600, log);
        /* grid cells of a wider reach (edges of several columns, rows below), grid3 ones on the
         * 3-D processor (the others refused) */
        pthread_once(&wide_once, make_wide_cells);
        for (int w = 0; w < WIDE_CELLS; w++) case_wide_cell(c, &r, &wide_cells[w], &gpu, log);
    }
    pw_cuda_stream_destroy(stream);
}
#endif

/* The k-th allocation failing (PEERWAVE_DEBUG_FAIL_ALLOC), wherever it is -- a rank's engine,
 * its link, a collective, the residual's chain: every rank returns (no hang), all with the same
 * status, and a run that succeeds is right. */
void pw_debug_alloc_reset(void);

typedef struct failing_rank {
    pw_comm *comm;
    pw_status sw_st, heat_st;
    pw_sw_result sw;
    double residual;
    float grid[12 * 17];
} failing_rank;

static void *failing_main(void *p)
{
    failing_rank *f = p;
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.threads = 2;
    o.watchdog_ms = 20000;
    pw_sw_params prm;
    pw_sw_params_init(&prm);
    f->sw_st = pw_dist_sw(f->comm, "ACGTTGCAACGTAGGT", 16, "ACGGTTGCAACTAGGTCA", 18, &prm, &o, &f->sw);
    int64_t first, count;
    pw_dist_split(f->comm, pw_comm_rank(f->comm), 15, &first, &count);
    pw_image band = {PW_F32, 12, count + 2, 17, f->grid + first};
    f->heat_st = pw_dist_heat(f->comm, &band, 3, &o, &f->residual, NULL);
    return NULL;
}

static void failing_allocations(void)
{
    pw_sw_params prm;
    pw_sw_params_init(&prm);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    pw_sw_result ref;
    pw_sw("ACGTTGCAACGTAGGT", 16, "ACGGTTGCAACTAGGTCA", 18, &prm, &o, &ref);
    float g0[12 * 17];
    for (int k = 0; k < 12 * 17; k++) g0[k] = (float)(k % 13) / 13.0f;
    float gref[12 * 17];
    memcpy(gref, g0, sizeof g0);
    pw_image gi = {PW_F32, 12, 17, 0, gref};
    double rref;
    pw_heat(&gi, 3, &o, &rref, NULL);
    for (int ranks = 2; ranks <= 3; ranks++)
        for (int k = 1; k <= 80; k++) {
            pw_comm *comms[3];
            if (pw_comm_local(ranks, comms) != PW_OK) continue;
            failing_rank f[3];
            pthread_t ids[3];
            char env[8];
            snprintf(env, sizeof env, "%d", k);
            setenv("PEERWAVE_DEBUG_FAIL_ALLOC", env, 1);
            pw_debug_alloc_reset();
            for (int q = 0; q < ranks; q++) {
                f[q].comm = comms[q];
                pw_comm_set_turns(comms[q], k % 2); /* (every other one with the ranks taking turns) */
                memcpy(f[q].grid, g0, sizeof g0);
                pthread_create(&ids[q], NULL, failing_main, &f[q]);
            }
            for (int q = 0; q < ranks; q++) pthread_join(ids[q], NULL);
            unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
            for (int q = 0; q < ranks; q++) {
                CHECK(f[q].sw_st == f[0].sw_st && f[q].heat_st == f[0].heat_st,
                      "allocation %d failing, %d ranks: rank %d %s/%s, rank 0 %s/%s", k, ranks, q, pw_status_str(f[q].sw_st),
                      pw_status_str(f[q].heat_st), pw_status_str(f[0].sw_st), pw_status_str(f[0].heat_st));
                CHECK(f[q].sw_st == PW_ERR_OUT_OF_MEMORY || (f[q].sw_st == PW_OK && f[q].sw.score == ref.score &&
                                                             f[q].sw.end_a == ref.end_a && f[q].sw.end_b == ref.end_b),
                      "allocation %d failing: sw %s", k, pw_status_str(f[q].sw_st));
                CHECK(f[q].heat_st == PW_ERR_OUT_OF_MEMORY ||
                          (f[q].heat_st == PW_OK && memcmp(&f[q].residual, &rref, sizeof rref) == 0),
                      "allocation %d failing: heat %s", k, pw_status_str(f[q].heat_st));
                pw_comm_free(comms[q]);
            }
        }
}

/* A rank that never makes the call (ranks that are threads of one process): the others' wait at
 * the start of the run -- the SW run's first collective (pw_dist_turn_peers), HEAT's (place_band) --
 * ends after their watchdog with PW_ERR_TIMEOUT naming it, and the comm stays out of step: the
 * late rank's call fails at once with the same reason instead of meeting the others' next call.
 * (Under MPI the others would wait: docs/DISTRIBUTED.md.) */
typedef struct absent_rank {
    pw_comm *comm;
    int heat;
    pw_status st;
    double waited;
    char detail[256];
    float grid[6 * 9];
} absent_rank;

static void *absent_main(void *p)
{
    absent_rank *a = p;
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.watchdog_ms = 300;
    const int64_t began = pw_now_ns();
    if (a->heat) {
        int64_t first = 0, count = 1;
        pw_dist_split(a->comm, pw_comm_rank(a->comm), 7, &first, &count);
        pw_image band = {PW_F32, 6, count + 2, 9, a->grid + first};
        a->st = pw_dist_heat(a->comm, &band, 2, &o, NULL, NULL);
    } else {
        pw_sw_params prm;
        pw_sw_params_init(&prm);
        pw_sw_result res;
        a->st = pw_dist_sw(a->comm, "ACGTTGCA", 8, "ACGGTTGCAAC", 11, &prm, &o, &res);
    }
    a->waited = (double)(pw_now_ns() - began) * 1e-9;
    snprintf(a->detail, sizeof a->detail, "%s", pw_error_detail());
    return NULL;
}

static void absent_ranks(void)
{
    for (int heat = 0; heat <= 1; heat++) {
        pw_comm *comms[3];
        CHECK(pw_comm_local(3, comms) == PW_OK, "pw_comm_local(3)");
        absent_rank a[3];
        memset(a, 0, sizeof a);
        pthread_t ids[2];
        for (int q = 0; q < 3; q++) a[q].comm = comms[q], a[q].heat = heat;
        for (int q = 0; q < 2; q++) pthread_create(&ids[q], NULL, absent_main, &a[q]); /* (rank 2 stays away) */
        for (int q = 0; q < 2; q++) pthread_join(ids[q], NULL);
        for (int q = 0; q < 2; q++)
            CHECK(a[q].st == PW_ERR_TIMEOUT && a[q].waited >= 0.3 && a[q].waited < 30 &&
                      strstr(a[q].detail, "rank 2 of 3 never came") && strstr(a[q].detail, "ranks 0, 1 waited 0.3 s"),
                  "%s, rank 2 absent: rank %d %s after %.1f s (%s)", heat ? "heat" : "sw", q, pw_status_str(a[q].st),
                  a[q].waited, a[q].detail);
        absent_main(&a[2]); /* the late rank: refused at once, for the same reason */
        CHECK(a[2].st == PW_ERR_TIMEOUT && strstr(a[2].detail, "rank 2 of 3 never came") && a[2].waited < 30,
              "%s, the late rank 2: %s after %.1f s (%s)", heat ? "heat" : "sw", pw_status_str(a[2].st), a[2].waited,
              a[2].detail);
        for (int q = 0; q < 3; q++) pw_comm_free(comms[q]);
    }
}

/* Ranks that are threads of one process passing one grid (the same pointer): the grid is whole
 * and right afterwards (each band sweeps a copy of its columns and writes them back at the end;
 * the gather then moves nothing). */
typedef struct shared_grid_rank {
    pw_comm *comm;
    pw_cell *cell;
    const pw_cell_args *args;
    pw_options options;
    pw_status st;
} shared_grid_rank;

static void *shared_grid_main(void *p)
{
    shared_grid_rank *s = p;
    pw_cell_result res;
    s->st = pw_dist_cell_run(s->comm, s->cell, s->args, &s->options, &res);
    return NULL;
}

static void shared_grid(void)
{
    pthread_once(&shared_once, make_shared_cell);
    pthread_once(&wide_once, make_wide_cells);
    rng r = {20261130};
    for (int k = 0; k < 24; k++) {
        const int ranks = (int)range(&r, 2, 4), which = (int)range(&r, 0, WIDE_CELLS);
        const wide_cell *w = which < WIDE_CELLS ? &wide_cells[which] : NULL; /* (else the stencil cell) */
        pw_cell *cell = w ? wide_compiled[which] : stencil_cell;
        const int64_t h = w ? w->halo : 1, reach = w ? w->reach : 1, planes = w && w->three_d ? range(&r, 1, 4) : 1;
        const int64_t rows = range(&r, 1, 40), cols = range(&r, ranks * reach, 50), sweeps = range(&r, 2, 4);
        const size_t depth = w && w->three_d ? (size_t)(planes + 2 * h) : 1, cells = (size_t)((rows + 2 * h) * (cols + 2 * h)) * depth;
        int64_t *one = malloc(8 * cells), *shared = malloc(8 * cells);
        for (size_t q = 0; q < cells; q++) {
            one[q] = range(&r, 0, 1000000);
            if (!w) { /* (the stencil cell's values are doubles; memcpy: no aliasing of one's words) */
                const double d = (double)one[q] / 17.0;
                memcpy(&one[q], &d, sizeof d);
            }
            shared[q] = one[q];
        }
        const double weight = 0.1;
        pw_cell_args args = {.rows = rows, .cols = cols, .planes = planes, .grid = one, .sweeps = sweeps,
                             .params = w ? NULL : &weight};
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU, o.threads = 1, o.watchdog_ms = 20000;
        pw_cell_result res;
        const pw_status s1 = pw_cell_run(cell, &args, &o, &res);
        args.grid = shared;
        pw_comm *comms[4];
        CHECK(pw_comm_local(ranks, comms) == PW_OK, "pw_comm_local(%d)", ranks);
        pw_comm_set_chunk(comms[0], 1); /* (every rank's link: set on each) */
        shared_grid_rank sr[4];
        pthread_t ids[4];
        for (int q = 0; q < ranks; q++) {
            pw_comm_set_chunk(comms[q], 1);
            sr[q] = (shared_grid_rank){comms[q], cell, &args, o, PW_OK};
            pthread_create(&ids[q], NULL, shared_grid_main, &sr[q]);
        }
        int ok = 1;
        for (int q = 0; q < ranks; q++) {
            pthread_join(ids[q], NULL);
            ok &= sr[q].st == PW_OK;
        }
        CHECK(s1 == PW_OK && ok && !memcmp(one, shared, 8 * cells), "%d ranks sharing one grid, %s cell %lldx%lldx%lld x %lld sweeps: %s, %s (%s); grid %s",
              ranks, w ? w->name : "stencil", (long long)rows, (long long)cols, (long long)planes, (long long)sweeps,
              pw_status_str(s1), pw_status_str(sr[0].st), pw_error_detail(), memcmp(one, shared, 8 * cells) ? "differs" : "equal");
        for (int q = 0; q < ranks; q++) pw_comm_free(comms[q]);
        free(one), free(shared);
    }
}

typedef struct thread_arg {
    pw_comm *comm;
    uint64_t seed;
    int cases;
    rank_log log;
    int gpu;
} thread_arg;

static void *rank_thread(void *p)
{
    thread_arg *t = p;
#ifdef PW_HAVE_CUDA
    if (t->gpu) {
        gpu_cases(t->comm, t->seed, t->cases, &t->log);
        return NULL;
    }
#endif
    rank_main(t->comm, t->seed, t->cases, &t->log);
    return NULL;
}

static void report(const rank_log *log, int rank, int ranks)
{
    CHECK(log->failures == 0, "%d ranks, rank %d: %d of %d checks failed; first: %s%s%s", ranks, rank, log->failures,
          log->checks, log->first, log->first_context ? "; " : "", log->first_context ? log->first_context : "");
    CHECK(log->checks > 0, "rank %d checked nothing", rank);
}

int main(int argc, char **argv)
{
    test_seed(20261125);
    const uint64_t seed = test_rand();
    if (argc > 1 && strcmp(argv[1], "--mpi") == 0) {
        pw_comm *c;
        pw_status st = pw_comm_mpi(&c);
        if (st == PW_ERR_UNSUPPORTED) {
            printf("SKIP: %s\n", pw_error_detail());
            return 77;
        }
        CHECK(st == PW_OK, "pw_comm_mpi: %s", pw_status_str(st));
        if (st != PW_OK) return test_finish();
        const int on_gpu = argc > 2 && strcmp(argv[2], "--gpu") == 0, nccl = argc > 3 && strcmp(argv[3], "--nccl") == 0;
        mpi_processes = 1;
        int skip = 0;
        if (nccl && (st = pw_comm_use_nccl(c)) != PW_OK) {
            printf("SKIP: %s\n", pw_error_detail());
            skip = 1;
        }
#ifndef PW_HAVE_CUDA
        if (on_gpu) printf("SKIP: built without CUDA\n"), skip = 1;
#else
        void *probe = NULL;
        /* (on the rank's own GPU: a context on another would share that GPU with its rank) */
        if (on_gpu && !skip && pw_cuda_stream_create(pw_comm_rank(c) % test_gpus(), &probe) != PW_OK)
            printf("SKIP: no GPU\n"), skip = 1;
        if (probe) pw_cuda_stream_destroy(probe);
#endif
        /* (every rank skips, or none: a rank that went on alone would wait in the first collective) */
        int skips[64] = {0};
        if (pw_comm_size(c) <= 64 && pw_comm_allgather(c, &skip, skips, sizeof skip) == PW_OK)
            for (int k = 0; k < pw_comm_size(c); k++) skip |= skips[k];
        if (skip) {
            pw_comm_free(c);
            pw_comm_finalize();
            return 77;
        }
        rank_log log = {0};
#ifdef PW_HAVE_CUDA
        /* (CUDA's default lazy loading, as users run: the links' data path must cope with it,
         * core/band.h kernel_loaded) */
        if (on_gpu) gpu_cases(c, seed, 24, &log);
        else
#endif
            rank_main(c, seed, 60, &log);
        report(&log, pw_comm_rank(c), pw_comm_size(c));
        const int rank = pw_comm_rank(c);
        pw_comm_free(c);
        pw_comm_finalize();
        if (rank != 0 && test_failed == 0) return 0; /* (rank 0 prints the summary) */
        return test_finish();
    }
    const int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0, serial = getenv("PW_TEST_SERIAL_KERNELS") != NULL;
    if (gpu) {
#ifdef PW_HAVE_CUDA
        /* kernels loaded at start: a lazy load may synchronise the device while another rank's
         * kernel waits for this one (docs/DISTRIBUTED.md) */
        setenv("CUDA_MODULE_LOADING", "EAGER", 0);
        void *s = NULL;
        if (pw_cuda_stream_create(0, &s) != PW_OK) {
            printf("SKIP: no GPU\n");
            return 77;
        }
        pw_cuda_stream_destroy(s);
#else
        printf("SKIP: built without CUDA\n");
        return 77;
#endif
    }
    if (!gpu) failing_allocations();
    if (!gpu) absent_ranks();
    if (!gpu) shared_grid();
    /* (GPU: 2 and 3 ranks, and up to 4 where PW_TEST_GPUS gives that many devices) */
    const int most_ranks = gpu ? (test_gpus() >= 4 ? 4 : 3) : 4;
    for (int ranks = gpu ? 2 : 1; ranks <= most_ranks; ranks++) {
        pw_comm *comms[4];
        CHECK(pw_comm_local(ranks, comms) == PW_OK, "pw_comm_local(%d)", ranks);
        thread_arg args[4];
        pthread_t ids[4];
        for (int k = 0; k < ranks; k++) {
            args[k] = (thread_arg){comms[k], seed + (uint64_t)ranks, gpu ? (serial ? 6 : 24) : 40, {0}, gpu};
            pthread_create(&ids[k], NULL, rank_thread, &args[k]);
        }
        for (int k = 0; k < ranks; k++) pthread_join(ids[k], NULL);
        for (int k = 0; k < ranks; k++) {
            report(&args[k].log, k, ranks);
            pw_comm_free(comms[k]);
        }
    }
    return test_finish();
}
