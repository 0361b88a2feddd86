/* align_pool.c - independent pieces of a search solved on a pool of threads (align_internal.h). */
#include <pthread.h>
#include <stdlib.h>

#include "align_internal.h"

typedef struct pool {
    char *items;
    size_t size;
    int64_t count, next;
    void (*fn)(void *item);
    pthread_mutex_t lock;
} pool;

static void *pool_worker(void *p)
{
    pool *x = p;
    for (;;) {
        pthread_mutex_lock(&x->lock);
        int64_t k = x->next++;
        pthread_mutex_unlock(&x->lock);
        if (k >= x->count) return NULL;
        x->fn(x->items + (size_t)k * x->size);
    }
}

int pw_align_pool_run(void *items, size_t size, int64_t count, int threads, void (*fn)(void *item))
{
    pool x = {items, size, count, 0, fn, PTHREAD_MUTEX_INITIALIZER};
    int workers = threads < count ? threads : (int)count;
    pthread_t *t = malloc(sizeof *t * (size_t)(workers > 1 ? workers - 1 : 1));
    int started = 0;
    for (int k = 1; t && k < workers; k++)
        if (pthread_create(&t[started], NULL, pool_worker, &x) == 0) started++;
    pool_worker(&x);
    for (int k = 0; k < started; k++) pthread_join(t[k], NULL);
    free(t);
    pthread_mutex_destroy(&x.lock);
    return workers > 0 ? workers : 1;
}
