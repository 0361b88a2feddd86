/*
 * hd.h - the one macro that lets a cell definition compile for both backends.
 *
 * Cell functions are written once as `PW_HD static inline` functions in apps/ *_cell.h.  Under
 * nvcc PW_HD makes them callable from host and device code; under a C compiler it is empty, so
 * the CPU engines (and CI, which has no GPU) exercise exactly the code the GPU kernels run.
 */
#ifndef PW_HD_H
#define PW_HD_H

#ifdef __CUDACC__
#define PW_HD __host__ __device__
#else
#define PW_HD
#endif

#endif
