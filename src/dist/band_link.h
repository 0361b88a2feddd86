/*
 * band_link.h - the thread that moves a band's edge columns between ranks (core/band.h) over a
 * transport (transport.h), and the engine callbacks that wait on it.
 *
 * Per run and neighbour: the left neighbour's last column arrives (and, for in-place sweeps, this
 * band's first column goes back), the band's last column goes to the right neighbour (and its
 * first column comes back), in chunks of rows, sweep after sweep, in order.  One control word
 * each way ends the run: END, or ABORT when a rank gave up, so that a failure anywhere wakes the
 * waits of its neighbours, whose engines then give up and pass it on.
 */
#ifndef PW_DIST_BAND_LINK_H
#define PW_DIST_BAND_LINK_H

#include <stdint.h>

#include "transport.h"
#include "../core/band.h"

typedef struct pw_band_link pw_band_link;

/* Start the link of comm's rank for a band of `rows` rows and `sweeps` sweeps; the band it hands
 * to the app (*band: col0, cols, total_cols as given) attaches the app's storage to it.
 * watchdog_ns: a wait for a neighbour's chunk that sees nothing new for this long fails.  gpu: the
 * engine is a GPU's (larger chunks by default: pw_comm_set_chunk).  turn_prev / turn_next: the
 * ranks before and after this one on its device (pw_comm_set_turns; -1: none, and always for
 * in-place sweeps, whose bands wait on each other: dist_turns.c): the band's attach returns once
 * turn_prev's engine has stopped, and turn_next hears when this one's has. */
pw_status pw_band_link_start(pw_comm *comm, int64_t rows, int64_t sweeps, int64_t watchdog_ns, int gpu, int turn_prev,
                             int turn_next, int64_t col0, int64_t cols, int64_t total_cols, pw_band *band, pw_band_link **link);

/* When this rank's engine could start (its attach returned: after its turn) and when it stopped
 * (its detach), pw_now_ns (0: never); before pw_band_link_finish.  Across the ranks, the latest
 * stop less the earliest start is the run's span (dist_turns.h): with turns a band's own kernel
 * time is only its share. */
void pw_band_link_times(const pw_band_link *link, int64_t *began_ns, int64_t *ended_ns);

/* After the app returned `app_status`: a failure is told to the neighbours; then the link waits
 * for every chunk and both neighbours' last word, stops and frees itself.  Returns the link's
 * own failure (a neighbour gave up: *remote = 1; a wait timed out; a transport error), else
 * PW_OK; pw_error_detail says what happened. */
pw_status pw_band_link_finish(pw_band_link *link, pw_status app_status, int *remote);

#endif
