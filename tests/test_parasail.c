/*
 * test_parasail.c - Smith-Waterman-Gotoh scores against parasail (Debian libparasail-dev), an
 * independent implementation, on random DNA and protein pairs with affine and linear gaps over
 * every built-in matrix; and each built-in table (generated from EMBOSS's files) against
 * parasail's copy entry by entry.  Alignments (pw_sw_align) against parasail's traceback
 * (parasail_sw_trace_striped_32): the same score, each rescored by the other's convention (ours
 * by pw_alignment_rescore, parasail's CIGAR read as ours: I a letter of a only, D of b only),
 * and how often the two chose the same alignment (their tie rules differ: docs/ALIGN.md).
 */
#include <ctype.h>
#include <parasail.h>
#include <string.h>

#include "fasta.h"
#include "peerwave_align.h"
#include "test_util.h"

static void random_related(char *a, int64_t n, char *b, int64_t m, const char *alphabet)
{
    size_t k = strlen(alphabet);
    for (int64_t x = 0; x < n; x++) a[x] = alphabet[test_rand() % k];
    for (int64_t x = 0; x < m; x++) b[x] = alphabet[test_rand() % k];
    /* Plant a mutated copy of a piece of a in b so scores are large and gaps matter. */
    int64_t len = n < m ? n : m, from = test_range(0, n - 1), to = test_range(0, m - 1);
    for (int64_t x = 0; x < len / 2 && from + x < n && to + x < m; x++)
        if (test_rand() % 5) b[to + x] = a[from + x];
}

/* parasail's table of the same name (parasail names them in lower case). */
static const parasail_matrix_t *parasail_copy_of(const pw_matrix *m)
{
    char lower[16];
    size_t k = 0;
    for (; m->name[k] && k < sizeof lower - 1; k++) lower[k] = (char)tolower((unsigned char)m->name[k]);
    lower[k] = 0;
    return parasail_matrix_lookup(lower);
}

