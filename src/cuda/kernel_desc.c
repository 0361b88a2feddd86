/* kernel_desc.c - the CUDA backend's kernel selector and launch needs (kernel_desc.h).  Plain C:
 * built with or without CUDA, so the choices are tested everywhere (tests/test_kernel_desc.c). */
#include "kernel_desc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/proc_shapes.h"
#include "../core/env_number.h"
#include "../core/status_detail.h"

const char *pw_processor_name(pw_processor p)
{
    static const char *const names[PW_PROC_COUNT] = {"linear", "warp", "full", "prefix-sum", "stencil-warp", "stencil-window"};
    return (unsigned)p < PW_PROC_COUNT ? names[p] : "?";
}

static int env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && !strcmp(v, value);
}

void pw_kernel_switches_read(pw_kernel_switches *out)
{
    const char *polls = getenv("PEERWAVE_SPIN_POLLS");
    out->linear_block = env_is("PEERWAVE_LINEAR_PROCESSOR", "block");
    out->sat_processor = env_is("PEERWAVE_SAT_PROCESSOR", "global") ? 2 : env_is("PEERWAVE_SAT_PROCESSOR", "diag") ? 1 : 0;
    /* unset, empty or "warp": the warp processor */
    out->stencil_processor = env_is("PEERWAVE_STENCIL_PROCESSOR", "window") ? 1
                             : getenv("PEERWAVE_STENCIL_PROCESSOR") && *getenv("PEERWAVE_STENCIL_PROCESSOR") &&
                                       !env_is("PEERWAVE_STENCIL_PROCESSOR", "warp") ? 2 : 0;
    out->pipeline_sweeps = !env_is("PEERWAVE_PIPELINE_SWEEPS", "0");
    out->sw_packed_lanes = env_is("PEERWAVE_SW_LANES", "pairs");
    out->sw_engine = env_is("PEERWAVE_SW_ENGINE", "rows")     ? PW_SW_ENGINE_ROWS
                     : env_is("PEERWAVE_SW_ENGINE", "rows32") ? PW_SW_ENGINE_ROWS32
                     : env_is("PEERWAVE_SW_ENGINE", "tiles")  ? PW_SW_ENGINE_TILES
                                                              : PW_SW_ENGINE_AUTO;
    out->pairs_lanes32 = env_is("PEERWAVE_PAIRS_LANES", "32");
    /* plane and flat: for measuring and as fallbacks (PERFORMANCE.md) */
    out->layout_3d = env_is("PEERWAVE_3D", "plane") ? PW_3D_PLANE : env_is("PEERWAVE_3D", "flat") ? PW_3D_FLAT : PW_3D_TILES;
    const char *tile3 = getenv("PEERWAVE_3D_TILE");
    int kw = 0, nw = 0, ahead = 0, chunk = 0, blocks = 0, chains = 1;
    out->tile3_kw = out->tile3_nw = out->tile3_ahead = out->tile3_chunk = out->tile3_blocks = out->tile3_chains = 0;
    /* two, four, five or six numbers and nothing after them (%n: where the last one ended) */
    int n3 = 0, end2 = -1, end4 = -1, end5 = -1, end6 = -1;
    if (tile3) {
        n3 = sscanf(tile3, "%dx%d%nx%dx%d%nx%d%nx%d%n", &kw, &nw, &end2, &ahead, &chunk, &end4, &blocks, &end5, &chains, &end6);
        const int end = n3 == 2 ? end2 : n3 == 4 ? end4 : n3 == 5 ? end5 : n3 == 6 ? end6 : -1;
        if (end < 0 || tile3[end]) n3 = 0;
    }
    if ((n3 == 2 || n3 >= 4) && kw > 0 && kw <= 8 && !(kw & (kw - 1)) && nw > 0 && nw <= 8 && !(nw & (nw - 1)) &&
        (n3 == 2 || (ahead >= 1 && ahead <= 8 && chunk >= 1 && chunk <= 16)) &&
        (n3 < 5 || (blocks >= 0 && blocks <= 32 && blocks <= 2048 / (32 * nw) && (blocks > 0 || n3 == 6))) && /* an SM: 32 blocks, 2048 threads */
        (chains == 1 || chains == 2 || chains == 4)) {
        out->tile3_kw = kw;
        out->tile3_nw = nw;
        out->tile3_ahead = n3 >= 4 ? ahead : 0;
        out->tile3_chunk = n3 >= 4 ? chunk : 0;
        out->tile3_blocks = n3 >= 5 ? blocks : 0;
        out->tile3_chains = chains;
    }
    /* unset, empty, negative or not a number: the default */
    out->spin_polls = polls && *polls && atoi(polls) >= 0 ? (unsigned)atoi(polls) : PW_SPIN_POLLS;
}

