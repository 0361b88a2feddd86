/*
 * sw_align.c - pw_sw_align: the optimal local alignment itself, in linear space.
 *
 * Where the score pass runs on the GPU (or $PEERWAVE_PATH_ROWS is set): sw_strips.c, through rows
 * the score pass saves.  Else, on the CPU:
 *   1. the score pass: pw_sw gives the score and the end pair;
 *   2. the start: sw_start.c's pass backwards from the end pair, pruned to a band;
 *   3. the rectangle between start and end aligned globally (myers_miller.c): its least cost is
 *      -score, as the local alignment is a global one of those letters and no global alignment
 *      of them can beat the best local score.
 * Both end the same way: gaps at either end dropped (they cost 0 there, which only zero
 * penalties allow), the CIGAR and counts, and the alignment rescored column by column: it must
 * give the score.
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


/* '=' or 'X': the same letter (case-insensitive), not the score's sign; for DNA one of A C G T
 * (U is T), since N and the other IUPAC codes score as mismatches against themselves too, so the
 * counts add up to the score (and NM and MD in SAM count N against N as samtools does). */
static int same_letter(const pw_sw_params *p, char x, char y)
{
    int u = toupper((unsigned char)x), v = toupper((unsigned char)y);
    if (p->scoring == PW_SCORING_DNA) {
        if (u == 'U') u = 'T';
        if (v == 'U') v = 'T';
        return u == v && (u == 'A' || u == 'C' || u == 'G' || u == 'T');
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
static int64_t costs_unit(const pw_sw_params *p, const pw_score_table *t)
{
    int64_t big = p->gap_open + p->gap_extend;
    for (int k = 0; k < t->size * t->size; k++) {
        int64_t v = t->scores[k] < 0 ? -(int64_t)t->scores[k] : t->scores[k];
        if (v > big) big = v;
    }
    return big;
}

static int costs_fit(const pw_sw_params *p, const pw_score_table *t, int64_t n, int64_t m)
{
    return (n + m + 2) * (costs_unit(p, t) + 1) < ((int64_t)1 << 29);
}

/* The alignment from its operations ops[0, count) starting at (sa, sb): gaps at the ends dropped
 * (they cost 0, else the alignment would not be optimal), the CIGAR and counts, and the check
 * that it rescores to the score pass's score and ends at its end. */
static pw_status finish(pw_alignment *out, const char *ops, int64_t count, int64_t sa, int64_t sb, const char *a,
                        int64_t n, const char *b, int64_t m, const pw_sw_params *params, const pw_sw_result *res)
{
    int64_t first = 0, last = count;
    while (first < last && ops[first] != PW_OP_PAIR) {
        sa += ops[first] == PW_OP_A_ONLY;
        sb += ops[first] == PW_OP_B_ONLY;
        first++;
    }
    while (last > first && ops[last - 1] != PW_OP_PAIR) last--;
    out->start_a = sa;
    out->start_b = sb;
    pw_status st = describe(out, ops + first, last - first, a, b, params);
    if (st != PW_OK) return st;
    int64_t check = 0;
    pw_status r = pw_alignment_rescore(out, a, n, b, m, params, &check);
    if (r != PW_OK || check != out->score || out->end_a != res->end_a || out->end_b != res->end_b) {
        pw_set_error_detail("the alignment found rescores to %lld (%s), ends at %lld, %lld; the score "
                            "pass gave %d at %lld, %lld",
                            (long long)check, pw_status_str(r), (long long)out->end_a + 1,
                            (long long)out->end_b + 1, (int)out->score, (long long)res->end_a + 1,
                            (long long)res->end_b + 1);
        return PW_ERR_INTERNAL;
    }
    return PW_OK;
}

/* The encoded sequences a, b and both reversed, in one block (enc + 0, n, n + m, 2 n + m). */
static pw_status encode_all(const pw_score_table *t, const char *a, int64_t n, const char *b, int64_t m,
                            uint8_t **out)
{
    uint8_t *enc = *out = pw_malloc(2 * (size_t)(n + m));
    if (!enc) return PW_ERR_OUT_OF_MEMORY;
    pw_status st = pw_score_encode(t, a, n, enc);
    if (st == PW_OK) st = pw_score_encode(t, b, m, enc + n);
    reverse_copy(enc, n, enc + n + m);
    reverse_copy(enc + n, m, enc + 2 * n + m);
    return st;
}

/* pw_sw_align through the score pass's saved rows (sw_strips.c). */
static pw_status align_by_strips(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                                 const pw_options *options, const pw_score_table *table, int use_gpu,
                                 int cpu_tiles_only, pw_alignment *out)
{
    double t0 = pw_seconds_now();
    uint8_t *enc = NULL;
    char *ops = pw_malloc((size_t)(n + m + 1));
    pw_status st = encode_all(table, a, n, b, m, &enc);
    if (st == PW_OK && !ops) st = PW_ERR_OUT_OF_MEMORY;
    pw_align_scoring sc = {table->scores, table->size, table->max_score, params->gap_open, params->gap_extend};
    pw_mm_job job = {enc, enc + n, enc + n + m, enc + 2 * n + m, n, m, sc, {NULL, NULL, 0}, pw_align_threads(options),
                     options ? options->cancel : NULL};
    pw_align_gpu *gpu = NULL;
    if (st == PW_OK && use_gpu) st = pw_align_gpu_open(PW_ALIGN_PASS_MM, &sc, 0, 0, options, &gpu);
    if (gpu) job.passes = (pw_mm_passes){pw_align_gpu_mm_pass, gpu, pw_align_gpu_min_cells(gpu)};
    pw_sw_result res;
    memset(&res, 0, sizeof res);
    int64_t sa = 0, sb = 0, count = 0;
    pw_strips_stats stats = {0};
    if (st == PW_OK) st = pw_sw_by_strips(&job, options, use_gpu, cpu_tiles_only, &res, &sa, &sb, ops, &count, &stats);
    if (st == PW_ERR_UNSUPPORTED && cpu_tiles_only) { /* (nothing ran: the caller's Myers-Miller) */
        pw_align_gpu_close(gpu);
        free(ops);
        free(enc);
        return st;
    }
    out->seconds_score = stats.seconds_score;
    out->seconds_start = stats.seconds_strips;
    out->cells_start = stats.cells_strips;
    out->cells_align = stats.cells_strips + stats.cells_parts;
    out->info = res.info;
    out->score = res.score;
    pw_run_info gi = {0};
    pw_align_gpu_info(gpu, &gi);
    out->cells_gpu = gi.cells;
    out->seconds_gpu = gi.seconds;
    pw_align_gpu_close(gpu);
    if (st == PW_OK && res.score == 0 && !(out->cigar = calloc(1, 1))) st = PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK && res.score > 0) st = finish(out, ops, count, sa, sb, a, n, b, m, params, &res);
    free(ops);
    free(enc);
    out->seconds_align = pw_seconds_now() - t0 - out->seconds_score;
    if (st != PW_OK) pw_alignment_free(out);
    return st;
}

/* Does the CPU take the saved rows' way by itself?  Myers-Miller over the rectangle between start
 * and end costs about twice its cells through the scalar cells (a 100 kb DNA pair at 98% identity:
 * 17.7 s on 2 cores); through rows the vector tiles keep every K (sw_strips.c) it took 1.8 s, the
 * same alignment.  But the store is (n / K) x m x 8 bytes where Myers-Miller needs a few MB: taken
 * above 2^24 cells (6 kb protein pairs at 50-90% identity: Myers-Miller 0.13-0.16 s, the rows'
 * way 0.04-0.07 s), when there is a saved row at all, and when the store is at most an eighth of
 * this machine's memory.  Only for the strategies that run tiles (peer, barrier, tasks): a
 * sequential run stays the reference loop, and the GPU's strategies are refused as for small
 * pairs. */
static int cpu_strips_worth(const pw_options *options, int64_t n, int64_t m)
{
    const pw_strategy s = options ? options->strategy : PW_STRATEGY_PEER;
    if (s != PW_STRATEGY_PEER && s != PW_STRATEGY_GLOBAL_BARRIER && s != PW_STRATEGY_TASKS) return 0;
    if ((double)n * (double)m < 16777216.0) return 0;
    const int64_t every = pw_align_strip_rows(n, m, PW_SW_STRIPS), slots = (n - 1) / every;
    return slots >= 1 && (double)slots * (double)m * 8.0 <= pw_machine_memory() / 8;
}

pw_status pw_sw_align(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                      const pw_options *options, pw_alignment *out)
{
    pw_score_table table;
    if (!out) return PW_ERR_NULL_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->start_a = out->end_a = out->start_b = out->end_b = -1;
    pw_status st = pw_sw_check(a, n, b, m, params, out, &table);
    if (st == PW_OK) st = pw_align_env_check();
    if (st != PW_OK) return st;
    if (params->gap_open < params->gap_extend) {
        pw_set_error_detail("alignments need gap_open >= gap_extend (got %d < %d)", params->gap_open,
                            params->gap_extend);
        return PW_ERR_UNSUPPORTED;
    }
    if (!costs_fit(params, &table, n, m)) {
        pw_set_error_detail("an alignment keeps (n + m + 2) x (its largest score or gap_open + gap_extend, + 1) "
                            "below 2^29: %lld x %lld here; shorter sequences or smaller scores (the score alone, pw_sw, "
                            "has a wider limit: a score below 2^31)",
                            (long long)(n + m + 2), (long long)costs_unit(params, &table) + 1);
        return PW_ERR_OVERFLOW;
    }
    /* Through saved rows where the score pass runs on the GPU ($PEERWAVE_PATH_ROWS: also on the
     * CPU, as the tests do); else, on the CPU, the score pass (all threads), the start
     * (sw_start.c) and Myers-Miller over the rectangle between start and end. */
    int use_gpu = 0;
    st = pw_align_gpu_wanted(options, &use_gpu);
    if (st != PW_OK) return st;
    if (use_gpu || getenv("PEERWAVE_PATH_ROWS"))
        return align_by_strips(a, n, b, m, params, options, &table, use_gpu, 0, out);
    if (cpu_strips_worth(options, n, m)) {
        st = align_by_strips(a, n, b, m, params, options, &table, 0, 1, out);
        if (st != PW_ERR_UNSUPPORTED) return st;
        memset(out, 0, sizeof *out); /* (the vector tiles could not keep the rows: Myers-Miller) */
        out->start_a = out->end_a = out->start_b = out->end_b = -1;
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
    uint8_t *enc = NULL;
    char *ops = NULL;
    st = encode_all(&table, a, n, b, m, &enc); /* pw_sw checked the letters */
    if (st != PW_OK) {
        free(enc);
        return st;
    }
    uint8_t *ea = enc, *eb = enc + n, *ra = enc + n + m, *rb = ra + n;
    pw_align_scoring sc = {table.scores, table.size, table.max_score, params->gap_open, params->gap_extend};
    pw_mm_job job = {ea, eb, ra, rb, n, m, sc, {NULL, NULL, 0}, pw_align_threads(options), options ? options->cancel : NULL};
    int64_t sa = 0, sb = 0, count = 0;
    if (!(ops = pw_malloc((size_t)(res.end_a + 1 + res.end_b + 1)))) st = PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK)
        st = pw_sw_find_start(&sc, ra, n, rb, m, res.end_a, res.end_b, res.score, &sa, &sb, &out->cells_start,
                              job.cancel);
    out->seconds_start = pw_seconds_now() - t1;
    if (st == PW_OK)
        st = pw_myers_miller(&job, sa, res.end_a - sa + 1, sb, res.end_b - sb + 1, 1, 1, ops, &count, &out->cells_align);
    out->cells_align += out->cells_start;
    if (st == PW_OK) st = finish(out, ops, count, sa, sb, a, n, b, m, params, &res);
    free(ops);
    free(enc);
    out->seconds_align = pw_seconds_now() - t1;
    if (st != PW_OK) pw_alignment_free(out);
    return st;
}
