/*
 * sw_packed_lanes.cuh - Smith-Waterman-Gotoh lanes for the warp processor with two rows in one
 * register: 16-bit halves, so that one DPX instruction (sm_90: VIADDMNMX, VIMNMX3 on .s16x2)
 * makes a step of two cells.  Lanes q and q + R/2 of a thread share register q (low and high
 * half); every lane of a step is independent of the others (warp_proc.cuh), so any pairing
 * works, and this one makes the up value of pair p simply pair p - 1's previous value: only
 * pair 0 needs a byte permute (the thread above's last lane, and this thread's lane R/2 - 1).
 *
 * Any score, whatever the sequences' length: values are kept relative to a base the warp moves.
 * At each chunk's start the warp takes its largest H; above BASE_HIGH, or below BASE_LOW while
 * the base is positive, every value moves so that the largest is BASE_TARGET (one warp-wide
 * value: no thread diverges).  The base is a 32-bit integer, so scores have no 16-bit limit.
 * Why nothing wraps (the host checks the scores satisfy the bounds, sw_packed_fits):
 *   - H >= floor, where floor = -base (an absolute 0) clamped to FLOOR_MIN; E, F >= floor - open
 *     once a step has made them (they are max(..., H' - open)), so a value is never far below
 *     the floor, nor, after a chunk's growth (at most open + max_s + 32 max_s above BASE_HIGH),
 *     near the top.
 *   - Two neighbouring cells' H differ by at most max_s + open, so at one step the warp's cells
 *     (a lane (i, j) and the next (i + 1, j - 1): two such moves) span at most
 *     2 (h - 1)(max_s + open).  While the base is positive the largest is at least BASE_LOW - 32
 *     open at any step, and the host keeps the span below BASE_LOW - FLOOR_MIN - 32 open: no cell
 *     whose true H is an absolute 0 exists then, so clamping the floor changes nothing.
 * Boundary values come in and go out as the scalar app's T (absolute 32-bit), converted where
 * they are staged: the bus once a chunk, the lanes' left and diagonal values at a tile's ends.
 * Sentinels (E, F = -infinity) become floor - open, which never wins either.
 *
 * The best cell: a thread keeps its best H with its lane and step (not one per row and cell as
 * ScalarLanes does: a compare and two selects a cell).  Each step it takes the largest H of its
 * lanes (a max a pair) and compares it with the best once; only where a lane reaches the best
 * does it look at which (the smallest row, at a tie the one already kept if smaller: per row
 * the smallest column, as app_sw.cuh's rule).  At a tile's end the best goes to its row's entry
 * in the app's per-row arrays, which the host reduces as before: every entry is a score some
 * cell of its row reached, and the best score's smallest row holds its smallest column.
 *
 * The score of a pair: with a small alphabet (A <= PW_SW_PAIR_ALPHABET, DNA) one shared load
 * from a table of both halves' scores indexed by the four letters; else two loads of the app's
 * table and a permute.  Not for block pruning or the alignment search (ScalarLanes keeps those).
 */
#ifndef PW_DEVICE_SW_PACKED_LANES_CUH
#define PW_DEVICE_SW_PACKED_LANES_CUH

#include "app_sw.cuh"
#include "prmt.cuh"
#include "warp_lanes.cuh"

/* The pair table's alphabet at most (A^4 entries) and the base's rule (above; the host's
 * sw_packed_fits checks the scores against them). */
#define PW_SW_PAIR_ALPHABET 6
#define PW_SW_PACKED_TARGET 8192
#define PW_SW_PACKED_HIGH 9216
#define PW_SW_PACKED_LOW 4096
#define PW_SW_PACKED_FLOOR_MIN (-24576)

static __shared__ uint32_t pw_sw_smem_pairs[PW_SW_PAIR_ALPHABET * PW_SW_PAIR_ALPHABET * PW_SW_PAIR_ALPHABET *
                                            PW_SW_PAIR_ALPHABET];

