/*
 * queue_device.h - what the job queue (job_queue.c) needs from a device: memory, the two copy
 * directions and a kernel stage.  The CUDA one is src/cuda/queue_gpu.cu; tests/test_queue.c
 * drives the same queue through a simulated device in host memory.  Internal.
 *
 * Each stage function is called by one queue thread at a time (the copy-in thread, the kernel
 * thread, the copy-out thread) and returns when its work is finished, so the queue's threads
 * are what overlaps the stages: every stage keeps its own stream.
 */
#ifndef PW_QUEUE_DEVICE_H
#define PW_QUEUE_DEVICE_H

#include <stdio.h>

#include "job.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct queue_device {
    void *ctx;
    int copy_engines;      /* 1: copy-ins and copy-outs share one engine; 2: one each */
    int64_t memory_budget; /* bytes of job buffers the device may hold at once */
    /* bytes of device memory for one buffer (on the copy-in thread); PW_ERR_OUT_OF_MEMORY */
    pw_status (*alloc)(void *ctx, int64_t bytes, void **dev);
    /* free it (on the copy-out thread, after the buffer's last use) */
    void (*release)(void *ctx, void *dev);
    /* the host buffer b to dev (packed), all of it */
    pw_status (*copy_in)(void *ctx, const job_buffer *b, void *dev);
    /* dev back to the host buffer b; *touched = 1 once any host byte was written (a failure
     * after that leaves b partly overwritten) */
    pw_status (*copy_out)(void *ctx, const void *dev, const job_buffer *b, int *touched);
    /* run the job (its buffers on the device) */
    pw_status (*run)(void *ctx, const pw_job *job);
    void (*destroy)(void *ctx);
} queue_device;

/* The CUDA device (PW_ERR_NO_DEVICE, PW_ERR_CUDA, PW_ERR_OUT_OF_MEMORY). */
pw_status pw_queue_gpu_create(int device, double memory_fraction, int64_t staging_bytes, queue_device *out);

/* One device's queue (job_queue.c): the threads and the order of one device's stages.  A
 * pw_queue (queue_group.c) is one or several of these, a job going to the one that will be done
 * first.  The dq_* functions are pw_queue_*'s for one device (ids are the device queue's own). */
typedef struct device_queue device_queue;

/* The queue over a device of one's own (dev == NULL: the CPU alone); the queue owns dev's ctx
 * from here on (destroyed with it, also on failure). */
pw_status pw_dq_create_on(const pw_queue_options *options, const queue_device *dev, device_queue **queue);
pw_status pw_dq_submit(device_queue *q, const pw_job *job, int64_t *id);
pw_status pw_dq_wait(device_queue *q, int64_t id);
pw_status pw_dq_drain(device_queue *q);
pw_status pw_dq_get_stats(device_queue *q, pw_queue_stats *stats);
void pw_dq_destroy(device_queue *q);
/* For the group: the predicted seconds of the jobs not done (running sums at the rates learned so
 * far: cheap, unlike the stats), how many those are, every waiting job released (the window need
 * not fill), and the span's ends on the queues' shared clock (-1: nothing started). */
double pw_dq_backlog(device_queue *q);
int64_t pw_dq_open_jobs(device_queue *q);
void pw_dq_release(device_queue *q);
void pw_dq_span(device_queue *q, double *start, double *end);

/* A pw_queue over devices of one's own (tests: simulated devices): one device queue each (dev ==
 * NULL, n 1: the CPU alone); the queue owns the devices' ctx from here on. */
pw_status pw_queue_create_on(const pw_queue_options *options, const queue_device *dev, pw_queue **queue);
pw_status pw_queue_create_group_on(const pw_queue_options *options, const queue_device *devs, int n, pw_queue **queue);

/* The queue's record of one job's stages, for tests: seconds from the queue's creation (-1:
 * the stage did not happen on the device), on_cpu. */
typedef struct queue_job_trace {
    double in_start, in_end, kernel_start, kernel_end, out_start, out_end;
    int64_t issue_rank; /* its place in the issue order (0, 1, ...) */
    int on_cpu;
} queue_job_trace;
pw_status pw_queue_job_get_trace(pw_queue *queue, int64_t id, queue_job_trace *trace);
pw_status pw_dq_job_get_trace(device_queue *q, int64_t id, queue_job_trace *trace);
/* The device queue that runs job `id` (0 ..), and the job's id there. */
pw_status pw_queue_job_place(pw_queue *queue, int64_t id, int *device_queue_index, int64_t *local_id);

/* The queue's state and every job not done, for diagnosing a stall (bench_job_queue). */
void pw_queue_debug_dump(pw_queue *queue, FILE *f);
void pw_dq_debug_dump(device_queue *q, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
