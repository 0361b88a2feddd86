/* generic.c - pw_run(): user recurrences given as callbacks, on the CPU engines; and one band of
 * columns of a distributed run of one (pw_run_band, band_apps.h). */
#include <string.h>

#include "band_apps.h"
#include "../src/core/exec.h"
#include "../src/core/linear_buffers.h"
#include "../src/core/status_detail.h"

/* Full storage: the user's row callback is the segment. */
static void full_segment(void *vctx, int64_t i, int64_t j_begin, int64_t j_end, int worker)
{
    (void)worker;
    const pw_problem *p = vctx;
    p->row(p->user, i, j_begin, j_end);
}

#define GL_BYTES 8
#include "generic_linear.h"
#define GL_BYTES 16
#include "generic_linear.h"
#define GL_BYTES 32
#include "generic_linear.h"
#define GL_BYTES 64
#include "generic_linear.h"

pw_status pw_run(const pw_problem *p, const pw_options *options, pw_run_info *info)
{
    return pw_run_band(p, options, NULL, info);
}

pw_status pw_run_band(const pw_problem *p, const pw_options *options, const pw_band *band, pw_run_info *info)
{
    if (!p) return PW_ERR_NULL_ARGUMENT;
    if (p->rows < 1 || p->cols < 1) return PW_ERR_INVALID_SIZE;
    /* Callbacks are host code: the CPU backend runs them (AUTO means CPU here). */
    pw_options cpu;
    if (options) cpu = *options;
    else pw_options_init(&cpu);
    pw_status checked = pw_options_check(&cpu); /* (before the backend is set to the CPU's below) */
    if (checked != PW_OK) return checked;
    if (cpu.backend == PW_BACKEND_CUDA) return PW_ERR_UNSUPPORTED;
    cpu.backend = PW_BACKEND_CPU;
    options = &cpu;
    int skew = 0;
    pw_status st;
    if (p->storage == PW_STORAGE_FULL) {
        if (!p->row) return PW_ERR_NULL_ARGUMENT;
        st = pw_deps_skew(p->deps, p->n_deps, &skew);
        if (st != PW_OK) return st;
    } else if (p->storage == PW_STORAGE_LINEAR) {
        if (!p->cell || !p->boundary) return PW_ERR_NULL_ARGUMENT;
        if (p->cell_size < 1 || p->cell_size > PW_MAX_CELL_SIZE) return PW_ERR_INVALID_ARGUMENT;
    } else {
        return PW_ERR_INVALID_ARGUMENT;
    }
    pw_plan plan;
    st = pw_plan_make(options, p->rows, p->cols, skew, &plan);
    if (st != PW_OK) return st;
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
    if (p->storage == PW_STORAGE_FULL) {
        if (band) {
            pw_set_error_detail("a distributed run of a user recurrence needs linear storage (the band's edge is "
                                "its last column of cells)");
            return PW_ERR_UNSUPPORTED;
        }
        pw_kernel kernel = {.segment = full_segment, .ctx = (void *)p};
        return pw_execute(&plan, &kernel, info);
    }
    if (p->cell_size <= 8) return gl_run_8(p, &plan, band, info);
    if (p->cell_size <= 16) return gl_run_16(p, &plan, band, info);
    if (p->cell_size <= 32) return gl_run_32(p, &plan, band, info);
    return gl_run_64(p, &plan, band, info);
}
