/*
 * test_sw_rows.c - SW's warp-rows engine (src/cuda/sw_warp_rows.cu: a warp a tile-row of 384 rows,
 * 16-bit pairs of tile-rows or 32-bit lanes) against the CPU, forced on with PEERWAVE_SW_ENGINE
 * (the library takes it by itself only for pairs of about a million rows and more): score and end
 * cell bit-exact on awkward shapes (1 x N, N x 1, primes, around 384 and 768), both orientations
 * (the longer sequence runs down the rows), one or two blocks (several rounds of warps, the
 * whole-row buffers between them), ties (a motif planted many times: the smallest row, then
 * column), scores past 16 bits (the pairs keep them up to about 65400, their values offset by a
 * floor; past that they must be run again with 32-bit lanes), alignments through its saved rows,
 * and the runs it must leave to the tile engines.  Exits 77 (CTest SKIP) without a GPU.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_align.h"
#include "../../apps/sw_gpus.h"
#include "../test_util.h"

static const char dna[] = "ACGT";

/* b: a copy of a with 1 letter in 12 changed, or random (related = 0) */
static void make_pair(char *a, int64_t n, char *b, int64_t m, int related)
{
    for (int64_t k = 0; k < n; k++) a[k] = dna[test_rand() % 4];
    for (int64_t k = 0; k < m; k++)
        b[k] = related && k < n && test_rand() % 12 ? a[(k + 5) % n] : dna[test_rand() % 4];
}

/* A motif planted `times` times in each: equal best scores in many cells. */
static void plant_motif(char *a, int64_t n, char *b, int64_t m, int times)
{
    static const char motif[] = "GATTACACATTAGGCCATGA";
    for (int c = 0; c < times && n > 20 && m > 20; c++) {
        memcpy(a + test_range(0, n - 21), motif, 20);
        memcpy(b + test_range(0, m - 21), motif, 20);
    }
}

static int cases;
static int pairs_here; /* a forced run has used 16-bit pairs: this GPU has DPX */

/* One comparison; `engine`: the engine that must have run (1 warp-rows, 0 a tile engine, -1 any),
 * bits: the lanes it must have used (0: any). */
static void compare(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *p, const pw_options *gpu,
                    int engine, int bits, const char *what)
{
    pw_options cpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    cpu.strategy = n * m > 20000000 ? PW_STRATEGY_PEER : PW_STRATEGY_SEQUENTIAL;
    pw_sw_result r, g;
    const pw_status s1 = pw_sw(a, n, b, m, p, &cpu, &r), s2 = pw_sw(a, n, b, m, p, gpu, &g);
    const int rows_ran = s2 == PW_OK && (g.info.tile_h == 384 || g.info.tile_h == 512) && g.info.tile_w == 32;
    if (rows_ran && g.info.lane_bits == 16) pairs_here = 1;
    CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b,
          "%s %" PRId64 "x%" PRId64 " %d/%d/%d/%d blocks %d: cpu %d (%" PRId64 ",%" PRId64 ") gpu %d (%" PRId64
          ",%" PRId64 ") status %d %d",
          what, n, m, p->match, p->mismatch, p->gap_open, p->gap_extend, gpu->max_blocks, r.score, r.end_a, r.end_b,
          g.score, g.end_a, g.end_b, s1, s2);
    CHECK(engine < 0 || rows_ran == engine, "%s %" PRId64 "x%" PRId64 ": the warp-rows engine %s (h %d, w %" PRId64 ")",
          what, n, m, rows_ran ? "ran" : "did not run", g.info.tile_h, g.info.tile_w);
    CHECK(!bits || !rows_ran || g.info.lane_bits == bits, "%s %" PRId64 "x%" PRId64 ": %d-bit lanes, not %d", what, n,
          m, g.info.lane_bits, bits);
    cases++;
}

