/* A Gauss-Seidel heat sweep written as a user cell: every interior point becomes the mean of
 * its four neighbours, the upper and left ones already updated in this sweep.  The twin of
 * `peerwave heat` (the same order of additions, so the same bits), run on the same stencil
 * processors.  The grid has a border of one fixed cell on every side.
 *   peerwave run examples/cells/heat.c --grid G.npy --sweeps 10 -o OUT.npy */
PW_FORM(stencil)
PW_VALUE(float)

PW_FN pw_value pw_cell(const pw_ctx *c, pw_value self, pw_value up, pw_value left, pw_value down, pw_value right)
{
    (void)c, (void)self;
    /* down and right are the old values, known before the step: adding them first keeps the
     * new up and left values off the longest chain of dependent additions */
    return (((down + right) + left) + up) / 4.0f;
}