/* `test_parasail A.fa B.fa`: the bundled example pair, DNA defaults and one affine setting. */
static int check_files(const char *fa, const char *fb)
{
    fasta_record a, b;
    char err[256];
    if (fasta_read(fa, NULL, &a, err, sizeof err) || fasta_read(fb, NULL, &b, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    parasail_matrix_t *dna = parasail_matrix_create("ACGT", 2, -1);
    int gaps[][2] = {{1, 1}, {5, 2}};
    for (int k = 0; k < 2; k++) {
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.gap_open = gaps[k][0];
        p.gap_extend = gaps[k][1];
        pw_sw_result r;
        pw_status st = pw_sw(a.seq, a.length, b.seq, b.length, &p, NULL, &r);
        parasail_result_t *pr = parasail_sw(a.seq, (int)a.length, b.seq, (int)b.length, p.gap_open,
                                            p.gap_extend, dna);
        CHECK(st == PW_OK && r.score == parasail_result_get_score(pr), "%s vs %s gaps %d/%d: ours %d parasail %d",
              fa, fb, p.gap_open, p.gap_extend, r.score, parasail_result_get_score(pr));
        printf("gaps %d/%d: score %d (parasail %d)\n", p.gap_open, p.gap_extend, r.score,
               parasail_result_get_score(pr));
        parasail_result_free(pr);
    }
    parasail_matrix_free(dna);
    fasta_free(&a);
    fasta_free(&b);
    return test_finish();
}

/* pw_sw_align against parasail_sw_trace_striped_32 on one pair; *same counts equal CIGARs. */
static void compare_traceback(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *p,
                              const parasail_matrix_t *matrix, int *same, int *compared)
{
    pw_alignment ours;
    pw_status st = pw_sw_align(a, n, b, m, p, NULL, &ours);
    parasail_result_t *pr = parasail_sw_trace_striped_32(a, (int)n, b, (int)m, p->gap_open, p->gap_extend, matrix);
    int score = parasail_result_get_score(pr);
    CHECK(st == PW_OK && ours.score == score, "align %" PRId64 "x%" PRId64 ": ours %d (%s), parasail %d", n, m,
          ours.score, pw_status_str(st), score);
    if (st != PW_OK) {
        parasail_result_free(pr);
        return;
    }
    if (score > 0) {
        parasail_cigar_t *pc = parasail_result_get_cigar(pr, a, (int)n, b, (int)m, matrix);
        char *text = parasail_cigar_decode(pc);
        pw_alignment theirs = ours; /* positions from parasail, then rescored our way */
        theirs.start_a = pc->beg_query;
        theirs.start_b = pc->beg_ref;
        /* parasail 2.6's traceback of an alignment starting in the first row or column of the
         * matrix goes on along that edge: its CIGAR then begins with a run of I or D from (0, 0),
         * not counted in its score; the alignment proper starts after it */
        char *body = text;
        long run = strtol(text, &body, 10);
        if ((*body == 'I' || *body == 'D') && body[1]) {
            if (*body == 'I') theirs.start_a += run;
            else theirs.start_b += run;
            body++;
        } else {
            body = text;
        }
        theirs.cigar = body;
        theirs.end_a = parasail_result_get_end_query(pr);
        theirs.end_b = parasail_result_get_end_ref(pr);
        int64_t rescored = 0;
        pw_status r = pw_alignment_rescore(&theirs, a, n, b, m, p, &rescored);
        CHECK(r == PW_OK && rescored == score,
              "parasail's CIGAR %.40s (from %lld,%lld to %lld,%lld) rescored our way: %lld (%s), score %d; ours %.40s "
              "from %lld,%lld to %lld,%lld", text, (long long)theirs.start_a, (long long)theirs.start_b,
              (long long)theirs.end_a, (long long)theirs.end_b, (long long)rescored, pw_status_str(r), score,
              ours.cigar, (long long)ours.start_a, (long long)ours.start_b, (long long)ours.end_a, (long long)ours.end_b);
        (*compared)++;
        *same += strcmp(text, ours.cigar) == 0 && theirs.start_a == ours.start_a && theirs.start_b == ours.start_b;
        free(text);
        parasail_cigar_free(pc);
    }
    pw_alignment_free(&ours);
    parasail_result_free(pr);
}

int main(int argc, char **argv)
{
    if (argc == 3) return check_files(argv[1], argv[2]);
    test_seed(4242);
    const char *common = "ARNDCQEGHILKMFPSTWYVBZX*";
    int n_matrices = 0;
    for (const pw_matrix *ours; (ours = pw_matrix_at(n_matrices)); n_matrices++) {
        const parasail_matrix_t *theirs = parasail_copy_of(ours);
        CHECK(theirs != NULL, "parasail has no %s", ours->name);
        if (!theirs) continue;
        int diff = 0;
        for (const char *x = common; *x; x++)
            for (const char *y = common; *y; y++) {
                int ox = (int)(strchr(ours->alphabet, *x) - ours->alphabet);
                int oy = (int)(strchr(ours->alphabet, *y) - ours->alphabet);
                int px = theirs->mapper[(unsigned char)*x], py = theirs->mapper[(unsigned char)*y];
                diff += theirs->matrix[px * theirs->size + py] != ours->scores[ox * ours->size + oy];
            }
        CHECK(diff == 0, "%s differs from parasail's in %d entries", ours->name, diff);
    }
    CHECK(n_matrices == 8, "%d built-in matrices, want 8", n_matrices);
    int alignments = 0, same_alignment = 0;
    for (int t = 0; t < 300; t++) {
        int protein = t % 2;
        int64_t n = test_dim(1500), m = test_dim(1500);
        char *a = malloc((size_t)n + 1), *b = malloc((size_t)m + 1);
        random_related(a, n, b, m, protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGT");
        pw_sw_params p;
        pw_sw_params_init(&p);
        parasail_matrix_t *dna = NULL;
        const parasail_matrix_t *matrix;
        if (protein) {
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_at(t / 2 % n_matrices);
            matrix = parasail_copy_of(p.matrix);
        } else {
            p.match = (int)test_range(1, 5);
            p.mismatch = -(int)test_range(1, 4);
            matrix = dna = parasail_matrix_create("ACGT", p.match, p.mismatch);
        }
        p.gap_extend = (int)test_range(1, 3);
        p.gap_open = test_rand() % 4 ? p.gap_extend + (int)test_range(1, 12) : p.gap_extend;
        pw_options o;
        test_random_options(&o, n, m);
        pw_sw_result r;
        pw_status st = pw_sw(a, n, b, m, &p, &o, &r);
        parasail_result_t *pr = parasail_sw(a, (int)n, b, (int)m, p.gap_open, p.gap_extend, matrix);
        int want = parasail_result_get_score(pr);
        CHECK(st == PW_OK && r.score == want,
              "%s %" PRId64 "x%" PRId64 " open %d extend %d %s: ours %d parasail %d",
              protein ? "protein" : "dna", n, m, p.gap_open, p.gap_extend, test_describe(&o), r.score, want);
        parasail_result_free(pr);
        /* (parasail 2.6's striped traceback returns no score, -2^30, for some inputs of a few
         * letters: those are left to test_align's full-matrix checks) */
        if (p.gap_open >= p.gap_extend && n >= 16 && m >= 16 && n <= 600 && m <= 600)
            compare_traceback(a, n, b, m, &p, matrix, &same_alignment, &alignments);
        if (dna) parasail_matrix_free(dna);
        free(a);
        free(b);
    }
    printf("alignments: %d compared with parasail's traceback, %d the same alignment\n", alignments, same_alignment);
    CHECK(alignments >= 20, "only %d alignments compared", alignments);
    return test_finish();
}
