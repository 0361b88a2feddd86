/*
 * mm_pass_dna.c - mm_pass.c for DNA scoring: a pair of the same base (codes 0 .. 3: A C G T) costs
 * -match, any other pair -mismatch (code 4 is every other letter, which matches nothing, as
 * apps/scoring.c encodes them).  The same nodes and integers as mm_pass.c with that table, without
 * a table read in the inner loop.
 */
PW_FORM(linear)
PW_FIELD(int32_t, cc)
PW_FIELD(int32_t, dd)
PW_FIELD(int32_t, ee)
PW_INPUT(uint8_t, a, i)
PW_INPUT(uint8_t, b, j)
PW_PARAM(int32_t, match_cost)
PW_PARAM(int32_t, mismatch_cost)
PW_PARAM(int32_t, g)
PW_PARAM(int32_t, h)
PW_PARAM(int32_t, tb)

#define MM_NONE (1 << 30) /* no such path; + h stays inside 32 bits */

PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
{
    pw_value v;
    v.dd = MM_NONE;
    v.ee = MM_NONE;
    if (i < 0 && j < 0) v.cc = 0;
    else if (i < 0) v.cc = c->g + c->h * (int32_t)(j + 1);
    else v.cc = c->tb + c->h * (int32_t)(i + 1);
    return v;
}

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    pw_value v;
    v.ee = PW_MIN(left.ee, left.cc + c->g) + c->h;
    v.dd = PW_MIN(up.dd, up.cc + c->g) + c->h;
    const uint8_t x = c->a[i], y = c->b[j];
    int32_t pair = diag.cc + (x == y && x < 4 ? c->match_cost : c->mismatch_cost);
    v.cc = PW_MIN(pair, PW_MIN(v.ee, v.dd));
    return v;
}
