/* api_cell.c - the runtime API in a dozen lines: the edit distance of two words with a cell
 * written in this file (docs/EXTENDING.md).  Build against the library:
 *   cc api_cell.c -Iinclude -Lbuild -lpeerwave -lm -lpthread -ldl -o api_cell && ./api_cell kitten sitting */
#include <stdio.h>
#include <string.h>

#include "peerwave_runtime.h"

static const char *cell_text =
    "PW_FORM(linear)\n"
    "PW_VALUE(int32_t)\n"
    "PW_INPUT(uint8_t, a, i)\n"
    "PW_INPUT(uint8_t, b, j)\n"
    "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return (pw_value)(i < 0 ? j + 1 : i + 1); }\n"
    "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)\n"
    "{ return PW_MIN(diag + (c->a[i] != c->b[j]), PW_MIN(up, left) + 1); }\n";

int main(int argc, char **argv)
{
    const char *a = argc > 2 ? argv[1] : "kitten", *b = argc > 2 ? argv[2] : "sitting";
    pw_cell *cell;
    pw_status st = pw_cell_create(cell_text, "edit.c", &cell);
    if (st == PW_OK) {
        const void *inputs[] = {a, b};
        pw_cell_args args = {.rows = (int64_t)strlen(a), .cols = (int64_t)strlen(b), .inputs = inputs};
        pw_cell_result res;
        st = pw_cell_run(cell, &args, NULL, &res); /* NULL options: the GPU if there is one */
        int32_t distance;
        memcpy(&distance, res.last, sizeof distance);
        if (st == PW_OK) printf("%s -> %s: %d edits (%s)\n", a, b, (int)distance, res.info.backend == PW_BACKEND_CUDA ? "GPU" : "CPU");
        pw_cell_free(cell);
    }
    if (st != PW_OK) fprintf(stderr, "api_cell: %s: %s\n", pw_status_str(st), pw_error_detail());
    return st == PW_OK ? 0 : 1;
}
