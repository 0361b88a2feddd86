/*
 * sw_strip.c - one strip pass of the alignment search (src/align/sw_strips.c) as a cell of the
 * runtime.  It runs over reversed letters from an anchor (a node of the alignment, the alignment
 * below it known), in scores, anchored there: no zero clamp.  Cell (i, j) is node (i + 1, j + 1):
 *   h  the best score of a path from the node to the anchor (read backwards),
 *   f  the best among those whose first column (read forwards) is a letter of a against a gap,
 *   e  the same with a letter of b against a gap.
 * A run of k letters against gaps costs g + h k.  Row -1 holds the nodes (0, j): a run across
 * from the anchor; column -1 the nodes (i, 0): a run down, opened at cost tb (g, or 0 when the
 * anchor is inside a run of a-letters that goes on below it).  PW_REDUCE: the best h and its
 * cell (the smallest row, then column: read forwards, the nearest start).  The last row, the last
 * column and the best are the pass's output; sw_strip_pass_cpu (sw_strips.c) computes the same
 * integers on the CPU.
 */
PW_FORM(linear)
PW_FIELD(int32_t, h)
PW_FIELD(int32_t, e)
PW_FIELD(int32_t, f)
PW_INPUT(uint8_t, a, i)
PW_INPUT(uint8_t, b, j)
PW_INPUT(int32_t, w, 1024)
PW_PARAM(int32_t, alphabet)
PW_PARAM(int32_t, g)
PW_PARAM(int32_t, h)
PW_PARAM(int32_t, tb)
PW_REDUCE(max, h)

#define STRIP_NONE (-(1 << 30)) /* no such path; - (g + h) stays inside 32 bits */

PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
{
    pw_value v;
    v.e = STRIP_NONE;
    v.f = STRIP_NONE;
    if (i < 0 && j < 0) v.h = 0;
    else if (i < 0) v.h = v.e = -(c->g + c->h * (int32_t)(j + 1));
    else v.h = v.f = -(c->tb + c->h * (int32_t)(i + 1));
    return v;
}

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    pw_value v;
    v.e = pw_addmax(left.e, -c->h, left.h - c->g - c->h);
    v.f = pw_addmax(up.f, -c->h, up.h - c->g - c->h);
    int32_t pair = diag.h + c->w[c->a[i] * c->alphabet + c->b[j]];
    v.h = pw_max3(pair, v.e, v.f);
    return v;
}
