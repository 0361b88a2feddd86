/* Needleman-Wunsch global alignment score of a against b with a linear gap: the last cell is
 * the best score of aligning the whole of both.
 *   peerwave run examples/cells/needleman_wunsch.c --input a=A.txt --input b=B.txt \
 *       --param match=1 --param mismatch=-1 --param gap=2 */
PW_FORM(linear)
PW_VALUE(int32_t)
PW_INPUT(uint8_t, a, i)
PW_INPUT(uint8_t, b, j)
PW_PARAM(int32_t, match)
PW_PARAM(int32_t, mismatch)
PW_PARAM(int32_t, gap) /* the cost of one gap letter (positive) */

/* a prefix against nothing: all gaps */
PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
{
    return (pw_value)(-c->gap * (i < 0 ? j + 1 : i + 1));
}

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    pw_value s = diag + (c->a[i] == c->b[j] ? c->match : c->mismatch);
    pw_value g = PW_MAX(up, left) - c->gap;
    return PW_MAX(s, g);
}
