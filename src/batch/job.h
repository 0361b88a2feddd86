/*
 * job.h - one job of the job queue (peerwave_batch.h's pw_job) seen as the queue needs it: the
 * buffers that travel to the device and back, its size in cells, and the same job with its
 * buffers replaced by device copies.  Internal.
 */
#ifndef PW_JOB_H
#define PW_JOB_H

#include <stddef.h>

#include "peerwave_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A buffer of rows x row_bytes on the host, rows host_stride bytes apart; on the device it is
 * packed (rows one after another). */
typedef struct job_buffer {
    void *host;
    int64_t rows;
    int64_t row_bytes;
    int64_t host_stride;
    int copy_in;  /* the kernel reads it: copied to the device first */
    int copy_out; /* the kernel writes it: copied back after */
} job_buffer;

#define JOB_MAX_BUFFERS 2

typedef struct job_layout {
    int count;
    job_buffer buffer[JOB_MAX_BUFFERS];
    int64_t bytes_in, bytes_out, bytes_device;
    double cells; /* the work, for the kernel's predicted time */
} job_layout;

/* Check what can be checked without reading the data (pointers, sizes, types, options) and
 * describe the job's buffers.  The checks that read data happen when the job runs. */
pw_status pw_job_describe(const pw_job *job, job_layout *layout);

/* A job whose buffers are device copies: the job, with its images pointing at dev. */
typedef struct device_job {
    pw_job job;
    pw_image image[JOB_MAX_BUFFERS];
} device_job;

/* dj = job with buffer k of layout at dev[k] (packed). */
void pw_job_on_device(const pw_job *job, const job_layout *layout, void *const *dev, device_job *dj);


/* Run the job: the host function, or (on_device) the _device one on options.device and
 * options.cuda_stream.  Copies the sw/dtw result's info to job->info. */
pw_status pw_job_call(const pw_job *job, int on_device);

/* Slice k of `parts` of [0, len), 4 KiB aligned: [*lo, *hi) (empty when *hi <= *lo); the slices
 * cover [0, len) exactly once (test_queue checks it). */
void pw_job_slice(int64_t len, int k, int parts, int64_t *lo, int64_t *hi);

/* Bytes [offset, offset + len) of the packed buffer: gather from the host into dst, scatter
 * from src to the host. */
void pw_job_gather(const job_buffer *b, int64_t offset, int64_t len, void *dst);
void pw_job_scatter(const job_buffer *b, int64_t offset, int64_t len, const void *src);

#ifdef __cplusplus
}
#endif
#endif
