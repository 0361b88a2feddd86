/* gotoh_gpu_none.c - builds without the GPU passes: the CPU passes do all the work. */
#include <stddef.h>

#include "gotoh_gpu.h"

pw_status pw_gotoh_gpu_open(const pw_align_scoring *scoring, const pw_options *options, pw_gotoh_gpu **out)
{
    (void)scoring;
    (void)options;
    *out = NULL;
    return PW_OK;
}

void pw_gotoh_gpu_passes(pw_gotoh_gpu *gpu, pw_mm_passes *passes)
{
    (void)gpu;
    (void)passes;
}

void pw_gotoh_gpu_close(pw_gotoh_gpu *gpu) { (void)gpu; }
