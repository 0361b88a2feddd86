/* A Gauss-Seidel heat sweep written as a user cell: every interior point becomes the mean of
 * its four neighbours, the upper and left ones already updated in this sweep (the twin of
 * `peerwave heat`, same order of additions, so the same bits).  The grid has a border of one
 * fixed cell on every side (PW_HALO(1)).
 *   peerwave run examples/cells/heat.c --grid G.npy --sweeps 10 -o OUT.npy */
PW_FORM(grid)
PW_VALUE(float)
PW_DEP(1, 0) /* reads (i-1, j) of this sweep, and (i+1, j) of the last: both order rows */
PW_DEP(0, 1) /* reads (i, j-1) of this sweep, and (i, j+1) of the last */
PW_HALO(1)

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)
{
    pw_value up = pw_at(c, i - 1, j), left = pw_at(c, i, j - 1);
    pw_value down = pw_at(c, i + 1, j), right = pw_at(c, i, j + 1);
    return (((down + right) + left) + up) / 4.0f;
}
