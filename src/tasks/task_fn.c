/*
 * task_fn.c - task functions compiled at run time (peerwave_tasks.h: pw_task_fn, pw_tasks_run_fn):
 * the API, the checks, and the CPU runner (the text after include/peerwave_task_cell.h, compiled
 * by the system C compiler through the user cells' builder, src/jit/cell_host.h, run as the tasks
 * of the CPU task engine).  The GPU runner is src/cuda/task_fn_gpu.cu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_task_cell.h"
#include "task_fn.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../jit/cell_host.h"

/* Bump when the entry point below changes: cached objects then stop matching. */
#define TASK_GLUE_VERSION "task-glue-1"

static char *copy_text(const char *s)
{
    char *c = pw_malloc(strlen(s) + 1);
    if (c) strcpy(c, s);
    return c;
}

void pw_task_fn_keep_log(pw_task_fn *fn, char *log)
{
    free(fn->log);
    fn->log = log ? log : copy_text("");
}

pw_status pw_task_fn_create(const char *text, const char *name, pw_task_fn **out)
{
    if (!text || !out) return PW_ERR_NULL_ARGUMENT;
    *out = NULL;
    if (!strstr(text, "pw_task")) { /* (the compilers say the rest) */
        pw_set_error_detail("%s: no pw_task function (PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned))",
                            name ? name : "task");
        return PW_ERR_BAD_INPUT;
    }
    pw_task_fn *fn = pw_calloc(1, sizeof *fn);
    if (!fn) return PW_ERR_OUT_OF_MEMORY;
    fn->fd = -1;
    fn->text = copy_text(text);
    fn->name = copy_text(name ? name : "task.c");
    /* the name goes into #line "...": no quote, backslash or line break there */
    for (char *c = fn->name; c && *c; c++)
        if (*c == '"' || *c == '\\' || *c == '\n' || *c == '\r') *c = '_';
    fn->log = copy_text("");
    if (!fn->text || !fn->name || !fn->log) {
        pw_task_fn_free(fn);
        return PW_ERR_OUT_OF_MEMORY;
    }
    *out = fn;
    return PW_OK;
}

void pw_task_fn_free(pw_task_fn *fn)
{
    if (!fn) return;
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    pw_task_fn_gpu_free(fn);
#endif
    pw_host_object_close(fn->handle, fn->fd);
    free(fn->text), free(fn->name), free(fn->log);
    free(fn);
}

const char *pw_task_fn_log(const pw_task_fn *fn) { return fn && fn->log ? fn->log : ""; }

/* The CPU build: the text between the header and an exported entry point. */
static pw_status build_cpu(pw_task_fn *fn)
{
    if (fn->host_task) return PW_OK;
    const char *prelude = pw_host_embedded("include/peerwave_task_cell.h");
    if (!prelude) return PW_ERR_UNSUPPORTED;
    char line[4200];
    snprintf(line, sizeof line, "\n#line 1 \"%s\"\n", fn->name); /* messages point into the user's file */
    const char *entry = "\nvoid pw_host_task(void *t, int64_t task, int spawned) { pw_task((pw_task_ctx *)t, task, spawned); }\n";
    const char *parts[] = {prelude, line, fn->text, entry};
    char *log = NULL, note[256] = "";
    int compiled = 0;
    pw_status st = pw_host_object_build(parts, 4, TASK_GLUE_VERSION, &fn->handle, &fn->fd, &log, &compiled, note, sizeof note);
    if (log || compiled) pw_task_fn_keep_log(fn, log);
    if (st == PW_OK) {
        *(void **)&fn->host_task = pw_host_object_symbol(fn->handle, "pw_host_task");
        if (!fn->host_task) {
            pw_set_error_detail("the compiled task function lacks its entry point");
            st = PW_ERR_COMPILE;
        }
    }
    if (st != PW_OK) {
        pw_host_object_close(fn->handle, fn->fd);
        fn->handle = NULL, fn->fd = -1, fn->host_task = NULL;
    }
    return st;
}

typedef struct cpu_run {
    pw_task_fn *fn;
    const pw_task_data *data;
} cpu_run;

typedef struct spawner {
    pw_task_run *run;
    int worker;
} spawner;

static int spawn(void *engine, int64_t payload)
{
    const spawner *s = engine;
    return pw_tasks_spawn(s->run, s->worker, payload) == PW_OK ? 0 : -1;
}

static int run_task(void *ctx, pw_task_run *run, int64_t task, int spawned, int worker)
{
    const cpu_run *r = ctx;
    spawner s = {run, worker};
    pw_task_ctx t = {r->data->buffers, r->data->ints, r->data->reals, spawn, &s};
    r->fn->host_task(&t, task, spawned);
    return 0;
}

static pw_status check_data(const pw_task_data *d)
{
    if (d->n_buffers < 0 || d->n_ints < 0 || d->n_reals < 0 || d->spawn_bound < 0) return PW_ERR_INVALID_ARGUMENT;
    if ((d->n_buffers && (!d->buffers || !d->bytes)) || (d->n_ints && !d->ints) || (d->n_reals && !d->reals))
        return PW_ERR_NULL_ARGUMENT;
    for (int k = 0; k < d->n_buffers; k++)
        if (!d->buffers[k] && d->bytes[k]) {
            pw_set_error_detail("buffer %d: no data for its %zu bytes", k, d->bytes[k]);
            return PW_ERR_NULL_ARGUMENT;
        }
    return PW_OK;
}

pw_status pw_tasks_run_fn(const pw_task_graph *g, pw_task_fn *fn, const pw_task_data *data, pw_task_queues queues,
                          const pw_options *options, pw_task_stats *stats)
{
    if (!g || !fn || !data) return PW_ERR_NULL_ARGUMENT;
    if ((unsigned)queues > PW_TASKS_CENTRAL) return PW_ERR_INVALID_ARGUMENT;
    pw_status st = check_data(data);
    if (st != PW_OK) return st;
    pw_options o = pw_options_or_defaults(options);
    if ((st = pw_options_check(&o)) != PW_OK) return st;
    /* the graph's counters against its successors, and no cycle: before any compiling */
    pw_task_graph checked = *g;
    checked.run = run_task;
    if ((st = pw_tasks_check(&checked)) != PW_OK) return st;
    pw_backend backend;
    if ((st = pw_backend_resolve(&o, &backend)) != PW_OK) return st;
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    if (backend == PW_BACKEND_CUDA) return pw_task_fn_run_gpu(g, fn, data, queues, &o, stats);
#else
    if (o.backend == PW_BACKEND_CUDA) {
        pw_set_error_detail("task functions on the GPU need NVRTC, which this build lacks");
        return PW_ERR_UNSUPPORTED;
    }
#endif
    if ((st = build_cpu(fn)) != PW_OK) return st;
    cpu_run r = {fn, data};
    pw_task_graph tg = *g;
    tg.run = run_task;
    tg.ctx = &r;
    pw_task_options to = {o.threads, queues, o.watchdog_ms * 1000000, 0};
    return pw_tasks_run(&tg, &to, stats);
}
