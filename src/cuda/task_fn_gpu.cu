/*
 * task_fn_gpu.cu - task functions on the GPU task engine (peerwave_tasks.h: pw_tasks_run_fn).
 * The text, after device/task_queue.cuh and include/peerwave_task_cell.h, is compiled by NVRTC
 * with a body that calls it for each task, every thread of a worker block (rtc_module.h: cached
 * on disk, loaded once per device); the buffers go to the device, the graph and its ready tasks
 * onto the queues (task_host.h), the kernel runs, the buffers come back.
 */
#include <string.h>
#include <new>
#include <string>
#include <vector>

#include "../core/status_detail.h"
#include "../jit/rtc.h"
#include "../tasks/task_fn.h"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "rtc_module.h"
#include "task_host.h"

/* Bump when the generated body changes: cached modules then stop matching. */
#define TASK_FN_GLUE_VERSION "task-fn-gpu-1"
#define TASK_FN_THREADS 256

struct task_modules {
    std::vector<pw_rtc_module> loaded;
};

/* What every block's body holds (the program's pw_user_task_body has this layout). */
struct task_fn_args {
    void *const *buffers;
    const int64_t *ints;
    const double *reals;
};

static std::string program(const pw_task_fn *fn)
{
    std::string s = "#include \"src/cuda/device/task_queue.cuh\"\n#include \"include/peerwave_task_cell.h\"\n";
    s += "#line 1 \"" + std::string(fn->name) + "\"\n";
    s += fn->text;
    s += "\nstruct pw_user_task_body {\n"
         "    void *const *buffers;\n"
         "    const int64_t *ints;\n"
         "    const double *reals;\n"
         "    __device__ bool run(const pw_task_state &s, int home, long long task, bool spawned, unsigned char *) const\n"
         "    {\n"
         "        pw_task_ctx t = {buffers, ints, reals, &s, home};\n"
         "        pw_task(&t, (int64_t)task, spawned ? 1 : 0);\n"
         "        return true;\n"
         "    }\n"
         "};\n"
         "__global__ void __launch_bounds__(" +
         std::to_string(TASK_FN_THREADS) +
         ") pw_user_task_kernel(pw_user_task_body body, pw_task_state s) { pw_task_worker(body, s, (unsigned char *)0); }\n";
    return s;
}

static pw_status module_for(pw_task_fn *fn, int device, pw_rtc_module **out)
try {
    task_modules *mods = (task_modules *)fn->gpu;
    if (!mods) fn->gpu = mods = new task_modules();
    const std::string src = program(fn);
    std::string key;
    char target[32];
    pw_status st = pw_rtc_module_key(src, TASK_FN_GLUE_VERSION, device, &key, target);
    if (st != PW_OK) return st;
    for (pw_rtc_module &m : mods->loaded)
        if (m.key == key && m.device == device) {
            *out = &m;
            return PW_OK;
        }
    pw_rtc_module m;
    m.key = key;
    m.device = device;
    char *log = NULL, note[256] = "";
    int compiled = 0;
    st = pw_rtc_module_load(src, fn->name, target, {"pw_user_task_kernel"}, &m, &log, &compiled, note, sizeof note);
    if (log || compiled) pw_task_fn_keep_log(fn, log);
    if (st != PW_OK) return st;
    mods->loaded.push_back(m);
    *out = &mods->loaded.back();
    return PW_OK;
} catch (const std::bad_alloc &) {
    return PW_ERR_OUT_OF_MEMORY;
}

pw_status pw_task_fn_compile_gpu(pw_task_fn *fn, const char *target)
try {
    const std::string src = program(fn);
    const char *names[] = {"pw_user_task_kernel"};
    pw_rtc_image img;
    memset(&img, 0, sizeof img);
    pw_status st = pw_rtc_compile(src.c_str(), fn->name, target, names, 1, &img);
    pw_task_fn_keep_log(fn, img.log);
    img.log = NULL;
    if (st == PW_OK && (img.size == 0 || img.n_lowered != 1)) st = PW_ERR_COMPILE;
    pw_rtc_image_free(&img);
    return st;
} catch (const std::bad_alloc &) {
    return PW_ERR_OUT_OF_MEMORY;
}

void pw_task_fn_gpu_free(pw_task_fn *fn)
{
    task_modules *mods = (task_modules *)fn->gpu;
    if (!mods) return;
    for (pw_rtc_module &m : mods->loaded) pw_rtc_module_unload(&m);
    delete mods;
    fn->gpu = NULL;
}

