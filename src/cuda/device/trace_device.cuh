/*
 * trace_device.cuh - per-tile timing records, the device half (pw_options.trace).
 *
 * Thread 0 of a block reads %globaltimer before its wait for the row above, after it, and after
 * the tile's closing barrier, and appends one record through an atomic cursor.  The host half
 * (src/cuda/gpu_trace.cuh) sizes the buffer from the tiling (every tile is recorded exactly
 * once), copies it back after the kernel and hands it to the user's sink.  With no sink the
 * kernels see records == NULL and skip the clock reads: one predictable branch per tile.
 *
 * %globaltimer counts nanoseconds; on the H100 it advances in steps of about 1 us outside a
 * profiler, so very short tiles show as 0 or 1 us (docs/PERFORMANCE.md, tracing).
 */
#ifndef PW_DEVICE_TRACE_CUH
#define PW_DEVICE_TRACE_CUH

#include "memory.cuh"

struct pw_gpu_trace_record {
    long long wait_ns, start_ns, end_ns; /* raw %globaltimer values */
    long long tile_col;
    int block, tile_row;
};

struct pw_gpu_trace {
    pw_gpu_trace_record *records; /* NULL = tracing off */
    unsigned long long *count;
    long long capacity;
};

/* Thread 0: append one tile. */
__device__ __forceinline__ void pw_trace_tile(const pw_gpu_trace &tr, int64_t r, int64_t c, long long wait_ns,
                                              long long start_ns)
{
    long long end_ns = pw_globaltimer();
    unsigned long long k = atomicAdd(tr.count, 1ULL);
    if ((long long)k >= tr.capacity) return; /* cannot happen: one record per tile; the host checks */
    pw_gpu_trace_record rec = {wait_ns, start_ns, end_ns, c, (int)blockIdx.x, (int)r};
    tr.records[k] = rec;
}

#endif
