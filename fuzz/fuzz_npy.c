/* fuzz_npy.c - libFuzzer target: the .npy reader on arbitrary bytes. */
#include "fuzz_common.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_open(data, size);
    if (!f) return 0;
    npy_array a;
    char err[256];
    if (npy_read_stream(f, "fuzz.npy", &a, err, sizeof err) == 0) {
        fuzz_touch(a.data, (size_t)a.count * pw_dtype_size(a.type));
        npy_free(&a);
    } else {
        fuzz_message(err);
    }
    fclose(f);
    return 0;
}
