/*
 * peerwave_align.h - the alignment itself, not only its score: Smith-Waterman-Gotoh local
 * alignments and dynamic-time-warping paths, in linear space (docs/ALIGN.md is the guide).
 *
 *     pw_alignment al;
 *     if (pw_sw_align(a, n, b, m, &params, NULL, &al) == PW_OK) {
 *         printf("%d %s\n", al.score, al.cigar);
 *         pw_alignment_free(&al);
 *     }
 *
 * How, on the GPU: the score pass (the SW kernel) also keeps every K-th row; the alignment is then
 * traced from its end upwards one strip of K rows at a time (a pass backwards over the strip,
 * only as wide as the alignment needs, gives where it crosses the saved row above), and the parts
 * between crossings are aligned globally by Myers and Miller's divide and conquer, in parallel.
 * On the CPU: the score pass (pw_sw, all threads); a pass backwards from the end cell pruned to
 * the cells that can still be part of an optimal alignment gives the start; the rectangle between
 * them is aligned by Myers and Miller.  Memory: O(n + m) for the sequences and the alignment, two
 * rows per pass, and on the GPU the saved rows, capped at $PEERWAVE_PATH_STORE_MB (4096 MB; a
 * lower cap only makes K larger); nothing is written to disk.  docs/ALIGN.md has the details.
 */
#ifndef PEERWAVE_ALIGN_H
#define PEERWAVE_ALIGN_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One optimal local alignment of a (the query) against b.
 *
 * Ties, where several alignments score the best: the end cell is pw_sw's (the smallest end_a,
 * then the smallest end_b).  On the CPU the start is the one nearest the end (the largest start_a,
 * then the largest start_b).  Through saved rows (the GPU) the alignment crosses each saved row,
 * from the end upwards, at the smallest column (outside a gap in B before inside one), and the
 * start is the nearest in the first strip that holds one.  Inside a rectangle, the alignment
 * crosses the middle row of every split at the smallest column of B (splits halve A's letters
 * recursively: rows [0, M/2) and [M/2, M) of an M-letter part), a crossing inside a gap in B
 * taken only when strictly better.  docs/ALIGN.md states the rules in full. */
typedef struct pw_alignment {
    int32_t score;                /* the best local score (0: nothing aligns, everything below
                                     is empty and the positions are -1) */
    int64_t start_a, end_a;       /* 0-based, inclusive: first and last aligned letter of a */
    int64_t start_b, end_b;       /* the same in b */
    char *cigar;                  /* run lengths of =, X (aligned letters equal / not equal as
                                     letters, case-insensitive; for DNA N and the other IUPAC
                                     codes are X against themselves too, as they score), I (a
                                     letter of a against a gap),
                                     D (a letter of b against a gap); "" when score is 0 */
    int64_t columns;              /* length of the alignment: = + X + I + D */
    int64_t matches, mismatches;  /* = and X columns */
    int64_t gap_columns;          /* I + D columns */
    int64_t gaps;                 /* runs of I or D (gap openings) */
    double identity;              /* matches / columns (0 when empty) */
    double seconds_score;         /* the score pass */
    double seconds_align;         /* the start pass (or strips) and the divide and conquer */
    int64_t cells_align;          /* cells computed after the score pass */
    double seconds_start;         /* of seconds_align: the start pass (through saved rows: the
                                     strips' search) */
    int64_t cells_start;          /* of cells_align: the start pass's (the strips' passes) */
    int64_t cells_gpu;            /* of cells_align: the divide and conquer's passes on the GPU */
    double seconds_gpu;           /* and their time (kernels, copies, launches) */
    pw_run_info info;             /* the score pass's run */
} pw_alignment;

/* Align as above.  The same parameters and checks as pw_sw, and also PW_ERR_UNSUPPORTED when
 * gap_open < gap_extend (an alignment could then be scored two ways) and PW_ERR_OVERFLOW when
 * (n + m) times the largest score or penalty reaches 2^29 (the passes' costs are 32-bit).  options as for pw_sw;
 * the passes after the score pass run on the backend it ran on.  On success *out owns memory:
 * release it with pw_alignment_free. */
pw_status pw_sw_align(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                      const pw_options *options, pw_alignment *out);
void pw_alignment_free(pw_alignment *alignment);

/* The three-line view of an alignment, as EMBOSS water and parasail print it: blocks of `width`
 * columns (0 = 60), each a line of a ("a   start LETTERS end"), a line of marks ('|' equal,
 * ':' a mismatch with a positive score, '.' another mismatch, ' ' a gap) and a line of b, blocks separated by an
 * empty line; gaps are '-'.  name_a / name_b head the lines (NULL: "a" and "b"; cut to 16
 * characters).  params gives the positive-score marks.  a and b are the NUL-terminated sequences
 * the alignment was made of.  Returns a string the caller frees with free(), or NULL when out of
 * memory or when the alignment does not fit a and b (pw_alignment_rescore's checks, and columns
 * the CIGAR's; pw_error_detail says which). */
char *pw_alignment_view(const pw_alignment *alignment, const char *a, const char *b,
                        const pw_sw_params *params, const char *name_a, const char *name_b, int width);

/* The score of an alignment as its CIGAR says, summed column by column with params (the
 * independent check of pw_sw_align: it must equal alignment->score).  Sets *score; PW_ERR_BAD_INPUT
 * when the CIGAR does not fit the positions or the sequences. */
pw_status pw_alignment_rescore(const pw_alignment *alignment, const char *a, int64_t n, const char *b,
                               int64_t m, const pw_sw_params *params, int64_t *score);

/* An optimal warping path of DTW (pw_dtw_f64's recurrence): cells (i[k], j[k]) from (0, 0) to
 * (n-1, m-1), each step (1, 0), (0, 1) or (1, 1).  Found by Hirschberg's divide and conquer in
 * double precision (f32 series: the cost of each cell as pw_dtw_f32 computes it, then summed in
 * double).  Ties: the path crosses the middle row of every split (rows halved recursively) at
 * the smallest column, leaving it straight down before diagonally when both are optimal. */
typedef struct pw_warp_path {
    int64_t length;   /* cells on the path: max(n, m) .. n + m - 1 */
    int64_t *i, *j;   /* length each */
    double distance;  /* the sum of the costs along the path, in double */
    double seconds;   /* the whole search */
    int64_t cells;    /* cells computed */
    pw_run_info info; /* the GPU passes (empty on the CPU) */
} pw_warp_path;

pw_status pw_dtw_path_f64(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_warp_path *out);
pw_status pw_dtw_path_f32(const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_warp_path *out);
void pw_warp_path_free(pw_warp_path *path);

#ifdef __cplusplus
}
#endif

#endif
