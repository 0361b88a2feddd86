/* scoring.c - score tables and sequence encoding for Smith-Waterman. */
#include <ctype.h>
#include <string.h>

#include "scoring.h"

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

static pw_status make_matrix(const pw_matrix *m, pw_score_table *t)
{
    if (!m->alphabet || !m->scores || m->size < 1 || m->size > PW_SCORING_MAX_ALPHABET ||
        (int)strlen(m->alphabet) != m->size)
        return PW_ERR_INVALID_ARGUMENT;
    const char *wild = strchr(m->alphabet, toupper((unsigned char)m->wildcard));
    if (!m->wildcard || !wild) return PW_ERR_INVALID_ARGUMENT;
    t->size = m->size;
    t->max_score = m->scores[0];
    for (int k = 0; k < m->size * m->size; k++) {
        t->scores[k] = m->scores[k];
        if (m->scores[k] > t->max_score) t->max_score = m->scores[k];
    }
    for (int ch = 'A'; ch <= 'Z'; ch++) t->code[ch] = t->code[tolower(ch)] = (uint8_t)(wild - m->alphabet);
    t->code['*'] = (uint8_t)(wild - m->alphabet);
    for (int k = 0; k < m->size; k++) {
        unsigned char ch = (unsigned char)m->alphabet[k];
        t->code[ch] = (uint8_t)k;
        t->code[tolower(ch)] = (uint8_t)k;
    }
    return PW_OK;
}

pw_status pw_score_table_make(const pw_sw_params *p, pw_score_table *t)
{
    if (!score_ok(p->gap_open) || !score_ok(p->gap_extend) || p->gap_open < 0 || p->gap_extend < 0)
        return PW_ERR_INVALID_ARGUMENT;
    memset(t->code, NOT_ACCEPTED, sizeof t->code);
    switch (p->scoring) {
    case PW_SCORING_DNA:
        if (!score_ok(p->match) || !score_ok(p->mismatch) || p->match < 0 || p->mismatch > 0)
            return PW_ERR_INVALID_ARGUMENT;
        make_dna(p, t);
        return PW_OK;
    case PW_SCORING_MATRIX:
        if (!p->matrix) return PW_ERR_NULL_ARGUMENT;
        return make_matrix(p->matrix, t);
    }
    return PW_ERR_INVALID_ARGUMENT;
}

pw_status pw_score_encode(const pw_score_table *t, const char *seq, int64_t n, uint8_t *out)
{
    for (int64_t k = 0; k < n; k++) {
        uint8_t c = t->code[(unsigned char)seq[k]];
        if (c == NOT_ACCEPTED) return PW_ERR_BAD_INPUT;
        out[k] = c;
    }
    return PW_OK;
}