static void random_params(pw_sw_params *p)
{
    pw_sw_params_init(p);
    p->match = (int)test_range(1, 3);
    p->mismatch = -(int)test_range(1, 4);
    p->gap_open = (int)test_range(1, 6);
    p->gap_extend = test_rand() % 2 ? p->gap_open : (int)test_range(1, p->gap_open); /* linear or affine */
    switch (test_rand() % 6) { /* now and then the edges: the byte profile's limits, free gaps */
    case 0: p->match = (int)test_range(100, 127), p->mismatch = -(int)test_range(100, 127); break;
    case 1: p->gap_open = 0, p->gap_extend = (int)test_range(0, 2); break; /* (extend > open too) */
    case 2: p->gap_extend = 0; break;
    default: break;
    }
}

/* Random shapes under PEERWAVE_SW_ENGINE=ask (rows: 16-bit pairs where DPX is, rows32) */
static int small; /* PW_SW_ROWS_SMALL: few and small shapes (compute-sanitizer) */

static void shape_cases(const char *ask, int bits)
{
    static const int64_t sizes[] = {1, 2, 31, 383, 384, 385, 767, 769, 1031, 2047, 4099, 6007, 12289};
    const int count = small ? 9 : (int)(sizeof sizes / sizeof sizes[0]);
    setenv("PEERWAVE_SW_ENGINE", ask, 1);
    for (int k = 0; k < (small ? 12 : 40); k++) {
        int64_t n = k < count ? sizes[k] : sizes[test_rand() % count] + test_range(0, 500);
        int64_t m = sizes[test_rand() % count] + test_range(0, small ? 300 : 3000);
        if (k % 2) { /* the other orientation: rows shorter than columns */
            const int64_t t = n;
            n = m, m = t;
        }
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        /* one or two blocks (8 or 16 warps): several rounds once there are 3072+ rows */
        gpu.max_blocks = k % 3 == 2 ? (int)test_range(1, 2) : 0;
        if (gpu.max_blocks) n += 2 * 8 * gpu.max_blocks * 384 * 2 + test_range(0, 383);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        make_pair(a, n, b, m, (int)(test_rand() % 2));
        if (k % 5 == 4) plant_motif(a, n, b, m, 6);
        pw_sw_params p;
        random_params(&p);
        compare(a, n, b, m, &p, &gpu, 1, bits, ask);
        free(a);
        free(b);
    }
}

/* Where two alignments part: "same", or their bounds and the first differing CIGAR letter. */
static const char *alignment_difference(const pw_alignment *x, const pw_alignment *y, char *buf, size_t size)
{
    if (x->score == y->score && x->start_a == y->start_a && x->end_a == y->end_a && x->start_b == y->start_b &&
        x->end_b == y->end_b && x->cigar && y->cigar && !strcmp(x->cigar, y->cigar))
        return "same";
    size_t at = 0;
    if (x->cigar && y->cigar)
        while (x->cigar[at] && x->cigar[at] == y->cigar[at]) at++;
    snprintf(buf, size, "%d a[%" PRId64 ",%" PRId64 "] b[%" PRId64 ",%" PRId64 "] against %d a[%" PRId64 ",%" PRId64
                        "] b[%" PRId64 ",%" PRId64 "], CIGARs (%zu, %zu letters) part at letter %zu",
             x->score, x->start_a, x->end_a, x->start_b, x->end_b, y->score, y->start_a, y->end_a, y->start_b, y->end_b,
             x->cigar ? strlen(x->cigar) : 0, y->cigar ? strlen(y->cigar) : 0, at);
    return buf;
}

/* The alignment search with its score pass (and saved rows) on this engine (asked for: `ask`)
 * against the CPU's through the same saved rows (PEERWAVE_PATH_ROWS: where several alignments are
 * optimal, the rows decide which one the search takes, docs/ALIGN.md "Tie rules"): the same
 * alignment, letter for letter, and its CIGAR rescores to the score.  On a difference the tile
 * engines' score pass runs too, to tell this engine's saved rows from the GPU's later passes. */
