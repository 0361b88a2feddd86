/*
 * spill_kernels.cu - the plain peer kernels of the benchmark suite's default runs, instantiated
 * for tests/register_spills.sh, which compiles this file with ptxas' report and fails on any
 * spill.  Their processors run at a register bound (128 a thread for the prefix sums' 512-thread
 * blocks, 16 warps an SM for SW/DTW's), so code added around them -- a schedule's band waits, a
 * switch tested at run time -- shows up here as spills long before anyone benchmarks it: at
 * 5a4359d the INTHIST u8 kernel spilled 308 bytes and ran 1.37x slower than at dcad950
 * (docs/PERFORMANCE.md, session 24).
 */
#include "src/cuda/device/app_dtw.cuh"
#include "src/cuda/device/app_stencil.cuh"
#include "src/cuda/device/app_sw.cuh"
#include "src/cuda/device/prefix_sum_proc.cuh"
#include "src/cuda/device/prefix_sum_sources.cuh"
#include "src/cuda/device/stencil_warp_proc.cuh"
#include "src/cuda/device/warp_proc.cuh"

#define PEER(P) template __global__ void pw_peer_kernel_bounded<P>(P, pw_engine_args);
#define PEER_UNBOUNDED(P) template __global__ void pw_peer_kernel<P>(P, pw_engine_args);

typedef PrefixSumProc<pw_bin_src<uint8_t>, int32_t, true> InthistU8;
typedef PrefixSumProc<pw_sat_src<uint8_t, int32_t>, int32_t, true> SatU8;
typedef PrefixSumProc<pw_sat_src<float, float>, float, true> SatF32;
typedef WarpProc<SwApp<SwAffineGaps>, 2> SwAffine;
typedef WarpProc<SwApp<SwLinearGaps>, 2> SwLinear;
typedef WarpProc<DtwApp<float, false, false, 0>, 2> DtwF32;
typedef StencilWarpProc<float, StencilCell<float, false>, 2> HeatF32;
typedef StencilWarpProc<float, StencilCell<float, true>, 2> SorF32;

PEER(InthistU8)
PEER(SatU8)
PEER(SatF32)
PEER(SwAffine)
PEER(SwLinear)
PEER(DtwF32)
PEER_UNBOUNDED(HeatF32)
PEER_UNBOUNDED(SorF32)
