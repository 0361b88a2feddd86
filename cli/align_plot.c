/*
 * align_plot.c - SVG pictures of an alignment (`peerwave sw --align --plot F.svg`) and of a
 * warping path (`peerwave dtw --path P --plot F.svg`), readable from short pairs to whole genomes:
 * everything is binned to the picture's resolution, so the file stays small (<= a few MB).
 *
 * Alignment: a dot plot of a (down) against b (across) -- exact k-mer matches, k chosen so that
 * about a thousand would occur by chance, drawn one dot per occupied bin -- with the alignment's
 * path over it in up to 2000 segments coloured by their identity (red 50% or less, yellow 75%,
 * green 100%), gaps of at least 1/500 of the alignment marked as magenta ticks, and below, the
 * identity along the alignment.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_align.h"
#include "io_util.h"
#include "../src/core/fnv1a.h"

#define PLOT 600      /* the square's side, in pixels */
#define LEFT 80
#define TOP 50
#define BINS 300      /* dot-plot bins a side */
#define SEGMENTS 2000 /* path segments at most */

/* The length of the valid UTF-8 sequence at t (1 to 4 bytes), or 0 (RFC 3629: no overlong forms,
 * no surrogates, nothing past U+10FFFF). */
static int utf8_length(const unsigned char *t)
{
    const unsigned char c = t[0];
    if (c < 0x80) return 1;
    int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!n) return 0;
    const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80, hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (t[1] < lo || t[1] > hi) return 0;
    for (int k = 2; k < n; k++)
        if (t[k] < 0x80 || t[k] > 0xBF) return 0;
    return n;
}

/* text as SVG character data (names come from FASTA headers): markup escaped, and what XML cannot
 * hold -- control characters, bytes that are not UTF-8 -- as '?' (a header with \x01 or \xff
 * made the file unreadable to XML parsers). */
static void put_escaped(FILE *f, const char *text)
{
    const unsigned char *t = (const unsigned char *)text;
    while (*t) {
        const int n = utf8_length(t);
        if (n > 1) {
            fwrite(t, 1, (size_t)n, f);
            t += n;
            continue;
        }
        switch (*t) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(n == 1 && (*t >= 0x20 || *t == '\t') && *t != 0x7F ? *t : '?', f);
        }
        t++;
    }
}

static void colour_of(double identity, char *out, size_t len)
{
    double t = identity <= 0.5 ? 0 : identity >= 1 ? 1 : (identity - 0.5) / 0.5;
    int r = t < 0.5 ? 220 : (int)(220 * (1 - t) * 2);
    int g = t < 0.5 ? (int)(200 * t * 2) : 170;
    snprintf(out, len, "#%02x%02x30", r, g);
}

typedef struct kmer_pos {
    uint64_t hash;
    int64_t pos;
} kmer_pos;

static int by_hash(const void *x, const void *y)
{
    const kmer_pos *a = x, *b = y;
    return a->hash < b->hash ? -1 : a->hash > b->hash;
}

static uint64_t kmer_hash(const char *s, int k)
{
    uint64_t h = PW_FNV1A_BASIS;
    for (int x = 0; x < k; x++) h = pw_fnv1a_step(h, (uint64_t)toupper((unsigned char)s[x]));
    return h;
}

