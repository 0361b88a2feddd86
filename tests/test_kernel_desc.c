/*
 * test_kernel_desc.c - the CUDA kernel selector (src/cuda/kernel_desc.c) over random plans: which
 * processor runs each kind of cell, the tiles it runs and what its blocks need, against the rules
 * written out plainly here (one condition per processor, as docs/RELIABILITY.md states them), and
 * the switches read from the environment.  Plain C: runs in CI without a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "../src/cuda/kernel_desc.h"
#include "test_util.h"

static const pw_kernel_switches defaults = {.pipeline_sweeps = 1, .spin_polls = PW_SPIN_POLLS, .sw_engine = PW_SW_ENGINE_AUTO};

static pw_plan random_plan(void)
{
    pw_plan p;
    memset(&p, 0, sizeof p);
    p.backend = PW_BACKEND_CUDA;
    p.strategy = test_range(0, 2) == 0 ? PW_STRATEGY_PEER : test_range(0, 1) ? PW_STRATEGY_GLOBAL_BARRIER : PW_STRATEGY_LAUNCH;
    p.layout = test_range(0, 3) == 0 ? PW_LAYOUT_HYBRID : PW_LAYOUT_ROW_MAJOR;
    const int64_t heights[] = {1, 7, 16, 32, 48, 64, 96, 128, 256, 512};
    const int64_t h = heights[test_range(0, 9)];
    const int skew = test_range(0, 4) == 0 ? 1 : 0;
    const pw_tile_shape shape = test_range(0, 3) == 0 ? PW_TILE_SQUARE : PW_TILE_HYPER;
    const int64_t rows = test_range(0, 3) == 0 ? test_range(1, 40) : test_range(1, 5000);
    const int64_t cols = test_range(1, 5000), w = test_range(0, 1) ? h : test_range(1, 700);
    if (pw_tiling_init(&p.tiling, rows, cols, skew, shape, h, w) != PW_OK) abort();
    const int rs[] = {0, 0, 0, 1, 2, 4, 8};
    int r = rs[test_range(0, 6)];
    while (r > 1 && p.tiling.h % r) r /= 2;
    p.rows_per_thread = r;
    p.workers = 0;
    p.stuck_row = -1;
    return p;
}

static int64_t up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

static int warp_r(int64_t h)
{
    int64_t r = h % 32 ? 0 : h / 32;
    return r == 1 || r == 2 || r == 4 || r == 8 ? (int)r : 0;
}

/* SW and DTW: the warp processor when the caller left R to the library and hyper tiles of 32 R
 * rows (R = 1, 2, 4, 8) allow it, else the block processor with the R asked for (or 1). */
static void check_linear(const pw_plan *p, int vb, int block)
{
    const pw_cell_shape cell = {PW_FORM(PW_PROC_WARP) | PW_FORM(PW_PROC_LINEAR), vb, 1, 0, 0};
    pw_kernel_switches sw = defaults;
    sw.linear_block = block;
    pw_kernel_desc d;
    const pw_tiling *t = &p->tiling;
    if (t->skew != 0) { /* SW and DTW have no skew; the linear processors take none */
        CHECK(pw_select_kernel(p, &cell, &sw, &d) == PW_ERR_UNSUPPORTED, "linear cell, skewed plan");
        return;
    }
    CHECK(pw_select_kernel(p, &cell, &sw, &d) == PW_OK, "linear select");
    const int warp = !block && p->rows_per_thread == 0 && t->shape == PW_TILE_HYPER && warp_r(t->h);
    CHECK(d.processor == (warp ? PW_PROC_WARP : PW_PROC_LINEAR), "linear h %lld R %d shape %d: %s", (long long)t->h,
          p->rows_per_thread, t->shape, pw_processor_name(d.processor));
    if (warp) {
        int64_t w = p->strategy == PW_STRATEGY_PEER && t->w < 128 ? 128 : t->w;
        CHECK(d.rows_per_thread == t->h / 32 && d.tiling.w == w && d.tiling.h == t->h && d.needs.threads == 32 &&
                  d.needs.smem == 0 && d.needs.warps_per_scheduler == 2,
              "warp needs");
    } else {
        const int r = p->rows_per_thread ? p->rows_per_thread : 1;
        CHECK(d.rows_per_thread == r && d.tiling.w == t->w && d.needs.threads == t->h / r &&
                  d.needs.smem == (size_t)(2 * (t->h / r) * vb) && d.needs.warps_per_scheduler == 0,
              "linear needs");
    }
}

