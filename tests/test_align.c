/*
 * test_align.c - full alignments (pw_sw_align) and warping paths (pw_dtw_path_*), against
 * textbook full-matrix computations written here, over random pairs of awkward shapes:
 *   - the score and end cell equal a full-matrix Smith-Waterman-Gotoh's (ties: smallest end_a,
 *     then end_b); the start is the nearest one that an unpruned backwards pass finds;
 *   - the alignment is rescored column by column here (not by the library) and gives the score;
 *     CIGAR lengths add up to the positions, '=' and 'X' agree with the letters;
 *   - when a counting DP here finds exactly one optimal alignment, ours is it (the full-matrix
 *     traceback's);
 *   - the same alignment on 1, 2 and 3 threads and on every CPU strategy of the score pass;
 *   - DTW: the path is monotone from (0, 0) to (n-1, m-1), its cost is the full-matrix distance
 *     (exactly for integer-valued series), and it equals the traceback of the full matrix when
 *     that path is the only optimal one;
 *   - bad arguments: clear statuses.
 *   test_align --cells   the GPU passes' cells (src/align/cells/) run by the runtime on the CPU
 *                        give the CPU passes' rows, integer for integer (needs a C compiler)
 *   test_align --nvrtc   those cells compile with NVRTC (no GPU needed; SKIP without NVRTC)
 *   test_align --gpu     on the GPU: its passes' rows equal the CPU's, and alignments and paths
 *                        with every large pass on the GPU equal the CPU's (SKIP without one)
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "peerwave_align.h"
#include "peerwave_runtime.h"
#include "../src/align/align_internal.h"
#include "../src/align/gpu_passes.h"
#include "../src/jit/cell_gpu.h"
#include "../src/cuda/kernel_desc.h"
#include "../src/core/plan.h"
#include "../src/core/alloc.h"
#include "../apps/checks.h"
#include "../apps/dtw_cell.h"
#include "../apps/sw_cell.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif
#include "test_util.h"

#define NEG (-(1 << 28))

static int unique_sw, unique_dtw; /* cases compared with the only optimal alignment / path */

static const char *const dna = "ACGT", *const dna_n = "ACGTNacgtu", *const protein = "ARNDCQEGHILKMFPSTWYV";

static void random_related(char *a, int64_t n, char *b, int64_t m, const char *alphabet)
{
    size_t k = strlen(alphabet);
    for (int64_t x = 0; x < n; x++) a[x] = alphabet[test_rand() % k];
    for (int64_t x = 0; x < m; x++) b[x] = alphabet[test_rand() % k];
    int64_t from = test_range(0, n - 1), to = test_range(0, m - 1), len = test_range(0, n < m ? n : m);
    for (int64_t x = 0; x < len && from + x < n && to + x < m; x++)
        if (test_rand() % 6) b[to + x] = a[from + x];
}

/* The library's score of a letter pair, by its own public matrix or the DNA rule (independent of
 * the encoding inside the library). */
static int pair_score(const pw_sw_params *p, char x, char y)
{
    int u = toupper((unsigned char)x), v = toupper((unsigned char)y);
    if (p->scoring == PW_SCORING_DNA) {
        if (u == 'U') u = 'T';
        if (v == 'U') v = 'T';
        int ok = strchr("ACGT", u) && strchr("ACGT", v);
        return ok && u == v ? p->match : p->mismatch;
    }
    const pw_matrix *mx = p->matrix;
    const char *pu = strchr(mx->alphabet, u), *pv = strchr(mx->alphabet, v);
    int iu = pu ? (int)(pu - mx->alphabet) : (int)(strchr(mx->alphabet, mx->wildcard) - mx->alphabet);
    int iv = pv ? (int)(pv - mx->alphabet) : (int)(strchr(mx->alphabet, mx->wildcard) - mx->alphabet);
    return mx->scores[iu * mx->size + iv];
}

static int max3(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

typedef struct full_sw {
    int score;
    int64_t end_a, end_b, start_a, start_b;
    double optimal; /* number of optimal local alignments (gaps cost > 0 only) */
    char *ops;      /* the traceback's operations when optimal == 1 */
    int64_t nops;
} full_sw;

/* Full-matrix SW-Gotoh: score, end (smallest i, then j), the nearest start (an unpruned pass
 * backwards), the number of optimal alignments and, when unique, the alignment (traceback). */
static void full_matrix_sw(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *p, full_sw *r)
{
    int go = p->gap_open, ge = p->gap_extend;
    size_t cells = (size_t)(n + 1) * (size_t)(m + 1);
    int *H = malloc(cells * sizeof *H), *E = malloc(cells * sizeof *E), *F = malloc(cells * sizeof *F);
    int *D = malloc(cells * sizeof *D);
    double *cH = calloc(cells, sizeof *cH), *cE = calloc(cells, sizeof *cE), *cF = calloc(cells, sizeof *cF),
           *cD = calloc(cells, sizeof *cD);
#define AT(i, j) ((size_t)(i) * (size_t)(m + 1) + (size_t)(j))
    /* Hv: best over non-empty alignments ending at (i, j) (no clamp); D: ending with the pair. */
    for (int64_t j = 0; j <= m; j++) H[AT(0, j)] = E[AT(0, j)] = F[AT(0, j)] = D[AT(0, j)] = NEG;
    r->score = 0;
    r->end_a = r->end_b = -1;
    for (int64_t i = 1; i <= n; i++) {
        H[AT(i, 0)] = E[AT(i, 0)] = F[AT(i, 0)] = D[AT(i, 0)] = NEG;
        for (int64_t j = 1; j <= m; j++) {
            int prev = H[AT(i - 1, j - 1)];
            int s = pair_score(p, a[i - 1], b[j - 1]);
            D[AT(i, j)] = s + (prev > 0 ? prev : 0);
            cD[AT(i, j)] = prev > 0 ? cH[AT(i - 1, j - 1)] : prev == 0 ? cH[AT(i - 1, j - 1)] + 1 : 1;
            int e1 = E[AT(i, j - 1)] - ge, e2 = H[AT(i, j - 1)] - go;
            E[AT(i, j)] = e1 > e2 ? e1 : e2;
            cE[AT(i, j)] = (e1 == E[AT(i, j)] ? cE[AT(i, j - 1)] : 0) + (e2 == E[AT(i, j)] ? cH[AT(i, j - 1)] : 0);
            int f1 = F[AT(i - 1, j)] - ge, f2 = H[AT(i - 1, j)] - go;
            F[AT(i, j)] = f1 > f2 ? f1 : f2;
            cF[AT(i, j)] = (f1 == F[AT(i, j)] ? cF[AT(i - 1, j)] : 0) + (f2 == F[AT(i, j)] ? cH[AT(i - 1, j)] : 0);
            int h = max3(D[AT(i, j)], E[AT(i, j)], F[AT(i, j)]);
            if (h < NEG / 2) h = NEG;
            H[AT(i, j)] = h;
            cH[AT(i, j)] = (D[AT(i, j)] == h ? cD[AT(i, j)] : 0) + (E[AT(i, j)] == h ? cE[AT(i, j)] : 0) +
                           (F[AT(i, j)] == h ? cF[AT(i, j)] : 0);
            if (D[AT(i, j)] > r->score) {
                r->score = D[AT(i, j)];
                r->end_a = i - 1;
                r->end_b = j - 1;
            }
        }
    }
    r->optimal = 0;
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= m; j++)
            if (r->score > 0 && D[AT(i, j)] == r->score) r->optimal += cD[AT(i, j)];
    /* The nearest start: backwards from the end, anchored there (no pruning), row by row. */
    r->start_a = r->start_b = -1;
    if (r->score > 0) {
        int64_t rows = r->end_a + 1, cols = r->end_b + 1;
        int *h = malloc(sizeof *h * (size_t)(cols + 1)), *f = malloc(sizeof *f * (size_t)(cols + 1));
        h[0] = 0;
        for (int64_t j = 1; j <= cols; j++) {
            h[j] = -go - (int)(j - 1) * ge;
            f[j] = NEG;
        }
        for (int64_t i = 1; i <= rows && r->start_a < 0; i++) {
            int diag = h[0], e = NEG;
            h[0] = -go - (int)(i - 1) * ge;
            for (int64_t j = 1; j <= cols; j++) {
                int s = pair_score(p, a[r->end_a - (i - 1)], b[r->end_b - (j - 1)]);
                e = e - ge > h[j - 1] - go ? e - ge : h[j - 1] - go;
                f[j] = f[j] - ge > h[j] - go ? f[j] - ge : h[j] - go;
                int v = max3(diag + s, e, f[j]);
                diag = h[j];
                h[j] = v;
                if (v == r->score && r->start_a < 0) {
                    r->start_a = r->end_a - (i - 1);
                    r->start_b = r->end_b - (j - 1);
                }
            }
        }
        free(h);
        free(f);
    }
    /* The unique alignment by traceback (every step has exactly one optimal predecessor). */
    r->ops = NULL;
    r->nops = 0;
    if (r->optimal == 1) {
        r->ops = malloc((size_t)(n + m));
        int64_t i = r->end_a + 1, j = r->end_b + 1, k = 0;
        char state = 'H';
        for (;;) {
            if (state == 'H') {
                int h = H[AT(i, j)];
                if (D[AT(i, j)] == h) {
                    r->ops[k++] = 'M';
                    int prev = H[AT(i - 1, j - 1)];
                    i--;
                    j--;
                    if (prev <= 0) break; /* starts here (prev == 0 would be a tie: not unique) */
                } else if (E[AT(i, j)] == h) state = 'E';
                else state = 'F';
            } else if (state == 'E') {
                r->ops[k++] = 'D';
                state = E[AT(i, j)] == H[AT(i, j - 1)] - go ? 'H' : 'E';
                j--;
            } else {
                r->ops[k++] = 'I';
                state = F[AT(i, j)] == H[AT(i - 1, j)] - go ? 'H' : 'F';
                i--;
            }
        }
        for (int64_t x = 0; x < k / 2; x++) {
            char t = r->ops[x];
            r->ops[x] = r->ops[k - 1 - x];
            r->ops[k - 1 - x] = t;
        }
        r->nops = k;
    }
#undef AT
    free(H);
    free(E);
    free(F);
    free(D);
    free(cH);
    free(cE);
    free(cF);
    free(cD);
}

