/*
 * linear_storage.cuh - where a linear app's values live between tiles, written once: the
 * linear-space storage of the recurrences with up, left and upper-left neighbours (SW, DTW, a
 * user's linear cell, SAT's diagonal form).  Only the frontier is kept:
 *   bus[j]   the last row computed so far in column j (the row above the next tile-row; row -1,
 *            the boundary, before the run);
 *   left[i]  row i's value in the column before the next tile of its tile-row (the boundary
 *            column -1 before the run);
 *   diag[i]  row i - 1's value in that column, the next tile's upper-left neighbour of row i.
 * Between tile-rows of the peer schedule the bus goes through the edge words (handover.cuh);
 * the host fills these from the boundary before a run and reads the bus's last value after
 * (linear_run.cuh).  The full matrix (full_proc.cuh's output) and the in-place grid (the stencil
 * processors') are the other storages.
 */
#ifndef PW_DEVICE_LINEAR_STORAGE_CUH
#define PW_DEVICE_LINEAR_STORAGE_CUH

template <class T>
struct pw_linear_storage {
    T *bus, *left, *diag;
    /* Every cell as LinearProc computes it: nothing kept here (SatDiagApp, which keeps the whole
     * matrix too, stores it). */
    template <class V>
    __device__ void cell_out(int64_t, int64_t, const V &) const {}
};

#endif