static void align_case(int64_t n, int64_t m, const char *ask, const pw_sw_params *given, int equal, int bits)
{
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    make_pair(a, n, b, m, 1);
    plant_motif(a, n, b, m, 4);
    if (equal) memcpy(b, a, (size_t)(m < n ? m : n)); /* (at match 2: past 16 bits, or the pairs' range) */
    pw_sw_params q;
    if (given) q = *given;
    else random_params(&q);
    if (q.gap_extend > q.gap_open) q.gap_extend = q.gap_open; /* (pw_sw_align's rule) */
    pw_options cpu, gpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    setenv("PEERWAVE_SW_ENGINE", ask, 1);
    setenv("PEERWAVE_PATH_ROWS", "1024", 1); /* (a multiple of this engine's 512-row tile-rows) */
    pw_alignment r, g;
    memset(&r, 0, sizeof r);
    memset(&g, 0, sizeof g);
    const pw_status s1 = pw_sw_align(a, n, b, m, &q, &cpu, &r), s2 = pw_sw_align(a, n, b, m, &q, &gpu, &g);
    char buf[400], tbuf[400];
    const char *diff = s1 == PW_OK && s2 == PW_OK ? alignment_difference(&r, &g, buf, sizeof buf) : "no alignment";
    if (strcmp(diff, "same")) {
        pw_alignment t;
        memset(&t, 0, sizeof t);
        setenv("PEERWAVE_SW_ENGINE", "tiles", 1);
        const pw_status s3 = pw_sw_align(a, n, b, m, &q, &gpu, &t);
        setenv("PEERWAVE_SW_ENGINE", ask, 1);
        printf("align %s: the tile engines' score pass against the CPU: %s\n", ask,
               s3 == PW_OK ? alignment_difference(&r, &t, tbuf, sizeof tbuf) : "no alignment");
        if (s3 == PW_OK) pw_alignment_free(&t);
    }
    int64_t rescored = -1;
    CHECK(s2 != PW_OK || (pw_alignment_rescore(&g, a, n, b, m, &q, &rescored) == PW_OK && rescored == g.score),
          "align %s %" PRId64 "x%" PRId64 ": the CIGAR rescores to %" PRId64 ", not %d", ask, n, m, rescored, g.score);
    CHECK(!strcmp(diff, "same"), "align %s %" PRId64 "x%" PRId64 " %d/%d/%d/%d: cpu against gpu: %s, status %d %d", ask,
          n, m, q.match, q.mismatch, q.gap_open, q.gap_extend, diff, s1, s2);
    CHECK(s2 != PW_OK || (g.info.tile_h == 512 && g.info.tile_w == 32),
          "align %s %" PRId64 "x%" PRId64 ": the score pass was not this engine's (h %d, w %" PRId64 ")", ask, n, m,
          g.info.tile_h, g.info.tile_w);
    /* bits: the lanes the score pass must have used; 16: the pairs where this GPU has DPX, and the
     * 32-bit rerun exactly where an H passed their range, 65535 - K - top (K = max(128, open +
     * extend): sw_warp_rows_proc.cuh), which no H can pass without the best.  The pairs' saving
     * kernel once needed more than 48 KiB of shared memory without asking for it and every such
     * pass ran in 32-bit lanes, 1.3x slower, with right answers (issue 28). */
    const int K = q.gap_open + q.gap_extend > 128 ? q.gap_open + q.gap_extend : 128,
              top = q.match > q.mismatch ? q.match : q.mismatch;
    const int want = bits == 16 && (!pairs_here || g.score > 65535 - K - (top > 0 ? top : 0)) ? 32 : bits;
    CHECK(s2 != PW_OK || g.info.lane_bits == want, "align %s %" PRId64 "x%" PRId64 ": %d-bit lanes, not %d", ask, n, m,
          g.info.lane_bits, want);
    unsetenv("PEERWAVE_PATH_ROWS");
    cases++;
    if (s1 == PW_OK) pw_alignment_free(&r);
    if (s2 == PW_OK) pw_alignment_free(&g);
    free(a);
    free(b);
}

/* a: |n| random letters, b: a's m letters from `from` (swapped when n < 0); scores 2/-3/5/2, so
 * the score is 2 m: past 16 bits from m = 16384, past the pairs' range (65535 - 128 - 2) from
 * m = 32703, where the pairs must stop and run again with 32-bit lanes.  A related variant of the
 * first case, equal only in its first half, as well. */