/* Rescore and check the shape of an alignment here, independently of the library. */
static void check_alignment(const char *what, const pw_alignment *al, const char *a, int64_t n, const char *b,
                            int64_t m, const pw_sw_params *p, const full_sw *ref)
{
    CHECK(al->score == ref->score, "%s: score %d, full matrix %d", what, al->score, ref->score);
    CHECK(al->end_a == ref->end_a && al->end_b == ref->end_b, "%s: end %lld,%lld, full matrix %lld,%lld", what,
          (long long)al->end_a, (long long)al->end_b, (long long)ref->end_a, (long long)ref->end_b);
    if (ref->score == 0) {
        CHECK(al->cigar && !al->cigar[0] && al->columns == 0 && al->start_a == -1, "%s: empty alignment", what);
        return;
    }
    /* The nearest start is the CPU search's rule; through saved rows the start is the nearest in
     * the first strip (from the end) that holds one (docs/ALIGN.md), checked by the rescoring. */
    if (!getenv("PEERWAVE_PATH_ROWS"))
        CHECK(al->start_a == ref->start_a && al->start_b == ref->start_b, "%s: start %lld,%lld, nearest %lld,%lld",
              what, (long long)al->start_a, (long long)al->start_b, (long long)ref->start_a, (long long)ref->start_b);
    int64_t i = al->start_a, j = al->start_b, cols = 0, matches = 0, gaps = 0;
    long score = 0;
    char prev = 0, expanded[1 << 14];
    int64_t ne = 0, ok = 1;
    for (const char *c = al->cigar; *c && ok;) {
        long run = strtol(c, (char **)&c, 10);
        char op = *c++;
        ok = run > 0 && strchr("=XID", op) && op != prev;
        for (long k = 0; k < run && ok; k++, cols++) {
            if (op == 'I' || op == 'D') {
                score -= k == 0 ? p->gap_open : p->gap_extend;
                if (k == 0) gaps++;
                if (op == 'I') i++;
                else j++;
                if (ne < (int64_t)sizeof expanded) expanded[ne++] = op;
                ok = i <= n && j <= m;
                continue;
            }
            ok = i < n && j < m;
            if (!ok) break;
            /* '=': the same letter; for DNA one of A C G T (U is T): N and the other IUPAC codes
             * score as mismatches against themselves, and are X (peerwave_align.h) */
            int same = toupper((unsigned char)a[i]) == toupper((unsigned char)b[j]) ||
                       (p->scoring == PW_SCORING_DNA && strchr("TtUu", a[i]) && strchr("TtUu", b[j]));
            if (p->scoring == PW_SCORING_DNA && !strchr("ACGTUacgtu", a[i])) same = 0;
            ok = (op == '=') == same;
            matches += op == '=';
            score += pair_score(p, a[i], b[j]);
            i++;
            j++;
            if (ne < (int64_t)sizeof expanded) expanded[ne++] = 'M';
        }
        prev = op;
    }
    CHECK(ok, "%s: CIGAR %s does not fit the sequences or letters", what, al->cigar);
    CHECK(score == al->score, "%s: CIGAR %s rescores to %ld, not %d", what, al->cigar, score, al->score);
    CHECK(i - 1 == al->end_a && j - 1 == al->end_b, "%s: CIGAR ends at %lld,%lld", what, (long long)i - 1,
          (long long)j - 1);
    CHECK(cols == al->columns && matches == al->matches && gaps == al->gaps &&
              fabs(al->identity - (double)matches / (double)cols) < 1e-12,
          "%s: counts columns %lld/%lld matches %lld/%lld gaps %lld/%lld", what, (long long)al->columns,
          (long long)cols, (long long)al->matches, (long long)matches, (long long)al->gaps, (long long)gaps);
    int64_t lib = 0;
    CHECK(pw_alignment_rescore(al, a, n, b, m, p, &lib) == PW_OK && lib == al->score, "%s: library rescore %lld",
          what, (long long)lib);
    if (ref->optimal == 1 && ne < (int64_t)sizeof expanded) unique_sw++;
    if (ref->optimal == 1 && ne < (int64_t)sizeof expanded)
        CHECK(ne == ref->nops && memcmp(expanded, ref->ops, (size_t)ne) == 0,
              "%s: the only optimal alignment differs (CIGAR %s)", what, al->cigar);
}

static void make_params(pw_sw_params *p, int kind)
{
    pw_sw_params_init(p);
    switch (kind % 6) {
    case 0: break;                                                       /* 2/-1, linear 1 */
    case 1: p->match = 1, p->mismatch = -3, p->gap_open = 5, p->gap_extend = 2; break;
    case 2: p->match = 2, p->mismatch = -3, p->gap_open = 5, p->gap_extend = 2; break;
    case 3: p->scoring = PW_SCORING_MATRIX, p->matrix = pw_matrix_by_name("BLOSUM62"), p->gap_open = 11,
            p->gap_extend = 1; break;
    case 4: p->scoring = PW_SCORING_MATRIX, p->matrix = pw_matrix_at((int)test_range(0, 7)),
            p->gap_open = (int)test_range(1, 12), p->gap_extend = 1; break;
    case 5: p->match = (int)test_range(0, 4), p->mismatch = -(int)test_range(0, 4);
            p->gap_extend = (int)test_range(0, 3), p->gap_open = p->gap_extend + (int)test_range(0, 4); break;
    }
}

static void test_random_sw(int count)
{
    for (int t = 0; t < count; t++) {
        int kind = (int)test_range(0, 5);
        pw_sw_params p;
        make_params(&p, kind);
        int64_t n, m;
        switch (t % 5) {
        case 0: n = 1, m = test_range(1, 90); break;
        case 1: n = test_range(1, 90), m = 1; break;
        default: n = test_range(2, 300), m = test_range(2, 300); break;
        }
        char *a = malloc((size_t)n + 1), *b = malloc((size_t)m + 1);
        const char *alpha = p.scoring == PW_SCORING_MATRIX ? protein : (t % 3 ? dna : dna_n);
        random_related(a, n, b, m, alpha);
        full_sw ref;
        full_matrix_sw(a, n, b, m, &p, &ref);
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.threads = 1 + t % 3;
        o.strategy = (pw_strategy)(t % 3);
        pw_alignment al;
        pw_status st = pw_sw_align(a, n, b, m, &p, &o, &al);
        char what[160];
        snprintf(what, sizeof what, "case %d (%lldx%lld, params %d, %d threads, strategy %d)", t, (long long)n,
                 (long long)m, kind, o.threads, (int)o.strategy);
        CHECK(st == PW_OK, "%s: %s (%s)", what, pw_status_str(st), pw_error_detail());
        if (st == PW_OK) check_alignment(what, &al, a, n, b, m, &p, &ref);
        pw_alignment_free(&al);
        free(ref.ops);
        free(a);
        free(b);
    }
}

