/* status_detail.h - setting the text pw_error_detail() returns (callable from C and CUDA C++). */
#ifndef PW_STATUS_DETAIL_H
#define PW_STATUS_DETAIL_H

#ifdef __cplusplus
extern "C" {
#endif

void pw_set_error_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif
#endif
