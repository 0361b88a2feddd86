/* layouts.cuh - where cell (i, j) of a full-storage matrix lives on the device.
 *
 * Row-major: i * stride + j.  In a hyper-tile step the h lanes of a block touch (i0 + k, s - k):
 * addresses stride - 1 apart, one memory transaction per lane.
 *
 * Hybrid row/diagonal (seed paper 3.4): tile-rows one after another; inside tile-row r the h
 * cells of each diagonal step s = j + k (lane k = i mod h) are consecutive:
 *     at(i, j) = ((r * row_len) + j + k) * h + k,   r = i / h, row_len = cols + h - 1,
 * so a step's h lanes read and write h consecutive elements.  `shift` moves the rows by a fixed
 * amount first (HEAT/SOR iterate over the interior, one row below the grid's top border: shift
 * h - 1 puts interior row i in lane i mod h of tile-row i / h + 1).  Nothing but the h(h-1)
 * corner slots per tile-row is padding.  The two-way transform is at() one way and the
 * conversion kernels the other.
 *
 * Several planes (INTHIST's bins) are pw_planes of one of these. */
#ifndef PW_DEVICE_LAYOUTS_CUH
#define PW_DEVICE_LAYOUTS_CUH

#include "../../core/fixed_width.h"

struct pw_row_major {
    static constexpr bool row_major = true;
    int64_t stride;
    __host__ __device__ int64_t at(int64_t i, int64_t j) const { return i * stride + j; }
};

/* Planes of one layout, one after another (INTHIST: a plane a bin): plane p's cell (i, j). */
template <class L>
struct pw_planes {
    L lay;         /* a plane's */
    int64_t plane; /* elements a plane */
    __host__ __device__ int64_t at(int64_t p, int64_t i, int64_t j) const { return p * plane + lay.at(i, j); }
};

struct pw_hybrid {
    static constexpr bool row_major = false;
    int64_t h, row_len, shift;
    __host__ __device__ int64_t at(int64_t i, int64_t j) const
    {
        int64_t q = i + shift, r = q / h, k = q - r * h;
        return (r * row_len + j + k) * h + k;
    }
    /* Elements to allocate for rows x cols. */
    __host__ __device__ static pw_hybrid make(int64_t h, int64_t rows, int64_t cols, int64_t shift, int64_t *count)
    {
        pw_hybrid l{h, cols + h - 1, shift};
        *count = (rows + shift + h - 1) / h * l.row_len * h;
        return l;
    }
};

template <class T, class L>
__global__ void pw_to_layout(const T *src, int64_t stride, T *dst, L lay, int64_t rows, int64_t cols)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < rows * cols; e += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = e / cols, j = e - i * cols;
        dst[lay.at(i, j)] = src[i * stride + j];
    }
}

template <class T, class L>
__global__ void pw_from_layout(const T *src, L lay, T *dst, int64_t stride, int64_t rows, int64_t cols)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < rows * cols; e += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = e / cols, j = e - i * cols;
        dst[i * stride + j] = src[lay.at(i, j)];
    }
}

#endif