static void equal_stretch(int64_t n, int64_t m, int64_t from, int max_blocks, const char *what)
{
    const int swapped = n < 0;
    n = swapped ? -n : n;
    char *a = malloc((size_t)n), *b = malloc((size_t)n);
    make_pair(a, n, b, n, 0);
    memcpy(b, a + from, (size_t)m);
    pw_sw_params q;
    pw_sw_params_init(&q);
    q.match = 2, q.mismatch = -3, q.gap_open = 5, q.gap_extend = 2;
    pw_options gpu;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    gpu.max_blocks = max_blocks;
    const int bits = 2 * m > 65535 - 128 - 2 || !pairs_here ? 32 : 16;
    if (swapped) compare(b, m, a, n, &q, &gpu, 1, bits, what);
    else compare(a, n, b, m, &q, &gpu, 1, bits, what);
    if (!from && !max_blocks) { /* passes the range only in its second half */
        for (int64_t k = m / 2; k < m; k++) b[k] = test_rand() % 16 ? a[k] : dna[test_rand() % 4];
        compare(a, n, b, m, &q, &gpu, 1, 0, "equal, then related");
    }
    free(a);
    free(b);
}

/* The engine over several GPUs, rounds dealt out (apps/sw_gpus.h), against the CPU: `devices`
 * (count of them; one GPU named several times runs its kernels side by side, capped to max_blocks
 * blocks each so that all fit), forced with `ask`; a 16-bit run must have stayed in pairs unless
 * `bits` says 32. */
/* Not asked for: a pair that fills one GPU (so one GPU's automatic choice takes it: 2.4 M rows)
 * is dealt over the GPUs by itself, and matches one GPU's run of the same engine (too large for
 * the CPU reference; the one-GPU engine is checked against it above).  Related, its best passes
 * 16 bits: both runs stop and rerun in 32-bit lanes (2 H200s: 3635822 at (2000004, 1999999),
 * 391 warps on one GPU, 782 on two). */
static void auto_on_gpus(const int *devices, int count)
{
    const int64_t n = 2400000, m = 2000000;
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    make_pair(a, n, b, m, 1);
    plant_motif(a, n, b, m, 4);
    pw_sw_params q;
    pw_sw_params_init(&q);
    pw_options gpu;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    unsetenv("PEERWAVE_SW_ENGINE");
    pw_sw_result one, many;
    const pw_status s1 = pw_sw(a, n, b, m, &q, &gpu, &one), s2 = pw_sw_on_gpus(a, n, b, m, &q, &gpu, devices, count, &many);
    CHECK(s1 == PW_OK && s2 == PW_OK && one.score == many.score && one.end_a == many.end_a && one.end_b == many.end_b &&
              one.info.lane_bits == many.info.lane_bits && many.info.threads > one.info.threads,
          "%d GPUs by themselves: one GPU %d (%" PRId64 ",%" PRId64 ") %d-bit %d warps, %d GPUs %d (%" PRId64 ",%" PRId64
          ") %d-bit %d warps, status %d %d",
          count, one.score, one.end_a, one.end_b, one.info.lane_bits, one.info.threads, count, many.score, many.end_a,
          many.end_b, many.info.lane_bits, many.info.threads, s1, s2);
    cases++;
    free(a);
    free(b);
}