/* Pairs whose alignment has long gaps (a block of b missing from a, or of a from b): the path
 * runs far across a strip of saved rows (windows must grow) or down across saved rows (inside a
 * run of gaps).  Scores that make the long gaps worth taking. */
static void test_gapped_sw(int count)
{
    for (int t = 0; t < count; t++) {
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.match = 3, p.mismatch = -3, p.gap_open = 6 + t % 3, p.gap_extend = 1 + t % 2;
        int64_t n = test_range(60, 400), cap = n + 400, m = 0;
        char *a = malloc((size_t)n), *b = malloc((size_t)cap);
        for (int64_t x = 0; x < n; x++) a[x] = dna[test_rand() % 4];
        for (int64_t x = 0; x < n && m < cap; x++) {
            if (test_rand() % 97 == 0) { /* a block of b that a lacks: a run of D */
                for (int64_t k = test_range(10, 150); k > 0 && m < cap; k--) b[m++] = dna[test_rand() % 4];
            } else if (test_rand() % 97 == 0) { /* a block of a that b lacks: a run of I */
                x += test_range(5, 80);
                continue;
            }
            if (m < cap) b[m++] = test_rand() % 20 ? a[x] : dna[test_rand() % 4];
        }
        if (m == 0) b[m++] = 'A';
        full_sw ref;
        full_matrix_sw(a, n, b, m, &p, &ref);
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        pw_alignment al;
        pw_status st = pw_sw_align(a, n, b, m, &p, &o, &al);
        char what[160];
        snprintf(what, sizeof what, "gapped case %d (%lldx%lld)", t, (long long)n, (long long)m);
        CHECK(st == PW_OK, "%s: %s (%s)", what, pw_status_str(st), pw_error_detail());
        if (st == PW_OK) check_alignment(what, &al, a, n, b, m, &p, &ref);
        pw_alignment_free(&al);
        free(ref.ops);
        free(a);
        free(b);
    }
}

/* Through saved rows on the CPU, every allocation made to fail in turn: each run ends in PW_OK
 * or PW_ERR_OUT_OF_MEMORY (AddressSanitizer runs of this test check nothing leaks), and the store's
 * failure names the cap that makes it smaller. */
static void test_store_alloc_failures(void)
{
    setenv("PEERWAVE_PATH_ROWS", "3", 1);
    const int64_t n = 90, m = 70;
    char a[90], b[70];
    random_related(a, n, b, m, dna);
    double x[160];
    for (int k = 0; k < 160; k++) x[k] = (double)test_range(-50, 50) / 4;
    pw_sw_params p;
    make_params(&p, 1);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.threads = 2;
    for (int what = 0; what < 2; what++) {
        int named = 0, ok = 0;
        for (int fail = 1; fail < 400 && !ok; fail++) {
            char v[16];
            snprintf(v, sizeof v, "%d", fail);
            setenv("PEERWAVE_DEBUG_FAIL_ALLOC", v, 1);
            pw_debug_alloc_reset();
            pw_status st;
            if (what == 0) {
                pw_alignment al;
                st = pw_sw_align(a, n, b, m, &p, &o, &al);
                if (st == PW_OK) pw_alignment_free(&al);
            } else {
                pw_warp_path path;
                st = pw_dtw_path_f64(x, 90, x + 90, 70, PW_DTW_SQUARED, &o, &path);
                if (st == PW_OK) pw_warp_path_free(&path);
            }
            unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
            CHECK(st == PW_OK || st == PW_ERR_OUT_OF_MEMORY, "%s, allocation %d failing: %s (%s)",
                  what ? "path" : "alignment", fail, pw_status_str(st), pw_error_detail());
            if (st == PW_ERR_OUT_OF_MEMORY && strstr(pw_error_detail(), "PEERWAVE_PATH_STORE_MB")) named = 1;
            ok = st == PW_OK;
        }
        CHECK(ok && named, "%s: allocation failures: a run got through %d, the store's failure named its cap %d",
              what ? "path" : "alignment", ok, named);
    }
    unsetenv("PEERWAVE_PATH_ROWS");
}

/* One large pair on 1, 2 and 3 threads (the parallel splits): the same alignment each time. */
static void test_threads(void)
{
    int64_t n = 3100, m = 2700;
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    random_related(a, n, b, m, dna);
    for (int64_t x = 0; x < m && x < n; x++)
        if (test_rand() % 10) b[x] = a[x]; /* a long alignment: a large rectangle */
    pw_sw_params p;
    make_params(&p, 1);
    pw_alignment first = {0};
    for (int threads = 1; threads <= 3; threads++) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.threads = threads;
        pw_alignment al;
        pw_status st = pw_sw_align(a, n, b, m, &p, &o, &al);
        CHECK(st == PW_OK, "threads %d: %s", threads, pw_status_str(st));
        if (st != PW_OK) continue;
        int64_t check = 0;
        CHECK(pw_alignment_rescore(&al, a, n, b, m, &p, &check) == PW_OK && check == al.score,
              "threads %d: rescored %lld, score %d", threads, (long long)check, al.score);
        CHECK(al.columns > 2000 && al.cells_align >= al.columns, "threads %d: %lld columns, %lld cells", threads,
              (long long)al.columns, (long long)al.cells_align);
        if (threads == 1) first = al;
        else {
            CHECK(strcmp(first.cigar, al.cigar) == 0 && first.start_a == al.start_a && first.start_b == al.start_b,
                  "threads %d: a different alignment", threads);
            pw_alignment_free(&al);
        }
    }
    pw_alignment_free(&first);
    free(a);
    free(b);
}

/* Above 2^24 cells the CPU takes the saved rows' way by itself (the vector tiles keep every
 * K-th row; sw_align.c's cpu_strips_worth): a long similar pair, the same score as pw_sw, a CIGAR
 * that rescores to it, and strips' cells (about rows x 3K) instead of Myers-Miller's (twice the
 * rectangle, here nearly the whole matrix). */
static void test_cpu_strips_by_itself(void)
{
    const int64_t n = 9000, m = 8300;
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    random_related(a, n, b, m, dna);
    for (int64_t x = 0; x < m && x < n; x++)
        if (test_rand() % 10) b[x] = a[x];
    pw_sw_params p;
    make_params(&p, 1);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    pw_sw_result score;
    pw_alignment al;
    const pw_status s1 = pw_sw(a, n, b, m, &p, &o, &score), s2 = pw_sw_align(a, n, b, m, &p, &o, &al);
    CHECK(s1 == PW_OK && s2 == PW_OK && al.score == score.score && al.end_a == score.end_a && al.end_b == score.end_b,
          "cpu strips: status %d %d, score %d against pw_sw's %d", s1, s2, al.score, score.score);
    if (s2 == PW_OK) {
        int64_t check = 0;
        CHECK(pw_alignment_rescore(&al, a, n, b, m, &p, &check) == PW_OK && check == al.score,
              "cpu strips: rescored %lld, score %d", (long long)check, al.score);
        CHECK(al.columns > 7000 && al.cells_align < n * m / 2, "cpu strips: %lld columns, %lld cells (Myers-Miller's?)",
              (long long)al.columns, (long long)al.cells_align);
        pw_alignment_free(&al);
    }
    free(a);
    free(b);
}

/* A warping path through saved rows whose forward pass runs on the vector tiles (f64 series,
 * rows every 1024: dtw_strips.c) against the same search with its plain loop (PEERWAVE_SIMD=scalar
 * takes the tiles away): the same path cell for cell and the same distance; both costs. */
