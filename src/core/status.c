/* status.c - status strings, the per-thread failure detail and the version string. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "peerwave.h"
#include "status_detail.h"

/* Per thread, like errno: the only state the library keeps between calls. */
static _Thread_local char error_detail[256];

const char *pw_error_detail(void) { return error_detail; }

void pw_clear_error_detail(void) { error_detail[0] = '\0'; }

void pw_set_error_detail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_detail, sizeof error_detail, fmt, ap);
    va_end(ap);
}

void pw_set_cell_missing_detail(const char *name, int len)
{
    pw_set_error_detail("the cell uses %.*s but does not define it (each form's functions: docs/EXTENDING.md)", len, name);
}

void pw_name_cell_missing_detail(const char *name)
{
    static const char prefix[] = "the cell uses ";
    if (!name || strncmp(error_detail, prefix, sizeof prefix - 1) != 0) return;
    char detail[sizeof error_detail];
    snprintf(detail, sizeof detail, "%s", error_detail);
    pw_set_error_detail("%s: %s", name, detail);
}

void pw_set_error_from_log(const char *log, const char *fallback)
{
    const char *hit = log ? strstr(log, "error") : NULL;
    const char *start = hit ? hit : log;
    if (!start || !start[0]) {
        pw_set_error_detail("%s", fallback);
        return;
    }
    while (start > log && start[-1] != '\n') start--;
    const int len = (int)strcspn(start, "\n");
    /* NVRTC on the generated entry points: 'identifier "pw_boundary" is undefined' is a function of
     * the form the user's cell does not define (the host's loader says it as "undefined symbol") */
    const char *ident = !strncmp(start, PW_GPU_ENTRY_POINTS_FILE, strlen(PW_GPU_ENTRY_POINTS_FILE))
                            ? strstr(start, "identifier \"pw_") : NULL;
    const char *undefined = ident ? strstr(ident, "\" is undefined") : NULL;
    if (undefined && undefined < start + len) {
        ident += strlen("identifier \"");
        pw_set_cell_missing_detail(ident, (int)strcspn(ident, "\""));
        return;
    }
    /* An error inside text the library generated ("<peerwave: host entry points>": an entry
     * point calling the user's pw_cell with the form's arguments) is the user's mistake, a
     * wrong signature say; the compiler's note that points into the user's file says where. */
    const char *note = start[0] == '<' ? strstr(start, ": note:") : NULL;
    while (note && note > start) {
        const char *line = note;
        while (line > log && line[-1] != '\n') line--;
        if (line[0] != '<' && line[0] != ' ') {
            pw_set_error_detail("%.*s (%.*s)", len, start, (int)strcspn(line, "\n"), line);
            return;
        }
        note = strstr(note + 1, ": note:");
    }
    pw_set_error_detail("%.*s", len, start);
}

#define PW_STR2(x) #x
#define PW_STR(x) PW_STR2(x)

const char *pw_version(void)
{
    return PW_STR(PW_VERSION_MAJOR) "." PW_STR(PW_VERSION_MINOR) "." PW_STR(PW_VERSION_PATCH);
}

/* PW_BUILD_CUDA: "VERSION (ARCHITECTURES)", set by CMake for this file when the CUDA part is
 * built; PW_HAVE_NVRTC, PW_HAVE_NCCL and PW_HAVE_MPI as the library was compiled. */
const char *pw_build_info(void)
{
    return
#ifdef PW_BUILD_CUDA
        "CUDA " PW_BUILD_CUDA ", "
#else
        "no CUDA (CPU threads only), "
#endif
#ifdef PW_HAVE_NVRTC
        "NVRTC, "
#else
        "no NVRTC, "
#endif
#ifdef PW_HAVE_NCCL
        "NCCL, "
#else
        "no NCCL, "
#endif
#ifdef PW_HAVE_MPI
        "MPI";
#else
        "no MPI";
#endif
}

const char *pw_status_str(pw_status status)
{
    switch (status) {
    case PW_OK: return "success";
    case PW_ERR_NULL_ARGUMENT: return "a required pointer argument is NULL";
    case PW_ERR_INVALID_ARGUMENT: return "an option or parameter is out of range";
    case PW_ERR_INVALID_SIZE: return "a size is out of range (zero, negative, or too small for the request)";
    case PW_ERR_SIZE_OVERFLOW: return "the cell or byte count overflows 64 bits";
    case PW_ERR_ILLEGAL_DEPENDENCE:
        return "illegal dependence vector (must be lexicographically positive: di > 0, or di == 0 and dj > 0)";
    case PW_ERR_INVALID_TILE: return "tile height or width out of range";
    case PW_ERR_UNSUPPORTED: return "not supported (by this build, this backend or with these parameters)";
    case PW_ERR_NO_DEVICE: return "no usable CUDA device";
    case PW_ERR_OUT_OF_MEMORY: return "out of memory";
    case PW_ERR_OVERFLOW: return "the result would overflow its type";
    case PW_ERR_BAD_INPUT: return "malformed input data";
    case PW_ERR_THREAD: return "could not create a thread";
    case PW_ERR_TIMEOUT: return "a synchronisation wait timed out (watchdog)";
    case PW_ERR_CUDA: return "a CUDA call failed";
    case PW_ERR_COMPILE: return "run-time compilation of a cell failed (the C compiler on the CPU, NVRTC on the GPU)";
    case PW_ERR_CANCELLED: return "cancelled (by the progress hook or the cancel flag)";
    case PW_ERR_INTERNAL: return "internal consistency check failed (a bug in the library)";
    case PW_STATUS_COUNT: break;
    }
    return "unknown status code";
}
