/*
 * rtc.h - device code compiled at run time: NVRTC over the embedded device headers
 * (device_sources.h), for the GPU present or any named target.  This is the compile step of the
 * runtime API's user cells (kernels instantiated from the same schedules and processors as the
 * built-in apps); CI uses it to compile every processor (tests/test_nvrtc.c), since NVRTC needs no
 * GPU.  Built when the CUDA toolkit's libnvrtc is found (PW_HAVE_NVRTC).
 */
#ifndef PW_RTC_H
#define PW_RTC_H

#include <stddef.h>

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_rtc_image {
    char *code;     /* CUBIN for a real target ("sm_90"), PTX text for a virtual one ("compute_80") */
    size_t size;
    int is_cubin;
    char **lowered; /* the mangled name of each name expression asked for, in order */
    int n_lowered;
    char *log;      /* the compiler's log: warnings on success, the errors on failure ("" if none;
                       NULL only when the arguments were refused before compiling) */
} pw_rtc_image;

/* Compile `source` (CUDA C++ that includes device headers by their path in the source tree, e.g.
 * "src/cuda/device/schedules.cuh") for `target` with the options the library's own kernels are
 * built with (C++17, no fused multiply-add), instantiating the kernels named by name_exprs
 * (e.g. "pw_peer_kernel<LinearProc<DtwApp<float>, 1>>").  On failure PW_ERR_COMPILE, the log in
 * out->log and its start in pw_error_detail(); out is always released by pw_rtc_image_free. */
pw_status pw_rtc_compile(const char *source, const char *program_name, const char *target, const char *const *name_exprs,
                         int n_names, pw_rtc_image *out);

void pw_rtc_image_free(pw_rtc_image *image);

/* NVRTC's version as major * 1000 + minor * 10 (12080 for 12.8), or 0 if it cannot say. */
int pw_rtc_version(void);

#ifdef __cplusplus
}
#endif

#endif
