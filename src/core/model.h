/*
 * model.h - the tile-width model (seed 000 section 4, corrected as in DESIGN.md section 4).
 *
 * A run of H x W cells in tile-rows of h lanes on P workers; d = time of one diagonal step of a
 * tile (one lane-parallel step), tau_s = one counter hand-off.  A tile of width w costs
 * c = w d + tau_s.  With L the cross-row lag in tiles,
 *     T(w) = (H/h) L c + B (H/(h P) - 1) + (W/w - 1) c,    B = ((W + h)/w - P L') c,
 * the pipeline fill, the stall of each worker between its rounds of P tile-rows, and the rest of
 * the last row.  The paper charges L' = 1 in B but L = h/w + 1 in the fill (PW_MODEL_PAPER); the
 * consistent variant uses L' = L (PW_MODEL_CONSISTENT).  B is clamped at 0 (long rows never make
 * a worker wait), P at the number of tile-rows, and rounds at >= 1; P = 1 is handled.
 */
#ifndef PW_MODEL_H
#define PW_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_model_params {
    double H, W;    /* rows and columns of the space */
    double h;       /* lanes per tile-row */
    double P;       /* workers (CPU threads or resident GPU blocks) */
    double d;       /* seconds per diagonal step of one tile */
    double tau_s;   /* seconds per counter hand-off */
    double chunk;   /* CHUNKED: steps a tile-row waits for at a time inside a tile (0 elsewhere) */
} pw_model_params;

/* PAPER: as published; CONSISTENT: L' = L; TILED: CONSISTENT with the tiling's integer lag
 * L = ceil((h - 1)/w) + 1 instead of h/w + 1 (a step function: no closed form).  CHUNKED:
 * CONSISTENT for processors that wait inside their tiles, `chunk` steps at a time (the GPU
 * processors: 32): a tile-row follows the row above h - 1 + chunk steps behind whatever w is,
 * L = (h - 1 + chunk)/w tiles (no closed form here).  The automatic width's on the GPU wherever
 * the app's processor waits inside its tiles (src/core/auto_width.c, pw_app_waits_in_chunks);
 * `peerwave tune` shows it beside the others. */
typedef enum pw_model_kind { PW_MODEL_PAPER = 0, PW_MODEL_CONSISTENT, PW_MODEL_TILED, PW_MODEL_CHUNKED } pw_model_kind;
#define PW_MODEL_KINDS 4

/* Predicted seconds for tile width w (> 0). */
double pw_model_time(const pw_model_params *p, pw_model_kind kind, double w);

/* The closed-form optimum of the unclamped T (paper: numerator HW + Hh + HhP - h^2 P;
 * consistent: HW + Hh + P(P-1) h^2), or -1 when it does not exist (P <= 1, d or tau_s <= 0,
 * or the TILED and CHUNKED kinds). */
double pw_model_closed_form(const pw_model_params *p, pw_model_kind kind);

/* The feasible integer width in 1 .. w_max with the smallest predicted time (the first on a
 * tie), found by evaluating T: exact for every width up to 65536, then on a 1% geometric grid. */
int64_t pw_model_best_width(const pw_model_params *p, pw_model_kind kind, int64_t w_max);

#ifdef __cplusplus
}
#endif
#endif