pw_status pw_kernel_switches_check(void)
{
    /* (pw_kernel_switches_read takes anything else as the default: a typo such as
     * PEERWAVE_STENCIL_PROCESSOR=windw even chose the global processor) */
    static const struct {
        const char *name, *values[4];
    } words[] = {{"PEERWAVE_LINEAR_PROCESSOR", {"block", "warp"}},
                 {"PEERWAVE_SAT_PROCESSOR", {"scan", "diag", "global"}},
                 {"PEERWAVE_STENCIL_PROCESSOR", {"warp", "window", "global"}},
                 {"PEERWAVE_PIPELINE_SWEEPS", {"0", "1"}},
                 {"PEERWAVE_SW_LANES", {"pairs", "scalar"}},
                 {"PEERWAVE_SW_ENGINE", {"rows", "rows32", "tiles", "auto"}},
                 {"PEERWAVE_PAIRS_LANES", {"32", "16"}},
                 {"PEERWAVE_3D", {"plane", "flat", "tiles"}}};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        const char *v = getenv(words[k].name);
        if (!v || !*v) continue;
        int known = 0;
        for (int q = 0; q < 4 && words[k].values[q]; q++) known |= !strcmp(v, words[k].values[q]);
        if (known) continue;
        char list[64] = "";
        for (int q = 0; q < 4 && words[k].values[q]; q++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", q ? ", " : "", words[k].values[q]);
        pw_set_error_detail("%s='%s': one of %s expected (or leave it unset)", words[k].name, v, list);
        return PW_ERR_INVALID_ARGUMENT;
    }
    const char *tile3 = getenv("PEERWAVE_3D_TILE"), *polls = getenv("PEERWAVE_SPIN_POLLS");
    pw_kernel_switches sw;
    pw_kernel_switches_read(&sw);
    if (tile3 && *tile3 && sw.tile3_kw == 0) {
        pw_set_error_detail("PEERWAVE_3D_TILE='%s': KWxNW[xAxC[xB[xR]]] within the limits of docs/RELIABILITY.md "
                            "expected (or leave it unset)", tile3);
        return PW_ERR_INVALID_ARGUMENT;
    }
    long long n_polls;
    if (polls && *polls && pw_env_number("PEERWAVE_SPIN_POLLS", 0, INT_MAX, &n_polls) < 0) { /* (the reader's atoi) */
        pw_set_error_detail("PEERWAVE_SPIN_POLLS='%s': a count >= 0 expected (or leave it unset)", polls);
        return PW_ERR_INVALID_ARGUMENT;
    }
    return PW_OK;
}

int64_t pw_even_peer_grid(int64_t grid, int64_t sms, int warps_per_scheduler)
{
    if (warps_per_scheduler < 1) return grid;
    const int64_t wave = 4 * sms; /* a warp on every scheduler */
    if (grid > wave * warps_per_scheduler) grid = wave * warps_per_scheduler;
    return grid >= wave ? grid - grid % wave : grid; /* fewer tile-rows than schedulers: all */
}

/* The warp processor's R = h / 32, or 0 where h does not suit it. */
static int warp_rows(int64_t h)
{
    const int64_t r = h % 32 ? 0 : h / 32;
    return r == 1 || r == 2 || r == 4 || r == 8 ? (int)r : 0;
}