static void test_dtw_path_tiles(void)
{
    const int64_t n = 3000, m = 2800;
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
    double x = 0, y = 0;
    for (int64_t k = 0; k < n; k++) a[k] = x += (double)test_range(0, 2000) / 1000.0 - 1.0;
    for (int64_t k = 0; k < m; k++) b[k] = y += (double)test_range(0, 2000) / 1000.0 - 1.0;
    for (int squared = 0; squared <= 1; squared++) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        pw_warp_path tiles, plain;
        memset(&tiles, 0, sizeof tiles);
        memset(&plain, 0, sizeof plain);
        const pw_dtw_cost cost = squared ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        const pw_status s1 = pw_dtw_path_f64(a, n, b, m, cost, &o, &tiles);
        setenv("PEERWAVE_SIMD", "scalar", 1);
        const pw_status s2 = pw_dtw_path_f64(a, n, b, m, cost, &o, &plain);
        unsetenv("PEERWAVE_SIMD");
        int same = s1 == PW_OK && s2 == PW_OK && tiles.length == plain.length && tiles.distance == plain.distance;
        for (int64_t k = 0; same && k < tiles.length; k++) same = tiles.i[k] == plain.i[k] && tiles.j[k] == plain.j[k];
        CHECK(same, "dtw path %s: the tiles' forward pass gave another path (status %d %d, length %lld / %lld, %.17g / %.17g)",
              squared ? "squared" : "absolute", s1, s2, (long long)tiles.length, (long long)plain.length,
              tiles.distance, plain.distance);
        pw_warp_path_free(&tiles);
        pw_warp_path_free(&plain);
    }
    free(a);
    free(b);
}

static void test_view(void)
{
    const char *a = "ACGTTACGTGGGCA", *b = "TTACGTAACGTGCA";
    pw_sw_params p;
    make_params(&p, 0);
    pw_alignment al;
    CHECK(pw_sw_align(a, 14, b, 14, &p, NULL, &al) == PW_OK, "view: align");
    char *v = pw_alignment_view(&al, a, b, &p, "query", "target", 5);
    CHECK(v != NULL, "view: NULL");
    if (v) {
        /* Every block: three lines, the a and b lines' letters re-read give the aligned letters. */
        int lines = 0;
        int64_t letters_a = 0;
        for (const char *c = v; *c; c++) lines += *c == '\n';
        char name[32], seg[64];
        long from, to;
        for (const char *c = v; c && *c; c = strchr(c, '\n') ? strchr(c, '\n') + 1 : NULL)
            if (strncmp(c, "query ", 6) == 0 && sscanf(c, "%31s %ld %63s %ld", name, &from, seg, &to) == 4)
                for (const char *s = seg; *s; s++) letters_a += *s != '-';
        CHECK(letters_a == al.end_a - al.start_a + 1, "view: %lld letters of a shown, alignment has %lld",
              (long long)letters_a, (long long)(al.end_a - al.start_a + 1));
        CHECK(lines % 4 == 3 && lines >= 3, "view: %d lines", lines);
        free(v);
    }
    /* The marks are EMBOSS water's and parasail's: '|' equal, ':' a positive substitution score,
     * '.' any other mismatch, ' ' a gap (until 2026-12-03 a positive mismatch was '.' and any other
     * ' ', so a DNA mismatch looked like a gap).  BLOSUM62: A/S +1, K/R +2, W/A -3; DNA 2/-1. */
    const struct { int kind; const char *a, *b, *cigar, *marks; } marked[] = {
        {3, "WAKWGC", "WSRAC", "1=3X1I1=", "|::. |"},
        {0, "ACGTTA", "AGGTA", "1=1X2=1I1=", "|.|| |"},
    };
    for (int k = 0; k < 2; k++) {
        pw_sw_params mp;
        make_params(&mp, marked[k].kind);
        pw_alignment m;
        memset(&m, 0, sizeof m);
        m.score = 1, m.start_a = 0, m.start_b = 0;
        m.end_a = (int64_t)strlen(marked[k].a) - 1, m.end_b = (int64_t)strlen(marked[k].b) - 1;
        m.cigar = (char *)marked[k].cigar, m.columns = (int64_t)strlen(marked[k].marks);
        char *mv = pw_alignment_view(&m, marked[k].a, marked[k].b, &mp, NULL, NULL, 0);
        const char *line2 = mv && strchr(mv, '\n') ? strchr(mv, '\n') + 1 : NULL;
        const char *end2 = line2 ? strchr(line2, '\n') : NULL, *at = line2 ? strstr(line2, marked[k].marks) : NULL;
        CHECK(at && end2 && at + strlen(marked[k].marks) == end2,
              "view marks of %s/%s: want '%s' in\n%s", marked[k].a, marked[k].b, marked[k].marks, mv ? mv : "(NULL)");
        free(mv);
    }
    /* an alignment that does not fit a and b is refused (it was indexed unchecked: a start past a's
     * end read past it, a CIGAR run of 10^23 overflowed) */
    pw_alignment bad = al;
    bad.start_a = 1000;
    CHECK(pw_alignment_view(&bad, a, b, &p, NULL, NULL, 0) == NULL && strstr(pw_error_detail(), "does not fit"),
          "view: a start past a's end: %s", pw_error_detail());
    bad = al;
    bad.cigar = "99999999999999999999999=";
    CHECK(pw_alignment_view(&bad, a, b, &p, NULL, NULL, 0) == NULL, "view: a CIGAR run of 10^23");
    bad = al;
    bad.columns = al.columns + 3;
    CHECK(pw_alignment_view(&bad, a, b, &p, NULL, NULL, 0) == NULL && strstr(pw_error_detail(), "columns"),
          "view: columns other than the CIGAR's: %s", pw_error_detail());
    pw_alignment_free(&al);
}

static void test_bad_input(void)
{
    pw_sw_params p;
    make_params(&p, 0);
    pw_alignment al;
    CHECK(pw_sw_align(NULL, 3, "ACG", 3, &p, NULL, &al) == PW_ERR_NULL_ARGUMENT, "NULL a");
    CHECK(pw_sw_align("ACG", 0, "ACG", 3, &p, NULL, &al) == PW_ERR_INVALID_SIZE, "empty a");
    CHECK(pw_sw_align("AC1", 3, "ACG", 3, &p, NULL, &al) == PW_ERR_BAD_INPUT, "digit");
    p.gap_open = 1;
    p.gap_extend = 3;
    CHECK(pw_sw_align("ACG", 3, "ACG", 3, &p, NULL, &al) == PW_ERR_UNSUPPORTED, "open < extend");
    CHECK(strstr(pw_error_detail(), "gap_open") != NULL, "open < extend: detail '%s'", pw_error_detail());
    CHECK(pw_sw_align("ACG", 3, "ACG", 3, NULL, NULL, &al) == PW_ERR_NULL_ARGUMENT, "NULL params");
    /* the tuning switches: anything but a whole number >= 1 is refused by name (once taken as
     * unset, or 1e3 as 1); a good value is taken */
    make_params(&p, 0);
    const char *const switches[] = {"PEERWAVE_PATH_ROWS", "PEERWAVE_PATH_STORE_MB", "PEERWAVE_PATH_STRIP_H",
                                    "PEERWAVE_PATH_FULL_CELLS", "PEERWAVE_ALIGN_GPU_CELLS"};
    const char *const bad_values[] = {"1e3", "abc", "0", "-1", "", "12 ", "99999999999999999999"};
    const double series[3] = {1, 2, 3};
    for (size_t k = 0; k < sizeof switches / sizeof switches[0]; k++) {
        for (size_t v = 0; v < sizeof bad_values / sizeof bad_values[0]; v++) {
            setenv(switches[k], bad_values[v], 1);
            pw_status st = pw_sw_align("ACG", 3, "ACG", 3, &p, NULL, &al);
            CHECK(st == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), switches[k]),
                  "%s='%s': %s (%s)", switches[k], bad_values[v], pw_status_str(st), pw_error_detail());
            if (st == PW_OK) pw_alignment_free(&al);
            pw_warp_path path;
            st = pw_dtw_path_f64(series, 3, series, 3, PW_DTW_ABSOLUTE, NULL, &path);
            CHECK(st == PW_ERR_INVALID_ARGUMENT, "dtw path, %s='%s': %s", switches[k], bad_values[v], pw_status_str(st));
            if (st == PW_OK) pw_warp_path_free(&path);
        }
        setenv(switches[k], "2", 1);
        pw_status st = pw_sw_align("ACG", 3, "ACG", 3, &p, NULL, &al);
        CHECK(st == PW_OK && al.score > 0, "%s=2: %s", switches[k], pw_status_str(st));
        if (st == PW_OK) pw_alignment_free(&al);
        unsetenv(switches[k]);
    }
    pw_warp_path path;
    double x[3] = {1, NAN, 2};
    CHECK(pw_dtw_path_f64(x, 3, x, 1, PW_DTW_ABSOLUTE, NULL, &path) == PW_ERR_BAD_INPUT, "NaN series");
    CHECK(pw_dtw_path_f64(x, 0, x, 1, PW_DTW_ABSOLUTE, NULL, &path) == PW_ERR_INVALID_SIZE, "empty series");
    CHECK(pw_dtw_path_f64(x, 1, x, 1, (pw_dtw_cost)7, NULL, &path) == PW_ERR_INVALID_ARGUMENT, "bad cost");
    /* A cancel flag set before the run: the score pass stops (SW), the splits stop (DTW). */
    static volatile int stop = 1;
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.cancel = &stop;
    make_params(&p, 0);
    pw_status cs = pw_sw_align("ACGTACGT", 8, "ACGTACGT", 8, &p, &o, &al);
    CHECK(cs == PW_ERR_CANCELLED, "align: cancel flag: %s", pw_status_str(cs));
    double y[4] = {1, 2, 3, 4};
    CHECK(pw_dtw_path_f64(y, 4, y, 4, PW_DTW_ABSOLUTE, &o, &path) == PW_ERR_CANCELLED, "path: cancel flag");
}