/* Occupied bins of the exact k-mer matches (bins[i * BINS + j]). */
static void dot_bins(const fasta_record *a, const fasta_record *b, unsigned char *bins, int *k_out)
{
    int seen[256] = {0}, alphabet = 0;
    for (int64_t x = 0; x < a->length; x++) seen[toupper((unsigned char)a->seq[x])] = 1;
    for (int64_t x = 0; x < b->length; x++) seen[toupper((unsigned char)b->seq[x])] = 1;
    for (int c = 0; c < 256; c++) alphabet += seen[c];
    if (alphabet < 2) alphabet = 2;
    double chance = (double)a->length * (double)b->length;
    int k = 4;
    while (k < 32 && chance / pow(alphabet, k) > 1000) k++;
    *k_out = k;
    if (a->length < k || b->length < k) return;
    int64_t nb = b->length - k + 1;
    kmer_pos *table = malloc(sizeof *table * (size_t)nb);
    if (!table) return;
    for (int64_t j = 0; j < nb; j++) table[j] = (kmer_pos){kmer_hash(b->seq + j, k), j};
    qsort(table, (size_t)nb, sizeof *table, by_hash);
    int64_t na = a->length - k + 1, stride = na / 2000000 + 1, budget = 5000000;
    for (int64_t i = 0; i < na && budget > 0; i += stride) {
        uint64_t h = kmer_hash(a->seq + i, k);
        int64_t lo = 0, hi = nb;
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (table[mid].hash < h) lo = mid + 1;
            else hi = mid;
        }
        for (; lo < nb && table[lo].hash == h && budget > 0; lo++, budget--) {
            int64_t j = table[lo].pos;
            int bi = (int)(i * BINS / a->length), bj = (int)(j * BINS / b->length);
            bins[bi * BINS + bj] = 1;
        }
    }
    free(table);
}

int cli_plot_alignment(const char *path, const pw_alignment *al, const fasta_record *a, const fasta_record *b)
{
    FILE *f = io_open_text_output(path);
    if (!f) {
        cli_error("--plot %s: cannot create the file (%s)", path, strerror(errno));
        return EXIT_DATA;
    }
    double sx = (double)PLOT / (double)b->length, sy = (double)PLOT / (double)a->length;
    int height = TOP + PLOT + 220;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            LEFT + PLOT + 40, height);
    fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"14\">", LEFT);
    put_escaped(f, a->name);
    fprintf(f, " (down, %" PRId64 ") vs ", a->length);
    put_escaped(f, b->name);
    fprintf(f, " (across, %" PRId64 "): score %" PRId32 ", identity %.2f%%, %" PRId64 " columns, %" PRId64
               " gaps</text>\n",
            b->length, al->score, 100 * al->identity, al->columns, al->gaps);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n", LEFT, TOP,
            PLOT, PLOT);
    unsigned char *bins = calloc(BINS * BINS, 1);
    int k = 0;
    if (bins) dot_bins(a, b, bins, &k);
    double cell = (double)PLOT / BINS;
    for (int i = 0; bins && i < BINS; i++)
        for (int j = 0; j < BINS; j++)
            if (bins[i * BINS + j])
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#999\"/>\n",
                        LEFT + j * cell, TOP + i * cell, cell, cell);
    free(bins);
    fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#666\">grey: exact %d-mer matches</text>\n", LEFT, TOP + PLOT + 18, k);
    /* The path, segment by segment, and the identity of each segment for the strip below. */
    int64_t per = al->columns / SEGMENTS + 1, long_gap = al->columns / 500 > 10 ? al->columns / 500 : 10;
    int64_t i = al->start_a, j = al->start_b, col = 0, seg_match = 0, seg_cols = 0, x0 = j, y0 = i;
    double strip_x = LEFT, strip_w = (double)PLOT / (double)(al->columns > 0 ? al->columns : 1);
    int strip_top = TOP + PLOT + 40, strip_h = 120;
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n", LEFT,
            strip_top, PLOT, strip_h);
    fprintf(f, "<text x=\"%d\" y=\"%d\">identity along the alignment (50%% to 100%%)</text>\n", LEFT,
            strip_top + strip_h + 18);
    for (const char *c = al->cigar ? al->cigar : ""; *c;) {
        int64_t run = strtoll(c, (char **)&c, 10);
        char op = *c++;
        if ((op == 'I' || op == 'D') && run >= long_gap)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"#c0c\"/>\n", LEFT + j * sx,
                    TOP + i * sy);
        for (int64_t r = 0; r < run; r++) {
            seg_match += op == '=';
            seg_cols++;
            i += op != 'D';
            j += op != 'I';
            col++;
            if (seg_cols == per || col == al->columns) {
                double id = (double)seg_match / (double)seg_cols;
                char colour[16];
                colour_of(id, colour, sizeof colour);
                fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                        LEFT + x0 * sx, TOP + y0 * sy, LEFT + j * sx, TOP + i * sy, colour);
                double h = id <= 0.5 ? 0 : (id - 0.5) / 0.5 * strip_h;
                fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
                        strip_x + (col - seg_cols) * strip_w, strip_top + strip_h - h, seg_cols * strip_w + 0.3, h,
                        colour);
                x0 = j;
                y0 = i;
                seg_match = seg_cols = 0;
            }
        }
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#c0c\">magenta rings: gaps of %" PRId64 "+ letters</text>\n",
            LEFT + 300, TOP + PLOT + 18, long_gap);
    fprintf(f, "</svg>\n");
    if (io_close_text_output(f) != 0) {
        cli_error("--plot %s: write failed", path);
        return EXIT_DATA;
    }
    return 0;
}

