/* matrices_data.h - the built-in substitution matrices (generated: apps/matrices_data.c). */
#ifndef PW_MATRICES_DATA_H
#define PW_MATRICES_DATA_H

#include "peerwave.h"

extern const pw_matrix pw_builtin_matrices[];
extern const int pw_builtin_matrix_count;

#endif
