/*
 * sw_align.c - pw_sw_align: the optimal local alignment itself, in linear space.
 *
 *   1. the score pass: pw_sw (any backend) gives the score and the end pair;
 *   2. the start: on the GPU, pw_sw over the reversed prefixes (start_by_reverse_pass); on the
 *      CPU, sw_start.c's pass backwards from the end pair, pruned to a band;
 *   3. the rectangle between start and end aligned globally (myers_miller.c): its least cost is
 *      -score, as the local alignment is a global one of those letters and no global alignment
 *      of them can beat the best local score;
 *   4. gaps at either end dropped (they cost 0 there, which only zero penalties allow), the
 *      CIGAR and counts, and the alignment rescored column by column: it must give the score.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_align.h"
#include "../../apps/checks.h"
#include "align_internal.h"
#include "gpu_passes.h"
#include "../core/alloc.h"
#include "../core/exec.h"
#include "../core/status_detail.h"


/* '=' or 'X': the same letter (case-insensitive; U is T for DNA), not the score's sign. */
static int same_letter(const pw_sw_params *p, char x, char y)
{
    int u = toupper((unsigned char)x), v = toupper((unsigned char)y);
    if (p->scoring == PW_SCORING_DNA) {
        if (u == 'U') u = 'T';
        if (v == 'U') v = 'T';
    }
    return u == v;
}

void pw_alignment_free(pw_alignment *al)
{
    if (!al) return;
    free(al->cigar);
    al->cigar = NULL;
}

static void reverse_copy(const uint8_t *in, int64_t n, uint8_t *out)
{
    for (int64_t k = 0; k < n; k++) out[k] = in[n - 1 - k];
}

/* The score of ops aligning a and b (encoded) from their first letters. */
static int64_t ops_score(const pw_align_scoring *s, const uint8_t *a, const uint8_t *b, const char *ops, int64_t count)
{
    int64_t total = 0;
    for (int64_t k = 0; k < count; k++) {
        if (ops[k] == PW_OP_PAIR) {
            total += s->scores[*a++ * s->alphabet + *b++];
            continue;
        }
        total -= k > 0 && ops[k - 1] == ops[k] ? s->gap_extend : s->gap_open;
        if (ops[k] == PW_OP_A_ONLY) a++;
        else b++;
    }
    return total;
}

/* A start for the end (res) by pw_sw over the reversed prefixes a[0..end_a] and b[0..end_b], on
 * the score pass's backend and width: its best cell, read backwards, is the nearest start of an
 * optimal local alignment ending at or before the end; *found = 0 when its score differs. */
static pw_status start_by_reverse_pass(const char *a, const char *b, const pw_sw_result *res,
                                       const pw_sw_params *params, const pw_options *options, int64_t *sa,
                                       int64_t *sb, int *found)
{
    int64_t n = res->end_a + 1, m = res->end_b + 1;
    char *rev = pw_malloc((size_t)(n + m));
    if (!rev) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t k = 0; k < n; k++) rev[k] = a[n - 1 - k];
    for (int64_t k = 0; k < m; k++) rev[n + k] = b[m - 1 - k];
    pw_options o;
    if (options) o = *options;
    else pw_options_init(&o);
    o.backend = res->info.backend;
    o.tile_w = res->info.tile_w; /* no second training of the width */
    o.progress = NULL;
    o.trace = NULL;
    pw_sw_result r;
    pw_status st = pw_sw(rev, n, rev + n, m, params, &o, &r);
    free(rev);
    *found = st == PW_OK && r.score == res->score;
    if (*found) {
        *sa = res->end_a - r.end_a;
        *sb = res->end_b - r.end_b;
    }
    return st;
}

static pw_status cigar_append(char **buf, size_t *len, size_t *cap, int64_t run, char op)
{
    char piece[32];
    int k = snprintf(piece, sizeof piece, "%lld%c", (long long)run, op);
    if (*len + (size_t)k + 1 > *cap) {
        size_t cap2 = *cap * 2 + 64;
        char *p = realloc(*buf, cap2);
        if (!p) return PW_ERR_OUT_OF_MEMORY;
        *buf = p;
        *cap = cap2;
    }
    memcpy(*buf + *len, piece, (size_t)k + 1);
    *len += (size_t)k;
    return PW_OK;
}