/* SAT (scan = PREFIX_SUM, diag = LINEAR, global = FULL) and INTHIST (PREFIX_SUM or FULL): PREFIX_SUM on
 * row-major unskewed tiles of at most 128 rows unless switched off; SAT's diag form on row-major
 * unskewed plans unless "global"; FullProc otherwise.  "diag" puts SAT's diag form first. */
static void check_sums(const pw_plan *p, int sat_switch, int inthist)
{
    const int vb = inthist ? 4 : (int)(4 << test_range(0, 1)), planes = inthist ? (int)test_range(1, 300) : 1;
    const pw_cell_shape cell = {PW_FORM(PW_PROC_PREFIX_SUM) | (inthist ? 0 : PW_FORM(PW_PROC_LINEAR)) | PW_FORM(PW_PROC_FULL), vb,
                                planes, inthist, inthist ? 0 : 1};
    pw_kernel_switches sw = defaults;
    sw.sat_processor = sat_switch;
    pw_kernel_desc d;
    const pw_tiling *t = &p->tiling;
    const int plain = p->layout != PW_LAYOUT_HYBRID && t->skew == 0;
    const int diag = !inthist && plain && sat_switch != 2;
    const int scan = plain && t->h <= 128 && sat_switch != 2 && !(sat_switch == 1 && diag);
    CHECK(pw_select_kernel(p, &cell, &sw, &d) == PW_OK, "sums select");
    const pw_processor want = scan ? PW_PROC_PREFIX_SUM : diag ? PW_PROC_LINEAR : PW_PROC_FULL;
    CHECK(d.processor == want, "%s switch %d layout %d skew %d h %lld: %s", inthist ? "inthist" : "sat", sat_switch,
          p->layout, t->skew, (long long)t->h, pw_processor_name(d.processor));
    if (d.processor == PW_PROC_PREFIX_SUM) {
        const int peer = p->strategy == PW_STRATEGY_PEER;
        const int warps = (int)((t->h + 7) / 8);
        size_t smem = 2 * (size_t)(warps + 1) * 128 * vb, carries = (size_t)planes * warps * 8 * vb;
        if (inthist && carries <= 32 * 1024) smem += carries;
        CHECK(d.tiling.shape == PW_TILE_SQUARE && d.tiling.w == (peer ? up(t->cols, 128) : up(t->w, 128)) &&
                  d.prefetch == peer && d.needs.threads == 32 * warps && d.needs.smem == smem,
              "scan tiles and needs (h %lld planes %d)", (long long)t->h, planes);
    }
    if (d.processor == PW_PROC_FULL) CHECK(d.needs.threads == t->h && d.needs.smem == 0, "full needs");
    if (d.processor == PW_PROC_LINEAR) /* SAT's diag form is one row a thread, whatever was asked */
        CHECK(d.rows_per_thread == 1 && d.needs.threads == t->h && d.needs.smem == (size_t)(2 * t->h * vb),
              "sat diag needs (R asked %d)", p->rows_per_thread);
}

/* HEAT/SOR: on a row-major grid with hyper unskewed tiles, the warp processor (h <= 128) unless
 * switched to window (which fits in 100 KB) or global; FullProc otherwise. */
