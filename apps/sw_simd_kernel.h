/*
 * sw_simd_kernel.h - the SW vector tile processor, written once against the 16-bit lane
 * operations (src/cpu/simd/ops16_*.h) and compiled once per instruction set: include an ops
 * header, define SW_SIMD_TILE (the function's name) and SW_GROUPS (groups run in lockstep), then
 * include this.  sw_simd.h explains the design; the names below follow it (V lanes, group, pass,
 * block of V steps, FIFO, base).
 *
 * Lockstep: a step's cells depend on the previous step through a lane shift (several cycles of
 * latency), so one group alone leaves the processor waiting.  SW_GROUPS consecutive groups run
 * together as one taller vector: group q's lane 0 takes group q-1's last lane of the previous
 * step straight from its register, and only the first group reads, and the last group writes, the
 * FIFO.  Their steps are independent of each other within a step, so their latencies overlap.
 *
 * The best cell costs one max a step: each lane keeps its largest H of the pass, and at every
 * block's end the block in which it last grew.  The state at each block's start is kept (a few
 * vector stores a block), so when a lane's best could beat or tie the worker's best cell, that one
 * block is run again, step by step, to find the first column where the lane reached it.
 */
#include "sw_cell.h" /* PW_SW_NEG_INF */
#include "sw_simd.h"
#include "../src/cpu/simd/antidiag.h"

#define SW_INLINE static inline __attribute__((always_inline))
#define NEG16 (-32768)
#define SW_MAX_BLOCKS (PW_SW_SIMD_MAX_PASS / V_LANES)

/* The letters of a set's rows: equality scoring compares codes; profile scoring reads lane l's
 * row of the profile (its letter's) at an offset of l, a block's V steps at once (sw_block). */
typedef struct sw_letters {
    v16 a[SW_GROUPS];      /* equality scoring: the rows' codes (-1: matches nothing) */
    v16 match, mismatch;
    int64_t lane_row[SW_GROUPS][V_LANES]; /* profile scoring: a_l plen + l */
} sw_letters;

/* What a pass carries from step to step: lane values of the previous step, per group. */
typedef struct sw_state {
    v16 h[SW_GROUPS], e[SW_GROUPS], f[SW_GROUPS]; /* H, E, F of each lane's last cell */
    v16 d[SW_GROUPS]; /* the H above that cell: the next cell's diagonal */
    v16 bh, bf;       /* the FIFO: the first group's next rows-above, the last group's finished cells */
} sw_state;

/* What lanes left of column 0 hold, per group, in the pass's terms: the boundary's H = 0 and
 * E = -infinity, or in a band of a distributed run the left neighbour's last column (k->left_h,
 * left_e: H and E of the row at column -1). */
typedef struct sw_boundary {
    v16 h[SW_GROUPS], e[SW_GROUPS];
} sw_boundary;

SW_INLINE void sw_boundary_load(sw_boundary *bd, const pw_sw_simd *k, int64_t i0, int32_t base, v16 zero, const int G)
{
    for (int q = 0; q < G; q++) {
        if (k->left_h) {
            bd->h[q] = v_load_rel(k->left_h + i0 + q * V_LANES, base);
            bd->e[q] = v_load_rel(k->left_e + i0 + q * V_LANES, base);
        } else {
            bd->h[q] = zero;
            bd->e[q] = v_set1(NEG16);
        }
    }
}

/* reversed arrays: column j at index pad + m - 1 - j */
SW_INLINE int64_t rev(const pw_sw_simd *k, int64_t j) { return k->pad + k->m - 1 - j; }

SW_INLINE int16_t clamp16(int64_t x, int64_t lo, int64_t hi) { return (int16_t)(x < lo ? lo : x > hi ? hi : x); }

/* One step of G groups: lane l of group q computes column c0 - qV - l of row i0 + qV + l, whose
 * score-array entries start at pos + qV.  `edge`: some lanes may lie left of column 0 (they are
 * set to the boundary), right of column m - 1 or on rows past the tile-row (they compute cells
 * nobody reads).  counted[q]: the H to count, with -32768 for those lanes. */