/* The CIGAR and counts of ops (PW_OP_*) starting at the pair (start_a, start_b). */
static pw_status describe(pw_alignment *al, const char *ops, int64_t count, const char *a, const char *b,
                          const pw_sw_params *p)
{
    size_t len = 0, cap = 64;
    char *cigar = malloc(cap);
    if (!cigar) return PW_ERR_OUT_OF_MEMORY;
    cigar[0] = '\0';
    int64_t i = al->start_a, j = al->start_b, run = 0;
    char last = 0;
    pw_status st = PW_OK;
    for (int64_t k = 0; k < count && st == PW_OK; k++) {
        char op;
        if (ops[k] == PW_OP_PAIR) {
            op = same_letter(p, a[i], b[j]) ? '=' : 'X';
            if (op == '=') al->matches++;
            else al->mismatches++;
            i++;
            j++;
        } else {
            op = ops[k] == PW_OP_A_ONLY ? 'I' : 'D';
            if (op == 'I') i++;
            else j++;
            al->gap_columns++;
            if (op != last) al->gaps++;
        }
        if (op != last && run > 0) st = cigar_append(&cigar, &len, &cap, run, last);
        if (op != last) run = 0;
        run++;
        last = op;
    }
    if (st == PW_OK && run > 0) st = cigar_append(&cigar, &len, &cap, run, last);
    if (st != PW_OK) {
        free(cigar);
        return st;
    }
    al->cigar = cigar;
    al->columns = count;
    al->end_a = i - 1;
    al->end_b = j - 1;
    al->identity = count > 0 ? (double)al->matches / (double)count : 0.0;
    return PW_OK;
}

pw_status pw_alignment_rescore(const pw_alignment *al, const char *a, int64_t n, const char *b, int64_t m,
                               const pw_sw_params *params, int64_t *score)
{
    if (!al || !a || !b || !params || !score) return PW_ERR_NULL_ARGUMENT;
    pw_score_table t;
    pw_status st = pw_score_table_make(params, &t);
    if (st != PW_OK) return st;
    *score = 0;
    if (al->score == 0 && (!al->cigar || !al->cigar[0])) return PW_OK;
    if (!al->cigar || al->start_a < 0 || al->start_b < 0) return PW_ERR_BAD_INPUT;
    int64_t i = al->start_a, j = al->start_b, total = 0;
    char prev = 0;
    for (const char *c = al->cigar; *c;) {
        if (!isdigit((unsigned char)*c)) return PW_ERR_BAD_INPUT;
        int64_t run = 0;
        while (isdigit((unsigned char)*c) && run < n + m + 1) run = run * 10 + (*c++ - '0');
        char op = *c++;
        if (run < 1 || (op != '=' && op != 'X' && op != 'I' && op != 'D')) return PW_ERR_BAD_INPUT;
        for (int64_t k = 0; k < run; k++) {
            int ga = op != 'D', gb = op != 'I'; /* consumes a letter of a / of b */
            if ((ga && i >= n) || (gb && j >= m)) return PW_ERR_BAD_INPUT;
            if (op == '=' || op == 'X') {
                uint8_t x = t.code[(unsigned char)a[i]], y = t.code[(unsigned char)b[j]];
                if (x == 255 || y == 255) return PW_ERR_BAD_INPUT;
                if ((op == '=') != same_letter(params, a[i], b[j])) return PW_ERR_BAD_INPUT;
                total += t.scores[x * t.size + y];
            } else {
                total -= (prev == op || k > 0) ? params->gap_extend : params->gap_open;
            }
            i += ga;
            j += gb;
        }
        prev = op;
    }
    if (i - 1 != al->end_a || j - 1 != al->end_b) return PW_ERR_BAD_INPUT;
    *score = total;
    return PW_OK;
}

/* Costs inside the passes must stay far inside 32 bits: any path's cost is at most
 * (rows + cols) times the largest penalty or score. */
static int costs_fit(const pw_sw_params *p, const pw_score_table *t, int64_t n, int64_t m)
{
    int64_t big = p->gap_open + p->gap_extend;
    for (int k = 0; k < t->size * t->size; k++) {
        int64_t v = t->scores[k] < 0 ? -(int64_t)t->scores[k] : t->scores[k];
        if (v > big) big = v;
    }
    return (n + m + 2) * (big + 1) < ((int64_t)1 << 29);
}

