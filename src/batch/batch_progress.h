/*
 * batch_progress.h - the progress hook and cancel flag (pw_options.progress, .cancel) over a
 * whole batch run: the engines add the cells they finish, from any thread, and look whether the
 * run must stop; the hook gets the fraction done, the rate and the time left as for a single
 * run (src/core/monitor.h does the reporting).  Internal.
 */
#ifndef PW_BATCH_PROGRESS_H
#define PW_BATCH_PROGRESS_H

#include <stdint.h>

#include "peerwave.h"
#include "../core/monitor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_batch_progress {
    pw_monitor monitor;
    pw_monitor_state state;
    int64_t done; /* cells finished (atomic: GCC builtins, this header is also C++) */
    int stop;     /* the hook asked to stop or the cancel flag was seen (atomic) */
} pw_batch_progress;

/* For a run of `cells` cells with these options (progress and cancel may be absent). */
void pw_batch_progress_init(pw_batch_progress *p, const pw_options *options, int64_t cells);

/* `cells` more are finished; reports when one is due.  1 when the run must stop. */
int pw_batch_progress_add(pw_batch_progress *p, int64_t cells);

/* Must the run stop (the hook asked, or the cancel flag is set)?  Engines look between items. */
int pw_batch_progress_stopped(pw_batch_progress *p);

/* The end of the run, whose status is st: PW_OK (and the final report) when it succeeded and no
 * stop was asked for; PW_ERR_CANCELLED when one was (even during the last group, after which
 * nobody looked); else st. */
pw_status pw_batch_progress_finish(pw_batch_progress *p, pw_status st);

#ifdef __cplusplus
}
#endif
#endif
