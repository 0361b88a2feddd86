/* tiling.c - construction of the tile geometry; the per-tile queries are inline in tiling.h. */
#include "tiling.h"

_Static_assert(PW_TILING_HYPER == PW_TILE_HYPER && PW_TILING_SQUARE == PW_TILE_SQUARE,
               "tiling_geometry.h mirrors pw_tile_shape");

pw_status pw_tiling_init(pw_tiling *t, int64_t rows, int64_t cols, int skew, pw_tile_shape shape,
                         int64_t h, int64_t w)
{
    if (rows < 1 || cols < 1) return PW_ERR_INVALID_SIZE;
    if (h < 1 || w < 1 || h > PW_MAX_TILE_H) return PW_ERR_INVALID_TILE;
    if (skew < 0 || (shape != PW_TILE_HYPER && shape != PW_TILE_SQUARE))
        return PW_ERR_INVALID_ARGUMENT;
    /* Largest step number: skew * rows + cols + h must fit comfortably in 63 bits. */
    if (rows > INT64_MAX / 4 / (skew + 1) || cols > INT64_MAX / 4 || w > INT64_MAX / 4)
        return PW_ERR_SIZE_OVERFLOW;
    t->rows = rows;
    t->cols = cols;
    t->skew = skew;
    t->shape = shape;
    t->h = h > rows ? rows : h;
    t->w = w;
    t->n_rows = (rows + t->h - 1) / t->h;
    int64_t extra = shape == PW_TILE_HYPER ? t->h - 1 : 0;
    t->lag = (extra + w - 1) / w;
    /* the stencils' reads of the previous sweep (tiling_geometry.h) */
    static const pw_dep stencil[] = {{1, 0}, {0, 1}};
    return pw_tiling_set_sweep_reads(t, stencil, 2);
}

pw_status pw_tiling_set_sweep_reads(pw_tiling *t, const pw_dep *reads, int n)
{
    int64_t rows = 0, same = 0, below = 0; /* (its own value: (0, 0)) */
    for (int k = 0; k < n; k++) {
        const int64_t di = reads[k].di, dx = reads[k].dj + (int64_t)t->skew * di;
        if (di < 0 || dx < 0) return PW_ERR_ILLEGAL_DEPENDENCE; /* (a read this sweep has written) */
        const int64_t s = t->shape == PW_TILE_HYPER ? di + dx : dx;
        if (di > rows) rows = di;
        if (s > same) same = s;
        if (di >= 1 && s > below) below = s;
    }
    t->sweep_rows = rows, t->sweep_same = same, t->sweep_below = below;
    return PW_OK;
}

int64_t pw_tiling_diagonal_count(const pw_tiling *t)
{
    int64_t last = 0;
    for (int64_t r = 0; r < t->n_rows; r++) {
        int64_t d = pw_tiling_diagonal(t, r, pw_tiling_end_tile(t, r) - 1);
        if (d > last) last = d;
    }
    return last + 1;
}

int64_t pw_tiling_sweep_lag(const pw_tiling *t)
{
    int64_t lag = 1; /* (at least after the same tile of the sweep before) */
    for (int64_t r = 0; r < t->n_rows; r++)
        for (int64_t c = pw_tiling_first_tile(t, r); c < pw_tiling_end_tile(t, r); c++) {
            const int64_t d = pw_tiling_diagonal(t, r, c);
            for (int64_t m = 0; m <= pw_tiling_sweep_rows_below(t) && r + m < t->n_rows; m++) {
                const int64_t need = pw_tiling_need_prev(t, r, m, c);
                if (need <= 0) continue;
                const int64_t b = pw_tiling_diagonal(t, r + m, pw_tiling_tile_reaching(t, r + m, need));
                if (b - d + 1 > lag) lag = b - d + 1;
            }
        }
    return lag;
}

int64_t pw_tiling_tile_count(const pw_tiling *t, int64_t sweeps)
{
    int64_t n = 0;
    for (int64_t r = 0; r < t->n_rows; r++) n += pw_tiling_end_tile(t, r) - pw_tiling_first_tile(t, r);
    return n * sweeps;
}