static void check_stencil(const pw_plan *p, int stencil_switch, int pipeline)
{
    const int vb = (int)(4 << test_range(0, 1));
    const pw_cell_shape cell = {PW_FORM(PW_PROC_STENCIL_WARP) | PW_FORM(PW_PROC_STENCIL_WINDOW) | PW_FORM(PW_PROC_FULL), vb, 1, 0, 0};
    pw_kernel_switches sw = defaults;
    sw.stencil_processor = stencil_switch;
    sw.pipeline_sweeps = pipeline;
    pw_kernel_desc d;
    const pw_tiling *t = &p->tiling;
    const int fits = p->layout != PW_LAYOUT_HYBRID && t->skew == 0 && t->shape == PW_TILE_HYPER;
    const size_t window = (size_t)(t->h + 2) * (size_t)(t->w + t->h + 1) * vb;
    const pw_processor want = fits && stencil_switch == 0 && t->h <= 128          ? PW_PROC_STENCIL_WARP
                              : fits && stencil_switch == 1 && window <= 100 * 1024 ? PW_PROC_STENCIL_WINDOW
                                                                                   : PW_PROC_FULL;
    CHECK(pw_select_kernel(p, &cell, &sw, &d) == PW_OK, "stencil select");
    CHECK(d.processor == want, "stencil switch %d h %lld: %s", stencil_switch, (long long)t->h, pw_processor_name(d.processor));
    CHECK(d.pipelined_sweeps == (p->strategy != PW_STRATEGY_LAUNCH && pipeline),
          "pipelined sweeps");
    if (d.processor == PW_PROC_STENCIL_WARP) {
        const int r = t->h <= 32 ? 1 : t->h <= 64 ? 2 : 4;
        const int64_t elems = (32 * r + 2) * 33 + (32 * r + 2) / 32; /* a buffer: own rows, below, above */
        const size_t smem = 4 * (size_t)elems * vb + 2 * 32 * (size_t)r * vb + 4 * sizeof(int);
        CHECK(d.rows_per_thread == r && d.tiling.w == up(t->w, 32) && d.needs.threads == 96 && d.needs.smem == smem,
              "stencil warp needs (h %lld)", (long long)t->h);
    }
    if (d.processor == PW_PROC_STENCIL_WINDOW) CHECK(d.needs.threads == t->h && d.needs.smem == window, "window needs");
}