/* Whether processor p may run the cell under the plan (the plan's geometry and the switches). */
static int suits(pw_processor p, const pw_plan *plan, const pw_cell_shape *cell, const pw_kernel_switches *sw)
{
    const pw_tiling *t = &plan->tiling;
    const int hyper = t->shape == PW_TILE_HYPER, row_major = plan->layout != PW_LAYOUT_HYBRID;
    const int sums = (cell->forms & PW_FORM(PW_PROC_PREFIX_SUM)) != 0; /* a summed-area cell (SAT, INTHIST) */
    if (!(cell->forms & PW_FORM(p))) return 0;
    switch (p) {
    case PW_PROC_STENCIL_WARP:
        return sw->stencil_processor == 0 && hyper && t->skew == 0 && row_major && t->h <= 128;
    case PW_PROC_STENCIL_WINDOW:
        return sw->stencil_processor == 1 && hyper && t->skew == 0 && row_major &&
               pw_stencil_window_bytes(t->h, t->w, cell->value_bytes) <= PW_STENCIL_WINDOW_MAX;
    case PW_PROC_WARP: /* rows per thread left to the library, hyper tiles of a suitable height */
        return !sw->linear_block && plan->rows_per_thread == 0 && hyper && t->skew == 0 && warp_rows(t->h);
    case PW_PROC_PREFIX_SUM:
        if (sw->sat_processor == 2 || (sw->sat_processor == 1 && suits(PW_PROC_LINEAR, plan, cell, sw))) return 0;
        return row_major && t->skew == 0 && t->h <= PW_SCAN_MAX_TILE_H;
    case PW_PROC_LINEAR: /* a full-storage cell (SAT's diag form) writes the plan's row-major matrix */
        return t->skew == 0 && !(sums && (sw->sat_processor == 2 || !row_major));
    case PW_PROC_FULL:
        return 1;
    default:
        return 0;
    }
}

/* The processors in the order they are preferred: the fastest that suits runs. */
static const pw_processor preference[] = {PW_PROC_STENCIL_WARP, PW_PROC_STENCIL_WINDOW, PW_PROC_WARP,
                                          PW_PROC_PREFIX_SUM, PW_PROC_LINEAR, PW_PROC_FULL};

static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

int pw_app_waits_in_chunks(const char *app, const pw_plan *plan)
{
    if (!app || !plan || plan->backend != PW_BACKEND_CUDA) return 0;
    pw_cell_shape cell = {0, 4, 1, 0, 0}; /* (the value's size matters to the window processor's fit alone) */
    if (!strcmp(app, "sw") || !strncmp(app, "dtw", 3)) {
        cell.forms = PW_FORMS_LINEAR_APP;
    } else if (!strncmp(app, "sat", 3)) {
        cell.forms = PW_FORMS_SAT;
        cell.linear_rows = 1;
    } else if (!strncmp(app, "inthist", 7)) {
        cell.forms = PW_FORMS_INTHIST;
        cell.several_planes = 1;
    } else if (!strncmp(app, "heat", 4) || !strncmp(app, "sor", 3)) {
        cell.forms = PW_FORM(PW_PROC_FULL) | (plan->layout != PW_LAYOUT_HYBRID ? PW_FORMS_STENCIL_ROW_MAJOR : 0);
        cell.value_bytes = strstr(app, "f64") ? 8 : 4;
    } else {
        return 0;
    }
    pw_kernel_desc desc;
    if (pw_select_kernel(plan, &cell, NULL, &desc) != PW_OK) return 0;
    return desc.processor == PW_PROC_WARP || desc.processor == PW_PROC_PREFIX_SUM ||
           desc.processor == PW_PROC_STENCIL_WARP;
}

