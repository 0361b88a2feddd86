/* Smith-Waterman local alignment with affine gaps (Gotoh), DNA-style scores: the user-written
 * twin of `peerwave sw` (same recurrence, same boundaries, same tie rule), to compare with it.
 *   E(i,j) = max(E(i,j-1) - extend, H(i,j-1) - open)      gap in a
 *   F(i,j) = max(F(i-1,j) - extend, H(i-1,j) - open)      gap in b
 *   H(i,j) = max(0, H(i-1,j-1) + s(a_i, b_j), E(i,j), F(i,j))
 * PW_REDUCE reports the best H and its cell (the smallest row, then column): the score and the
 * end of the best local alignment. */
PW_FORM(linear)
PW_FIELD(int32_t, h)
PW_FIELD(int32_t, e)
PW_FIELD(int32_t, f)
PW_INPUT(uint8_t, a, i)
PW_INPUT(uint8_t, b, j)
PW_PARAM(int32_t, match)
PW_PARAM(int32_t, mismatch)
PW_PARAM(int32_t, open)   /* a gap of length L costs open + (L - 1) extend */
PW_PARAM(int32_t, extend)
PW_REDUCE(max, h)

/* -infinity, far enough from INT32_MIN that subtracting a penalty cannot wrap */
#define NEG_INF (-1073741824)

PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
{
    (void)c, (void)i, (void)j;
    pw_value v = {0, NEG_INF, NEG_INF};
    return v;
}

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    /* pw_addmax and pw_max3_relu (peerwave_cell.h): one DPX instruction each on an H100 */
    pw_value v;
    v.e = pw_addmax(left.e, -c->extend, left.h - c->open);
    v.f = pw_addmax(up.f, -c->extend, up.h - c->open);
    v.h = pw_max3_relu(diag.h + (c->a[i] == c->b[j] ? c->match : c->mismatch), v.e, v.f);
    return v;
}