static double sample(const void *s, int64_t k, int f32)
{
    return f32 ? (double)((const float *)s)[k] : ((const double *)s)[k];
}

/* A series as a polyline in a box (at most 2000 points: min and max of each bucket). */
static void series_line(FILE *f, const void *s, int64_t n, int f32, int vertical, double x, double y, double len,
                        double depth)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t k = 0; k < n; k++) {
        double v = sample(s, k, f32);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    double span = hi > lo ? hi - lo : 1;
    int64_t buckets = n < 1000 ? n : 1000;
    fprintf(f, "<polyline fill=\"none\" stroke=\"#36c\" points=\"");
    for (int64_t bk = 0; bk < buckets; bk++) {
        int64_t from = bk * n / buckets, to = (bk + 1) * n / buckets;
        double mn = INFINITY, mx = -INFINITY;
        for (int64_t k = from; k < to; k++) {
            double v = sample(s, k, f32);
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
        double pos = (double)(from + to) / 2 / (double)n * len;
        double v1 = (mn - lo) / span * depth, v2 = (mx - lo) / span * depth;
        if (vertical) fprintf(f, "%.1f,%.1f %.1f,%.1f ", x + depth - v1, y + pos, x + depth - v2, y + pos);
        else fprintf(f, "%.1f,%.1f %.1f,%.1f ", x + pos, y + depth - v1, x + pos, y + depth - v2);
    }
    fprintf(f, "\"/>\n");
}

int cli_plot_warp_path(const char *path, const pw_warp_path *wp, const void *a, int64_t n, const void *b,
                       int64_t m, int f32)
{
    FILE *f = io_open_text_output(path);
    if (!f) {
        cli_error("--plot %s: cannot create the file (%s)", path, strerror(errno));
        return EXIT_DATA;
    }
    const int left = 140, top = 130, depth = 80;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            left + PLOT + 30, top + PLOT + 40);
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">warping path: a (%" PRId64 " samples, left) against b (%" PRId64
               " samples, top), distance %.6g, %" PRId64 " cells</text>\n",
            n, m, wp->distance, wp->length);
    series_line(f, a, n, f32, 1, left - depth - 10, top, PLOT, depth);
    series_line(f, b, m, f32, 0, left, top - depth - 10, PLOT, depth);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n", left, top, PLOT,
            PLOT);
    /* The diagonal for reference, then the path (one point per 1/2000 of it). */
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\" stroke-dasharray=\"4\"/>\n", left, top,
            left + PLOT, top + PLOT);
    fprintf(f, "<polyline fill=\"none\" stroke=\"#c22\" stroke-width=\"2\" points=\"");
    int64_t step = wp->length / SEGMENTS + 1;
    for (int64_t k = 0; k < wp->length; k += step)
        fprintf(f, "%.1f,%.1f ", left + (wp->j[k] + 0.5) * PLOT / (double)m, top + (wp->i[k] + 0.5) * PLOT / (double)n);
    fprintf(f, "%.1f,%.1f\"/>\n</svg>\n", left + (m - 0.5) * PLOT / (double)m, top + (n - 0.5) * PLOT / (double)n);
    if (io_close_text_output(f) != 0) {
        cli_error("--plot %s: write failed", path);
        return EXIT_DATA;
    }
    return 0;
}
