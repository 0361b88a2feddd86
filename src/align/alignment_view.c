/*
 * alignment_view.c - pw_alignment_view: the three-line view of EMBOSS water and parasail.
 *
 *     query       1 ACGT-ACGTT     9
 *                   ||| |.||.       ('|' equal, ':' a positive substitution, '.' another mismatch)
 *     target      3 ACGTTAGGTA    12
 *
 * Positions are 1-based: the first and last letter of the sequence shown on the line (a line
 * with only gaps shows the position of the letter before them, as EMBOSS does).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_align.h"
#include "../../apps/scoring.h"
#include "../core/status_detail.h"

typedef struct text {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    if (t->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)k + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)k + 1) * 2;
        char *p = realloc(t->s, cap);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->s = p;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)k;
}

/* The columns of a CIGAR, one op each, into a new string ("" on error). */
static char *expand(const char *cigar, int64_t columns)
{
    char *ops = malloc((size_t)columns + 1), *o = ops;
    if (!ops) return NULL;
    for (const char *c = cigar; *c && o - ops < columns;) {
        int64_t run = 0;
        while (isdigit((unsigned char)*c)) run = run * 10 + (*c++ - '0');
        char op = *c ? *c++ : '=';
        for (int64_t k = 0; k < run && o - ops < columns; k++) *o++ = op;
    }
    *o = '\0';
    return ops;
}

char *pw_alignment_view(const pw_alignment *al, const char *a, const char *b, const pw_sw_params *params,
                        const char *name_a, const char *name_b, int width)
{
    if (!al || !a || !b || !params) return NULL;
    /* the alignment must be one of a and b: its CIGAR's positions inside them (the view indexed
     * a[start_a ...] unchecked) and its columns the CIGAR's */
    int64_t score, columns = 0;
    if (al->score != 0 && al->cigar && al->columns != 0) {
        if (pw_alignment_rescore(al, a, (int64_t)strlen(a), b, (int64_t)strlen(b), params, &score) != PW_OK) {
            pw_set_error_detail("pw_alignment_view: the alignment does not fit a and b (its CIGAR, positions or ends)");
            return NULL;
        }
        for (const char *c = al->cigar; *c;) { /* (runs bounded by the rescore's walk above) */
            int64_t run = 0;
            while (isdigit((unsigned char)*c)) run = run * 10 + (*c++ - '0');
            columns += run;
            if (*c) c++;
        }
        if (columns != al->columns) {
            pw_set_error_detail("pw_alignment_view: the CIGAR has %lld columns, the alignment says %lld", (long long)columns,
                                (long long)al->columns);
            return NULL;
        }
    }
    text t = {0};
    put(&t, "%s", "");
    if (al->score == 0 || !al->cigar || al->columns == 0) return t.s;
    pw_score_table table;
    if (pw_score_table_make(params, &table) != PW_OK) {
        free(t.s);
        return NULL;
    }
    if (width <= 0) width = 60;
    char na[17], nb[17];
    snprintf(na, sizeof na, "%s", name_a ? name_a : "a");
    snprintf(nb, sizeof nb, "%s", name_b ? name_b : "b");
    char *ops = expand(al->cigar, al->columns);
    char *la = malloc((size_t)width + 1), *lm = malloc((size_t)width + 1), *lb = malloc((size_t)width + 1);
    if (!ops || !la || !lm || !lb) t.failed = 1;
    int64_t i = al->start_a, j = al->start_b;
    for (int64_t k0 = 0; !t.failed && k0 < al->columns; k0 += width) {
        int64_t first_a = i + 1, first_b = j + 1;
        int w = 0;
        for (int64_t k = k0; k < al->columns && w < width; k++, w++) {
            char op = ops[k];
            char x = op == 'D' ? '-' : a[i], y = op == 'I' ? '-' : b[j];
            /* EMBOSS water's and parasail's marks: equal, a positive substitution, another mismatch, a gap */
            char mark = ' ';
            if (op == '=') mark = '|';
            else if (op == 'X')
                mark = table.scores[table.code[(unsigned char)x] * table.size + table.code[(unsigned char)y]] > 0 ? ':' : '.';
            la[w] = x;
            lm[w] = mark;
            lb[w] = y;
            i += op != 'D';
            j += op != 'I';
        }
        la[w] = lm[w] = lb[w] = '\0';
        if (k0 > 0) put(&t, "\n");
        /* A line with letters shows first..last; one with only gaps, the letter before. */
        put(&t, "%-16s %10lld %s %lld\n", na, (long long)(i >= first_a ? first_a : i), la, (long long)i);
        put(&t, "%-16s %10s %s\n", "", "", lm);
        put(&t, "%-16s %10lld %s %lld\n", nb, (long long)(j >= first_b ? first_b : j), lb, (long long)j);
    }
    free(ops);
    free(la);
    free(lm);
    free(lb);
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}
