/*
 * lane_shift.h - index lists for __builtin_shufflevector that the vector-extension processors share
 * (apps/dtw_simd_kernel.h, apps/stencil_simd_kernel.h).  PW_LANE_SHIFT_<V>: shuffling (a, b) with it
 * gives (b's last lane, a's lanes 0 .. V-2), the step of the anti-diagonal walk
 * (src/cpu/simd/antidiag.h); PW_LANE_INDEX_<V>: 0 .. V-1.
 */
#ifndef PW_LANE_SHIFT_H
#define PW_LANE_SHIFT_H

#define PW_LANE_SHIFT_2 3, 0
#define PW_LANE_SHIFT_4 7, 0, 1, 2
#define PW_LANE_SHIFT_8 15, 0, 1, 2, 3, 4, 5, 6
#define PW_LANE_SHIFT_16 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
#define PW_LANE_INDEX_2 0, 1
#define PW_LANE_INDEX_4 0, 1, 2, 3
#define PW_LANE_INDEX_8 0, 1, 2, 3, 4, 5, 6, 7
#define PW_LANE_INDEX_16 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15

#define PW_LANE_CAT2(a, b) a##b
#define PW_LANE_CAT(a, b) PW_LANE_CAT2(a, b)
#define PW_LANE_SHIFT(V) PW_LANE_CAT(PW_LANE_SHIFT_, V)
#define PW_LANE_INDEX(V) PW_LANE_CAT(PW_LANE_INDEX_, V)

#endif