__device__ __forceinline__ uint32_t pw_pack16(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xffffu) | ((uint32_t)hi << 16);
}
__device__ __forceinline__ int32_t pw_lo16(uint32_t x) { return (int32_t)(int16_t)(x & 0xffffu); }
__device__ __forceinline__ int32_t pw_hi16(uint32_t x) { return (int32_t)x >> 16; }
__device__ __forceinline__ int32_t pw_clamp32(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }
/* a + b in each half (b's halves may be negative), as one DPX instruction: max(a + b, MIN) */
__device__ __forceinline__ uint32_t pw_add16x2(uint32_t a, uint32_t b) { return __viaddmax_s16x2(a, b, 0x80008000u); }

template <class App, int R, bool PairTable>
struct SwPackedLanes {
    static_assert(R % 2 == 0, "two lanes a register");
    static constexpr int P = R / 2; /* pairs: lanes p (low half) and p + P (high half) */
    typedef typename App::T T;
    typedef typename App::Col Col;
    typedef typename App::GapModel Gaps;
    typedef uint32_t Staged; /* a bus value: H in the high half, F in the low */
    static constexpr int bits = 16; /* a cell value's width in the lanes (pw_run_info.lane_bits) */
    static constexpr bool prunes = false;
    static constexpr bool affine = Gaps::affine;

    uint32_t H[P], E[P], F[P], D[P], Ho[P]; /* E, F affine only; D: the previous up H; Ho: H - open */
    uint32_t pre[P];                        /* the pair's scores at the next step */
    int32_t ch[R];                          /* 4 b[x] of each lane's next column */
    int32_t cl[P];                          /* PairTable: ch of the low lane times A^2 */
    int32_t row_lo[P], row_hi[P];           /* PairTable: row_lo the pair's part of the index */
    pw_step_window cells[R];                /* checked tiles, as ScalarLanes */
    int32_t base, floor;
    uint32_t floor2, thr2, open2, ext2; /* -open, -extend in both halves (linear: -gap) */
    int32_t open, a2;                   /* a2: A^2 (PairTable) */
    int32_t best, best_q, best_step;    /* best_q -1: no positive score kept; best_step -1: none this tile */

    __device__ static void begin_block(const App &app)
    {
        if constexpr (PairTable) {
            const int A = app.alphabet, A2 = A * A;
            for (int k = threadIdx.x; k < A2 * A2; k += blockDim.x) {
                const int a_lo = k / (A2 * A), b_lo = k / A2 % A, a_hi = k / A % A, b_hi = k % A;
                pw_sw_smem_pairs[k] = pw_pack16(app.scores[a_lo * A + b_lo], app.scores[a_hi * A + b_hi]);
            }
        }
    }

    /* ---- the base ---- */

    __device__ __forceinline__ void set_base(int32_t b)
    {
        base = b;
        floor = -b > PW_SW_PACKED_FLOOR_MIN ? -b : PW_SW_PACKED_FLOOR_MIN;
        floor2 = pw_pack16(floor, floor);
        set_threshold();
    }

    /* A step's largest H above thr2 (in a half) is worth a look: > best, or >= best where a
     * tie can win (best_q >= 0). */
    __device__ __forceinline__ void set_threshold()
    {
        const int64_t t = (int64_t)best - base - (best_q >= 0 ? 1 : 0);
        const int32_t c = (int32_t)(t < -32768 ? -32768 : t > 32767 ? 32767 : t);
        thr2 = pw_pack16(c, c);
    }

    __device__ __forceinline__ static int32_t warp_max(int32_t v)
    {
#pragma unroll
        for (int d = 16; d > 0; d /= 2) {
            const int32_t o = __shfl_xor_sync(0xffffffffu, v, d);
            v = o > v ? o : v;
        }
        return v;
    }

    __device__ __forceinline__ void chunk_end(const App &, int32_t) {} /* (its best is its own: best_so_far) */

