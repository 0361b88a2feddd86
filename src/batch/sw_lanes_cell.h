/*
 * sw_lanes_cell.h - one Gotoh cell of the CPU lane kernels (sw_batch_lanes_kernel.h: a query
 * against a record a lane; sw_pairs_lanes_kernel.h: a pair a lane), on the 16-bit lane operations
 * of the ops16_<set>.h header the including file took first.  Row by row within a strip of
 * columns: *e is E of the row (from the left), *f F of the column (from above), *up H above,
 * *diag H up-left on entry and H above on return (the next column's diagonal), *left H to the
 * left on entry and this cell's H on return; s the cell's score.  Returns H.
 */
#ifndef PW_SW_LANES_CELL_H
#define PW_SW_LANES_CELL_H

static inline v16 sw_lanes_cell(v16 *e, v16 *f, v16 *up, v16 *diag, v16 *left, v16 s, v16 go, v16 ge, v16 zero)
{
    *e = v_max(v_subs(*e, ge), v_subs(*left, go));
    *f = v_max(v_subs(*f, ge), v_subs(*up, go));
    const v16 h = v_max(v_max(v_adds(*diag, s), zero), v_max(*e, *f));
    *diag = *up; /* H(i - 1, j + c): the next column's diagonal */
    *up = h;
    *left = h;
    return h;
}

#endif
