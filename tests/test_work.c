/*
 * test_work.c - core/work.h's tickets, checked on many shapes without running anything:
 *   1. 2-D: ticket t decodes to (problem, sweep, band, row) in that order of significance, every
 *      combination once, and the previous sweep's same row is t - pw_work_sweep_stride;
 *   2. 3-D faces: pw_work_face_tile visits every tile of a tiles_j x tiles_k face once, is
 *      pw_work_face_row's inverse, goes in anti-diagonal order (J + K never falls, J rises along
 *      a diagonal), and a tile's two neighbours before it, (J - 1, K) and (J, K - 1), come earlier:
 *      the 3-D processor's waits are on earlier tickets only (forward progress).
 */
#include "../src/core/work.h"
#include "test_util.h"

static void check_2d(int64_t n_rows, int64_t bands, int64_t sweeps, int64_t problems)
{
    pw_work w = pw_work_make(n_rows, sweeps);
    w.bands = bands;
    w.problems = problems;
    const int64_t tickets = pw_work_tickets(&w);
    CHECK(tickets == n_rows * bands * sweeps * problems, "ticket count");
    int64_t bad = 0, t = 0;
    for (int64_t p = 0; p < problems; p++)
        for (int64_t s = 0; s < sweeps; s++)
            for (int64_t b = 0; b < bands; b++)
                for (int64_t r = 0; r < n_rows; r++, t++) {
                    const pw_ticket k = pw_work_decode(&w, t);
                    bad += k.problem != p || k.sweep != s || k.band != b || k.row != r;
                    if (s > 0) {
                        const pw_ticket prev = pw_work_decode(&w, t - pw_work_sweep_stride(&w));
                        bad += prev.sweep != s - 1 || prev.row != r || prev.band != b || prev.problem != p;
                    }
                }
    CHECK(bad == 0, "2-D rows %" PRId64 " bands %" PRId64 " sweeps %" PRId64 " problems %" PRId64 ": %" PRId64 " wrong",
          n_rows, bands, sweeps, problems, bad);
}

static void check_face(int64_t nj, int64_t nk, int64_t sweeps)
{
    const pw_work w = pw_work_make_face(nj, nk, sweeps);
    CHECK(w.n_rows == nj * nk && pw_work_tickets(&w) == nj * nk * sweeps, "face ticket count");
    int *seen = calloc((size_t)(nj * nk), sizeof *seen);
    int64_t bad = 0, last_d = 0, last_j = -1;
    for (int64_t row = 0; row < w.n_rows; row++) {
        int64_t tj = -1, tk = -1;
        pw_work_face_tile(&w, row, &tj, &tk);
        if (tj < 0 || tj >= nj || tk < 0 || tk >= nk) {
            bad++;
            continue;
        }
        seen[tj * nk + tk]++;
        bad += pw_work_face_row(&w, tj, tk) != row;
        const int64_t d = tj + tk;
        bad += d < last_d || (d == last_d && tj <= last_j);
        last_d = d;
        last_j = tj;
        if (tj > 0) bad += pw_work_face_row(&w, tj - 1, tk) >= row;
        if (tk > 0) bad += pw_work_face_row(&w, tj, tk - 1) >= row;
    }
    for (int64_t x = 0; x < nj * nk; x++) bad += seen[x] != 1;
    free(seen);
    CHECK(bad == 0, "face %" PRId64 " x %" PRId64 ": %" PRId64 " wrong", nj, nk, bad);
}

int main(void)
{
    test_seed(4242);
    for (int trial = 0; trial < 200; trial++)
        check_2d(test_range(1, 40), test_range(1, 4), test_range(1, 5), test_range(1, 3));
    /* the awkward faces: one row or one column of tiles, squares, primes, long and thin */
    const int64_t faces[][2] = {{1, 1}, {1, 17}, {17, 1}, {2, 2}, {7, 7}, {13, 5}, {5, 13}, {1, 200}, {200, 1}, {31, 97}};
    for (size_t f = 0; f < sizeof faces / sizeof faces[0]; f++) check_face(faces[f][0], faces[f][1], 1);
    for (int trial = 0; trial < 200; trial++) check_face(test_range(1, 60), test_range(1, 60), test_range(1, 3));
    return test_finish();
}
