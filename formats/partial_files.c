/* partial_files.c - see partial_files.h.  The handler is installed when a partial file is
 * remembered, and only over a signal's default action (a program started with SIGINT
 * ignored keeps ignoring it; the CLI's own handlers, installed and restored around a computation,
 * chain back to this one).  It removes the remembered files (unlink is async-signal-safe), then
 * lets the signal end the process as it would have: exit status 128 + signal. */
#define _POSIX_C_SOURCE 200809L
#include "partial_files.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PARTIAL_SLOTS 64 /* outputs open at once: a batch writes one a job thread */
#define PARTIAL_PATH 4096

static char paths[PARTIAL_SLOTS][PARTIAL_PATH];
static atomic_int in_use[PARTIAL_SLOTS]; /* lock-free on every target here: safe in a handler */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static int next_slot;                      /* round robin: a slot just freed is not refilled at once
                                              (a handler reading it meanwhile would unlink a new name) */
static int installed[3];                   /* per signal below, tried again until installed */
static const int stops[3] = {SIGINT, SIGTERM, SIGHUP};

static void remove_partials_and_stop(int sig)
{
    for (int k = 0; k < PARTIAL_SLOTS; k++)
        if (atomic_load_explicit(&in_use[k], memory_order_acquire)) unlink(paths[k]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Over a default action only (not over a handler of the CLI's, nor an ignored signal). */
static void install_handlers(void)
{
    for (int k = 0; k < 3; k++) {
        struct sigaction old;
        if (installed[k] || sigaction(stops[k], NULL, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_partials_and_stop;
        sigemptyset(&sa.sa_mask);
        installed[k] = sigaction(stops[k], &sa, NULL) == 0;
    }
}

int io_partial_remember(const char *path)
{
    if (strlen(path) >= PARTIAL_PATH) return -1;
    pthread_mutex_lock(&slots_lock);
    install_handlers();
    int slot = -1;
    for (int n = 0; n < PARTIAL_SLOTS && slot < 0; n++) {
        const int k = (next_slot + n) % PARTIAL_SLOTS;
        if (!atomic_load_explicit(&in_use[k], memory_order_relaxed)) slot = k;
    }
    if (slot >= 0) {
        memcpy(paths[slot], path, strlen(path) + 1);
        /* (the path before the flag: a handler that sees the flag sees the whole path) */
        atomic_store_explicit(&in_use[slot], 1, memory_order_release);
        next_slot = (slot + 1) % PARTIAL_SLOTS;
    }
    pthread_mutex_unlock(&slots_lock);
    return slot;
}

void io_partial_forget(int slot)
{
    if (slot < 0 || slot >= PARTIAL_SLOTS) return;
    atomic_store_explicit(&in_use[slot], 0, memory_order_release);
}
