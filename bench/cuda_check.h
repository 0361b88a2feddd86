/*
 * cuda_check.h - the standalone CUDA benchmarks' (bench/*.cu outside the library) check of a CUDA
 * runtime call: on failure, the program's name, the call and CUDA's message, then exit(1).
 */
#ifndef PW_BENCH_CUDA_CHECK_H
#define PW_BENCH_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(program, x)                                                                     \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s: %s\n", program, #x, cudaGetErrorString(e_));                \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