SW_INLINE void sw_step(sw_state *s, const pw_sw_simd *k, const sw_letters *L, int64_t pos, const v16 *scores, v16 zero,
                       v16 go, v16 ge, const int G, const int affine, const int eq, const int edge, int64_t c0,
                       const int *valid_rows, const sw_boundary *bd, v16 *counted)
{
    v16 up_h[SW_GROUPS], up_f[SW_GROUPS];
    for (int q = 0; q < G; q++) {
        up_h[q] = v_shift_in(s->h[q], q == 0 ? s->bh : s->h[q - 1]);
        if (affine) up_f[q] = v_shift_in(s->f[q], q == 0 ? s->bf : s->f[q - 1]);
    }
    for (int q = 0; q < G; q++) {
        const v16 sc = eq ? v_blend(v_eq(L->a[q], v_load16(k->b_codes + pos + q * V_LANES)), L->mismatch, L->match)
                          : scores[q];
        v16 e, f;
        if (affine) {
            e = v_max(v_subs(s->e[q], ge), v_subs(s->h[q], go));
            f = v_max(v_subs(up_f[q], ge), v_subs(up_h[q], go));
        } else {
            e = v_subs(s->h[q], go);
            f = v_subs(up_h[q], go);
        }
        v16 h = v_max(v_max(v_max(v_adds(s->d[q], sc), zero), e), f);
        counted[q] = h;
        if (edge) {
            const int64_t cq = c0 - q * V_LANES;
            const v16 lane = v_lane_index();
            const vmask left_of_0 = v_gt(lane, v_set1(clamp16(cq, -1, V_LANES)));
            const vmask in_cols = v_gt(lane, v_set1(clamp16(cq - k->m, -1, V_LANES)));
            const vmask in_rows = v_gt(v_set1(valid_rows[q]), lane);
            h = v_blend(left_of_0, h, bd->h[q]);
            e = v_blend(left_of_0, e, bd->e[q]);
            f = v_blend(left_of_0, f, v_set1(NEG16));
            counted[q] = v_blend(v_andnot(v_and(in_cols, in_rows), left_of_0), v_set1(NEG16), h);
        }
        s->d[q] = up_h[q];
        s->h[q] = h;
        s->e[q] = e;
        if (affine) s->f[q] = f;
    }
    s->bh = v_shift_in(s->bh, s->h[G - 1]);
    if (affine) s->bf = v_shift_in(s->bf, s->f[G - 1]);
}

/* The steps of one block (the first group's lane 0 at column j0 first), with or without the edge
 * masks; trace (when not NULL) gets every step's counted H. */
/* A band with a right neighbour: the H and E of the lanes that just computed column m - 1, as
 * absolute values into k->last_h / last_e (their rows' last column, which the lanes' carries do
 * not keep: lanes run on past it).  i0: the set's first row. */
SW_INLINE void sw_record_last(const sw_state *s, const pw_sw_simd *k, int64_t i0, int32_t base, int64_t c0,
                              const int *valid_rows, const int G)
{
    for (int q = 0; q < G; q++) {
        const int64_t l = c0 - q * V_LANES - (k->m - 1); /* the lane at column m - 1 */
        if (l < 0 || l >= valid_rows[q]) continue;
        int16_t h[V_LANES], e[V_LANES];
        v_store16(h, s->h[q]);
        v_store16(e, s->e[q]);
        const int64_t i = i0 + q * V_LANES + l;
        k->last_h[i] = h[l] == NEG16 ? PW_SW_NEG_INF : base + h[l];
        k->last_e[i] = e[l] == NEG16 ? PW_SW_NEG_INF : base + e[l];
    }
}