    __device__ __forceinline__ void chunk_begin(const App &)
    {
        uint32_t m = H[0];
#pragma unroll
        for (int p = 1; p < P; p++) m = __vmaxs2(m, H[p]);
        int32_t top = pw_lo16(m) > pw_hi16(m) ? pw_lo16(m) : pw_hi16(m);
        top = warp_max(top);
        if (top <= PW_SW_PACKED_HIGH && (base == 0 || top >= PW_SW_PACKED_LOW)) return;
        int32_t delta = top - PW_SW_PACKED_TARGET;
        if (delta < -base) delta = -base;
        const uint32_t d2 = pw_pack16(-delta, -delta);
#pragma unroll
        for (int p = 0; p < P; p++) {
            H[p] = pw_add16x2(H[p], d2);
            D[p] = pw_add16x2(D[p], d2);
            Ho[p] = pw_add16x2(Ho[p], d2);
            if constexpr (affine) {
                E[p] = pw_add16x2(E[p], d2);
                F[p] = pw_add16x2(F[p], d2);
            }
        }
        set_base(base + delta);
    }

    /* ---- values in and out (absolute 32-bit, the app's T) ---- */

    __device__ __forceinline__ int32_t rel_h(int32_t h) const { return pw_clamp32(h - base, floor, 32767); }
    __device__ __forceinline__ int32_t rel_gap(int32_t g) const
    {
        /* E, F: -infinity (PW_SW_NEG_INF) and any value at most floor - open lose to H - open */
        return pw_clamp32(g < PW_SW_NEG_INF / 2 ? floor - open : g - base, floor - open, 32767);
    }

    __device__ __forceinline__ Staged stage(const App &, const T &v) const
    {
        if constexpr (affine) return pw_pack16(rel_gap(v.f), rel_h(v.h));
        else return pw_pack16(0, rel_h(v));
    }

    __device__ __forceinline__ T unstage(const App &, const Staged &s) const
    {
        if constexpr (affine) return T{pw_hi16(s) + base, PW_SW_NEG_INF, pw_lo16(s) + base};
        else return pw_hi16(s) + base;
    }

    /* ---- a step ---- */

