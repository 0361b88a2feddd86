/* rtc.c - NVRTC over the embedded device headers (rtc.h). */
#include "rtc.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/status_detail.h"
#include "device_sources.h"

int pw_rtc_version(void)
{
    int major = 0, minor = 0;
    return nvrtcVersion(&major, &minor) == NVRTC_SUCCESS ? major * 1000 + minor * 10 : 0;
}

void pw_rtc_image_free(pw_rtc_image *image)
{
    if (!image) return;
    free(image->code);
    for (int k = 0; k < image->n_lowered; k++) free(image->lowered[k]);
    free(image->lowered);
    free(image->log);
    memset(image, 0, sizeof *image);
}

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* NVRTC's failures other than a compile error: out of memory, or a misuse of ours. */
static pw_status from_nvrtc(nvrtcResult r)
{
    if (r == NVRTC_SUCCESS) return PW_OK;
    pw_set_error_detail("NVRTC: %s", nvrtcGetErrorString(r));
    return r == NVRTC_ERROR_OUT_OF_MEMORY ? PW_ERR_OUT_OF_MEMORY : PW_ERR_COMPILE;
}

static pw_status take_log(nvrtcProgram prog, pw_rtc_image *out)
{
    size_t n = 0;
    pw_status st = from_nvrtc(nvrtcGetProgramLogSize(prog, &n));
    if (st != PW_OK) return st;
    out->log = malloc(n + 1);
    if (!out->log) return PW_ERR_OUT_OF_MEMORY;
    out->log[0] = 0;
    return n ? from_nvrtc(nvrtcGetProgramLog(prog, out->log)) : PW_OK;
}

static pw_status take_code(nvrtcProgram prog, pw_rtc_image *out)
{
    pw_status st = out->is_cubin ? from_nvrtc(nvrtcGetCUBINSize(prog, &out->size)) : from_nvrtc(nvrtcGetPTXSize(prog, &out->size));
    if (st != PW_OK) return st;
    out->code = malloc(out->size ? out->size : 1);
    if (!out->code) return PW_ERR_OUT_OF_MEMORY;
    return out->is_cubin ? from_nvrtc(nvrtcGetCUBIN(prog, out->code)) : from_nvrtc(nvrtcGetPTX(prog, out->code));
}

static pw_status take_names(nvrtcProgram prog, const char *const *name_exprs, int n_names, pw_rtc_image *out)
{
    out->lowered = calloc((size_t)(n_names ? n_names : 1), sizeof *out->lowered);
    if (!out->lowered) return PW_ERR_OUT_OF_MEMORY;
    for (int k = 0; k < n_names; k++) {
        const char *lowered = NULL;
        pw_status st = from_nvrtc(nvrtcGetLoweredName(prog, name_exprs[k], &lowered));
        if (st != PW_OK) return st;
        out->lowered[k] = copy_text(lowered);
        if (!out->lowered[k]) return PW_ERR_OUT_OF_MEMORY;
        out->n_lowered = k + 1;
    }
    return PW_OK;
}

pw_status pw_rtc_compile(const char *source, const char *program_name, const char *target, const char *const *name_exprs,
                         int n_names, pw_rtc_image *out)
{
    if (!out) return PW_ERR_NULL_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!source || !target || (n_names > 0 && !name_exprs)) return PW_ERR_NULL_ARGUMENT;
    if (n_names < 0 || (strncmp(target, "sm_", 3) && strncmp(target, "compute_", 8))) return PW_ERR_INVALID_ARGUMENT;
    /* from here on every failure keeps a log, "" where the compiler said nothing */
    const int n = pw_device_source_count;
    const char **texts = malloc(sizeof *texts * (size_t)n), **names = malloc(sizeof *names * (size_t)n);
    char arch[64];
    if (snprintf(arch, sizeof arch, "--gpu-architecture=%s", target) >= (int)sizeof arch) return PW_ERR_INVALID_ARGUMENT;
    /* the options of the library's own kernels (src/cuda/CMakeLists.txt): C++17, and no fused
     * multiply-add, for floats bit-identical with the CPU engines */
    const char *options[] = {arch, "--std=c++17", "--fmad=false"};
    nvrtcProgram prog = NULL;
    pw_status st = texts && names ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    for (int k = 0; st == PW_OK && k < n; k++) {
        texts[k] = pw_device_sources[k].text;
        names[k] = pw_device_sources[k].name;
    }
    if (st == PW_OK) st = from_nvrtc(nvrtcCreateProgram(&prog, source, program_name ? program_name : "pw_kernel.cu", n, texts, names));
    for (int k = 0; st == PW_OK && k < n_names; k++) st = from_nvrtc(nvrtcAddNameExpression(prog, name_exprs[k]));
    if (st == PW_OK) {
        out->is_cubin = !strncmp(target, "sm_", 3);
        const nvrtcResult r = nvrtcCompileProgram(prog, (int)(sizeof options / sizeof *options), options);
        st = take_log(prog, out);
        if (st != PW_OK && r == NVRTC_ERROR_COMPILATION) st = PW_ERR_COMPILE; /* the log is lost, not the verdict */
        else if (st == PW_OK && r != NVRTC_SUCCESS) {
            /* the log's first error line, for pw_error_detail; the whole log stays in out->log */
            pw_set_error_from_log(out->log, "NVRTC failed without a message");
            st = r == NVRTC_ERROR_COMPILATION ? PW_ERR_COMPILE : from_nvrtc(r);
        }
    }
    if (st == PW_OK) st = take_code(prog, out);
    if (st == PW_OK) st = take_names(prog, name_exprs, n_names, out);
    if (prog) nvrtcDestroyProgram(&prog);
    free(texts);
    free(names);
    if (st != PW_OK) { /* keep the log ("" when there is none), drop the rest */
        char *log = out->log ? out->log : copy_text("");
        out->log = NULL;
        pw_rtc_image_free(out);
        out->log = log;
    }
    return st;
}
