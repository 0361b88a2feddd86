/* model.c - see model.h. */
#include <math.h>

#include "model.h"

double pw_model_time(const pw_model_params *p, pw_model_kind kind, double w)
{
    double rows = p->H / p->h;                   /* tile-rows */
    double P = p->P < 1 ? 1 : p->P > rows ? (rows < 1 ? 1 : rows) : p->P;
    double c = w * p->d + p->tau_s;             /* one tile */
    /* Tiles a row runs behind the row above.  The paper writes h/w + 1; the engines' tiling
     * has the integer lag ceil((h - 1) / w) plus the tile itself (tiling.c), which is why a
     * width just above a divisor of h - 1 measures slower than the divisor (H100, SW 65536^2,
     * h = 128: w = 29 60.2 ms, w = 32 54.5 ms).  PW_MODEL_TILED uses it. */
    double lag = kind == PW_MODEL_TILED     ? ceil((p->h - 1) / w) + 1
                 : kind == PW_MODEL_CHUNKED ? (p->h - 1 + p->chunk) / w
                                            : p->h / w + 1;
    double stall_lag = kind == PW_MODEL_PAPER ? 1 : lag;
    double B = ((p->W + p->h) / w - P * stall_lag) * c;
    if (B < 0) B = 0;
    double rounds = p->H / (p->h * P);
    double extra_rounds = rounds > 1 ? rounds - 1 : 0;
    double tail = p->W / w - 1;
    return rows * lag * c + B * extra_rounds + (tail > 0 ? tail : 0) * c;
}

double pw_model_closed_form(const pw_model_params *p, pw_model_kind kind)
{
    double H = p->H, W = p->W, h = p->h, P = p->P;
    if (P <= 1 || p->d <= 0 || p->tau_s <= 0 || kind == PW_MODEL_TILED || kind == PW_MODEL_CHUNKED) return -1;
    double num = kind == PW_MODEL_CONSISTENT ? H * W + H * h + P * (P - 1) * h * h
                                             : H * W + H * h + H * h * P - h * h * P;
    double q = p->tau_s * num / (p->d * h * P * (P - 1));
    return q > 0 ? sqrt(q) : -1;
}

int64_t pw_model_best_width(const pw_model_params *p, pw_model_kind kind, int64_t w_max)
{
    if (w_max < 1) w_max = 1;
    int64_t best = 1;
    double best_t = pw_model_time(p, kind, 1);
    for (int64_t w = 2; w <= w_max && w <= 65536; w++) {
        double t = pw_model_time(p, kind, (double)w);
        if (t < best_t) best_t = t, best = w;
    }
    for (double x = 65536 * 1.01; x <= (double)w_max; x *= 1.01) {
        int64_t w = (int64_t)x;
        double t = pw_model_time(p, kind, (double)w);
        if (t < best_t) best_t = t, best = w;
    }
    return best;
}