    template <bool Checked>
    __device__ __forceinline__ void step(const App &app, const pw_warp_span &sp, const Staged &staged_up,
                                         const Col &staged_col, Staged *out_val, int o, int32_t rel)
    {
        const int k = threadIdx.x;
        const int32_t s = rel + o;
        /* pair 0's up: the thread above's last lane (the high half of its pair P - 1, or the
         * staged bus value for thread 0, H also in the high half) and lane P - 1 (low half).
         * Every shuffle here is made by all 32 threads and only then selected, as ScalarLanes
         * does: written inside `k == 0 ? staged : __shfl_up_sync(...)` it is a branch around the
         * shuffle for thread 0 (the PTX has `@p bra` over each shfl.sync.up), so thread 0 never
         * executes a shuffle that names it in its mask: threads 1-31 wait in it for thread 0,
         * which waits for them at the chunk's __syncwarp, and the warp hangs in its first chunk
         * (a hardware wait: the watchdog never sees it).  Thread 1 also needs thread 0's value. */
        const uint32_t shuffled_h = __shfl_up_sync(0xffffffffu, H[P - 1], 1);
        const uint32_t in_h = k == 0 ? staged_up : shuffled_h;
        const uint32_t up_h0 = __byte_perm(in_h, H[P - 1], 0x5432);
        const uint32_t up_ho0 = pw_add16x2(up_h0, open2);
        uint32_t up_f0 = 0;
        if constexpr (affine) {
            const uint32_t shuffled_f = __shfl_up_sync(0xffffffffu, F[P - 1], 1); /* every thread */
            const uint32_t in_f = k == 0 ? staged_up << 16 : shuffled_f;
            up_f0 = __byte_perm(in_f, F[P - 1], 0x5432);
        }
        uint32_t out_w = 0; /* Checked: the tile's last lane's value, when this thread holds it */
        /* Last pair first: pair p reads pair p - 1's previous-step values before they change. */
#pragma unroll
        for (int p = P - 1; p >= 0; p--) {
            const uint32_t up_h = p > 0 ? H[p - 1] : up_h0, up_ho = p > 0 ? Ho[p - 1] : up_ho0;
            uint32_t h, e = 0, f = 0;
            if constexpr (affine) {
                e = __viaddmax_s16x2(E[p], ext2, Ho[p]);
                f = __viaddmax_s16x2(p > 0 ? F[p - 1] : up_f0, ext2, up_ho);
                h = __viaddmax_s16x2(D[p], pre[p], __vimax3_s16x2(e, f, floor2));
            } else {
                h = __viaddmax_s16x2(D[p], pre[p], __vimax3_s16x2(up_ho, Ho[p], floor2));
            }
            const uint32_t ho = pw_add16x2(h, open2);
            if (Checked) {
                /* each half kept where its lane's cell is inside the matrix */
                const uint32_t keep = (cells[p].has(s) ? 0x0000ffffu : 0u) | (cells[p + P].has(s) ? 0xffff0000u : 0u);
                D[p] = (up_h & keep) | (D[p] & ~keep);
                H[p] = (h & keep) | (H[p] & ~keep);
                Ho[p] = (ho & keep) | (Ho[p] & ~keep);
                if constexpr (affine) {
                    E[p] = (e & keep) | (E[p] & ~keep);
                    F[p] = (f & keep) | (F[p] & ~keep);
                }
                /* The tile's last lane (pair last_q % P) goes out after the loop.  Chosen by a
                 * select of opaque permutes: as `if (last_q % P == p) out_val[o] = perm(F[p], H[p])`
                 * the compiler merged the stores into one load of F[last_q % P], an index known
                 * only at run time, which put the whole lanes object (every register array here)
                 * in local memory: 164 bytes stored and loaded at every step, the pairs 4x slower
                 * than the 32-bit lanes (ncu and SASS on an H200, 2026-11-28). */
                const uint32_t w = pw_prmt(affine ? F[p] : H[p], H[p], sp.last_q >= P ? 0x7632u : 0x5410u);
                out_w = sp.last_q % P == p ? w : out_w;
            } else {
                D[p] = up_h;
                H[p] = h;
                Ho[p] = ho;
                if constexpr (affine) {
                    E[p] = e;
                    F[p] = f;
                }
                if (p == P - 1 && k == 31) out_val[o] = __byte_perm(affine ? f : h, h, 0x7632);
            }
        }
        if (Checked && k == sp.last_thread) out_val[o] = out_w;
        /* the best cell: one look a step unless a lane reaches the best kept */
        uint32_t m = H[0];
#pragma unroll
        for (int p = 1; p < P; p++) m = __vmaxs2(m, H[p]);
        if (__vmaxs2(m, thr2) != thr2) look_at_best<Checked>(sp, s);
        /* the next step's columns and scores, off the up value's path */
        const int32_t shuffled_c = __shfl_up_sync(0xffffffffu, ch[R - 1], 1); /* every thread (above) */
        const int32_t in_c = k == 0 ? staged_col : shuffled_c;
#pragma unroll
        for (int q = R - 1; q > 0; q--) ch[q] = ch[q - 1];
        ch[0] = in_c;
        if constexpr (PairTable) {
#pragma unroll
            for (int p = P - 1; p > 0; p--) cl[p] = cl[p - 1];
            cl[0] = in_c * a2;
        }
        make_scores(app);
    }

    __device__ __forceinline__ void make_scores(const App &)
    {
#pragma unroll
        for (int p = 0; p < P; p++) {
            if constexpr (PairTable) {
                pre[p] = *(const uint32_t *)((const char *)pw_sw_smem_pairs + (row_lo[p] + cl[p] + ch[p + P]));
            } else {
                const int32_t s_lo = *(const int32_t *)((const char *)pw_sw_smem_scores + (row_lo[p] + ch[p]));
                const int32_t s_hi = *(const int32_t *)((const char *)pw_sw_smem_scores + (row_hi[p] + ch[p + P]));
                pre[p] = __byte_perm((uint32_t)s_lo, (uint32_t)s_hi, 0x5410);
            }
        }
    }

    /* Some lane's H reached the threshold at tile step s: keep the smallest row that beats the
     * best (or ties it from a smaller row). */
    template <bool Checked>
    __device__ __forceinline__ void look_at_best(const pw_warp_span &, int32_t s)
    {
#pragma unroll
        for (int q = 0; q < R; q++) {
            const uint32_t x = H[q % P];
            const int32_t v = (q < P ? pw_lo16(x) : pw_hi16(x)) + base;
            const bool valid = !Checked || cells[q].has(s);
            if (valid && (v > best || (v == best && q < best_q))) {
                best = v;
                best_q = q;
                best_step = s;
            }
        }
        set_threshold();
    }