/* ---- DTW ---------------------------------------------------------------------------------- */

static double cost_of(double x, double y, int squared, int f32)
{
    if (f32) {
        float d = (float)x - (float)y;
        return squared ? (double)(d * d) : (double)fabsf(d);
    }
    double d = x - y;
    return squared ? d * d : fabs(d);
}

/* Full matrix: distance (in double) and, if the optimal path is unique, that path. */
static double full_dtw(const double *a, int64_t n, const double *b, int64_t m, int squared, int f32,
                       int64_t *pi, int64_t *pj, int64_t *len, int *unique)
{
    double *D = malloc(sizeof *D * (size_t)(n * m));
    double *N = malloc(sizeof *N * (size_t)(n * m)); /* number of optimal paths to the cell */
    char *from = malloc((size_t)(n * m));             /* the best predecessor: 0 up, 1 left, 2 diag */
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            double c = cost_of(a[i], b[j], squared, f32), best = INFINITY, ways = 0;
            if (i == 0 && j == 0) best = 0, ways = 1;
            double cand[3] = {i > 0 ? D[(i - 1) * m + j] : INFINITY, j > 0 ? D[i * m + j - 1] : INFINITY,
                              i > 0 && j > 0 ? D[(i - 1) * m + j - 1] : INFINITY};
            double cw[3] = {i > 0 ? N[(i - 1) * m + j] : 0, j > 0 ? N[i * m + j - 1] : 0,
                            i > 0 && j > 0 ? N[(i - 1) * m + j - 1] : 0};
            from[i * m + j] = 0;
            for (int k = 0; k < 3; k++) {
                if (cand[k] < best) best = cand[k], ways = cw[k], from[i * m + j] = (char)k;
                else if (cand[k] == best && isfinite(best)) ways += cw[k];
            }
            D[i * m + j] = c + best;
            N[i * m + j] = ways;
        }
    double dist = D[n * m - 1];
    *unique = N[n * m - 1] == 1;
    *len = 0;
    if (*unique) {
        int64_t i = n - 1, j = m - 1, k = 0;
        for (;;) {
            pi[k] = i;
            pj[k++] = j;
            if (i == 0 && j == 0) break;
            char k2 = from[i * m + j];
            i -= k2 != 1;
            j -= k2 != 0;
        }
        for (int64_t x = 0; x < k / 2; x++) {
            int64_t t = pi[x];
            pi[x] = pi[k - 1 - x], pi[k - 1 - x] = t;
            t = pj[x];
            pj[x] = pj[k - 1 - x], pj[k - 1 - x] = t;
        }
        *len = k;
    }
    free(D);
    free(N);
    free(from);
    return dist;
}

/* shifted: b is a with a stretch cut out or repeated (the path runs far off the diagonal). */
static void test_random_dtw(int count, int shifted)
{
    for (int t = 0; t < count; t++) {
        int64_t n, m;
        switch (t % 4) {
        case 0: n = 1, m = test_range(1, 60); break;
        case 1: n = test_range(1, 60), m = 1; break;
        default: n = test_range(2, 250), m = test_range(2, 250); break;
        }
        int integers = t % 2, squared = (t / 2) % 2, f32 = (t / 4) % 2;
        double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
        float *af = malloc(sizeof *af * (size_t)n), *bf = malloc(sizeof *bf * (size_t)m);
        int64_t cut = test_range(0, n - 1), skip = test_range(0, n + m);
        for (int64_t k = 0; k < n + m; k++) {
            double v = integers ? (double)test_range(-9, 9) : (double)(test_rand() % 100000) / 997.0 - 50.0;
            if (shifted && k >= n) { /* b[x] = a at x below the cut, at x - skip (or a's end) above it */
                int64_t x = k - n, from = x < cut ? x : x - skip;
                v = a[from < 0 ? 0 : from >= n ? n - 1 : from] + (integers ? 0 : 0.25);
            }
            if (f32) v = (double)(float)v;
            if (k < n) a[k] = v, af[k] = (float)v;
            else b[k - n] = v, bf[k - n] = (float)v;
        }
        int64_t *pi = malloc(sizeof *pi * (size_t)(n + m)), *pj = malloc(sizeof *pj * (size_t)(n + m)), len;
        int unique;
        double dist = full_dtw(a, n, b, m, squared, f32, pi, pj, &len, &unique);
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.threads = 1 + t % 3;
        pw_warp_path path;
        pw_dtw_cost cost = squared ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        pw_status st = f32 ? pw_dtw_path_f32(af, n, bf, m, cost, &o, &path) : pw_dtw_path_f64(a, n, b, m, cost, &o, &path);
        CHECK(st == PW_OK, "dtw case %d: %s", t, pw_status_str(st));
        if (st == PW_OK) {
            int ok = path.length >= (n > m ? n : m) && path.length <= n + m - 1 && path.i[0] == 0 && path.j[0] == 0 &&
                     path.i[path.length - 1] == n - 1 && path.j[path.length - 1] == m - 1;
            double sum = 0;
            for (int64_t k = 0; ok && k < path.length; k++) {
                if (k > 0) {
                    int64_t di = path.i[k] - path.i[k - 1], dj = path.j[k] - path.j[k - 1];
                    ok = (di == 0 || di == 1) && (dj == 0 || dj == 1) && di + dj > 0;
                }
                sum += cost_of(a[path.i[k]], b[path.j[k]], squared, f32);
            }
            CHECK(ok, "dtw case %d (%lldx%lld): not a warping path", t, (long long)n, (long long)m);
            double tol = integers ? 0 : 1e-9 * (1 + fabs(dist));
            CHECK(fabs(sum - dist) <= tol && fabs(path.distance - sum) <= tol,
                  "dtw case %d (%lldx%lld): path costs %.17g (reported %.17g), full matrix %.17g", t, (long long)n,
                  (long long)m, sum, path.distance, dist);
            if (unique && ok) {
                unique_dtw++;
                int same = path.length == len;
                for (int64_t k = 0; same && k < len; k++) same = path.i[k] == pi[k] && path.j[k] == pj[k];
                CHECK(same, "dtw case %d (%lldx%lld): not the only optimal path", t, (long long)n, (long long)m);
            }
            pw_warp_path_free(&path);
        }
        free(a);
        free(b);
        free(af);
        free(bf);
        free(pi);
        free(pj);
    }
}

/* ---- the GPU passes ------------------------------------------------------------------------ */

static pw_cell *load_cell(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/src/align/cells/%s", PW_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    pw_cell *c = NULL;
    pw_status st = pw_cell_create(text, name, &c);
    CHECK(st == PW_OK, "%s: %s (%s)", name, pw_status_str(st), pw_error_detail());
    return c;
}

/* The scores of params p (DNA, or BLOSUM62 for every matrix case here) as an encoded table into
 * scores; returns the alphabet's size. */
static int score_table(const pw_sw_params *p, int32_t *scores)
{
    const pw_matrix *mx = pw_matrix_by_name("BLOSUM62");
    int alpha = p->scoring == PW_SCORING_MATRIX ? mx->size : 5;
    for (int x = 0; x < alpha; x++)
        for (int y = 0; y < alpha; y++)
            scores[x * alpha + y] = p->scoring == PW_SCORING_MATRIX ? mx->scores[x * alpha + y]
                                                                     : (x == y && x < 4 ? p->match : p->mismatch);
    return alpha;
}

