/*
 * dtw_pass.c - one pass of the warping-path search (src/align/dtw_path.c) as a cell of the
 * runtime: D(i, j) = cost(a_i, b_j) + min(up, left, diag), D(-1, -1) = 0, the rest of row and
 * column -1 infinite, in double; cost |a - b| or (a - b)^2 of the samples, computed in float
 * when f32 is 1 (as pw_dtw_f32 does) and in double otherwise; with free_last 1 the cells of the
 * last column cost 0 (a bound of the strips' search, src/align/dtw_strips.c).  The last row is
 * the pass's output.
 */
PW_FORM(linear)
PW_VALUE(double)
PW_INPUT(double, a, i)
PW_INPUT(double, b, j)
PW_PARAM(int32_t, squared)
PW_PARAM(int32_t, f32)
PW_PARAM(int32_t, free_last)

PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
{
    return i < 0 && j < 0 ? 0.0 : 1.0 / 0.0;
}

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    double cost;
    if (c->f32) {
        float d = (float)c->a[i] - (float)c->b[j];
        cost = (double)(c->squared ? d * d : (d < 0 ? -d : d));
    } else {
        double d = c->a[i] - c->b[j];
        cost = c->squared ? d * d : (d < 0 ? -d : d);
    }
    if (c->free_last && j == c->cols - 1) cost = 0.0;
    double m = left < diag ? left : diag;
    m = up < m ? up : m;
    return cost + m;
}