pw_status pw_sw_align(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                      const pw_options *options, pw_alignment *out)
{
    pw_score_table table;
    if (!out) return PW_ERR_NULL_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->start_a = out->end_a = out->start_b = out->end_b = -1;
    pw_status st = pw_sw_check(a, n, b, m, params, out, &table);
    if (st != PW_OK) return st;
    if (params->gap_open < params->gap_extend) {
        pw_set_error_detail("alignments need gap_open >= gap_extend (got %d < %d)", params->gap_open,
                            params->gap_extend);
        return PW_ERR_UNSUPPORTED;
    }
    if (!costs_fit(params, &table, n, m)) {
        pw_set_error_detail("the alignment's costs could pass 32 bits: shorter sequences or smaller scores");
        return PW_ERR_OVERFLOW;
    }
    double t0 = pw_seconds_now();
    pw_sw_result res;
    st = pw_sw(a, n, b, m, params, options, &res);
    if (st != PW_OK) return st;
    double t1 = pw_seconds_now();
    out->seconds_score = t1 - t0;
    out->info = res.info;
    out->score = res.score;
    if (res.score == 0) {
        out->cigar = calloc(1, 1);
        return out->cigar ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    }
    uint8_t *enc = pw_malloc(2 * (size_t)(n + m));
    char *ops = NULL;
    if (!enc) return PW_ERR_OUT_OF_MEMORY;
    uint8_t *ea = enc, *eb = enc + n, *ra = enc + n + m, *rb = ra + n;
    pw_score_encode(&table, a, n, ea); /* checked by pw_sw already */
    pw_score_encode(&table, b, m, eb);
    reverse_copy(ea, n, ra);
    reverse_copy(eb, m, rb);
    pw_align_scoring sc = {table.scores, table.size, table.max_score, params->gap_open, params->gap_extend};
    pw_mm_job job = {ea, eb, ra, rb, n, m, sc, {NULL, NULL, 0}, pw_align_threads(options), options ? options->cancel : NULL};
    int64_t sa = 0, sb = 0, count = 0;
    int on_gpu = res.info.backend == PW_BACKEND_CUDA;
    pw_align_gpu *gpu = NULL; /* the large passes on the GPU when the score pass ran there */
    if (on_gpu) st = pw_align_gpu_open(PW_ALIGN_PASS_MM, &sc, 0, 0, options, &gpu);
    if (gpu) job.passes = (pw_mm_passes){pw_align_gpu_mm_pass, gpu, pw_align_gpu_min_cells(gpu)};
    if (st == PW_OK && !(ops = pw_malloc((size_t)(res.end_a + 1 + res.end_b + 1)))) st = PW_ERR_OUT_OF_MEMORY;
    /* On the GPU: the start from a score pass over the reversed prefixes.  Every optimal local
     * alignment inside a[0..end_a] x b[0..end_b] ends at the end pair (one ending elsewhere there
     * would come first in the score pass's tie order), so that pass's best cell is the nearest
     * start of one ending at the end: the rule of the CPU pass.  Checked all the same (the
     * rectangle must score the best score), with the CPU pass as the fallback. */
    int fast = 0;
    if (st == PW_OK && on_gpu) {
        st = start_by_reverse_pass(a, b, &res, params, options, &sa, &sb, &fast);
        out->cells_start = fast ? (res.end_a + 1) * (res.end_b + 1) : 0;
    }
    out->seconds_start = pw_seconds_now() - t1;
    if (st == PW_OK && fast) {
        st = pw_myers_miller(&job, sa, res.end_a - sa + 1, sb, res.end_b - sb + 1, ops, &count, &out->cells_align);
        fast = st == PW_OK && ops_score(&sc, ea + sa, eb + sb, ops, count) == res.score;
    }
    if (st == PW_OK && !fast) {
        double t2 = pw_seconds_now();
        st = pw_sw_find_start(&sc, ra, n, rb, m, res.end_a, res.end_b, res.score, &sa, &sb, &out->cells_start,
                              job.cancel);
        out->seconds_start += pw_seconds_now() - t2;
        if (st == PW_OK)
            st = pw_myers_miller(&job, sa, res.end_a - sa + 1, sb, res.end_b - sb + 1, ops, &count, &out->cells_align);
    }
    out->cells_align += out->cells_start;
    pw_run_info gi = {0};
    pw_align_gpu_info(gpu, &gi);
    out->cells_gpu = gi.cells;
    out->seconds_gpu = gi.seconds;
    pw_align_gpu_close(gpu);
    if (st == PW_OK) {
        /* Gaps at the ends cost 0 (else the alignment would not be optimal): drop them. */
        int64_t first = 0, last = count;
        while (first < last && ops[first] != PW_OP_PAIR) {
            sa += ops[first] == PW_OP_A_ONLY;
            sb += ops[first] == PW_OP_B_ONLY;
            first++;
        }
        while (last > first && ops[last - 1] != PW_OP_PAIR) last--;
        out->start_a = sa;
        out->start_b = sb;
        st = describe(out, ops + first, last - first, a, b, params);
    }
    free(ops);
    free(enc);
    if (st == PW_OK) {
        int64_t check = 0;
        pw_status r = pw_alignment_rescore(out, a, n, b, m, params, &check);
        if (r != PW_OK || check != out->score || out->end_a != res.end_a || out->end_b != res.end_b) {
            pw_set_error_detail("the alignment found rescores to %lld (%s), ends at %lld, %lld; the score "
                                "pass gave %d at %lld, %lld",
                                (long long)check, pw_status_str(r), (long long)out->end_a + 1,
                                (long long)out->end_b + 1, (int)out->score, (long long)res.end_a + 1,
                                (long long)res.end_b + 1);
            st = PW_ERR_INTERNAL;
        }
    }
    out->seconds_align = pw_seconds_now() - t1;
    if (st != PW_OK) pw_alignment_free(out);
    return st;
}