pw_status pw_select_kernel(const pw_plan *plan, const pw_cell_shape *cell, const pw_kernel_switches *switches,
                           pw_kernel_desc *out)
{
    pw_kernel_switches read;
    if (!switches) {
        pw_kernel_switches_read(&read);
        switches = &read;
    }
    const pw_tiling *t = &plan->tiling;
    const int peer = plan->strategy == PW_STRATEGY_PEER, vb = cell->value_bytes;
    size_t k = 0;
    while (k < sizeof preference / sizeof *preference && !suits(preference[k], plan, cell, switches)) k++;
    if (k == sizeof preference / sizeof *preference) return PW_ERR_UNSUPPORTED;
    memset(out, 0, sizeof *out);
    out->processor = preference[k];
    out->rows_per_thread = 1;
    out->tiling = *t;
    out->pipelined_sweeps = plan->strategy != PW_STRATEGY_LAUNCH && switches->pipeline_sweeps; /* (peer, barrier, tasks) */
    out->spin_polls = switches->spin_polls;
    int64_t w = t->w;
    pw_tile_shape shape = (pw_tile_shape)t->shape;
    switch (out->processor) {
    case PW_PROC_LINEAR:
        out->rows_per_thread = cell->linear_rows ? cell->linear_rows : plan->rows_per_thread ? plan->rows_per_thread : 1;
        out->needs.threads = (int)(t->h / out->rows_per_thread);
        out->needs.smem = pw_linear_smem_bytes(t->h, out->rows_per_thread, vb);
        break;
    case PW_PROC_WARP:
        /* In the peer schedule it waits per 32-step chunk, so a narrow tile buys no earlier start,
         * only more tile ends (lane state stored and reloaded): at least PW_WARP_PEER_MIN_W steps
         * (SW 65536^2, h = 128, H200: w = 43 / 128 / 1024 / 4096: 58.3 / 50.7 / 51.2 / 51.5 ms). */
        out->rows_per_thread = warp_rows(t->h);
        if (peer && w < PW_WARP_PEER_MIN_W) w = PW_WARP_PEER_MIN_W;
        if (w > PW_WARP_MAX_STEPS) w = PW_WARP_MAX_STEPS;
        out->needs.threads = 32;
        /* Each SM's four schedulers the same number of warps, at most two: a wavefront moves at
         * its slowest row's pace, and a warp sharing its scheduler with one more warp than the
         * others is that row (H100, bench/occupancy.sh, SW and DTW: with 2048 and 4096 tile-rows
         * 1056 blocks, 2 a scheduler, ran 1.2-2.2x faster than 792, 1320 or the 2112 that fit;
         * with 1024 tile-rows 528 ran 1.2-1.3x faster than all 1024). */
        out->needs.warps_per_scheduler = 2;
        break;
    case PW_PROC_FULL:
        out->needs.threads = (int)t->h;
        break;
    case PW_PROC_PREFIX_SUM:
        /* Rectangles (a scan has no diagonal fill for hyper tiles to avoid) of whole 128-column
         * chunks.  In the peer schedule a chunk waits for the row above and hands on its own by
         * itself (edge words), so the width only says where the next chunk's loads stop: one tile
         * a row keeps them always in flight (SAT f32 32768^2, H200: w = 128 / 512 / 2048 / whole
         * row 4.90 / 4.34 / 4.19 / 4.19 ms). */
        shape = PW_TILE_SQUARE;
        w = peer ? round_up(t->cols, PW_SCAN_CHUNK) : round_up(t->w, PW_SCAN_CHUNK);
        out->prefetch = peer;
        out->needs.threads = 32 * pw_scan_warps(t->h);
        out->needs.smem = pw_scan_smem_bytes(t->h, cell->planes, cell->several_planes, vb);
        break;
    case PW_PROC_STENCIL_WARP:
        /* Whole 32-step chunks (the width rounded up): a partial chunk costs a whole one (HEAT
         * 16384^2, h = 64, PW, H200: w = 63 11.3 ms, w = 64 8.1). */
        out->rows_per_thread = t->h <= 32 ? 1 : t->h <= 64 ? 2 : 4;
        w = round_up(t->w, PW_STENCIL_WARP_CHUNK);
        out->needs.threads = PW_STENCIL_WARP_THREADS;
        out->needs.smem = pw_stencil_warp_smem_bytes(out->rows_per_thread, vb);
        break;
    case PW_PROC_STENCIL_WINDOW:
        out->needs.threads = (int)t->h;
        out->needs.smem = pw_stencil_window_bytes(t->h, t->w, vb);
        break;
    default:
        return PW_ERR_UNSUPPORTED;
    }
    if (w != t->w || shape != (pw_tile_shape)t->shape)
        return pw_tiling_init(&out->tiling, t->rows, t->cols, t->skew, shape, t->h, w);
    return PW_OK;
}

/* ---- SW's warp-rows engine (sw_warp_rows.cu) ------------------------------------------------ */

#define SWR_BLOCK_WARPS 8

/* The fewest blocks of 8 warps that run the tile-rows (per_warp a warp a round) in as few rounds
 * as max_grid blocks need: a round with a few tile-rows left costs about as much as a full one. */
static void swr_balance(pw_swr_shape *sh, int64_t max_grid, int per_warp)
{
    const int64_t most = max_grid * SWR_BLOCK_WARPS * per_warp;
    sh->rounds = (sh->tile_rows + most - 1) / most;
    const int64_t warps = (sh->tile_rows + per_warp * sh->rounds - 1) / (per_warp * sh->rounds);
    sh->grid = (warps + SWR_BLOCK_WARPS - 1) / SWR_BLOCK_WARPS;
    sh->warps = sh->grid * SWR_BLOCK_WARPS;
    sh->lag = per_warp == 2 ? 64 * sh->warps + 256 : 0;
}

