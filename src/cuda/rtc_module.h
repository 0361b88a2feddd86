/*
 * rtc_module.h - device code compiled at run time, loaded: NVRTC (src/jit/rtc.h) for the GPU
 * present, the CUBIN cached on disk (src/jit/cell_cache.h) under a hash of the program, a glue
 * version, the target, NVRTC's version and the embedded library headers, then loaded with
 * cudaLibraryLoadData.  Users: user cells (user_cells.cu) and task functions (task_fn_gpu.cu).
 * Host C++, built with the CUDA part when NVRTC is there.
 */
#ifndef PW_RTC_MODULE_H
#define PW_RTC_MODULE_H

#include <cuda_runtime.h>
#include <string>
#include <vector>

#include "peerwave.h"

struct pw_rtc_module {
    std::string key; /* the cache key: the same program for the same device kind */
    int device = -1;
    cudaLibrary_t lib = NULL;
    std::vector<cudaKernel_t> kernels; /* in the order of the names asked for */
};

/* The cache key of `src` for `device` (its "sm_XY" target in *target, 32 bytes). */
pw_status pw_rtc_module_key(const std::string &src, const char *version, int device, std::string *key, char *target);

/* Compile (or take from the cache) and load `src`'s kernels `names` on the current device into m
 * (m->key from pw_rtc_module_key).  *log: the compiler's output (malloc'd, or NULL when cached);
 * *compiled: 1 when compiled now; note: why the cache could not be used, if it could not. */
pw_status pw_rtc_module_load(const std::string &src, const char *program_name, const char *target,
                             const std::vector<std::string> &names, pw_rtc_module *m, char **log, int *compiled,
                             char *note, size_t note_size);

void pw_rtc_module_unload(pw_rtc_module *m);

#endif