static void check_switches_from_environment(void)
{
    pw_kernel_switches sw;
    unsetenv("PEERWAVE_LINEAR_PROCESSOR");
    unsetenv("PEERWAVE_SAT_PROCESSOR");
    unsetenv("PEERWAVE_STENCIL_PROCESSOR");
    unsetenv("PEERWAVE_PIPELINE_SWEEPS");
    unsetenv("PEERWAVE_SPIN_POLLS");
    unsetenv("PEERWAVE_3D");
    unsetenv("PEERWAVE_SW_ENGINE");
    pw_kernel_switches_read(&sw);
    CHECK(!memcmp(&sw, &defaults, sizeof sw), "defaults");
    setenv("PEERWAVE_LINEAR_PROCESSOR", "block", 1);
    setenv("PEERWAVE_SAT_PROCESSOR", "diag", 1);
    setenv("PEERWAVE_STENCIL_PROCESSOR", "window", 1);
    setenv("PEERWAVE_PIPELINE_SWEEPS", "0", 1);
    setenv("PEERWAVE_SPIN_POLLS", "7", 1);
    setenv("PEERWAVE_3D", "plane", 1);
    setenv("PEERWAVE_SW_ENGINE", "rows32", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.sw_engine == PW_SW_ENGINE_ROWS32, "SW engine rows32");
    unsetenv("PEERWAVE_SW_ENGINE");
    CHECK(sw.linear_block == 1 && sw.sat_processor == 1 && sw.stencil_processor == 1 && sw.pipeline_sweeps == 0 &&
              sw.spin_polls == 7 && sw.layout_3d == PW_3D_PLANE,
          "all set");
    setenv("PEERWAVE_3D", "flat", 1);
    setenv("PEERWAVE_3D_TILE", "8x2", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.layout_3d == PW_3D_FLAT && sw.tile3_kw == 8 && sw.tile3_nw == 2 && sw.tile3_ahead == 0 && sw.tile3_chunk == 0 &&
              sw.tile3_blocks == 0,
          "3-D flat, tile 8x2");
    setenv("PEERWAVE_3D_TILE", "4x8x2x1", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 4 && sw.tile3_nw == 8 && sw.tile3_ahead == 2 && sw.tile3_chunk == 1 && sw.tile3_blocks == 0,
          "3-D tile 4x8, 2 slices ahead, a hand-over every step");
    setenv("PEERWAVE_3D_TILE", "4x8x4x4x3", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 4 && sw.tile3_nw == 8 && sw.tile3_ahead == 4 && sw.tile3_chunk == 4 && sw.tile3_blocks == 3,
          "3-D tile 4x8, three blocks an SM");
    /* the tiles test_cells --gpu runs */
    setenv("PEERWAVE_3D_TILE", "4x8x1x1", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 4 && sw.tile3_nw == 8 && sw.tile3_ahead == 1 && sw.tile3_chunk == 1 && sw.tile3_blocks == 0, "4x8x1x1");
    setenv("PEERWAVE_3D_TILE", "2x4x3x5x8", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 2 && sw.tile3_nw == 4 && sw.tile3_ahead == 3 && sw.tile3_chunk == 5 && sw.tile3_blocks == 8, "2x4x3x5x8");
    setenv("PEERWAVE_3D_TILE", "1x1x2x2x32", 1); /* 32 blocks of one warp: the most an SM holds */
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 1 && sw.tile3_nw == 1 && sw.tile3_blocks == 32, "1x1x2x2x32");
    CHECK(sw.tile3_chains == 1, "1x1x2x2x32: one chain a thread");
    setenv("PEERWAVE_3D_TILE", "4x8x4x4x0x2", 1); /* two chains a thread, the processor's blocks */
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 4 && sw.tile3_nw == 8 && sw.tile3_ahead == 4 && sw.tile3_chunk == 4 && sw.tile3_blocks == 0 &&
              sw.tile3_chains == 2,
          "4x8x4x4x0x2");
    setenv("PEERWAVE_3D_TILE", "2x4x3x5x4x4", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.tile3_kw == 2 && sw.tile3_nw == 4 && sw.tile3_blocks == 4 && sw.tile3_chains == 4, "2x4x3x5x4x4");
    /* a bad shape, a third number without the fourth, AHEAD or CHUNK out of range, more threads an SM than 2048 */
    /* more blocks than an SM holds (and products that would overflow an int), trailing text */
    static const char *bad_tiles[] = {"3x4",       "16x1",       "4x0",       "4",           "x",
                                      "4x-2",      "4x8x2",      "4x8x0x4",   "4x8x9x4",     "4x8x4x17",
                                      "4x8x4x4x9", "1x1x4x4x33", "4x8x4x4x0", "4x8x2x1junk", "4x8x4x4x",
                                      "4x8junk",   "4x8x4x4x2147483647",      "1x1x4x4x134217728",
                                      "4x8x4x4x2x3", "4x8x4x4x2x0", "4x8x4x4x2x8", "4x8x4x4x2x-2", "4x8x4x4x2x2x2",
                                      "4x8x4x4x2x"};
    for (int k = 0; k < (int)(sizeof bad_tiles / sizeof *bad_tiles); k++) {
        setenv("PEERWAVE_3D_TILE", bad_tiles[k], 1);
        pw_kernel_switches_read(&sw);
        CHECK(sw.tile3_kw == 0 && sw.tile3_nw == 0 && sw.tile3_ahead == 0 && sw.tile3_chunk == 0 && sw.tile3_blocks == 0 &&
                  sw.tile3_chains == 0,
              "3-D tile %s refused", bad_tiles[k]);
        /* ... and a run under it refused by name (it ran with the default tile) */
        CHECK(pw_kernel_switches_check() == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "PEERWAVE_3D_TILE"),
              "3-D tile %s: the check says %s", bad_tiles[k], pw_error_detail());
    }
    setenv("PEERWAVE_3D_TILE", "4x8x4x4x0x2", 1);
    CHECK(pw_kernel_switches_check() == PW_OK, "a good 3-D tile passes the check: %s", pw_error_detail());
    /* every word switch: its values pass, another is refused by name (STENCIL_PROCESSOR=windw chose
     * the global processor; the others fell back to their default) */
    static const struct {
        const char *name, *good, *bad;
    } words[] = {{"PEERWAVE_STENCIL_PROCESSOR", "window", "windw"}, {"PEERWAVE_SAT_PROCESSOR", "diag", "diagonal"},
                 {"PEERWAVE_LINEAR_PROCESSOR", "block", "blocks"},  {"PEERWAVE_PIPELINE_SWEEPS", "0", "no"},
                 {"PEERWAVE_SW_ENGINE", "rows32", "row"},           {"PEERWAVE_PAIRS_LANES", "32", "64"},
                 {"PEERWAVE_3D", "flat", "flatten"},                {"PEERWAVE_SPIN_POLLS", "7", "-1"},
                 {"PEERWAVE_SW_LANES", "pairs", "pair"}};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        setenv(words[k].name, words[k].good, 1);
        CHECK(pw_kernel_switches_check() == PW_OK, "%s=%s passes: %s", words[k].name, words[k].good, pw_error_detail());
        setenv(words[k].name, words[k].bad, 1);
        CHECK(pw_kernel_switches_check() == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), words[k].name),
              "%s=%s refused: %s", words[k].name, words[k].bad, pw_error_detail());
        unsetenv(words[k].name);
    }
    unsetenv("PEERWAVE_3D_TILE");
    unsetenv("PEERWAVE_3D");
    setenv("PEERWAVE_SAT_PROCESSOR", "global", 1);
    setenv("PEERWAVE_STENCIL_PROCESSOR", "global", 1);
    setenv("PEERWAVE_SPIN_POLLS", "-3", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.sat_processor == 2 && sw.stencil_processor == 2 && sw.spin_polls == PW_SPIN_POLLS, "global; bad count");
    setenv("PEERWAVE_STENCIL_PROCESSOR", "", 1);
    pw_kernel_switches_read(&sw);
    CHECK(sw.stencil_processor == 0, "empty stencil switch: warp");
}

