/* Levenshtein edit distance between a (rows letters) and b (cols letters): insertions,
 * deletions and substitutions cost 1.  The last cell is the distance.
 *   peerwave run examples/cells/levenshtein.c --input a=A.txt --input b=B.txt */
PW_FORM(linear)
PW_VALUE(int32_t)
PW_INPUT(uint8_t, a, i)
PW_INPUT(uint8_t, b, j)

/* D(-1, j) = j + 1, D(i, -1) = i + 1 (and D(-1, -1) = 0) */
PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
{
    (void)c;
    return (pw_value)(i < 0 ? j + 1 : i + 1);
}

PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    pw_value sub = diag + (c->a[i] == c->b[j] ? 0 : 1);
    pw_value gap = PW_MIN(up, left) + 1;
    return PW_MIN(sub, gap);
}