SW_INLINE void sw_block(sw_state *s, const pw_sw_simd *k, const sw_letters *L, v16 *best, v16 zero, v16 go, v16 ge,
                        const int G, const int affine, const int eq, int64_t j0, const int *valid_rows,
                        const sw_boundary *bd, int64_t i0, int32_t base, int record,
                        int16_t (*trace)[SW_GROUPS][V_LANES])
{
    const int64_t pos = rev(k, j0);
    /* (recording: also the block whose last step brings lane 0 to column m - 1) */
    const int edge = pw_ad_block_is_edge(j0, G, valid_rows[G - 1], V_LANES, record ? k->m - 1 : k->m);
    v16 counted[SW_GROUPS];
    /* Profile scoring: lane l of group q reads its letter's profile row at pos + qV + l - t in step
     * t, so the block's V steps are V contiguous words a lane (in reversed order): V loads and one
     * V x V transpose give each step's vector (step t: row V - 1 - t).  Gathering them a step at
     * a time cost about 40 of a step's 50 cycles with AVX-512 (2.5 GCUPS on proteins, against 10
     * with match/mismatch scoring). */
    v16 scores[V_LANES][SW_GROUPS];
    if (!eq)
        for (int q = 0; q < G; q++) {
            v16 rows[V_LANES];
            for (int l = 0; l < V_LANES; l++) rows[l] = v_load16(k->profile + L->lane_row[q][l] + pos + q * V_LANES - (V_LANES - 1));
            v_transpose(rows);
            for (int t = 0; t < V_LANES; t++) scores[t][q] = rows[V_LANES - 1 - t];
        }
    if (edge) {
        for (int t = 0; t < V_LANES; t++) {
            sw_step(s, k, L, pos - t, scores[t], zero, go, ge, G, affine, eq, 1, j0 + t, valid_rows, bd, counted);
            if (record) sw_record_last(s, k, i0, base, j0 + t, valid_rows, G);
            for (int q = 0; q < G; q++) {
                best[q] = v_max(best[q], counted[q]);
                if (trace) v_store16(trace[t][q], counted[q]);
            }
        }
    } else {
        for (int t = 0; t < V_LANES; t++) {
            sw_step(s, k, L, pos - t, scores[t], zero, go, ge, G, affine, eq, 0, j0 + t, valid_rows, bd, counted);
            for (int q = 0; q < G; q++) {
                best[q] = v_max(best[q], counted[q]);
                if (trace) v_store16(trace[t][q], counted[q]);
            }
        }
    }
}

/* Offer the lane's best of the pass that could matter (sw_simd.h), after finding its column by
 * running the block where it was first reached again from that block's saved state.  Only the
 * pass's highest score can win, and of the lanes that reach it only the first (the smallest row:
 * pw_best_cell_better's tie rule), so one lane at most is run again: offering every lane at or
 * above the worker's best ran a block again for nearly every row of a related pair (a third of
 * 256 x 256 DNA pairs' time at 90% identity). */
static void sw_offer_bests(const pw_sw_simd *k, const sw_letters *L, const sw_state *snap, const v16 *best,
                           const v16 *grew_in, int32_t base, v16 zero, int G, int affine, int eq, int64_t i0,
                           int64_t g, const int *valid_rows, int64_t b0, const sw_boundary *bd, int worker)
{
    int16_t lane_best[SW_GROUPS][V_LANES], lane_block[SW_GROUPS][V_LANES], trace[V_LANES][SW_GROUPS][V_LANES];
    for (int q = 0; q < G; q++) {
        v_store16(lane_best[q], best[q]);
        v_store16(lane_block[q], grew_in[q]);
    }
    const v16 go = v_set1(k->gap_open), ge = v_set1(k->gap_extend);
    const int32_t threshold = k->threshold(k->offer_ctx, worker);
    int16_t pass_best = NEG16;
    for (int q = 0; q < G; q++)
        for (int l = 0; l < valid_rows[q]; l++) pass_best = lane_best[q][l] > pass_best ? lane_best[q][l] : pass_best;
    int traced = -1, offered = 0;
    for (int q = 0; q < G && !offered; q++) {
        for (int l = 0; l < valid_rows[q] && !offered; l++) {
            if (lane_best[q][l] == NEG16 || lane_best[q][l] < pass_best) continue;
            const int32_t score = (int32_t)lane_best[q][l] + base;
            if (score <= 0 || score < threshold) return; /* (the pass's best cannot win) */
            const int b = lane_block[q][l];
            const int64_t j0 = b0 + (int64_t)b * V_LANES - g;
            if (b != traced) {
                sw_state again = snap[b];
                v16 none[SW_GROUPS];
                for (int p = 0; p < G; p++) none[p] = v_set1(NEG16);
                if (affine && eq) sw_block(&again, k, L, none, zero, go, ge, G, 1, 1, j0, valid_rows, bd, i0, base, 0, trace);
                else if (affine) sw_block(&again, k, L, none, zero, go, ge, G, 1, 0, j0, valid_rows, bd, i0, base, 0, trace);
                else if (eq) sw_block(&again, k, L, none, zero, go, ge, G, 0, 1, j0, valid_rows, bd, i0, base, 0, trace);
                else sw_block(&again, k, L, none, zero, go, ge, G, 0, 0, j0, valid_rows, bd, i0, base, 0, trace);
                traced = b;
            }
            for (int t = 0; t < V_LANES; t++) {
                const int64_t j = j0 - q * V_LANES + t - l;
                if (trace[t][q][l] == lane_best[q][l] && j >= 0 && j < k->m) {
                    k->offer(k->offer_ctx, worker, score, i0 + q * V_LANES + l, j);
                    offered = 1;
                    break;
                }
            }
        }
    }
}

