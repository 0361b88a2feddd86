/*
 * peerwave_runtime.h - your own recurrence on any backend: a cell written once (the language is
 * peerwave_cell.h, the guide docs/EXTENDING.md), compiled by the system C compiler for the CPU
 * engines and by NVRTC for the GPU engines, run by the same peer, barrier and per-diagonal
 * engines and tile processors as the built-in applications.
 *
 *     pw_cell *cell;
 *     if (pw_cell_create(text, "edit.c", &cell) != PW_OK) { puts(pw_error_detail()); ... }
 *     const void *inputs[] = {a, b};
 *     double params[] = {1};
 *     pw_cell_args args = {.rows = n, .cols = m, .inputs = inputs, .params = params};
 *     pw_cell_result res;
 *     pw_status st = pw_cell_run(cell, &args, NULL, &res);   (res.last: the value of (n-1, m-1))
 *     pw_cell_free(cell);
 *
 * Compiled code is cached on disk ($PEERWAVE_CACHE, else $XDG_CACHE_HOME/peerwave/cells, else
 * ~/.cache/peerwave/cells; "none" turns it off): a private directory (mode 0700, refused if
 * another user can write it), entries written under a temporary name and renamed, checked (size
 * and hash) when read.  The C compiler is $CC, else cc.
 */
#ifndef PEERWAVE_RUNTIME_H
#define PEERWAVE_RUNTIME_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_cell pw_cell; /* a parsed cell; compiled for a backend on first use */

typedef enum pw_cell_form {
    PW_CELL_LINEAR = 0, /* up, left, diag; linear space */
    PW_CELL_GRID,       /* in place over the caller's grid, any legal dependences, sweeps */
    PW_CELL_STENCIL,    /* in place, five points (self, up, left, down, right), sweeps */
    PW_CELL_GRID3       /* the grid form in 3-D (rows x cols x planes) */
} pw_cell_form;

typedef enum pw_cell_axes {
    PW_AXES_I = 1,  /* one element per row */
    PW_AXES_J = 2,  /* one per column */
    PW_AXES_IJ = 3, /* rows x cols, row-major */
    PW_AXES_K = 4,  /* one per plane (3-D) */
    PW_AXES_IJK = 7, /* rows x cols x planes (3-D) */
    PW_AXES_TABLE = 8 /* a fixed number of elements (pw_cell_field.count), e.g. a score table */
} pw_cell_axes;

/* The types of the cell language (as written in a cell: int8_t ... double). */
typedef enum pw_cell_type {
    PW_CT_I8 = 0,
    PW_CT_U8,
    PW_CT_I16,
    PW_CT_U16,
    PW_CT_I32,
    PW_CT_U32,
    PW_CT_I64,
    PW_CT_F32,
    PW_CT_F64,
    PW_CT_COUNT
} pw_cell_type;

/* Size in bytes and C name ("int32_t") of a cell type (0 / NULL if unknown). */
size_t pw_cell_type_size(pw_cell_type type);
const char *pw_cell_type_name(pw_cell_type type);

typedef struct pw_cell_field {
    const char *name;
    pw_cell_type type;
    pw_cell_axes axes; /* inputs only */
    size_t offset;     /* value fields: byte offset in pw_value */
    int64_t count;     /* inputs of PW_AXES_TABLE: their elements */
} pw_cell_field;

#define PW_CELL_MAX_FIELDS 16
#define PW_CELL_MAX_ITEMS 32 /* inputs, and parameters, each */
#define PW_CELL_MAX_DEPS 16

/* Parse the declarations of a cell (peerwave_cell.h) and keep a copy of its text; name is shown
 * in compiler messages (e.g. the file name).  PW_ERR_BAD_INPUT with the line in
 * pw_error_detail() for a malformed or unknown declaration, PW_ERR_ILLEGAL_DEPENDENCE for an
 * illegal PW_DEP.  Compiling happens on the first run on a backend. */
