/* scoring.c - score tables and sequence encoding for Smith-Waterman. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "scoring.h"
#include "../src/core/status_detail.h"

#define NOT_ACCEPTED 255

void pw_sw_params_init(pw_sw_params *p)
{
    if (!p) return;
    p->scoring = PW_SCORING_DNA;
    p->match = 2;
    p->mismatch = -1;
    p->matrix = NULL;
    p->gap_open = 1;
    p->gap_extend = 1;
}

static int score_ok(int v) { return v >= -PW_MAX_SCORE_MAGNITUDE && v <= PW_MAX_SCORE_MAGNITUDE; }

/* DNA: A C G T (U = T) are 0..3; every other letter is index 4, which matches nothing. */
static void make_dna(const pw_sw_params *p, pw_score_table *t)
{
    t->size = 5;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 5; y++)
            t->scores[x * 5 + y] = (x == y && x < 4) ? p->match : p->mismatch;
    for (int ch = 'A'; ch <= 'Z'; ch++) t->code[ch] = t->code[tolower(ch)] = 4;
    t->code['*'] = 4;
    const char *bases = "ACGT";
    for (int k = 0; k < 4; k++) t->code[(unsigned char)bases[k]] = t->code[tolower(bases[k])] = (uint8_t)k;
    t->code['U'] = t->code['u'] = 3;
    t->max_score = p->match > p->mismatch ? p->match : p->mismatch;
}

/* A byte of an alphabet for a message: the character where it is printable ASCII, and its code. */
static void byte_text(unsigned char c, char *buf, size_t size)
{
    if (c >= 0x20 && c < 0x7f) snprintf(buf, size, "'%c' (0x%02x)", c, c);
    else snprintf(buf, size, "0x%02x", c);
}

/* Sequences are encoded case-folded, and '*' (a stop) is a symbol of its own: so an alphabet
 * holds letters (either case, meaning both) and '*', each once.  Anything else (a digit, '-', a
 * space, a byte past ASCII) could never be encoded as itself, and a letter given twice would leave
 * one of its rows unreachable (the later one would win): refused, naming the byte and where. */
static pw_status check_alphabet(const pw_matrix *m, int *wild)
{
    const char *name = m->name ? m->name : "(unnamed)";
    char text[16];
    int seen[256];
    for (int k = 0; k < 256; k++) seen[k] = -1;
    for (int k = 0; k < m->size; k++) {
        const unsigned char ch = (unsigned char)m->alphabet[k];
        const int folded = ch < 0x80 ? toupper(ch) : ch; /* (toupper of a byte past ASCII is the locale's) */
        /* (the byte's text made only for a message: made for every letter of every call, it was
         * a fifth of a small protein pair's pw_sw) */
        if (!((folded >= 'A' && folded <= 'Z') || folded == '*')) {
            byte_text(ch, text, sizeof text);
            pw_set_error_detail("matrix %s: alphabet[%d] is %s: an alphabet holds letters (A-Z, either case) and '*'",
                                name, k, text);
            return PW_ERR_INVALID_ARGUMENT;
        }
        if (seen[folded] >= 0) {
            byte_text(ch, text, sizeof text);
            pw_set_error_detail("matrix %s: alphabet[%d] is %s, already alphabet[%d] (letters count case-insensitively)",
                                name, k, text, seen[folded]);
            return PW_ERR_INVALID_ARGUMENT;
        }
        seen[folded] = k;
    }
    const unsigned char w = (unsigned char)m->wildcard;
    *wild = w && w < 0x80 ? seen[toupper(w)] : -1;
    if (*wild < 0) {
        byte_text(w, text, sizeof text);
        pw_set_error_detail("matrix %s: the wildcard %s is not in the alphabet \"%s\"", name, text, m->alphabet);
        return PW_ERR_INVALID_ARGUMENT;
    }
    return PW_OK;
}

static pw_status make_matrix(const pw_matrix *m, pw_score_table *t)
{
    if (!m->alphabet || !m->scores) return PW_ERR_INVALID_ARGUMENT;
    const size_t length = strlen(m->alphabet);
    if (m->size < 1 || m->size > PW_SCORING_MAX_ALPHABET || length != (size_t)m->size) {
        pw_set_error_detail("matrix %s: size %d, alphabet of %zu bytes (they must be equal, 1 .. %d)",
                            m->name ? m->name : "(unnamed)", m->size, length, PW_SCORING_MAX_ALPHABET);
        return PW_ERR_INVALID_ARGUMENT;
    }
    int wild;
    pw_status st = check_alphabet(m, &wild);
    if (st != PW_OK) return st;
    t->size = m->size;
    t->max_score = m->scores[0];
    for (int k = 0; k < m->size * m->size; k++) {
        t->scores[k] = m->scores[k];
        if (m->scores[k] > t->max_score) t->max_score = m->scores[k];
    }
    for (int ch = 'A'; ch <= 'Z'; ch++) t->code[ch] = t->code[tolower(ch)] = (uint8_t)wild;
    t->code['*'] = (uint8_t)wild;
    for (int k = 0; k < m->size; k++) {
        unsigned char ch = (unsigned char)m->alphabet[k];
        t->code[toupper(ch)] = t->code[tolower(ch)] = (uint8_t)k;
    }
    return PW_OK;
}

pw_status pw_score_table_make(const pw_sw_params *p, pw_score_table *t)
{
    if (!score_ok(p->gap_open) || !score_ok(p->gap_extend) || p->gap_open < 0 || p->gap_extend < 0) {
        pw_set_error_detail("gap_open %d, gap_extend %d: penalties >= 0, each within the scores' range (%d)",
                            (int)p->gap_open, (int)p->gap_extend, (int)PW_MAX_SCORE_MAGNITUDE);
        return PW_ERR_INVALID_ARGUMENT;
    }
    memset(t->code, NOT_ACCEPTED, sizeof t->code);
    switch (p->scoring) {
    case PW_SCORING_DNA:
        if (!score_ok(p->match) || !score_ok(p->mismatch) || p->match < 0 || p->mismatch > 0) {
            pw_set_error_detail("match %d, mismatch %d: match >= 0 >= mismatch, each within the scores' range", (int)p->match,
                                (int)p->mismatch);
            return PW_ERR_INVALID_ARGUMENT;
        }
        make_dna(p, t);
        return PW_OK;
    case PW_SCORING_MATRIX:
        if (!p->matrix) return PW_ERR_NULL_ARGUMENT;
        return make_matrix(p->matrix, t);
    }
    pw_set_error_detail("scoring %d: PW_SCORING_DNA or PW_SCORING_MATRIX", (int)p->scoring);
    return PW_ERR_INVALID_ARGUMENT;
}

pw_status pw_score_encode(const pw_score_table *t, const char *seq, int64_t n, uint8_t *out)
{
    for (int64_t k = 0; k < n; k++) {
        uint8_t c = t->code[(unsigned char)seq[k]];
        if (c == NOT_ACCEPTED) {
            const unsigned char b = (unsigned char)seq[k];
            if (b > 32 && b < 127) pw_set_error_detail("letter '%c' at %lld (from 1) is not in the scoring's alphabet", b, (long long)k + 1);
            else pw_set_error_detail("byte 0x%02x at %lld (from 1) is not a letter of the scoring's alphabet", b, (long long)k + 1);
            return PW_ERR_BAD_INPUT;
        }
        out[k] = c;
    }
    return PW_OK;
}
