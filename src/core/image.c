/* image.c - element types and validation of pw_image arguments. */
#include "image.h"
#include "checked.h"
#include "status_detail.h"

size_t pw_dtype_size(pw_dtype type)
{
    switch (type) {
    case PW_U8: return 1;
    case PW_U16: return 2;
    case PW_I32: return 4;
    case PW_I64: return 8;
    case PW_F32: return 4;
    case PW_F64: return 8;
    default: return 0;
    }
}

const char *pw_dtype_name(pw_dtype type)
{
    static const char *names[] = {"u8", "u16", "i32", "i64", "f32", "f64"};
    return (unsigned)type < PW_DTYPE_COUNT ? names[type] : "unknown";
}

int64_t pw_image_stride(const pw_image *img)
{
    return img->stride ? img->stride : img->cols;
}

pw_status pw_image_check(const pw_image *img)
{
    if (!img) return PW_ERR_NULL_ARGUMENT;
    if (!img->data) return PW_ERR_NULL_ARGUMENT;
    if (pw_dtype_size(img->type) == 0) return PW_ERR_INVALID_ARGUMENT;
    if (img->rows < 1 || img->cols < 1) {
        pw_set_error_detail("an image of %lld x %lld: at least 1 x 1", (long long)img->rows, (long long)img->cols);
        return PW_ERR_INVALID_SIZE;
    }
    if (img->stride != 0 && img->stride < img->cols) {
        pw_set_error_detail("an image's stride %lld is less than its %lld columns", (long long)img->stride,
                            (long long)img->cols);
        return PW_ERR_INVALID_ARGUMENT;
    }
    size_t bytes;
    if (!pw_checked_bytes(img->rows, pw_image_stride(img), pw_dtype_size(img->type), &bytes))
        return PW_ERR_SIZE_OVERFLOW;
    return PW_OK;
}
