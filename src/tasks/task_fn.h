/* task_fn.h - a task function (peerwave_tasks.h: pw_task_fn) as the two runners see it: the CPU
 * one (task_fn.c) and the GPU one (src/cuda/task_fn_gpu.cu). */
#ifndef PW_TASK_FN_H
#define PW_TASK_FN_H

#include "peerwave_tasks.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pw_task_fn {
    char *text, *name;
    char *log;    /* the last compiler output ("" if none) */
    void *handle; /* CPU: the shared object, loaded from the memory file fd */
    int fd;
    void (*host_task)(void *ctx, int64_t task, int spawned); /* its pw_host_task (ctx: a pw_task_ctx) */
    void *gpu;    /* the GPU runner's loaded modules */
};

/* Take a compiler log (NULL: empty). */
void pw_task_fn_keep_log(pw_task_fn *fn, char *log);

/* The GPU runner (built with CUDA and NVRTC): the checked graph and data, on options->device. */
pw_status pw_task_fn_run_gpu(const pw_task_graph *g, pw_task_fn *fn, const pw_task_data *data, pw_task_queues queues,
                             const pw_options *options, pw_task_stats *stats);
void pw_task_fn_gpu_free(pw_task_fn *fn);
/* Compile the GPU program for `target` ("sm_90") and load nothing: no GPU needed (CI's check that
 * a task function and the engine's headers compile under NVRTC).  PW_ERR_COMPILE with the log. */
pw_status pw_task_fn_compile_gpu(pw_task_fn *fn, const char *target);

#ifdef __cplusplus
}
#endif

#endif
