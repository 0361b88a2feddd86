/*
 * cell_host.h - a user cell built for the CPU engines: the cell text, after peerwave_cell.h and
 * its generated types, compiled by the system C compiler ($CC, else cc) into a shared object
 * with a few plain entry points, cached (cell_cache.h) and loaded.  No shell is involved: the
 * compiler is started with posix_spawnp and a fixed argument list.
 */
#ifndef PW_CELL_HOST_H
#define PW_CELL_HOST_H

#include "cell_decl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_cell_host {
    void *handle; /* dlopen's */
    int fd;       /* the memory file it was loaded from */
    /* linear form */
    void (*boundary)(const void *ctx, int64_t i, int64_t j, void *out);
    void (*cell)(const void *ctx, int64_t i, int64_t j, const void *up, const void *left, const void *diag,
                 void *out);
    int (*greater)(const void *a, const void *b); /* PW_REDUCE: key(a) > key(b) */
    void (*lowest)(void *out);                    /* a value whose key is the type's lowest */
    /* grid form: cells (i, j0) .. (i, j1 - 1) in place, left to right */
    void (*row)(const void *ctx, int64_t i, int64_t j0, int64_t j1);
    /* grid3: row, and *far set (relaxed, atomic) when the cell read a point more than its halo
     * downwind of its own (sweeps pipelined: cell_cpu.c) */
    void (*row_watch)(const void *ctx, int64_t i, int64_t j0, int64_t j1, unsigned *far);
    /* grid forms, built checked: 1 and the first point read outside the grid and its halo since
     * the last call (which forgets it), else 0 */
    int (*outside)(int64_t at[3]);
} pw_cell_host;

/* Build (or find in the cache) and load the cell; checked: pw_at and pw_at3 check every read
 * (grid forms: the sequential reference's build, cell_cpu.c).  PW_ERR_COMPILE with the compiler's first
 * error in pw_error_detail() and its whole output in *log (malloc'd, may be NULL).  note (if
 * empty) receives why the compiled code could not be cached, when it could not. */
pw_status pw_cell_host_build(const pw_cell_decl *d, const char *types, const char *text, const char *name,
                             int checked, pw_cell_host *out, char **log, int *compiled, char *note, size_t note_size);

void pw_cell_host_close(pw_cell_host *h);

/* What pw_cell_host_build is made of, for other C text compiled at run time (task functions,
 * src/tasks/task_fn.c): the parts concatenated, compiled into a shared object by $CC (else cc),
 * cached under a hash of the parts, `version`, the compiler and the machine, and loaded: *handle
 * (dlopen's) and *fd (the memory file it came from) for pw_host_object_close.  The embedded text
 * of a library header by its path in the source tree (NULL: not embedded) is pw_host_embedded. */
pw_status pw_host_object_build(const char *const *parts, int n_parts, const char *version, void **handle, int *fd,
                               char **log, int *compiled, char *note, size_t note_size);
void pw_host_object_close(void *handle, int fd);
void *pw_host_object_symbol(void *handle, const char *name); /* dlsym */
const char *pw_host_embedded(const char *name);

#ifdef __cplusplus
}
#endif

#endif