pw_status pw_task_fn_run_gpu(const pw_task_graph *g, pw_task_fn *fn, const pw_task_data *d, pw_task_queues queues,
                             const pw_options *o, pw_task_stats *stats)
{
    pw_status st = pw_from_cuda(cudaSetDevice(o->device));
    pw_rtc_module *m = NULL;
    PW_THEN(st, module_for(fn, o->device, &m));
    if (st != PW_OK) return st;
    cudaStream_t s = NULL;
    std::vector<void *> dev;
    try {
        dev.assign((size_t)d->n_buffers, nullptr);
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
    char *params = NULL; /* the buffers' device pointers, the ints, the reals */
    int *error = NULL, host_error = 0;
    pw_gpu_tasks tasks = {};
    const size_t at_ints = sizeof(void *) * (size_t)d->n_buffers, at_reals = at_ints + sizeof(int64_t) * (size_t)d->n_ints,
                 at_error = at_reals + sizeof(double) * (size_t)d->n_reals;
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)));
    for (int k = 0; st == PW_OK && k < d->n_buffers; k++) {
        st = pw_from_cuda(pw_cuda_malloc(&dev[k], d->bytes[k], s));
        if (st == PW_OK && d->bytes[k])
            st = pw_from_cuda(cudaMemcpyAsync(dev[k], d->buffers[k], d->bytes[k], cudaMemcpyHostToDevice, s));
    }
    PW_THEN(st, pw_from_cuda(pw_cuda_malloc((void **)&params, at_error + sizeof(int), s)));
    if (st == PW_OK) {
        error = (int *)(params + at_error);
        if (d->n_buffers) st = pw_from_cuda(cudaMemcpyAsync(params, dev.data(), at_ints, cudaMemcpyHostToDevice, s));
        if (d->n_ints) PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(params + at_ints, d->ints, at_reals - at_ints, cudaMemcpyHostToDevice, s)));
        if (d->n_reals) PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(params + at_reals, d->reals, at_error - at_reals, cudaMemcpyHostToDevice, s)));
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(error, 0, sizeof(int), s)));
    }
    const pw_gpu_task_graph graph = {g->count, g->deps, g->succ_at, g->succ};
    const long long bound = d->spawn_bound ? d->spawn_bound : 65536;
    const long long ready = bound > ((long long)1 << 40) - g->count ? (long long)1 << 40 : g->count + bound; /* (task_host refuses it) */
    const long long watchdog_ns = o->watchdog_ms > 0 ? o->watchdog_ms * 1000000LL : 10000000000LL;
    PW_THEN(st, pw_gpu_tasks_open(&tasks, o->device, queues == PW_TASKS_CENTRAL, ready, &graph, 0, error, watchdog_ns, s));
    int sms = 0, per_sm = 0;
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, o->device)));
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)m->kernels[0], TASK_FN_THREADS, 0)));
    if (st == PW_OK) {
        long long blocks = (long long)sms * per_sm;
        if (o->max_blocks > 0 && blocks > o->max_blocks) blocks = o->max_blocks;
        if (blocks < 1) blocks = 1;
        task_fn_args body = {(void *const *)params, (const int64_t *)(params + at_ints), (const double *)(params + at_reals)};
        void *args[] = {&body, &tasks.s};
        st = pw_from_cuda(cudaLaunchKernel((const void *)m->kernels[0], dim3((unsigned)blocks), dim3(TASK_FN_THREADS), args, 0, s));
        long long finished = 0, steals = 0;
        PW_THEN(st, pw_gpu_tasks_counts(&tasks, &finished, &steals)); /* (synchronises) */
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(&host_error, error, sizeof host_error, cudaMemcpyDeviceToHost, s)));
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(s)));
        PW_THEN(st, pw_gpu_tasks_status(host_error));
        if (stats) {
            memset(stats, 0, sizeof *stats);
            stats->executed = finished, stats->steals = steals, stats->workers = (int)blocks;
        }
    }
    for (int k = 0; st == PW_OK && k < d->n_buffers; k++)
        if (d->bytes[k]) st = pw_from_cuda(cudaMemcpyAsync(d->buffers[k], dev[k], d->bytes[k], cudaMemcpyDeviceToHost, s));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(s)));
    pw_gpu_tasks_close(&tasks);
    for (void *p : dev) pw_cuda_free(p, s);
    pw_cuda_free(params, s);
    if (s) {
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
    }
    return st;
}