static void on_gpus(int64_t n, int64_t m, const char *ask, int max_blocks, const int *devices, int count, int equal,
                    int bits)
{
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    make_pair(a, n, b, m, 1);
    plant_motif(a, n, b, m, 4);
    pw_sw_params q;
    random_params(&q);
    if (equal) { /* past the pairs' range at 2/-3/5/2: every GPU's run must stop and the 32-bit one follow */
        memcpy(b, a, (size_t)(m < n ? m : n));
        q.match = 2, q.mismatch = -3, q.gap_open = 5, q.gap_extend = 2, q.scoring = PW_SCORING_DNA;
    }
    pw_options cpu, gpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    cpu.strategy = PW_STRATEGY_PEER;
    pw_options_init(&gpu);
    gpu.max_blocks = max_blocks;
    if (strcmp(ask, "auto")) setenv("PEERWAVE_SW_ENGINE", ask, 1);
    else unsetenv("PEERWAVE_SW_ENGINE");
    pw_sw_result r, g;
    const pw_status s1 = pw_sw(a, n, b, m, &q, &cpu, &r), s2 = pw_sw_on_gpus(a, n, b, m, &q, &gpu, devices, count, &g);
    CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b,
          "%d GPUs (%d, %d, ...) %s %" PRId64 "x%" PRId64 " %d/%d/%d/%d blocks %d: cpu %d (%" PRId64 ",%" PRId64
          ") gpus %d (%" PRId64 ",%" PRId64 ") status %d %d (%s)",
          count, devices[0], devices[1], ask, n, m, q.match, q.mismatch, q.gap_open, q.gap_extend, max_blocks, r.score,
          r.end_a, r.end_b, g.score, g.end_a, g.end_b, s1, s2, s2 == PW_OK ? "" : pw_error_detail());
    /* (the pairs hold a best up to 65535 - max(128, open + extend) - the top score) */
    const int k_room = q.gap_open + q.gap_extend > 128 ? q.gap_open + q.gap_extend : 128;
    const int top = q.match > 0 ? q.match : 0, past = r.score > 65535 - k_room - top;
    const int want = !strcmp(ask, "rows32") || bits == 32 || past || !pairs_here ? 32 : 16;
    CHECK(s2 != PW_OK || g.info.lane_bits == want, "%d GPUs: %d-bit lanes, not %d", count, g.info.lane_bits, want);
    cases++;
    free(a);
    free(b);
}

/* Progress reports of a run on this engine (a long pair on two blocks, so that it lasts): the
 * fraction never goes back, the last report is final with every cell; `stop_after` > 0: the hook
 * asks to stop at that report, and the run must end PW_ERR_CANCELLED. */
typedef struct reports {
    int calls, finals, went_back, stop_after;
    double last;
    int64_t last_cells, cells;
} reports;
static int on_progress(void *user, const pw_progress *p)
{
    reports *r = user;
    r->calls++;
    r->finals += p->final;
    r->went_back += p->fraction < r->last;
    r->last = p->fraction;
    r->last_cells = p->cells_done;
    r->cells = p->cells;
    return r->stop_after > 0 && r->calls >= r->stop_after;
}
static void progress_case(const char *ask, int stop_after, const int *devices, int count)
{
    const int64_t n = 120000, m = 60000;
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    make_pair(a, n, b, m, 0); /* (unrelated: well inside 16 bits, no rerun) */
    pw_sw_params q;
    pw_sw_params_init(&q);
    pw_options gpu;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    gpu.max_blocks = 2;
    reports r = {0, 0, 0, stop_after, 0, 0, 0};
    gpu.progress = on_progress;
    gpu.progress_user = &r;
    gpu.progress_interval_ms = 5;
    setenv("PEERWAVE_SW_ENGINE", ask, 1);
    pw_sw_result g;
    if (count > 1) gpu.max_blocks = 1; /* (one GPU named several times: their kernels side by side) */
    const pw_status st = count > 1 ? pw_sw_on_gpus(a, n, b, m, &q, &gpu, devices, count, &g) : pw_sw(a, n, b, m, &q, &gpu, &g);
    if (stop_after > 0)
        CHECK(st == PW_ERR_CANCELLED && r.calls == stop_after && !r.finals, "%s: the hook's stop: status %d, %d calls",
              ask, st, r.calls);
    else
        CHECK(st == PW_OK && g.info.tile_h == 384 && r.calls >= 3 && r.finals == 1 && !r.went_back &&
                  r.last == 1.0 && r.last_cells == n * m && r.cells == n * m,
              "%s: progress: status %d, h %d, %d calls, %d final, went back %d, last %.3f (%lld of %lld cells)", ask, st,
              st == PW_OK ? g.info.tile_h : 0, r.calls, r.finals, r.went_back, r.last, (long long)r.last_cells,
              (long long)r.cells);
    cases++;
    free(a);
    free(b);
}

