/*
 * fixed_width.h - int32_t and friends for code that both a C compiler and NVRTC compile: the
 * cells (apps/ *_cell.h), the tile geometry and the device headers (src/cuda/device/).
 *
 * NVRTC has no C library headers (no <stdint.h>: it compiles with no include path at all), so
 * under it (__CUDACC_RTC__) the same names are defined here, with glibc's LP64 choices (int64_t
 * is long), which are also what nvcc sees on the build machines: a kernel compiled at run time
 * and one compiled by nvcc get the same types.
 */
#ifndef PW_FIXED_WIDTH_H
#define PW_FIXED_WIDTH_H

#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef unsigned long uintptr_t;
typedef unsigned long size_t;
static_assert(sizeof(int64_t) == 8 && sizeof(uintptr_t) == sizeof(void *), "an LP64 target");
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MAX 9223372036854775807L
#define INT64_MIN (-INT64_MAX - 1)
#ifndef NULL
#define NULL 0
#endif
#else
#include <stddef.h>
#include <stdint.h>
#endif

#endif
