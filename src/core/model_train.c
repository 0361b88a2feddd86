/* model_train.c - see model_train.h. */
#include <stdlib.h>
#include <time.h>

#include "exec.h"
#include "model_train.h"
#include "plan.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

pw_model_params pw_model_fit_params(const pw_model_fit *fit, int64_t rows, int64_t cols)
{
    int64_t tile_rows = (rows + fit->h - 1) / fit->h;
    double P = fit->workers_available < tile_rows ? fit->workers_available : (double)tile_rows;
    pw_model_params m = {(double)rows, (double)cols, (double)fit->h, P < 1 ? 1 : P, fit->d, fit->tau_s, 0};
    return m;
}

int64_t pw_model_fit_width(const pw_model_fit *fit, int64_t rows, int64_t cols, pw_model_kind kind)
{
    pw_model_params m = pw_model_fit_params(fit, rows, cols);
    return pw_model_best_width(&m, kind, cols + fit->h);
}

void pw_model_fit_kind(const pw_model_fit *fit, pw_model_kind kind, double chunk, double *d, double *tau_s)
{
    double sw = 0, sy = 0, sww = 0, swy = 0;
    const int used = fit->widths_used;
    for (int k = 0; k < used; k++) {
        pw_model_params unit = fit->sample_unit[k]; /* (d = 0, tau_s = 1: T is K(w)) */
        unit.chunk = chunk;
        const double w = fit->sample_w[k], y = fit->sample_t[k] / pw_model_time(&unit, kind, w);
        sw += w, sy += y, sww += w * w, swy += w * y;
    }
    const double den = used * sww - sw * sw;
    *d = den > 0 ? (used * swy - sw * sy) / den : 0;
    *tau_s = used ? (sy - *d * sw) / used : 0;
    /* A fit that lands at or below zero (noise, or a per-tile cost too small to see) keeps the
     * model defined; it then prefers the widest or the narrowest tiles, as measured. */
    if (*d <= 0) *d = PW_MODEL_FIT_FLOOR;
    if (*tau_s <= 0) *tau_s = PW_MODEL_FIT_FLOOR;
}

int pw_model_fit_clamped(double d, double tau_s) { return d <= PW_MODEL_FIT_FLOOR || tau_s <= PW_MODEL_FIT_FLOOR; }

pw_status pw_model_train(pw_corner_fn fn, void *ctx, int64_t rows, int64_t cols, int skew, double ratio,
                         const pw_options *o, int runs, pw_model_fit *fit)
{
    if (!fn || !o || !fit) return PW_ERR_NULL_ARGUMENT;
    if (!(ratio > 0 && ratio <= 1) || runs < 1 || runs > 64) return PW_ERR_INVALID_ARGUMENT;
    /* The full problem's tile height: the corner must run with the same h (a CPU plan picks h
     * from the row count, which the corner would change). */
    pw_plan full;
    pw_status st = pw_plan_make(o, rows, cols, skew, &full);
    if (st != PW_OK) return st;
    double began = pw_seconds_now();
    pw_options to = *o;
    to.tile_h = (int)full.tiling.h;
    to.trace = NULL;
    to.progress = NULL; /* the corner runs are not the run the caller watches (the cancel flag still stops them) */
    int64_t cr = (int64_t)((double)rows * ratio), cc = (int64_t)((double)cols * ratio);
    fit->corner_rows = cr < 1 ? 1 : cr;
    fit->corner_cols = cc < 1 ? 1 : cc;
    fit->h = full.tiling.h;

    pw_run_info info;
    to.tile_w = 0;
    st = fn(ctx, fit->corner_rows, fit->corner_cols, &to, &info); /* warm-up: context, allocator, caches */
    if (st != PW_OK) return st;
    fit->workers_available = info.threads_available > 0 ? info.threads_available : info.threads;

    const int64_t h = fit->h, widths[PW_MODEL_SAMPLES] = {1, 2, 4, 8, 32, 2 * h};
    double t[64];
    int used = 0;
    int64_t last_used = 0; /* the width the last measured runs really had */
    for (int k = 0; k < PW_MODEL_SAMPLES && st == PW_OK; k++) {
        if (k > 1 && widths[k] > fit->corner_cols + h) continue; /* wider than the corner's rows */
        if (k > 0 && widths[k] <= widths[k - 1]) continue;       /* 2h can repeat a small width */
        /* a processor that rounds widths (the CPU's vector ones: to their lanes) may run this one
         * as the last: measure each real width once */
        if (last_used && widths[k] <= last_used) continue;
        to.tile_w = widths[k];
        for (int r = 0; r < runs && st == PW_OK; r++) {
            st = fn(ctx, fit->corner_rows, fit->corner_cols, &to, &info);
            t[r] = info.seconds;
        }
        if (st != PW_OK) break;
        qsort(t, (size_t)runs, sizeof t[0], cmp_double);
        pw_model_params unit = {(double)fit->corner_rows, (double)fit->corner_cols, (double)info.tile_h,
                                (double)(info.threads > 0 ? info.threads : 1), 0, 1, 0};
        last_used = info.tile_w > 0 ? info.tile_w : widths[k];
        fit->sample_unit[used] = unit;
        fit->sample_w[used] = (double)last_used;
        fit->sample_t[used] = t[runs / 2];
        used++;
    }
    if (st != PW_OK) return st;
    fit->widths_used = used;
    pw_model_fit_kind(fit, PW_MODEL_TILED, 0, &fit->d, &fit->tau_s);
    fit->seconds = pw_seconds_now() - began;
    return PW_OK;
}