/* The automatic rule of pw_swr_choose restated from its documentation (kernel_desc.h), for the
 * random check: the pairs where DPX is and the first round of pair-warps gives 16 warps an SM of
 * the whole GPU and a round's columns are 8 x 64 a warp; else 32-bit lanes where their first round
 * gives 16 warps an SM and all rounds' columns are 10 x 64 a warp; rounds balanced (the fewest
 * warps, in blocks of 8, for the rounds the capped grid needs); and nothing past the counters. */
static int auto_choice(const pw_swr_gpu *g, int r, int64_t rows, int64_t cols, int *pairs)
{
    const int64_t tile_rows = (rows + 32 * r - 1) / (32 * r);
    int64_t grid32 = (int64_t)g->sms * g->per_sm32, grid16 = (int64_t)g->sms * g->per_sm16;
    const int64_t fill32 = 2 * grid32 * 8 / 3, fill16 = 2 * (2 * grid16 * 8 / 3);
    if (g->block_cap > 0) grid32 = grid32 < g->block_cap ? grid32 : g->block_cap, grid16 = grid16 < g->block_cap ? grid16 : g->block_cap;
    if (grid32 < 1) return 0;
    for (*pairs = 1; *pairs >= 0; (*pairs)--) {
        const int per = *pairs ? 2 : 1;
        const int64_t grid = *pairs ? grid16 : grid32;
        if (*pairs && !(g->dpx && grid16 > 0 && tile_rows >= fill16)) continue;
        if (!*pairs && tile_rows < fill32) return 0;
        const int64_t rounds = (tile_rows + grid * 8 * per - 1) / (grid * 8 * per);
        const int64_t w8 = ((tile_rows + per * rounds - 1) / (per * rounds) + 7) / 8 * 8; /* whole blocks */
        if (*pairs ? cols < 8 * 64 * w8 : (double)rounds * (double)cols < 10.0 * 64 * (double)w8) continue;
        const int64_t lag = *pairs ? 64 * w8 + 256 : 0;
        return rows <= INT32_MAX - 32 * r && cols + lag + 1 <= INT32_MAX / 2 && (rounds + 1) * (cols + lag + 1) < ((int64_t)1 << 32);
    }
    return 0;
}

