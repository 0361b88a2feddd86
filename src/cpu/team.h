/*
 * team.h - a team of CPU threads running one function, the calling thread included.
 *
 * Threads are created first and released together once the team size is known, so an engine
 * that needs every member (a barrier) can size itself to the threads that really exist when the
 * operating system refuses some of them.
 */
#ifndef PW_TEAM_H
#define PW_TEAM_H

#include <stdint.h>
#include "peerwave.h"

/* fn(arg, worker, team_size) runs once on each of up to `wanted` threads (worker 0 is the
 * calling thread).  If the system refuses some threads the team is simply smaller (at least the
 * calling thread): every engine is correct for any team size.  *team_size tells how many ran. */
typedef void (*pw_team_fn)(void *arg, int worker, int team_size);

void pw_team_run(int wanted, pw_team_fn fn, void *arg, int *team_size);

/* Monotonic clock in nanoseconds. */
int64_t pw_now_ns(void);

/* Back-off for spin waits: a few pause-spins, then yields, then short sleeps, so that waiting
 * threads give the core to the thread they wait for when threads outnumber cores. */
void pw_backoff(unsigned *round);
/* pw_backoff's rounds: PW_SPIN_ROUNDS spins, then 64 yields, then sleeps of 1 .. 128 us. */
#ifndef PW_SPIN_ROUNDS
#define PW_SPIN_ROUNDS 2048
#endif

#endif
