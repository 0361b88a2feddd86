/* image.h - helpers for pw_image arguments. */
#ifndef PW_IMAGE_H
#define PW_IMAGE_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Row stride in elements (the stride field, or cols when it is 0). */
int64_t pw_image_stride(const pw_image *img);

/* PW_OK if img is non-NULL with data, a known type, positive sizes, stride >= cols and a byte
 * size that fits in size_t. */
pw_status pw_image_check(const pw_image *img);

#ifdef __cplusplus
}
#endif

#endif