/* SW's warp-rows engine: when it takes a pair and its shape (pw_swr_choose). */
static void check_warp_rows(void)
{
    const pw_swr_gpu h100 = {132, 3, 3, 1, 0};
    pw_swr_shape sh;
    /* the genome pair, the longer one down the rows: pairs, 2 rounds of 2880 warps (measured best) */
    CHECK(pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 4411532, 3268203, &sh) && sh.pairs && sh.tile_rows == 11489 &&
              sh.rounds == 2 && sh.warps == 2880 && sh.grid == 360 && sh.lag == 64 * 2880 + 256 &&
              sh.available_blocks == 396,
          "genomes: taken %d pairs %d rounds %lld warps %lld", sh.tile_rows > 0, sh.pairs, (long long)sh.rounds,
          (long long)sh.warps);
    /* without DPX: 32-bit lanes, 4 rounds */
    const pw_swr_gpu no_dpx = {132, 3, 3, 0, 0};
    CHECK(pw_swr_choose(&no_dpx, PW_SW_ENGINE_AUTO, 12, 4411532, 3268203, &sh) && !sh.pairs && sh.rounds == 4 &&
              sh.warps == 2880 && sh.lag == 0,
          "genomes without DPX");
    /* 262144^2: 683 tile-rows leave the GPU idle -> the tile engines */
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 262144, 262144, &sh), "262144^2 not taken");
    /* 1.2 M x 1 M: enough tile-rows for 32-bit lanes, not for pairs, but one round of 3128 warps
     * over 1 M columns is mostly fill (slower than the tile engines on an H200) */
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 1200000, 1000000, &sh), "1.2 M x 1 M not taken");
    /* 2.2 M x 1.2 M (test_sw_rows' long case, the longer down the rows): enough tile-rows for pairs
     * (5730), too few columns for their fill, so 32-bit lanes: two rounds of 2872 warps, whose
     * 2.4 M columns pass 640 x 2872 */
    CHECK(pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 2200000, 1200000, &sh) && !sh.pairs && sh.rounds == 2 &&
              sh.warps == 2872,
          "2.2 M x 1.2 M: pairs %d rounds %lld warps %lld", sh.pairs, (long long)sh.rounds, (long long)sh.warps);
    /* one round of 3128 warps: 2 M columns do (640 x 3128 = 2.0 M), one fewer does not */
    CHECK(pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 1200000, 640 * 3128, &sh) && !sh.pairs && sh.rounds == 1,
          "one round at the rule's edge");
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 1200000, 640 * 3128 - 1, &sh), "one round past the rule's edge");
    /* three rounds of 2672 warps (8000 tile-rows; too few columns for the pairs): 640 x 2672 / 3 is
     * 570026.7, so 570027 columns are taken and 570026 are not */
    CHECK(pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 8000 * 384, 570027, &sh) && !sh.pairs && sh.rounds == 3 &&
              sh.warps == 2672,
          "three rounds at the rule's edge: pairs %d rounds %lld warps %lld", sh.pairs, (long long)sh.rounds,
          (long long)sh.warps);
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 8000 * 384, 570026, &sh), "three rounds past the rule's edge");
    /* absurd sizes are refused, not overflowed */
    const pw_swr_gpu one_sm = {1, 3, 3, 0, 0};
    CHECK(!pw_swr_choose(&one_sm, PW_SW_ENGINE_AUTO, 12, (int64_t)1 << 40, (int64_t)1 << 40, &sh), "2^40 squared");
    /* long and thin: the columns too few for a round's fill either way */
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 4411532, 100000, &sh), "thin pair not taken");
    /* a block cap does not make a small pair "fill the GPU" */
    const pw_swr_gpu capped = {132, 3, 3, 1, 1};
    CHECK(!pw_swr_choose(&capped, PW_SW_ENGINE_AUTO, 12, 3001, 2999, &sh), "capped small pair not taken");
    /* asked for: any pair, within the cap */
    CHECK(pw_swr_choose(&capped, PW_SW_ENGINE_ROWS, 12, 3001, 2999, &sh) && sh.pairs && sh.grid == 1 && sh.warps == 8 &&
              sh.rounds == 1 && sh.tile_rows == 8,
          "asked, capped");
    CHECK(pw_swr_choose(&capped, PW_SW_ENGINE_ROWS32, 12, 1, 1, &sh) && !sh.pairs && sh.warps == 8, "asked, 32-bit");
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_TILES, 12, 4411532, 3268203, &sh), "tiles asked");
    const pw_swr_gpu no_pairs = {132, 3, 0, 1, 0};
    CHECK(pw_swr_choose(&no_pairs, PW_SW_ENGINE_ROWS, 12, 5000, 5000, &sh) && !sh.pairs, "pairs cannot run");
    /* past the 32-bit counters, or R not a multiple of 4 */
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_ROWS, 12, 1 << 30, 1 << 30, &sh), "counters");
    CHECK(!pw_swr_choose(&h100, PW_SW_ENGINE_ROWS, 6, 5000, 5000, &sh), "R = 6");
    /* random pairs and GPUs: balanced rounds (the fewest blocks for the rounds the whole grid needs) */
    for (int k = 0; k < 3000; k++) {
        const pw_swr_gpu g = {(int)test_range(1, 200), (int)test_range(1, 4), (int)test_range(0, 4), (int)test_range(0, 1),
                              test_range(0, 3) ? 0 : test_range(1, 50)};
        const int r = 4 * (int)test_range(1, 5);
        const int64_t rows = test_range(1, 3) == 1 ? test_range(1, 5000) : test_range(1, 8000000);
        const int64_t cols = test_range(1, 3) == 1 ? test_range(1, 5000) : test_range(1, 8000000);
        const pw_sw_engine_ask ask = (pw_sw_engine_ask)test_range(0, 2);
        if (!pw_swr_choose(&g, ask, r, rows, cols, &sh)) {
            int pairs = 0;
            CHECK(ask == PW_SW_ENGINE_AUTO ? !auto_choice(&g, r, rows, cols, &pairs)
                                           : (sh.rounds + 1) * (cols + sh.lag + 1) >= ((int64_t)1 << 32),
                  "refused: %lld x %lld (ask %d, sms %d, per SM %d / %d)", (long long)rows, (long long)cols, (int)ask,
                  g.sms, g.per_sm32, g.per_sm16);
            continue;
        }
        int64_t max_grid = (int64_t)g.sms * (sh.pairs ? g.per_sm16 : g.per_sm32);
        if (g.block_cap > 0 && g.block_cap < max_grid) max_grid = g.block_cap;
        const int per = sh.pairs ? 2 : 1;
        const int64_t need = (sh.tile_rows + max_grid * 8 * per - 1) / (max_grid * 8 * per);
        CHECK(sh.tile_rows == (rows + 32 * r - 1) / (32 * r) && sh.grid >= 1 && sh.grid <= max_grid &&
                  sh.warps == 8 * sh.grid && sh.rounds == need && sh.rounds * sh.warps * per >= sh.tile_rows &&
                  (sh.grid == 1 || sh.rounds * (sh.warps - 8) * per < sh.tile_rows) &&
                  (!sh.pairs || (g.dpx && g.per_sm16 > 0 && ask != PW_SW_ENGINE_ROWS32)) &&
                  sh.lag == (sh.pairs ? 64 * sh.warps + 256 : 0) && sh.available_blocks == max_grid,
              "shape %lld x %lld R %d sms %d: grid %lld rounds %lld pairs %d", (long long)rows, (long long)cols, r, g.sms,
              (long long)sh.grid, (long long)sh.rounds, sh.pairs);
        if (ask == PW_SW_ENGINE_AUTO) { /* taken by itself only as auto_choice says (checked both ways below) */
            int pairs = 0;
            CHECK(auto_choice(&g, r, rows, cols, &pairs) && pairs == sh.pairs,
                  "auto took %lld x %lld (pairs %d, sms %d, per SM %d / %d)", (long long)rows, (long long)cols, sh.pairs,
                  g.sms, g.per_sm32, g.per_sm16);
        }
        /* dealt over G GPUs: no more rounds a GPU than the one GPU's rounds shared out, a GPU's
         * grid within the one GPU's, the fewest warps for those rounds */
        const int gpus = (int)test_range(1, 8);
        pw_swr_shape sp = sh;
        if (!pw_swr_spread(&sp, gpus, cols)) {
            CHECK((sp.rounds + 1) * (cols + sp.lag + 1) >= ((int64_t)1 << 32), "spread refused");
            continue;
        }
        const int64_t each = (sp.rounds + gpus - 1) / gpus, each_one = (need + gpus - 1) / gpus;
        CHECK(sp.grid >= 1 && sp.grid <= max_grid && sp.warps == 8 * sp.grid && each <= each_one &&
                  sp.rounds * sp.warps * per >= sp.tile_rows && (sp.grid == 1 || each * gpus * (sp.warps - 8) * per < sp.tile_rows) &&
                  sp.lag == (sp.pairs ? 64 * sp.warps + 256 : 0) && sp.pairs == sh.pairs,
              "spread over %d: grid %lld rounds %lld (one GPU: %lld x %lld)", gpus, (long long)sp.grid,
              (long long)sp.rounds, (long long)sh.grid, (long long)sh.rounds);
        if (gpus == 1) CHECK(sp.grid == sh.grid && sp.rounds == sh.rounds, "spread over 1 changes the shape");
    }
    /* the genomes on 2 and 4 H100s: one pair round a GPU */
    CHECK(pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 4411532, 3268203, &sh) && pw_swr_spread(&sh, 2, 3268203) &&
              sh.warps == 2880 && sh.rounds == 2,
          "genomes on 2: warps %lld rounds %lld", (long long)sh.warps, (long long)sh.rounds);
    CHECK(pw_swr_choose(&h100, PW_SW_ENGINE_AUTO, 12, 4411532, 3268203, &sh) && pw_swr_spread(&sh, 4, 3268203) &&
              sh.warps == 1440 && sh.rounds == 4,
          "genomes on 4: warps %lld rounds %lld", (long long)sh.warps, (long long)sh.rounds);
}

