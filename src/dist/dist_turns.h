/*
 * dist_turns.h - turns (pw_comm_set_turns): which ranks share a device and in what order their
 * one-way bands run, and the run's span over the ranks (dist_turns.c).
 */
#ifndef PW_DIST_TURNS_H
#define PW_DIST_TURNS_H

#include <stdint.h>

#include "transport.h"

/* Collective, before every band run (every rank, whatever its status, so that a rank whose
 * pw_comm_set_turns differs fails every rank instead of leaving them in a collective of their
 * own).  With turns on and a one-way band (in_place 0): *prev and *next, the ranks before and
 * after this one on its device (-1: none).  Refused alike on every rank (PW_ERR_INVALID_ARGUMENT,
 * with a detail): ranks that disagree on turns, and layouts where a rank's round on its device
 * (how many ranks come before it there) is below its left neighbour's -- it would start a band
 * before the band it reads from and wait out its watchdog.  local: this rank's status so far (a
 * failed rank takes part with no device); backend, device: where its band runs.  The first
 * collective of a run: start_timeout_ns bounds the wait for the ranks (pw_dist_start_gather). */
pw_status pw_dist_turn_peers(pw_comm *comm, pw_status local, pw_backend backend, int device, int in_place,
                          int64_t start_timeout_ns, int *prev, int *next);

/* The run's span in seconds (collective, after a run that succeeded on every rank): the latest
 * engine's stop less the earliest one's start.  times: this rank's start and stop (monotonic
 * nanoseconds since a moment every rank shares closely: the end of pw_dist_agree), and whether it
 * has them (times[2] != 0). */
pw_status pw_dist_run_span(pw_comm *comm, const int64_t times[3], double *span_s);

#endif