/* sw_strip.c's pass by whole matrices of nodes (p, q), p <= rows, q <= cols, written out from
 * the recurrence (64-bit, no sentinels to wrap): the last row's H and F, the last column's H and
 * the best H over the cells with its first node in row-major order. */
static void strip_reference(const int32_t *scores, int alpha, int64_t g, int64_t h, int64_t tb, const uint8_t *a,
                            int64_t rows, const uint8_t *b, int64_t cols, int64_t *last_h, int64_t *last_f,
                            int64_t *col_h, int64_t *best, int64_t *bi, int64_t *bj)
{
    const int64_t none = -((int64_t)1 << 40), w = cols + 1;
    int64_t *H = malloc(sizeof *H * (size_t)((rows + 1) * w)), *E = malloc(sizeof *E * (size_t)((rows + 1) * w));
    int64_t *F = malloc(sizeof *F * (size_t)((rows + 1) * w));
    *best = none;
    for (int64_t p = 0; p <= rows; p++)
        for (int64_t q = 0; q <= cols; q++) {
            int64_t at = p * w + q;
            if (p == 0 && q == 0) H[at] = 0, E[at] = F[at] = none;
            else if (p == 0) H[at] = E[at] = -(g + h * q), F[at] = none;
            else if (q == 0) H[at] = F[at] = -(tb + h * p), E[at] = none;
            else {
                int64_t e1 = E[at - 1] - h, e2 = H[at - 1] - g - h, f1 = F[at - w] - h, f2 = H[at - w] - g - h;
                E[at] = e1 > e2 ? e1 : e2;
                F[at] = f1 > f2 ? f1 : f2;
                int64_t d = H[at - w - 1] + scores[a[p - 1] * alpha + b[q - 1]];
                H[at] = d > E[at] ? d : E[at];
                H[at] = H[at] > F[at] ? H[at] : F[at];
                if (H[at] > *best) *best = H[at], *bi = p - 1, *bj = q - 1;
            }
        }
    for (int64_t q = 1; q <= cols; q++) last_h[q - 1] = H[rows * w + q], last_f[q - 1] = F[rows * w + q];
    for (int64_t p = 1; p <= rows; p++) col_h[p - 1] = H[p * w + cols];
    free(H), free(E), free(F);
}

/* Random rectangles: the pass of `backend` (the runtime running mm_pass.c, or the GPU passes)
 * against pw_mm_pass_cpu; the same for dtw_pass.c against a textbook row and sw_strip.c against
 * strip_reference. */
static void compare_passes(pw_backend backend, int count)
{
    pw_cell *mm = load_cell("mm_pass.c"), *dtw = load_cell("dtw_pass.c"), *strip = load_cell("sw_strip.c");
    if (!mm || !dtw || !strip) return;
    for (int t = 0; t < count; t++) {
        pw_sw_params p;
        make_params(&p, t % 4 == 3 ? 3 : t % 8 == 2 ? 5 : 1 + t % 2); /* (5: free gap extension too) */
        int32_t scores[32 * 32], w[1024] = {0};
        int alpha = score_table(&p, scores);
        for (int x = 0; x < alpha * alpha; x++) w[x] = -scores[x];
        int64_t rows = test_range(1, t % 5 ? 120 : 700), cols = test_range(1, t % 5 ? 120 : 900);
        uint8_t *a = malloc((size_t)rows), *b = malloc((size_t)cols);
        for (int64_t k = 0; k < rows; k++) a[k] = (uint8_t)test_range(0, alpha - 1);
        for (int64_t k = 0; k < cols; k++) b[k] = (uint8_t)(k < rows && test_rand() % 3 ? a[k] : test_range(0, alpha - 1));
        pw_align_scoring sc = {scores, alpha, 0, p.gap_open, p.gap_extend};
        int32_t tb = t % 3 ? p.gap_open - p.gap_extend : 0;
        int32_t *cc = malloc(sizeof *cc * (size_t)(cols + 1)), *dd = malloc(sizeof *dd * (size_t)(cols + 1));
        int32_t *row = malloc(3 * sizeof *row * (size_t)cols);
        pw_mm_pass_cpu(&sc, a, rows, b, cols, tb, cc, dd);
        pw_options o;
        pw_options_init(&o);
        o.backend = backend;
        const void *inputs[] = {a, b, w};
        double params[] = {alpha, p.gap_open - p.gap_extend, p.gap_extend, tb};
        pw_cell_args args = {.rows = rows, .cols = cols, .inputs = inputs, .params = params, .last_row = row};
        pw_cell_result res;
        pw_status st = pw_cell_run(mm, &args, &o, &res);
        CHECK(st == PW_OK, "mm_pass %lldx%lld: %s (%s)", (long long)rows, (long long)cols, pw_status_str(st),
              pw_error_detail());
        int same = st == PW_OK;
        for (int64_t j = 0; same && j < cols; j++) same = row[3 * j] == cc[j + 1] && row[3 * j + 1] == dd[j + 1];
        CHECK(same, "mm_pass %lldx%lld (tb %d) on backend %d: its last row differs from pw_mm_pass_cpu's",
              (long long)rows, (long long)cols, tb, (int)backend);
        /* the strip pass: scores, last row and column, the best cell */
        {
            int64_t *rh = malloc(sizeof *rh * (size_t)(3 * cols + rows)), best = 0, bi = -1, bj = -1;
            int32_t *col = malloc(3 * sizeof *col * (size_t)rows);
            strip_reference(scores, alpha, p.gap_open - p.gap_extend, p.gap_extend, tb, a, rows, b, cols, rh,
                            rh + cols, rh + 2 * cols, &best, &bi, &bj);
            const void *sinputs[] = {a, b, scores};
            pw_cell_args sargs = {.rows = rows, .cols = cols, .inputs = sinputs, .params = params, .last_row = row,
                                  .last_col = col};
            st = pw_cell_run(strip, &sargs, &o, &res);
            CHECK(st == PW_OK, "sw_strip %lldx%lld: %s (%s)", (long long)rows, (long long)cols, pw_status_str(st),
                  pw_error_detail());
            same = st == PW_OK && res.best_i == bi && res.best_j == bj && ((const int32_t *)res.best)[0] == best;
            for (int64_t j = 0; same && j < cols; j++) same = row[3 * j] == rh[j] && row[3 * j + 2] == rh[cols + j];
            for (int64_t i = 0; same && i < rows; i++) same = col[3 * i] == rh[2 * cols + i];
            CHECK(same, "sw_strip %lldx%lld (tb %d) on backend %d: differs from the whole matrix's", (long long)rows,
                  (long long)cols, tb, (int)backend);
            free(rh), free(col);
        }
        /* DTW: doubles, the last row against a textbook row */
        double *da = malloc(sizeof *da * (size_t)rows), *db = malloc(sizeof *db * (size_t)cols);
        double *last = malloc(sizeof *last * (size_t)cols), *ref = malloc(sizeof *ref * (size_t)cols);
        for (int64_t k = 0; k < rows; k++) da[k] = (double)(test_rand() % 10000) / 77.0;
        for (int64_t k = 0; k < cols; k++) db[k] = (double)(test_rand() % 10000) / 77.0;
        int squared = t % 2, f32 = (t / 2) % 2, free_last = (t / 4) % 2;
        double *prev = malloc(sizeof *prev * (size_t)cols);
        for (int64_t i = 0; i < rows; i++) {
            for (int64_t j = 0; j < cols; j++) prev[j] = ref[j];
            for (int64_t j = 0; j < cols; j++) {
                double up = i ? prev[j] : INFINITY, left = j ? ref[j - 1] : INFINITY;
                double d = i && j ? prev[j - 1] : (i == 0 && j == 0 ? 0 : INFINITY);
                double mn = left < d ? left : d;
                mn = up < mn ? up : mn;
                ref[j] = (free_last && j == cols - 1 ? 0.0 : cost_of(da[i], db[j], squared, f32)) + mn;
            }
        }
        free(prev);
        const void *dinputs[] = {da, db};
        double dparams[] = {squared, f32, free_last};
        pw_cell_args dargs = {.rows = rows, .cols = cols, .inputs = dinputs, .params = dparams, .last_row = last};
        st = pw_cell_run(dtw, &dargs, &o, &res);
        CHECK(st == PW_OK, "dtw_pass: %s (%s)", pw_status_str(st), pw_error_detail());
        same = st == PW_OK;
        for (int64_t j = 0; same && j < cols; j++) same = last[j] == ref[j];
        CHECK(same, "dtw_pass %lldx%lld (squared %d, f32 %d, free_last %d): its last row differs from the textbook's",
              (long long)rows, (long long)cols, squared, f32, free_last);
        free(a), free(b), free(cc), free(dd), free(row), free(da), free(db), free(last), free(ref);
    }
    pw_cell_free(mm);
    pw_cell_free(dtw);
    pw_cell_free(strip);
}