/* The width model's kind for the built-in apps (pw_app_waits_in_chunks): plans whose processors
 * are known from kernel_desc.h's rules. */
static void check_waits_in_chunks(void)
{
    pw_plan p;
    memset(&p, 0, sizeof p);
    p.backend = PW_BACKEND_CUDA;
    p.strategy = PW_STRATEGY_PEER;
    p.layout = PW_LAYOUT_ROW_MAJOR;
    p.stuck_row = -1;
    if (pw_tiling_init(&p.tiling, 5000, 7000, 0, PW_TILE_HYPER, 64, 1024) != PW_OK) abort();
    static const char *apps[] = {"sw", "dtw-f32", "dtw-f64", "sat-u8-i32", "sat-f32-f64", "inthist-u8-16bins", "heat-f32", "sor-f64"};
    for (int k = 0; k < 8; k++) CHECK(pw_app_waits_in_chunks(apps[k], &p), "%s: a chunked processor by default", apps[k]);
    CHECK(!pw_app_waits_in_chunks("user", &p) && !pw_app_waits_in_chunks(NULL, &p), "an app it does not know");
    p.rows_per_thread = 2; /* SW and DTW on LinearProc: a wait a tile */
    CHECK(!pw_app_waits_in_chunks("sw", &p) && !pw_app_waits_in_chunks("dtw-f32", &p) && pw_app_waits_in_chunks("sat-u8-i32", &p),
          "rows per thread asked for");
    p.rows_per_thread = 0;
    p.layout = PW_LAYOUT_HYBRID; /* the sums and the stencils on FullProc */
    CHECK(!pw_app_waits_in_chunks("sat-u8-i32", &p) && !pw_app_waits_in_chunks("inthist-u8-16bins", &p) &&
              !pw_app_waits_in_chunks("heat-f32", &p) && pw_app_waits_in_chunks("sw", &p),
          "hybrid layout");
    p.layout = PW_LAYOUT_ROW_MAJOR;
    if (pw_tiling_init(&p.tiling, 5000, 7000, 0, PW_TILE_HYPER, 256, 1024) != PW_OK) abort();
    CHECK(!pw_app_waits_in_chunks("heat-f32", &p) && pw_app_waits_in_chunks("sw", &p), "h = 256: FullProc for HEAT, R = 8 for SW");
    p.backend = PW_BACKEND_CPU;
    CHECK(!pw_app_waits_in_chunks("sw", &p) && !pw_app_waits_in_chunks("heat-f32", &p), "the CPU waits once a tile");
}

