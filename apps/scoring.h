/*
 * scoring.h - substitution scores as a small integer table over encoded letters.
 *
 * Sequences are encoded once into letter indices; a cell then reads table[a_i * size + b_j].
 */
#ifndef PW_SCORING_H
#define PW_SCORING_H

#include <stdint.h>
#include "peerwave.h"
#include "sw_cell.h" /* PW_SCORING_MAX_ALPHABET */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_score_table {
    int size;                    /* alphabet size including the catch-all index */
    int32_t scores[PW_SCORING_MAX_ALPHABET * PW_SCORING_MAX_ALPHABET];
    int32_t max_score;           /* largest entry: bounds the best local score */
    uint8_t code[256];           /* letter -> index; 255 = not a letter we accept */
} pw_score_table;

/* Build the table for params (PW_ERR_INVALID_ARGUMENT for out-of-range values). */
pw_status pw_score_table_make(const pw_sw_params *params, pw_score_table *table);

/* Encode n letters of seq into out; PW_ERR_BAD_INPUT at the first byte that is not accepted. */
pw_status pw_score_encode(const pw_score_table *table, const char *seq, int64_t n, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
