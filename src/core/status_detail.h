/* status_detail.h - setting the text pw_error_detail() returns (callable from C and CUDA C++). */
#ifndef PW_STATUS_DETAIL_H
#define PW_STATUS_DETAIL_H

#ifdef __cplusplus
extern "C" {
#endif

void pw_set_error_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The detail from a compiler's log: its first line that says "error", whole (with the file and
 * line it starts with: "cell.c:6:12: error: ..." or "cell.c(6): error: ..."), else its first
 * line, else `fallback`. */
void pw_set_error_from_log(const char *log, const char *fallback);

/* The file name NVRTC gives the GPU entry points generated around a user cell (user_cells.cu's
 * #line); an undefined pw_ identifier there is a function of the form the cell lacks. */
#define PW_GPU_ENTRY_POINTS_FILE "<peerwave: GPU entry points>"

/* "the cell uses NAME but does not define it (...)": a function of its form that a user cell lacks
 * (the first len characters of name), as both compilers' paths report it. */
void pw_set_cell_missing_detail(const char *name, int len);
/* That detail, when it is the one set, headed by the cell's file name ("cell.c: the cell uses ..."). */
void pw_name_cell_missing_detail(const char *name);

#ifdef __cplusplus
}
#endif
#endif