int main(void)
{
    test_seed(2811);
    if (test_no_cuda_device()) return 77;
    small = getenv("PW_SW_ROWS_SMALL") != NULL;
    shape_cases("rows32", 32);
    shape_cases("rows", 0); /* (16-bit pairs where DPX is in hardware, else 32-bit lanes) */
    if (small) {
        printf("%d cases (small)\n", cases);
        return test_finish();
    }

    /* Past 16 bits: a pair of equal stretches at match 2 scores 2 x their length.  Up to the pairs'
     * range they keep it (16-bit lanes); past it they flag it and the run is made again with 32-bit
     * lanes (forced rows: the pairs first wherever DPX is).  On the whole GPU, then over several
     * rounds of one block (8 warps, 16 tile-rows a round of pairs) both ways round: the stop must
     * reach every warp, the whole-row buffers included. */
    setenv("PEERWAVE_SW_ENGINE", "rows", 1);
    equal_stretch(20000, 20000, 0, 0, "past 16 bits, in the pairs' range");
    equal_stretch(30000, 25000, 1000, 1, "past 16 bits, in the pairs' range, rounds");
    equal_stretch(40000, 40000, 0, 0, "past the pairs' range");
    equal_stretch(50000, 40000, 1000, 1, "past the pairs' range, rounds");
    equal_stretch(-50000, 40000, 1000, 1, "past the pairs' range, rounds, the other way");
    /* The alignment search's score pass with saved rows (forced: pairs this short go to the tile
     * engines by themselves): both lane widths, both length orders (the rows stay a's). */
    align_case(20000, 15000, "rows", NULL, 0, 16);
    align_case(9000, 30000, "rows", NULL, 0, 16);
    align_case(25000, 25000, "rows32", NULL, 0, 32);
    { /* free gap extension: many co-optimal alignments, the search's tie rules decide */
        pw_sw_params q;
        pw_sw_params_init(&q);
        q.match = 3, q.mismatch = -1, q.gap_open = 6, q.gap_extend = 0;
        align_case(9000, 30000, "rows32", &q, 0, 32);
        align_case(30000, 9000, "rows", &q, 0, 16);
        q.match = 2, q.mismatch = -3, q.gap_open = 5, q.gap_extend = 2;
        align_case(24000, 20000, "rows", &q, 1, 16); /* 40000: the pairs' saved rows past 16 bits */
        align_case(32700, 32000, "rows", &q, 1, 16); /* 64000: 65535 - 128 - 2 = 65405 is the pairs' last */
        align_case(40000, 36000, "rows", &q, 1, 32); /* 72000: the 32-bit rerun's saved rows */
    }
    /* An asymmetric table (a user matrix of 4 letters): the longer sequence goes down the rows, so
     * a transposed run must read the table the other way round. */
    {
        static const int8_t scores[16] = {5, -4, 2, -7, -1, 6, -3, 1, -6, 0, 4, -2, 3, -5, -1, 7};
        static const pw_matrix asym = {"asymmetric", "ACGT", 'A', 4, scores};
        pw_sw_params q;
        pw_sw_params_init(&q);
        q.scoring = PW_SCORING_MATRIX;
        q.matrix = &asym;
        q.gap_open = 4, q.gap_extend = 1;
        for (int k = 0; k < 4; k++) {
            const int64_t n = k % 2 ? 2000 : 9000, m = k % 2 ? 9000 : 2000;
            char *a = malloc((size_t)n), *b = malloc((size_t)m);
            make_pair(a, n, b, m, 1);
            pw_options gpu;
            pw_options_init(&gpu);
            gpu.backend = PW_BACKEND_CUDA;
            setenv("PEERWAVE_SW_ENGINE", k < 2 ? "rows" : "rows32", 1);
            compare(a, n, b, m, &q, &gpu, 1, k < 2 ? 0 : 32, "asymmetric table");
            free(a);
            free(b);
        }
        setenv("PEERWAVE_SW_ENGINE", "rows", 1);
    }
    /* Progress and stopping on this engine, both lane widths */
    progress_case("rows", 0, NULL, 1);
    progress_case("rows32", 0, NULL, 1);
    progress_case("rows", 2, NULL, 1);
    progress_case("rows32", 3, NULL, 1);
    {
        const int twice[2] = {0, 0};
        progress_case("rows", 0, twice, 2);
        progress_case("rows32", 2, twice, 2);
    }
    /* Over several GPUs, rounds dealt out: this GPU named two and three times (its kernels side
     * by side, a block or two each: many rounds, each GPU's following another's), and the GPUs
     * PW_SW_ROWS_GPUS names ("0,1"), where there are several; by itself too where one GPU's choice takes the pair. */
    {
        const int twice[2] = {0, 0}, thrice[3] = {0, 0, 0};
        on_gpus(30000, 9000, "rows32", 1, twice, 2, 0, 32);
        on_gpus(9000, 30000, "rows32", 2, twice, 2, 0, 32);
        on_gpus(40000, 7000, "rows", 1, twice, 2, 0, 0);
        on_gpus(7000, 45000, "rows", 2, thrice, 3, 0, 0);
        on_gpus(40000, 40000, "rows", 2, twice, 2, 1, 32); /* 80000: past the pairs' range */
        pw_sw_params q;
        pw_sw_params_init(&q);
        pw_sw_result g;
        pw_options o;
        pw_options_init(&o);
        /* the tile engines asked for: refused, with nothing run (the bands take it) */
        const int64_t big = 4000000, thin = 1000;
        char *a = malloc((size_t)big), *b = malloc((size_t)big);
        make_pair(a, big, b, big, 1);
        setenv("PEERWAVE_SW_ENGINE", "tiles", 1);
        const pw_status st = pw_sw_on_gpus(a, 2200000, b, 1200000, &q, &o, twice, 2, &g);
        CHECK(st == PW_ERR_UNSUPPORTED, "several GPUs, tiles asked for: %s", pw_status_str(st));
        /* one GPU named twice, uncapped: 10417 tile-rows need about 326 blocks a kernel, two of
         * which do not fit one GPU at once (396 on an H200) */
        setenv("PEERWAVE_SW_ENGINE", "rows32", 1);
        const pw_status full = pw_sw_on_gpus(a, big, b, thin, &q, &o, twice, 2, &g);
        CHECK(full == PW_ERR_UNSUPPORTED, "one GPU twice, uncapped: %s", pw_status_str(full));
        cases += 2;
        free(a);
        free(b);
        const char *list = getenv("PW_SW_ROWS_GPUS");
        int devices[16], count = 0;
        for (const char *p = list; p && *p && count < 16; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) devices[count++] = atoi(p);
        if (count >= 2) {
            on_gpus(60000, 20000, "rows", 0, devices, count, 0, 0);
            on_gpus(20000, 60000, "rows32", 0, devices, count, 0, 32);
            on_gpus(50000, 45000, "rows", 0, devices, count, 1, 32);
            on_gpus(30000, 9000, "rows", 2, devices, count, 0, 0);
            auto_on_gpus(devices, count);
        }
        setenv("PEERWAVE_SW_ENGINE", "rows", 1);
    }
    /* Runs the engine leaves to the tile engines: protein (more letters than its profile holds),
     * block pruning, another strategy; and (no PEERWAVE_SW_ENGINE) a pair too short to fill the GPU. */
    {
        const int64_t n = 3000, m = 2500;
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        static const char protein[] = "ARNDCQEGHILKMFPSTWYV";
        for (int64_t k = 0; k < n; k++) a[k] = protein[test_rand() % 20];
        for (int64_t k = 0; k < m; k++) b[k] = k < n && test_rand() % 3 ? a[k] : protein[test_rand() % 20];
        pw_sw_params q;
        pw_sw_params_init(&q);
        q.scoring = PW_SCORING_MATRIX;
        q.matrix = pw_matrix_by_name("BLOSUM62");
        q.gap_open = 11, q.gap_extend = 1;
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        compare(a, n, b, m, &q, &gpu, 0, 0, "protein");
        make_pair(a, n, b, m, 1);
        random_params(&q);
        gpu.sw_prune = 1;
        compare(a, n, b, m, &q, &gpu, 0, 0, "pruned");
        gpu.sw_prune = 0;
        gpu.strategy = PW_STRATEGY_GLOBAL_BARRIER;
        compare(a, n, b, m, &q, &gpu, 0, 0, "barrier");
        gpu.strategy = PW_STRATEGY_PEER;
        unsetenv("PEERWAVE_SW_ENGINE");
        compare(a, n, b, m, &q, &gpu, 0, 0, "automatic, short");
        setenv("PEERWAVE_SW_ENGINE", "tiles", 1);
        compare(a, n, b, m, &q, &gpu, 0, 0, "tiles asked");
        /* a cancel flag set before the run: this engine stops at its first look (10 ms), or has
         * finished before it with the right answer */
        setenv("PEERWAVE_SW_ENGINE", "rows", 1);
        volatile int stop = 1;
        gpu.cancel = &stop;
        pw_sw_result g, want;
        const pw_status sc = pw_sw(a, n, b, m, &q, &gpu, &g);
        pw_options cpu;
        pw_options_init(&cpu);
        cpu.backend = PW_BACKEND_CPU;
        CHECK(pw_sw(a, n, b, m, &q, &cpu, &want) == PW_OK &&
                  (sc == PW_ERR_CANCELLED || (sc == PW_OK && g.info.tile_h == 384 && g.score == want.score)),
              "a cancel flag: status %d, tile_h %d", sc, sc == PW_OK ? g.info.tile_h : 0);
        cases++;
        gpu.cancel = NULL;
        free(a);
        free(b);
    }
    /* The library's own choice on a pair long enough (PW_SW_ROWS_LARGE=1: 1.2 M x 2.2 M, on a
     * 132-SM H100/H200 32-bit lanes in two rounds, a smaller GPU may take pairs; 1.2 M x 1 M, one
     * round mostly fill, now goes to the tile engines there): the
     * engine must take it by itself, with the tile engines' answer (checked against the CPU above
     * and in test_gpu) as the reference. */
    if (getenv("PW_SW_ROWS_LARGE")) {
        const int64_t n = 1200000, m = 2200000;
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        make_pair(a, n, b, m, 1);
        plant_motif(a, n, b, m, 20);
        pw_sw_params q;
        random_params(&q);
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        gpu.wisdom = "none"; /* (the tile engines train their width on every run; this engine needs none) */
        pw_sw_result r, g;
        setenv("PEERWAVE_SW_ENGINE", "tiles", 1);
        const pw_status s1 = pw_sw(a, n, b, m, &q, &gpu, &r);
        unsetenv("PEERWAVE_SW_ENGINE");
        const pw_status s2 = pw_sw(a, n, b, m, &q, &gpu, &g);
        CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b &&
                  r.info.tile_h != 384 && g.info.tile_h == 384 && g.info.training_seconds == 0 &&
                  g.info.width_source != PW_WIDTH_MODEL && r.info.width_source == PW_WIDTH_MODEL &&
                  r.info.training_seconds > 0,
              "automatic, long: tiles %d (%" PRId64 ",%" PRId64 ") h %d, automatic %d (%" PRId64 ",%" PRId64 ") h %d "
              "(width trained for %.3f s), status %d %d",
              r.score, r.end_a, r.end_b, r.info.tile_h, g.score, g.end_a, g.end_b, g.info.tile_h,
              g.info.training_seconds, s1, s2);
        printf("automatic, long: %d-bit lanes, %.3f s against the tiles' %.3f s (and their width's training %.3f s)\n",
               g.info.lane_bits, g.info.seconds, r.info.seconds, r.info.training_seconds);
        cases++;
        free(a);
        free(b);
    }
    printf("%d cases\n", cases);
    return test_finish();
}