static int nvrtc_cells(void)
{
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    const char *names[] = {"mm_pass.c", "dtw_pass.c", "sw_strip.c"};
    for (int k = 0; k < 3; k++) {
        pw_cell *c = load_cell(names[k]);
        if (!c) continue;
        pw_status st = pw_cell_gpu_compile_check(c, "sm_90", PW_PROC_WARP, 1, 0);
        CHECK(st == PW_OK, "%s for sm_90: %s (%s)", names[k], pw_status_str(st), pw_error_detail());
        st = pw_cell_gpu_compile_check(c, "compute_80", PW_PROC_WARP, 1, 1);
        CHECK(st == PW_OK, "%s for compute_80: %s (%s)", names[k], pw_status_str(st), pw_error_detail());
        pw_cell_free(c);
    }
    return test_finish();
#else
    printf("SKIP: built without CUDA and NVRTC\n");
    return 77;
#endif
}

#ifdef PW_HAVE_CUDA
/* A saved-rows case t: its sizes, rows between saved rows and the GPU's options (every strategy,
 * rows a thread fixed or chosen). */
static void saved_rows_case(int t, int64_t *n, int64_t *m, int64_t *every, pw_options *o)
{
    const pw_strategy strategies[] = {PW_STRATEGY_PEER, PW_STRATEGY_GLOBAL_BARRIER, PW_STRATEGY_LAUNCH};
    *n = test_range(2, t % 3 ? 3000 : 600);
    *m = test_range(1, t % 5 ? 3000 : 40);
    *every = (int64_t)256 << (t % 3);
    pw_options_init(o);
    o->backend = PW_BACKEND_CUDA;
    o->strategy = strategies[t % 3];
    o->rows_per_thread = (t / 3) % 2 ? 0 : 1 << (t % 4);
    o->tile_h = o->rows_per_thread ? 32 * o->rows_per_thread : 0;
}

/* The GPU DTW pass that saves rows (the warping path's forward pass): every saved row and its
 * least value, bit for bit against a plain loop, over strategies and tile heights. */
static void gpu_saved_rows(int count)
{
    for (int t = 0; t < count; t++) {
        int64_t n, m, every;
        pw_options o;
        saved_rows_case(t, &n, &m, &every, &o);
        int squared = t % 2, f32 = (t / 2) % 2;
        double *x = malloc(sizeof *x * (size_t)(2 * (n + m))), *row = malloc(sizeof *row * (size_t)m);
        double *got = malloc(sizeof *got * (size_t)m);
        for (int64_t k = 0; k < n + m; k++) x[k] = (double)(test_rand() % 100000) / 997.0 - 50.0;
        for (int64_t k = 0; k < n; k++) x[n + m + k] = x[n - 1 - k]; /* a and b reversed after them */
        for (int64_t k = 0; k < m; k++) x[2 * n + m + k] = x[n + m - 1 - k];
        pw_plan plan;
        pw_cuda_rows *rows = NULL;
        double distance = 0;
        pw_run_info info;
        pw_status st = pw_plan_make_app(&o, n, m, 0, PW_LINEAR_CUDA_TILE_H, &plan);
        if (st == PW_OK) st = pw_cuda_dtw_rows(&plan, x, n, m, squared, f32, every, &rows, &distance, &info, NULL);
        CHECK(st == PW_OK, "saved rows %lldx%lld every %lld: %s (%s)", (long long)n, (long long)m, (long long)every,
              pw_status_str(st), pw_error_detail());
        int same = st == PW_OK;
        for (int64_t i = 0; same && i < n; i++) {
            double diag = i == 0 ? 0 : INFINITY; /* D(i - 1, j - 1) for j = 0 */
            for (int64_t j = 0; j < m; j++) {
                double c = cost_of(x[i], x[n + j], squared, f32);
                double up = i ? row[j] : INFINITY, left = j ? row[j - 1] : INFINITY;
                row[j] = pw_dtw_combine_f64(c, up, left, diag);
                diag = up;
            }
            if ((i + 1) % every == 0 && i + 1 < n) {
                int64_t k = (i + 1) / every - 1;
                double low = INFINITY;
                for (int64_t j = 0; j < m; j++) low = row[j] < low ? row[j] : low;
                same = pw_cuda_rows_read(rows, k, 0, m, got) == PW_OK && pw_cuda_rows_min(rows)[k] == low;
                for (int64_t j = 0; same && j < m; j++) same = got[j] == row[j];
            }
        }
        if (same) same = distance == row[m - 1];
        CHECK(same, "saved rows %lldx%lld every %lld (strategy %d, rows a thread %d, f32 %d): differ from a plain loop",
              (long long)n, (long long)m, (long long)every, (int)o.strategy, o.rows_per_thread, f32);
        /* a pass over a rectangle of the reversed series, its last column free or not */
        int64_t r0 = test_range(0, n - 1), c0 = test_range(0, m - 1), pr = test_range(1, n - r0), pc = test_range(1, m - c0);
        int free_last = t % 2;
        const double *ra = x + n + m + r0, *rb = x + 2 * n + m + c0;
        st = pw_plan_make_app(&o, pr, pc, 0, PW_LINEAR_CUDA_TILE_H, &plan);
        if (st == PW_OK && rows) st = pw_cuda_rows_pass(&plan, rows, 1, r0, pr, c0, pc, free_last, got);
        same = st == PW_OK && rows;
        for (int64_t i = 0; same && i < pr; i++) {
            double diag = i == 0 ? 0 : INFINITY;
            for (int64_t j = 0; j < pc; j++) {
                double c = free_last && j == pc - 1 ? 0 : cost_of(ra[i], rb[j], squared, f32);
                double up = i ? row[j] : INFINITY, left = j ? row[j - 1] : INFINITY;
                row[j] = pw_dtw_combine_f64(c, up, left, diag);
                diag = up;
            }
        }
        for (int64_t j = 0; same && j < pc; j++) same = got[j] == row[j];
        CHECK(same, "reverse pass %lldx%lld at %lld, %lld (free_last %d, f32 %d): differs from a plain loop (%s)",
              (long long)pr, (long long)pc, (long long)r0, (long long)c0, free_last, f32, pw_status_str(st));
        pw_cuda_rows_free(rows);
        free(x), free(row), free(got);
    }
}
#endif

#ifdef PW_HAVE_CUDA
/* The GPU SW pass that saves rows (the alignment's score pass): score, end, every saved row's H
 * and F (none for linear gaps) and the rows' chunk maxima, against a plain loop of pw_sw_step. */
