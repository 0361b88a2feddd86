/* partial_files.c - see partial_files.h.  The handler is installed once, the first time a partial
 * file is remembered, and only over a signal's default action (a program started with SIGINT
 * ignored keeps ignoring it; the CLI's own handlers, installed and restored around a computation,
 * chain back to this one).  It removes the remembered files (unlink is async-signal-safe), then
 * lets the signal end the process as it would have: exit status 128 + signal. */
#define _POSIX_C_SOURCE 200809L
#include "partial_files.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PARTIAL_SLOTS 64 /* outputs open at once: a batch writes one a job thread */
#define PARTIAL_PATH 4096

static char paths[PARTIAL_SLOTS][PARTIAL_PATH];
static volatile sig_atomic_t in_use[PARTIAL_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static int handlers_installed;

static void remove_partials_and_stop(int sig)
{
    for (int k = 0; k < PARTIAL_SLOTS; k++)
        if (in_use[k]) unlink(paths[k]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof stops / sizeof *stops; k++) {
        struct sigaction old;
        if (sigaction(stops[k], NULL, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_partials_and_stop;
        sigemptyset(&sa.sa_mask);
        sigaction(stops[k], &sa, NULL);
    }
}

int io_partial_remember(const char *path)
{
    if (strlen(path) >= PARTIAL_PATH) return -1;
    pthread_mutex_lock(&slots_lock);
    if (!handlers_installed) {
        install_handlers();
        handlers_installed = 1;
    }
    int slot = -1;
    for (int k = 0; k < PARTIAL_SLOTS && slot < 0; k++)
        if (!in_use[k]) slot = k;
    if (slot >= 0) {
        memcpy(paths[slot], path, strlen(path) + 1);
        in_use[slot] = 1; /* (after the path: a signal between the two sees the slot free) */
    }
    pthread_mutex_unlock(&slots_lock);
    return slot;
}

void io_partial_forget(int slot)
{
    if (slot < 0 || slot >= PARTIAL_SLOTS) return;
    pthread_mutex_lock(&slots_lock);
    in_use[slot] = 0;
    pthread_mutex_unlock(&slots_lock);
}