int main(void)
{
    test_seed(32);
    int shapes = 3000;
    for (int k = 0; k < shapes; k++) {
        const pw_plan p = random_plan();
        check_linear(&p, (int)(4 << test_range(0, 2)), test_range(0, 4) == 0);
        check_sums(&p, (int)test_range(0, 2), (int)test_range(0, 1));
        check_stencil(&p, (int)test_range(0, 2), (int)test_range(0, 1));
    }
    /* no form suits: an app that offers none */
    pw_plan p = random_plan();
    const pw_cell_shape none = {0, 4, 1, 0, 0};
    pw_kernel_desc d;
    CHECK(pw_select_kernel(&p, &none, &defaults, &d) == PW_ERR_UNSUPPORTED, "no form");
    /* the peer grid of one-warp blocks: the same number of warps on every scheduler, at most 2 */
    CHECK(pw_even_peer_grid(5000, 132, 2) == 1056 && pw_even_peer_grid(1000, 132, 2) == 528 &&
              pw_even_peer_grid(300, 132, 2) == 300 && pw_even_peer_grid(5000, 132, 0) == 5000,
          "even peer grid");
    CHECK(!strcmp(pw_processor_name(PW_PROC_PREFIX_SUM), "prefix-sum") && !strcmp(pw_processor_name(PW_PROC_COUNT), "?"), "names");
    check_waits_in_chunks(); /* (reads the switches: before the test that sets them) */
    check_switches_from_environment();
    check_warp_rows();
    return test_finish();
}