static void gpu_sw_saved_rows(int count)
{
    for (int t = 0; t < count; t++) {
        int64_t n, m, every;
        pw_options o;
        saved_rows_case(t, &n, &m, &every, &o);
        pw_sw_params p;
        make_params(&p, t % 4);
        int32_t scores[32 * 32];
        int alpha = score_table(&p, scores);
        uint8_t *a = malloc((size_t)n), *b = malloc((size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = (uint8_t)test_range(0, alpha - 1);
        for (int64_t k = 0; k < m; k++) b[k] = (uint8_t)(k < n && test_rand() % 3 ? a[k] : test_range(0, alpha - 1));
        pw_plan plan;
        pw_cuda_sw_store *rows = NULL;
        int32_t score = 0;
        int64_t end_a = -1, end_b = -1;
        pw_run_info info;
        pw_status st = pw_plan_make_app(&o, n, m, 0, PW_LINEAR_CUDA_TILE_H, &plan);
        if (st == PW_OK)
            st = pw_cuda_sw_rows(&plan, a, n, b, m, scores, alpha, p.gap_open, p.gap_extend, every, &rows, &score,
                                 &end_a, &end_b, &info, NULL);
        CHECK(st == PW_OK, "SW saved rows %lldx%lld every %lld: %s (%s)", (long long)n, (long long)m,
              (long long)every, pw_status_str(st), pw_error_detail());
        pw_sw_cell *row = malloc(sizeof *row * (size_t)m);
        int32_t *gh = malloc(sizeof *gh * (size_t)m), *gf = malloc(sizeof *gf * (size_t)m);
        int same = st == PW_OK, best = 0;
        int64_t bi = -1, bj = -1, chunks = (m + PW_CUDA_SW_CHUNK - 1) / PW_CUDA_SW_CHUNK;
        for (int64_t j = 0; j < m; j++) row[j] = pw_sw_boundary();
        for (int64_t i = 0; same && i < n; i++) {
            pw_sw_cell left = pw_sw_boundary(), diag = pw_sw_boundary();
            for (int64_t j = 0; j < m; j++) {
                pw_sw_cell up = row[j];
                row[j] = pw_sw_step(scores[a[i] * alpha + b[j]], p.gap_open, p.gap_extend, up, left, diag);
                if (row[j].h > best) best = row[j].h, bi = i, bj = j;
                diag = up;
                left = row[j];
            }
            if ((i + 1) % every == 0 && i + 1 < n) {
                int64_t k = (i + 1) / every - 1;
                same = pw_cuda_sw_store_read(rows, k, 0, m, gh, gf) == PW_OK;
                for (int64_t j = 0; same && j < m; j++)
                    same = gh[j] == row[j].h && gf[j] == (p.gap_open == p.gap_extend ? PW_SW_NEG_INF : row[j].f);
                for (int64_t c = 0; same && c < chunks; c++) {
                    int32_t top = PW_SW_NEG_INF;
                    for (int64_t j = c * PW_CUDA_SW_CHUNK; j < m && j < (c + 1) * PW_CUDA_SW_CHUNK; j++)
                        top = row[j].h > top ? row[j].h : top;
                    same = pw_cuda_sw_store_chunk_max(rows)[k * chunks + c] == top;
                }
            }
        }
        if (same) same = score == best && end_a == bi && end_b == bj;
        CHECK(same, "SW saved rows %lldx%lld every %lld (strategy %d, rows a thread %d, open %d extend %d): differ "
                    "from a plain loop", (long long)n, (long long)m, (long long)every, (int)o.strategy,
              o.rows_per_thread, p.gap_open, p.gap_extend);
        pw_cuda_sw_store_free(rows);
        free(a), free(b), free(row), free(gh), free(gf);
    }
}
#endif

/* Alignments and paths with every pass of >= 1000 cells on the GPU, against the CPU's. */
static int gpu_runs(void)
{
    pw_options gpu, cpu;
    pw_options_init(&gpu);
    pw_options_init(&cpu);
    gpu.backend = PW_BACKEND_CUDA;
    cpu.backend = PW_BACKEND_CPU;
    int use = 0;
    if (pw_align_gpu_wanted(&gpu, &use) != PW_OK || !use) {
        printf("SKIP: no GPU passes here (%s)\n", pw_error_detail());
        return 77;
    }
    setenv("PEERWAVE_ALIGN_GPU_CELLS", "1000", 1);
    /* paths: strips of 512 rows (forward and strip passes on the GPU's kernel) and Hirschberg
     * down to small parts (its passes on the GPU's cell), the same settings for the CPU's run */
    setenv("PEERWAVE_PATH_ROWS", "512", 1);
    setenv("PEERWAVE_PATH_FULL_CELLS", "1000", 1);
    compare_passes(PW_BACKEND_CUDA, 60);
#ifdef PW_HAVE_CUDA
    gpu_saved_rows(40);
    gpu_sw_saved_rows(40);
#endif
    for (int t = 0; t < 40; t++) {
        pw_sw_params p;
        make_params(&p, t);
        int64_t n = test_range(1, t % 4 ? 400 : 5000), m = test_range(1, t % 4 ? 400 : 5000);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        random_related(a, n, b, m, p.scoring == PW_SCORING_MATRIX ? protein : dna);
        pw_alignment ag, ac;
        pw_status sg = pw_sw_align(a, n, b, m, &p, &gpu, &ag), sc2 = pw_sw_align(a, n, b, m, &p, &cpu, &ac);
        CHECK(sg == PW_OK && sc2 == PW_OK, "align %lldx%lld: GPU %s, CPU %s (%s)", (long long)n, (long long)m,
              pw_status_str(sg), pw_status_str(sc2), pw_error_detail());
        if (sg == PW_OK && sc2 == PW_OK)
            CHECK(ag.score == ac.score && ag.start_a == ac.start_a && ag.start_b == ac.start_b &&
                      strcmp(ag.cigar, ac.cigar) == 0 && ag.info.backend == PW_BACKEND_CUDA,
                  "align %lldx%lld: the GPU's alignment differs from the CPU's", (long long)n, (long long)m);
        if (sg == PW_OK) pw_alignment_free(&ag);
        if (sc2 == PW_OK) pw_alignment_free(&ac);
        free(a);
        free(b);
        double *x = malloc(sizeof *x * (size_t)(n + m));
        for (int64_t k = 0; k < n + m; k++) x[k] = (double)test_range(-50, 50) / 4;
        pw_warp_path pg, pc;
        sg = pw_dtw_path_f64(x, n, x + n, m, PW_DTW_SQUARED, &gpu, &pg);
        sc2 = pw_dtw_path_f64(x, n, x + n, m, PW_DTW_SQUARED, &cpu, &pc);
        CHECK(sg == PW_OK && sc2 == PW_OK, "path: GPU %s, CPU %s", pw_status_str(sg), pw_status_str(sc2));
        if (sg == PW_OK && sc2 == PW_OK) {
            int same = pg.length == pc.length && pg.distance == pc.distance;
            for (int64_t k = 0; same && k < pg.length; k++) same = pg.i[k] == pc.i[k] && pg.j[k] == pc.j[k];
            CHECK(same && (n * m < 4000 || pg.info.backend == PW_BACKEND_CUDA),
                  "path %lldx%lld: the GPU's differs from the CPU's", (long long)n, (long long)m);
        }
        if (sg == PW_OK) pw_warp_path_free(&pg);
        if (sc2 == PW_OK) pw_warp_path_free(&pc);
        free(x);
    }
    return test_finish();
}

int main(int argc, char **argv)
{
    test_seed(20261124);
    if (argc > 1 && !strcmp(argv[1], "--nvrtc")) return nvrtc_cells();
    if (argc > 1 && !strcmp(argv[1], "--gpu")) return gpu_runs();
    if (argc > 1 && !strcmp(argv[1], "--cells")) {
        compare_passes(PW_BACKEND_CPU, 40);
        return test_finish();
    }
    test_random_sw(400);
    test_gapped_sw(60);
    test_threads();
    test_cpu_strips_by_itself();
    test_dtw_path_tiles();
    test_view();
    test_bad_input();
    test_store_alloc_failures();
    test_random_dtw(300, 0);
    setenv("PEERWAVE_PATH_FULL_CELLS", "1", 1); /* Hirschberg all the way down */
    test_random_dtw(200, 0);
    unsetenv("PEERWAVE_PATH_FULL_CELLS");
    /* the same through saved rows (dtw_strips.c): strips of a few rows, windows that must grow */
    const char *strip_rows[] = {"1", "3", "16", "61"};
    for (int k = 0; k < 4; k++) {
        setenv("PEERWAVE_PATH_ROWS", strip_rows[k], 1);
        test_random_dtw(60, 0);
        test_random_dtw(60, 1);
        setenv("PEERWAVE_PATH_FULL_CELLS", "40", 1);
        test_random_dtw(40, 1);
        unsetenv("PEERWAVE_PATH_FULL_CELLS");
    }
    /* alignments through saved rows (sw_strips.c) on the CPU, every few rows */
    for (int k = 0; k < 4; k++) {
        setenv("PEERWAVE_PATH_ROWS", strip_rows[k], 1);
        test_random_sw(150);
        test_gapped_sw(60);
    }
    setenv("PEERWAVE_PATH_ROWS", "64", 1);
    test_threads();
    unsetenv("PEERWAVE_PATH_ROWS");
    printf("compared with the only optimal alignment: %d SW cases, %d DTW cases\n", unique_sw, unique_dtw);
    CHECK(unique_sw >= 50 && unique_dtw >= 50, "too few cases with a unique optimum to compare");
    return test_finish();
}
