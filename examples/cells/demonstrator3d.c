/* Seed 004's 3-D wavefront demonstrator (Pennycook et al., Listing 1): every point of an
 * N x N x N grid becomes fmod(result + top + north + west, modulus), with top (i, j, k-1),
 * north (i, j-1, k) and west (i-1, j, k) already updated in this sweep.  A border of one fixed
 * cell surrounds the grid.
 *   peerwave run examples/cells/demonstrator3d.c --grid G.npy --param modulus=100 -o OUT.npy */
PW_FORM(grid3)
PW_VALUE(float)
PW_DEP3(1, 0, 0) /* west */
PW_DEP3(0, 1, 0) /* north */
PW_DEP3(0, 0, 1) /* top */
PW_HALO(1)
PW_PARAM(float, modulus)

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)
{
    pw_value result = pw_at3(c, i, j, k), top = pw_at3(c, i, j, k - 1);
    pw_value north = pw_at3(c, i, j - 1, k), west = pw_at3(c, i - 1, j, k);
    return pw_fmodf(result + top + north + west, c->modulus);
}
