/*
 * edge_words.cuh - the host side of a hand-over's edge words (device/handover.cuh): one device
 * allocation of tagged words, and the one way to set them up before a launch: cleared (tag 0,
 * value 0) or filled from plain values (tag 0, the values the first tile-row reads), and drained
 * back to plain values after it.  Tags restart with every launch, so a run of several launches
 * clears or fills the words before each.
 */
#ifndef PW_EDGE_WORDS_CUH
#define PW_EDGE_WORDS_CUH

#include "device/handover.cuh"
#include "device_buffer.cuh"

template <class T>
struct pw_edge_words {
    pw_device_buffer<pw_ll<T>> buf;
    size_t count = 0;
    explicit pw_edge_words(cudaStream_t s) : buf(s) {}

    /* n words (none: the edge is NULL, for schedules that do not hand over by words). */
    pw_status alloc(size_t n)
    {
        count = n;
        return n ? buf.alloc(n) : PW_OK;
    }
    pw_edge<T> edge() const { return pw_edge<T>{buf.ptr}; }
    pw_status clear() const
    {
        return count ? pw_from_cuda(cudaMemsetAsync(buf.ptr, 0, count * sizeof(pw_ll<T>), buf.stream)) : PW_OK;
    }
    pw_status fill(const T *values) const
    {
        if (count) pw_edge_fill<T><<<blocks(), 256, 0, buf.stream>>>(buf.ptr, values, (int64_t)count);
        return pw_from_cuda(cudaGetLastError());
    }
    pw_status drain(T *values) const
    {
        if (count) pw_edge_drain<T><<<blocks(), 256, 0, buf.stream>>>(buf.ptr, values, (int64_t)count);
        return pw_from_cuda(cudaGetLastError());
    }

private:
    unsigned blocks() const { return (unsigned)((count + 255) / 256); }
};

#endif
