/*
 * cell_decl.h - a user cell's declarations (PW_FORM, PW_VALUE/PW_FIELD, PW_INPUT, PW_PARAM, PW_DEP,
 * PW_HALO, PW_REDUCE: include/peerwave_cell.h), read from its text, checked, laid out, and
 * turned into the C text of the types the cell is compiled with (pw_value, pw_ctx).  Both
 * backends compile that same text, so the layout computed here is the one the compilers see;
 * the generated text asserts every offset, so a disagreement fails the compile, never a run.
 */
#ifndef PW_CELL_DECL_H
#define PW_CELL_DECL_H

#include <stddef.h>

#include "peerwave_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PW_CELL_NAME_MAX 32
#define PW_CELL_MAX_TABLE (1 << 24) /* elements of a table input (PW_INPUT(T, name, N)) */

typedef struct pw_cell_item {
    pw_cell_field f;
    char name[PW_CELL_NAME_MAX];
} pw_cell_item;

typedef struct pw_cell_decl {
    pw_cell_form form;
    int scalar;                                /* PW_VALUE (one field, named "value") */
    pw_cell_item fields[PW_CELL_MAX_FIELDS];
    int n_fields;
    pw_cell_item inputs[PW_CELL_MAX_ITEMS];
    int n_inputs;
    pw_cell_item params[PW_CELL_MAX_ITEMS];
    int n_params;
    pw_dep deps[PW_CELL_MAX_DEPS]; /* 2-D forms */
    int n_deps;
    int deps3[PW_CELL_MAX_DEPS][3];  /* grid3 form: (di, dj, dk) */
    int n_deps3;
    int halo;
    int halo_given; /* (a second PW_HALO is refused) */
    int reduce_field;                          /* -1: no reduction */
    size_t value_size, value_align;
    /* pw_ctx: rows, cols, planes, [grid, stride,] inputs, params */
    size_t ctx_grid, ctx_stride;               /* offsets (grid form) */
    size_t ctx_inputs[PW_CELL_MAX_ITEMS], ctx_params[PW_CELL_MAX_ITEMS];
    size_t ctx_size;
} pw_cell_decl;

/* Read the declarations of text; PW_ERR_BAD_INPUT (PW_ERR_ILLEGAL_DEPENDENCE) with
 * "name:line: what" in pw_error_detail(). */
pw_status pw_cell_decl_parse(const char *text, const char *name, pw_cell_decl *out);

/* The C text (valid C11 and CUDA C++) of pw_value, pw_ctx, their layout assertions and, for the
 * grid form, pw_at; malloc'd, NULL when out of memory. */
char *pw_cell_decl_types(const pw_cell_decl *d);

/* Fill a pw_ctx image (d->ctx_size bytes, zeroed first) from the run's arguments; grid and
 * inputs are the pointers of the backend that runs it.  PW_ERR_INVALID_ARGUMENT (with detail)
 * for a parameter that its type cannot hold exactly. */
pw_status pw_cell_decl_ctx(const pw_cell_decl *d, int64_t rows, int64_t cols, int64_t planes, void *grid,
                           int64_t stride, const void *const *inputs, const double *params, unsigned char *ctx);

/* Elements of input k for a rows x cols (x planes) space. */
int64_t pw_cell_decl_input_count(const pw_cell_decl *d, int k, int64_t rows, int64_t cols, int64_t planes);

/* A grid3 cell's dependences on the 2-D engines: (i, j, k) is cell (i, j * planes + k) of a
 * rows x (cols * planes) space, so (di, dj, dk) is (di, dj * planes + dk), lexicographically
 * positive as (di, dj, dk) is when |dk| < planes (a vector with |dk| >= planes links no two cells
 * of the space and is left out).  PW_ERR_UNSUPPORTED when a vector spans more than
 * PW_MAX_DEP_DISTANCE flattened columns. */
pw_status pw_cell_decl_flat_deps(const pw_cell_decl *d, int64_t planes, pw_dep *out, int *n);

/* How far downwind of its point, on each axis (i, j, k), a grid3 cell may read the previous
 * sweep's values when the CPU pipelines its sweeps: its halo, or further where a dependence
 * reaches further.  The CPU's waits cover that box (cell.c), and the generated host pw_at3
 * flags a read past it (cell_cpu.c then runs the sweeps again, one after another). */
void pw_cell_decl_reach3(const pw_cell_decl *d, int reach[3]);

/* Field k of a value as a double. */
double pw_cell_decl_field_value(const pw_cell_decl *d, const void *value, int k);

#ifdef __cplusplus
}
#endif

#endif
