/*
 * gotoh_gpu.h - Myers-Miller's passes on the GPU (align_internal.h's pw_mm_pass_fn), for the
 * large rectangles of an alignment whose score pass ran there.
 */
#ifndef PW_GOTOH_GPU_H
#define PW_GOTOH_GPU_H

#include "align_internal.h"

typedef struct pw_gotoh_gpu pw_gotoh_gpu;

/* Make the GPU passes ready for this scoring under options (the device, the stream).  *out is
 * NULL, with PW_OK, when this build has no GPU passes: the CPU passes then do all the work. */
pw_status pw_gotoh_gpu_open(const pw_align_scoring *scoring, const pw_options *options, pw_gotoh_gpu **out);
/* Fill passes->big with the GPU pass (and the size from which it is used). */
void pw_gotoh_gpu_passes(pw_gotoh_gpu *gpu, pw_mm_passes *passes);
void pw_gotoh_gpu_close(pw_gotoh_gpu *gpu);

#endif
