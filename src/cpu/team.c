/* team.c - thread team with a start gate; clock; spin back-off. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "team.h"
#include "../core/alloc.h"

typedef struct team {
    pw_team_fn fn;
    void *arg;
    int size;              /* final team size, valid once released */
    int released;
    pthread_mutex_t lock;
    pthread_cond_t gate;
} team;

typedef struct member {
    team *t;
    int worker;
} member;

static void *member_main(void *p)
{
    member *m = p;
    team *t = m->t;
    pthread_mutex_lock(&t->lock);
    while (!t->released) pthread_cond_wait(&t->gate, &t->lock);
    int size = t->size;
    pthread_mutex_unlock(&t->lock);
    t->fn(t->arg, m->worker, size);
    return NULL;
}

void pw_team_run(int wanted, pw_team_fn fn, void *arg, int *team_size)
{
    if (wanted < 1) wanted = 1;
    team t = {fn, arg, 1, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    pthread_t *ids = NULL;
    member *members = NULL;
    int started = 0;
    if (wanted > 1) {
        ids = pw_malloc(sizeof *ids * (size_t)(wanted - 1));
        members = pw_malloc(sizeof *members * (size_t)(wanted - 1));
        if (!ids || !members) {
            free(ids);
            free(members);
            ids = NULL;
            members = NULL;
        } else {
            for (int k = 0; k < wanted - 1; k++) {
                members[k].t = &t;
                members[k].worker = k + 1;
                if (pthread_create(&ids[k], NULL, member_main, &members[k]) != 0) break;
                started++;
            }
        }
    }
    pthread_mutex_lock(&t.lock);
    t.size = started + 1;
    t.released = 1;
    pthread_cond_broadcast(&t.gate);
    pthread_mutex_unlock(&t.lock);
    fn(arg, 0, started + 1);
    for (int k = 0; k < started; k++) pthread_join(ids[k], NULL);
    free(ids);
    free(members);
    if (team_size) *team_size = started + 1;
}

int64_t pw_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin first (a vector tile takes tens of microseconds, and a sleep costs the timer's slack, about
 * 50 us on Linux, at every hand-over: bench_cpu_* on 16 cores), then yield (threads beyond the
 * cores: CI runs 8 on 2), then sleep. */
void pw_backoff(unsigned *round)
{
    unsigned r = (*round)++;
    if (r < PW_SPIN_ROUNDS) {
        cpu_relax();
    } else if (r < PW_SPIN_ROUNDS + 64) {
        sched_yield();
    } else {
        unsigned k = (r - PW_SPIN_ROUNDS - 64) / 16;
        long ns = 1000L << (k > 7 ? 7 : k); /* 1 us .. 128 us */
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
    }
}
