/* device_prep.cuh - the input checks and preparations of the device-pointer entry points, done
 * where the data is: sum of |x| (SAT overflow guard), bin indices (INTHIST), letter codes (SW),
 * finiteness (DTW) and the residual (HEAT/SOR).  Each mirrors its host counterpart in apps/. */
#ifndef PW_DEVICE_PREP_CUH
#define PW_DEVICE_PREP_CUH

#include <math.h>
#include <stdint.h>

#include "device/prefix_sum_sources.cuh" /* pw_no_bin */
#include "device_buffer.cuh"
#include "../../apps/inthist_cell.h"
#include "../../apps/stencil_cell.h"

#define PW_PREP_THREADS 256

static inline unsigned pw_prep_blocks(int64_t n)
{
    int64_t b = (n + PW_PREP_THREADS - 1) / PW_PREP_THREADS;
    return (unsigned)(b < 1 ? 1 : b > 4096 ? 4096 : b);
}

template <class T>
__device__ __forceinline__ uint64_t pw_abs_u64(T v) { int64_t w = (int64_t)v; return w < 0 ? (uint64_t)(-w) : (uint64_t)w; }

/* sum |x| over a strided image; every thread adds at most cells/threads values < 2^31 each. */
template <class T>
__global__ void pw_sum_abs_kernel(const T *x, int64_t rows, int64_t cols, int64_t stride, unsigned long long *sum)
{
    uint64_t s = 0;
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < rows * cols; k += (int64_t)gridDim.x * blockDim.x)
        s += pw_abs_u64(x[(k / cols) * stride + k % cols]);
    atomicAdd(sum, (unsigned long long)s);
}

/* bin(x) by apps/inthist_cell.h, as the CPU computes it (no FMA: -fmad=false), as a B
 * (a bin array of uint8_t is a quarter of int32_t's traffic for the scans that read it). */
template <class T, class B>
__global__ void pw_bins_kernel(const T *x, int64_t rows, int64_t cols, int64_t stride, int bins, double lo,
                               double hi, int edges, B *bin)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < rows * cols; k += (int64_t)gridDim.x * blockDim.x) {
        const int32_t b = pw_inthist_bin((double)x[(k / cols) * stride + k % cols], bins, lo, hi, edges);
        bin[k] = b < 0 ? pw_no_bin<B>() : (B)b;
    }
}

/* Letters to score-table indices; *bad = 1 at any byte the table does not accept (code 255). */
static __global__ void pw_encode_kernel(const char *s, int64_t n, const uint8_t *code, uint8_t *out, int *bad)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
        uint8_t c = code[(unsigned char)s[k]];
        if (c == 255) *bad = 1;
        out[k] = c;
    }
}

template <class F>
__global__ void pw_finite_kernel(const F *x, int64_t n, int *bad)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x)
        if (!isfinite(x[k])) *bad = 1;
}

__device__ inline double pw_residual_cells(const float *p, int64_t stride, int64_t n, double sum)
{
    return pw_residual_cells_f32(p, stride, n, sum);
}
__device__ inline double pw_residual_cells(const double *p, int64_t stride, int64_t n, double sum)
{
    return pw_residual_cells_f64(p, stride, n, sum);
}

/* The residual's row sums (apps/stencil_cell.h), in the host's order: a thread an interior row.
 * Measured on the H100 (bench/queue.sh, 4096^2 f64): 1.4 ms.  Two versions with coalesced loads
 * were slower there and are left out: a warp a 32-row strip through shared memory (4 ms), the
 * same with the terms made in parallel (4.3 ms).  Not measured yet: a warp a row, the lanes
 * making 32 columns' terms and lane 0 adding them in order (every row at once). */
template <class F>
__global__ void pw_residual_rows_kernel(const F *g, int64_t rows, int64_t cols, int64_t stride, double *sums)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows - 2; i += (int64_t)gridDim.x * blockDim.x)
        sums[i] = pw_residual_cells(g + (i + 1) * stride + 1, stride, cols - 2, 0.0);
}

/* A device scalar: zeroed on the stream, read back (synchronously) after the kernels. */
template <class T>
struct pw_device_scalar {
    pw_device_buffer<T> buf;
    explicit pw_device_scalar(cudaStream_t s) : buf(s) {}
    pw_status zero()
    {
        pw_status st = buf.alloc(1);
        return st == PW_OK ? pw_from_cuda(cudaMemsetAsync(buf.ptr, 0, sizeof(T), buf.stream)) : st;
    }
    pw_status read(T *out) const { return buf.download(out, 1); }
};

#endif