int pw_swr_spread(pw_swr_shape *sh, int gpus, int64_t cols)
{
    if (gpus < 1 || sh->available_blocks < 1) return 0;
    const int per_warp = sh->pairs ? 2 : 1;
    const int64_t most = sh->available_blocks * SWR_BLOCK_WARPS * per_warp; /* one GPU's round */
    const int64_t rounds_one = (sh->tile_rows + most - 1) / most;
    const int64_t each = (rounds_one + gpus - 1) / gpus; /* rounds a GPU */
    const int64_t warps = (sh->tile_rows + per_warp * each * gpus - 1) / (per_warp * each * gpus);
    sh->grid = (warps + SWR_BLOCK_WARPS - 1) / SWR_BLOCK_WARPS;
    sh->warps = sh->grid * SWR_BLOCK_WARPS;
    sh->lag = per_warp == 2 ? 64 * sh->warps + 256 : 0;
    sh->rounds = (sh->tile_rows + per_warp * sh->warps - 1) / (per_warp * sh->warps);
    const int64_t span = cols + sh->lag + 1;
    return sh->grid <= sh->available_blocks && (sh->rounds + 1) * span < ((int64_t)1 << 32);
}

int pw_swr_choose(const pw_swr_gpu *gpu, pw_sw_engine_ask ask, int rows_per_thread, int64_t rows, int64_t cols,
                  pw_swr_shape *sh)
{
    memset(sh, 0, sizeof *sh);
    if (ask == PW_SW_ENGINE_TILES || rows < 1 || cols < 1 || rows_per_thread < 4 || rows_per_thread % 4) return 0;
    const int64_t tile_h = 32 * (int64_t)rows_per_thread;
    int64_t max_grid32 = (int64_t)gpu->sms * gpu->per_sm32, max_grid16 = (int64_t)gpu->sms * gpu->per_sm16;
    /* "fills the GPU": the whole GPU's grid, whatever cap the caller set */
    const int64_t fill32 = 2 * max_grid32 * SWR_BLOCK_WARPS / 3, fill16 = 2 * (2 * max_grid16 * SWR_BLOCK_WARPS / 3);
    if (gpu->block_cap > 0) {
        max_grid32 = max_grid32 < gpu->block_cap ? max_grid32 : gpu->block_cap;
        max_grid16 = max_grid16 < gpu->block_cap ? max_grid16 : gpu->block_cap;
    }
    if (max_grid32 < 1) return 0;
    sh->tile_rows = (rows + tile_h - 1) / tile_h;
    const int forced = ask == PW_SW_ENGINE_ROWS || ask == PW_SW_ENGINE_ROWS32;
    sh->pairs = ask != PW_SW_ENGINE_ROWS32 && gpu->dpx && max_grid16 > 0 && (forced || sh->tile_rows >= fill16);
    if (!forced && !sh->pairs && sh->tile_rows < fill32) return 0;
    swr_balance(sh, sh->pairs ? max_grid16 : max_grid32, sh->pairs ? 2 : 1);
    /* a round takes its columns plus the pipeline's fill (the schedule's 64 columns a warp, and
     * the pairs' lag as much again; more in practice: below) */
    if (!forced && sh->pairs && cols < 8 * 64 * sh->warps) {
        sh->pairs = 0;
        if (sh->tile_rows < fill32) return 0;
        swr_balance(sh, max_grid32, 1);
    }
    /* 32-bit lanes beat the tile engines by only 1.3x at full rate, and a round's fill costs more
     * than the 64 columns a warp of the schedule (about 180 measured: 1.2 M x 1 M in one round,
     * 3128 warps, took 1.23 s against the tiles' 1.03 on an H200): taken where the rounds' columns
     * are 10x the fill of 64 a warp, break-even by that measure (rounds x cols < 640 warps, written
     * so that no product can overflow) */
    if (!forced && !sh->pairs && cols < (10 * 64 * sh->warps + sh->rounds - 1) / sh->rounds) return 0;
    sh->available_blocks = sh->pairs ? max_grid16 : max_grid32;
    const int64_t span = cols + sh->lag + 1;
    if (rows > INT32_MAX - tile_h || span > INT32_MAX / 2 || (sh->rounds + 1) * span >= ((int64_t)1 << 32)) return 0;
    return 1;
}