pw_status pw_cell_create(const char *text, const char *name, pw_cell **out);
void pw_cell_free(pw_cell *cell);

/* What the cell declares (for a NULL cell: nothing -- 0 fields, size 0, no reduction). */
pw_cell_form pw_cell_get_form(const pw_cell *cell);
size_t pw_cell_value_size(const pw_cell *cell);
/* The value's fields (one, named "value", for PW_VALUE), its inputs and its parameters. */
const pw_cell_field *pw_cell_fields(const pw_cell *cell, int *count);
const pw_cell_field *pw_cell_inputs(const pw_cell *cell, int *count);
const pw_cell_field *pw_cell_params(const pw_cell *cell, int *count);
int pw_cell_halo(const pw_cell *cell);
/* The field PW_REDUCE reduces (index into pw_cell_fields), or -1 without a reduction. */
int pw_cell_reduced_field(const pw_cell *cell);

typedef struct pw_cell_args {
    int64_t rows, cols;         /* the space (grid and stencil forms: without the halo), >= 1 */
    const void *const *inputs;  /* host arrays, one per PW_INPUT in declaration order */
    const double *params;       /* one per PW_PARAM in order; integers must be whole and fit */
    void *grid;                 /* grid and stencil forms: (rows + 2 halo) x (cols + 2 halo)
                                   values, row-major, updated in place (stencil: halo 1);
                                   grid3: (rows + 2 halo) x (cols + 2 halo) x (planes + 2 halo) */
    int64_t sweeps;             /* grid and stencil forms: sweeps in one run (0 means 1); a linear
                                   cell runs once: more than 1 is PW_ERR_INVALID_ARGUMENT */
    void *last_row;             /* linear form, optional: receives row rows-1 (cols values) */
    void *last_col;             /* linear form, optional: receives column cols-1 (rows values) */
    int64_t planes;             /* grid3 form: the third extent (without the halo), >= 1;
                                   0 for the 2-D forms */
} pw_cell_args;

typedef struct pw_cell_result {
    unsigned char last[PW_MAX_CELL_SIZE]; /* linear form: the value of (rows-1, cols-1) */
    unsigned char best[PW_MAX_CELL_SIZE]; /* PW_REDUCE(max): a value whose reduced field is the
                                             maximum over all cells (other fields zero) */
    int64_t best_i, best_j;               /* and its cell (-1, -1 when no value is above the
                                             type's lowest, e.g. all NaN) */
    int compiled;                         /* 1 if this run compiled the cell, 0 if cached */
    double compile_seconds;               /* time spent compiling or loading it */
    char note[160];                       /* "" or what the run chose for you (e.g. the CPU,
                                             as this build cannot compile for the GPU) */
    pw_run_info info;
} pw_cell_result;

/* Run the cell over args under options (NULL: defaults).  PW_BACKEND_AUTO runs on the GPU when
 * there is one and NVRTC is available, else on the CPU.  PW_ERR_COMPILE when the cell does not
 * compile: the compiler's first error (file:line: message) in pw_error_detail(), the whole log in
 * pw_cell_compile_log(). */
pw_status pw_cell_run(pw_cell *cell, const pw_cell_args *args, const pw_options *options, pw_cell_result *result);
/* (A pw_cell keeps what it compiled and loaded, and locks itself: runs of one cell from several
 * threads are safe and take turns; separate pw_cell objects run concurrently.  Not from inside a
 * run of the same cell (its progress hook): that waits for itself.  pw_cell_compile_log's string
 * changes with the next compile: read it while no other thread runs the cell.) */

/* The last compiler log of this cell ("" if none). */
const char *pw_cell_compile_log(const pw_cell *cell);

/* A value field of a value (res.last, res.best, an element of last_row ...) as a double. */
double pw_cell_field_as_double(const pw_cell *cell, const void *value, int field);

#ifdef __cplusplus
}
#endif

#endif