/* A saved row's columns that a block's bus store just finished (the bus from index p0 on: V
 * columns, reversed), into its slot of the store. */
SW_INLINE void sw_save_block(const pw_sw_simd *k, int64_t slot, int64_t p0, const int affine)
{
    for (int q = 0; q < V_LANES; q++) {
        const int64_t p = p0 + q, j = k->pad + k->m - 1 - p;
        if (j < 0 || j >= k->m) continue;
        k->save_h[slot * k->m + j] = k->bus_h[p];
        k->save_f[slot * k->m + j] = affine ? k->bus_f[p] : PW_SW_NEG_INF;
    }
}

/* Steps [b0, b1) (multiples of V) of the set of G groups whose first lane 0 is row i0 and whose
 * first step is g (lane 0 at column 0).  Values are relative to the base, one of the pass's own
 * cells. */
SW_INLINE void sw_pass(const pw_sw_simd *k, const sw_letters *L0, int64_t i0, int64_t g, const int *valid_rows,
                       int64_t b0, int64_t b1, int worker, int64_t save_slot, const int G, const int affine, const int eq)
{
    sw_letters L = *L0;
    _Static_assert(sizeof(sw_state) * SW_MAX_BLOCKS <= PW_SW_SIMD_SCRATCH, "the per-block states fit the scratch");
    sw_state s, *snap = (sw_state *)(void *)(k->scratch + (size_t)worker * PW_SW_SIMD_SCRATCH);
    int32_t base = 0;
    if (b0 == g && k->left_h) {
        /* a band's set's first step: left of column 0 is the left neighbour's last column (its
         * first row the base: the column's neighbouring values are within d of each other); a
         * lane's diagonal is the row above's (left_h[-1] is row -1's 0) */
        base = k->left_h[i0];
        for (int q = 0; q < G; q++) {
            const int64_t i = i0 + q * V_LANES;
            s.h[q] = v_load_rel(k->left_h + i, base);
            s.e[q] = v_load_rel(k->left_e + i, base);
            s.d[q] = v_load_rel(k->left_h + i - 1, base);
            s.f[q] = v_set1(NEG16);
        }
    } else if (b0 == g) { /* the set's first step: everything left of column 0 is the boundary */
        for (int q = 0; q < G; q++) {
            s.h[q] = s.d[q] = v_set1(0);
            s.e[q] = s.f[q] = v_set1(NEG16);
        }
    } else {
        /* base: the first lane whose last cell is inside the matrix (lanes further up may already
         * be right of it, computing cells nobody reads) */
        int64_t l = b0 - 1 - g - (k->m - 1);
        base = k->carry_h[i0 + (l > 0 ? l : 0)];
        for (int q = 0; q < G; q++) {
            const int64_t i = i0 + q * V_LANES;
            s.h[q] = v_load_rel(k->carry_h + i, base);
            s.e[q] = v_load_rel(k->carry_e + i, base);
            s.f[q] = v_load_rel(k->carry_f + i, base);
            s.d[q] = v_load_rel(k->carry_d + i, base);
        }
    }
    const v16 zero = v_set1(base > 32767 ? NEG16 : -base); /* H's floor, 0, in this pass's terms */
    const v16 go = v_set1(k->gap_open), ge = v_set1(k->gap_extend);
    sw_boundary bd;
    sw_boundary_load(&bd, k, i0, base, zero, G);
    const int record = k->last_h != NULL;
    v16 best[SW_GROUPS], grew_in[SW_GROUPS];
    for (int q = 0; q < G; q++) {
        best[q] = v_set1(NEG16);
        grew_in[q] = v_set1(0);
    }
    s.bf = v_set1(NEG16);
    int blocks = 0;
    for (int64_t blk = b0; blk < b1; blk += V_LANES, blocks++) {
        const int64_t j0 = blk - g; /* the first group's lane 0 column at the block's first step */
        s.bh = v_load_rel(k->bus_h + rev(k, j0 + V_LANES - 1), base);
        if (affine) s.bf = v_load_rel(k->bus_f + rev(k, j0 + V_LANES - 1), base);
        snap[blocks] = s;
        v16 before[SW_GROUPS];
        for (int q = 0; q < G; q++) before[q] = best[q];
        sw_block(&s, k, &L, best, zero, go, ge, G, affine, eq, j0, valid_rows, &bd, i0, base, record, NULL);
        for (int q = 0; q < G; q++) grew_in[q] = v_blend(v_gt(best[q], before[q]), grew_in[q], v_set1(blocks));
        /* the last group's finished cells, columns j0 - (G-1)V - V + 1 .. j0 - (G-1)V */
        v_store_abs(k->bus_h + rev(k, j0 - (G - 1) * V_LANES), s.bh, base, PW_SW_NEG_INF);
        if (affine) v_store_abs(k->bus_f + rev(k, j0 - (G - 1) * V_LANES), s.bf, base, PW_SW_NEG_INF);
        if (save_slot >= 0) sw_save_block(k, save_slot, rev(k, j0 - (G - 1) * V_LANES), affine);
    }
    for (int q = 0; q < G; q++) {
        const int64_t i = i0 + q * V_LANES;
        v_store_abs(k->carry_h + i, s.h[q], base, PW_SW_NEG_INF);
        v_store_abs(k->carry_e + i, s.e[q], base, PW_SW_NEG_INF);
        v_store_abs(k->carry_f + i, s.f[q], base, PW_SW_NEG_INF);
        v_store_abs(k->carry_d + i, s.d[q], base, PW_SW_NEG_INF);
    }
    sw_offer_bests(k, &L, snap, best, grew_in, base, zero, G, affine, eq, i0, g, valid_rows, b0, &bd, worker);
}

