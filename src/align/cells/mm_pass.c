/*
 * mm_pass.c - one pass of Myers-Miller (src/align/myers_miller.c) as a cell of the runtime, so the
 * GPU runs the large passes of an alignment on the same processors as any linear cell.  Costs:
 * a pair costs w[a_i * alphabet + b_j] (minus its score), a run of k letters against gaps g + h k.
 * Cell (i, j) is the node (i + 1, j + 1) of the pass:
 *   cc  the least cost of reaching the node,
 *   dd  the least among paths ending with a letter of a against a gap (down),
 *   ee  the least among paths ending with a letter of b against a gap (across).
 * Row -1 holds the nodes (0, j): a run across, cc = g + h j; column -1 the nodes (i, 0): a run
 * down, opened at cost tb (g, or 0 when it continues a run of the part above).  The same integers
 * as pw_mm_pass_cpu, cell for cell: a cell's last row is that pass's cc and dd.
 */
PW_FORM(linear)
PW_FIELD(int32_t, cc)
PW_FIELD(int32_t, dd)
PW_FIELD(int32_t, ee)
PW_INPUT(uint8_t, a, i)
PW_INPUT(uint8_t, b, j)
PW_INPUT(int32_t, w, 1024)
PW_PARAM(int32_t, alphabet)
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
    int32_t pair = diag.cc + c->w[c->a[i] * c->alphabet + c->b[j]];
    v.cc = PW_MIN(pair, PW_MIN(v.ee, v.dd));
    return v;
}
