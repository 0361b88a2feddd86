/* An LU-like 3-D sweep: the three upwind neighbours of seed 004's demonstrator with the heavier
 * cell of its Listing 2 (a loop of `iterations` rounds of seven additions, four multiplications
 * and a modulo: 10 rounds are about the 150 flops a point of NAS-LU's SSOR sweep).
 *   peerwave run examples/cells/lu_like.c --grid G.npy --param iterations=10 --param modulus=100 \
 *       --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 \
 *       --param rc=0.5 --param rd=1 */
PW_FORM(grid3)
PW_VALUE(float)
PW_DEP3(1, 0, 0)
PW_DEP3(0, 1, 0)
PW_DEP3(0, 0, 1)
PW_HALO(1)
PW_PARAM(int32_t, iterations)
PW_PARAM(float, modulus)
PW_PARAM(float, tc)
PW_PARAM(float, td)
PW_PARAM(float, nc)
PW_PARAM(float, nd)
PW_PARAM(float, wc)
PW_PARAM(float, wd)
PW_PARAM(float, rc)
PW_PARAM(float, rd)

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)
{
    pw_value result = pw_at3(c, i, j, k), top = pw_at3(c, i, j, k - 1);
    pw_value north = pw_at3(c, i, j - 1, k), west = pw_at3(c, i - 1, j, k);
    for (int32_t n = 0; n < c->iterations; n++) {
        result = pw_fmodf(result + top + north + west, c->modulus);
        top = c->tc * top + c->td;
        north = c->nc * north + c->nd;
        west = c->wc * west + c->wd;
        result = c->rc * result + c->rd;
    }
    return result;
}