    /* ---- a tile's ends ---- */

    __device__ __forceinline__ void load(const App &app, const pw_tiling &t, const pw_warp_span &sp)
    {
        const int A = app.alphabet;
        a2 = A * A;
        if constexpr (affine) {
            open = app.gaps.open;
            open2 = pw_pack16(-app.gaps.open, -app.gaps.open);
            ext2 = pw_pack16(-app.gaps.extend, -app.gaps.extend);
        } else {
            open = app.gaps.gap;
            open2 = pw_pack16(-app.gaps.gap, -app.gaps.gap);
            ext2 = open2;
        }
        int32_t h[R], e[R], f[R], d[R], top = 0;
        best = 0;
        best_q = -1;
        best_step = -1;
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)threadIdx.x * R + q, i = sp.first + q;
            const int64_t x = sp.s0 - lane;
            cells[q] = pw_lane_steps(lane, sp.lanes, sp.s0, t.cols);
            ch[q] = x >= 0 && x < t.cols ? app.col_load(x) : 0;
            /* stand-ins past the tile's rows, as ScalarLanes */
            const int32_t a = app.a[lane < sp.lanes ? i : sp.first - (int64_t)threadIdx.x * R];
            if (q < P) row_lo[q] = PairTable ? 4 * a * a2 * A : 4 * a * A;
            else row_hi[q - P] = PairTable ? 4 * a * A : 4 * a * A;
            h[q] = d[q] = 0;
            e[q] = f[q] = PW_SW_NEG_INF;
            if (lane < sp.lanes) {
                const T lv = pw_load_cg(app.left + i), dv = pw_load_cg(app.diag + i);
                h[q] = Gaps::h(lv);
                d[q] = Gaps::h(dv);
                if constexpr (affine) {
                    e[q] = lv.e;
                    f[q] = lv.f;
                }
                top = h[q] > top ? h[q] : top;
                top = d[q] > top ? d[q] : top;
                const int32_t b = app.best_key[i];
                if (b > best) { /* rows in order: a tie keeps the smaller */
                    best = b;
                    best_q = q;
                }
            }
        }
        if (best <= 0) best_q = -1;
        top = warp_max(top);
        set_base(top > PW_SW_PACKED_TARGET ? top - PW_SW_PACKED_TARGET : 0);
#pragma unroll
        for (int p = 0; p < P; p++) {
            const int32_t hl = rel_h(h[p]), hh = rel_h(h[p + P]);
            H[p] = pw_pack16(hl, hh);
            Ho[p] = pw_pack16(hl - open, hh - open);
            D[p] = pw_pack16(rel_h(d[p]), rel_h(d[p + P]));
            E[p] = pw_pack16(rel_gap(e[p]), rel_gap(e[p + P]));
            F[p] = pw_pack16(rel_gap(f[p]), rel_gap(f[p + P]));
            if constexpr (PairTable) {
                row_lo[p] += row_hi[p];
                cl[p] = ch[p] * a2;
            }
        }
        make_scores(app);
    }

    __device__ __forceinline__ void store(const App &app, const pw_warp_span &sp) const
    {
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)threadIdx.x * R + q, i = sp.first + q;
            if (lane >= sp.lanes) continue;
            const int p = q % P;
            const bool hi = q >= P;
            const int32_t h = (hi ? pw_hi16(H[p]) : pw_lo16(H[p])) + base;
            const int32_t d = (hi ? pw_hi16(D[p]) : pw_lo16(D[p])) + base;
            if constexpr (affine) {
                const int32_t e = (hi ? pw_hi16(E[p]) : pw_lo16(E[p])) + base;
                const int32_t f = (hi ? pw_hi16(F[p]) : pw_lo16(F[p])) + base;
                app.left[i] = T{h, e, f};
                app.diag[i] = T{d, PW_SW_NEG_INF, PW_SW_NEG_INF};
            } else {
                app.left[i] = h;
                app.diag[i] = d;
            }
            if (q == best_q && best_step >= 0) {
                app.best_key[i] = best;
                app.best_col[i] = sp.s0 - lane + best_step;
            }
        }
    }
};

#endif
