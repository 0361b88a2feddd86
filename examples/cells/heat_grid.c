/* The Gauss-Seidel heat sweep of heat.c in the general grid form: the cell reads its neighbours
 * itself (pw_at) and lists its dependences, as any in-place recurrence does (a nine-point
 * stencil, for instance, would add PW_DEP(1, 1) and PW_DEP(1, -1)).  Same bits as heat.c; the
 * GPU runs it on the generic processor, where heat.c gets the stencil processors.
 *   peerwave run examples/cells/heat_grid.c --grid G.npy --sweeps 10 -o OUT.npy */
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
