/*
 * monitor_device.cuh - the progress hook's device half (pw_options.progress; the host half is
 * src/cuda/gpu_monitor.cuh): thread 0 of every block counts the tiles its block finished and
 * writes the count to its own word of mapped host memory, at most every PW_GPU_MONITOR_NS and
 * once more when the block leaves, so the host sums the words while the kernel runs.  A write is
 * a posted PCIe store: the block does not wait for it.  With no hook, words == NULL and a tile
 * costs one predictable branch.
 *
 * Cancelling needs nothing here: the host writes PW_CUDA_ERROR_CANCELLED into the run's error
 * word (on a stream of its own, while the kernel runs), where every wait already looks
 * (sync.cuh, pw_poll), and the peer schedule looks at it before it claims a tile-row.
 */
#ifndef PW_DEVICE_MONITOR_CUH
#define PW_DEVICE_MONITOR_CUH

#include "memory.cuh"

#define PW_GPU_MONITOR_NS 100000LL /* 100 us: 10 thousand 8-byte writes a second a block at most */

struct pw_gpu_monitor {
    unsigned long long *words; /* NULL: off; else one per block, mapped host memory */
};

/* Thread 0's count and when it last wrote it.  The schedules keep it in shared memory: held in
 * registers across their loops it cost the prefix-sum processor, at its 128-register bound, up to
 * 130 bytes more spills (INTHIST 5% slower on the H100). */
struct pw_block_monitor {
    unsigned long long tiles;
    long long written_ns;
    long long row_tiles; /* the tiles of the row a whole-row processor runs (pw_peer_schedule) */
};

/* Thread 0, after its block finished n more tiles. */
__device__ __forceinline__ void pw_monitor_tiles(const pw_gpu_monitor &m, pw_block_monitor &b, long long n)
{
    if (!m.words) return;
    b.tiles += (unsigned long long)n;
    const long long now = pw_globaltimer();
    if (now - b.written_ns < PW_GPU_MONITOR_NS) return;
    b.written_ns = now;
    *(volatile unsigned long long *)(m.words + blockIdx.x) = b.tiles;
}

/* Thread 0, as its block leaves the kernel: the last count. */
__device__ __forceinline__ void pw_monitor_leave(const pw_gpu_monitor &m, const pw_block_monitor &b)
{
    if (m.words) *(volatile unsigned long long *)(m.words + blockIdx.x) = b.tiles;
}

#endif