/* A set's passes, with the scoring and gap forms as constants. */
SW_INLINE void sw_passes(const pw_sw_simd *k, const sw_letters *L, int64_t i0, int64_t g, const int *valid,
                         int64_t b0, int64_t b1, int worker, int64_t save_slot, const int G)
{
    for (int64_t p0 = b0; p0 < b1; p0 += k->pass_max) {
        int64_t p1 = p0 + k->pass_max < b1 ? p0 + k->pass_max : b1;
        if (k->affine && k->eq) sw_pass(k, L, i0, g, valid, p0, p1, worker, save_slot, G, 1, 1);
        else if (k->affine) sw_pass(k, L, i0, g, valid, p0, p1, worker, save_slot, G, 1, 0);
        else if (k->eq) sw_pass(k, L, i0, g, valid, p0, p1, worker, save_slot, G, 0, 1);
        else sw_pass(k, L, i0, g, valid, p0, p1, worker, save_slot, G, 0, 0);
    }
}


void SW_SIMD_TILE(const pw_sw_simd *k, int64_t r, int64_t c, int worker)
{
    pw_ad_set set;
    int64_t g = 0;
    while (pw_ad_next_set(k->t, r, c, k->m, V_LANES, SW_GROUPS, &g, &set)) {
        if (set.b0 >= set.b1) continue;
        const int G = set.groups;
        const int64_t save_slot = k->save_h ? pw_ad_saved_slot(k->t, r, &set, V_LANES, k->save_every, k->save_slots) : -1;
        sw_letters L;
        L.match = v_set1(k->match);
        L.mismatch = v_set1(k->mismatch);
        for (int q = 0; q < G; q++) {
            int16_t letters[V_LANES];
            for (int l = 0; l < V_LANES; l++) letters[l] = k->a_codes[set.i0 + q * V_LANES + l];
            L.a[q] = v_load16(letters);
            for (int l = 0; l < V_LANES; l++) L.lane_row[q][l] = (int64_t)letters[l] * k->plen + l;
        }
        switch (G) { /* G as a constant: the groups' loops unroll */
        case 1: sw_passes(k, &L, set.i0, set.g, set.valid, set.b0, set.b1, worker, save_slot, 1); break;
#if SW_GROUPS >= 2
        case 2: sw_passes(k, &L, set.i0, set.g, set.valid, set.b0, set.b1, worker, save_slot, 2); break;
#endif
#if SW_GROUPS >= 3
        case 3: sw_passes(k, &L, set.i0, set.g, set.valid, set.b0, set.b1, worker, save_slot, 3); break;
#endif
#if SW_GROUPS >= 4
        case 4: sw_passes(k, &L, set.i0, set.g, set.valid, set.b0, set.b1, worker, save_slot, 4); break;
#endif
        }
    }
}
