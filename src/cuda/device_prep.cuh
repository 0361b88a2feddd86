/* device_prep.cuh - the input checks and preparations of the device-pointer entry points, done
 * where the data is: sum of |x| (SAT overflow guard), bin indices (INTHIST), letter codes (SW),
 * finiteness (DTW) and the residual (HEAT/SOR).  Each mirrors its host counterpart in apps/. */
#ifndef PW_DEVICE_PREP_CUH
#define PW_DEVICE_PREP_CUH

#include <math.h>
#include <stdint.h>

#include "device/prefix_sum_sources.cuh" /* pw_no_bin */
#include "device_buffer.cuh"
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

/* bin(x) exactly as apps/inthist.c computes it (double arithmetic, no FMA: -fmad=false), as a B
 * (a bin array of uint8_t is a quarter of int32_t's traffic for the scans that read it). */
template <class T, class B>
__global__ void pw_bins_kernel(const T *x, int64_t rows, int64_t cols, int64_t stride, int bins, double lo,
                               double hi, B *bin)
{
    double scale = bins / (hi - lo);
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < rows * cols; k += (int64_t)gridDim.x * blockDim.x) {
        double v = (double)x[(k / cols) * stride + k % cols];
        B b = pw_no_bin<B>();
        if (v >= lo && v < hi) {
            double f = floor((v - lo) * scale);
            b = (B)(f >= bins ? bins - 1 : (int32_t)f);
        }
        bin[k] = b;
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

/* The residual's row sums (apps/stencil_cell.h), in the host's order.  A warp takes 32 rows and
 * walks their columns 32 at a time: the 34 x 34 neighbourhood is loaded together (coalesced) into
 * shared memory, the 32 x 32 terms are made in parallel (a lane a column), and then each lane
 * adds its own row's 32 squares in order -- only those additions are serial.  One block (a warp)
 * per 32 interior rows. */
template <class F>
__global__ void pw_residual_rows_kernel(const F *g, int64_t rows, int64_t cols, int64_t stride, double *sums)
{
    __shared__ F tile[34][35];       /* grid rows i0 .. i0 + 33, columns j0 .. j0 + 33 */
    __shared__ double term[32][33];  /* [row][column] of the 32 x 32 interior cells */
    const int lane = (int)threadIdx.x;
    const int64_t i0 = (int64_t)blockIdx.x * 32, n = cols - 2, mine = i0 + lane; /* interior row mine */
    double sum = 0;
    for (int64_t j0 = 0; j0 < n; j0 += 32) {
#pragma unroll
        for (int r = 0; r < 34; r++) {
            const int64_t gi = i0 + r;
            for (int c = lane; c < 34; c += 32) {
                const int64_t gj = j0 + c;
                tile[r][c] = gi < rows && gj < cols ? g[gi * stride + gj] : (F)0;
            }
        }
        __syncwarp();
        const int end = n - j0 < 32 ? (int)(n - j0) : 32;
#pragma unroll 4
        for (int r = 0; r < 32; r++) /* lane: column j0 + lane, row i0 + r */
            term[r][lane] = pw_residual_term(tile[r][lane + 1], tile[r + 1][lane], tile[r + 2][lane + 1],
                                             tile[r + 1][lane + 2], tile[r + 1][lane + 1]);
        __syncwarp();
        if (mine < rows - 2)
            for (int c = 0; c < end; c++) sum = pw_residual_add(sum, term[lane][c]);
        __syncwarp();
    }
    if (mine < rows - 2) sums[mine] = sum;
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
