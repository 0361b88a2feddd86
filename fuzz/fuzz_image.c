/* fuzz_image.c - libFuzzer target: image sniffing and the PGM, PNG and .npy image readers. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "image_file.h"
#include "io_util.h"

/* A reader's warning (a P5 file holding more images): checked like an error message, not printed
 * on every run. */
static void fuzz_warning(const char *message) { fuzz_message(message); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    io_set_warn(fuzz_warning);
    FILE *f = fuzz_open(data, size);
    if (!f) return 0;
    pw_image img;
    char err[256];
    if (image_read_stream(f, "fuzz.img", &img, err, sizeof err) == 0) {
        fuzz_touch(img.data, (size_t)(img.rows * img.cols) * pw_dtype_size(img.type));
        free(img.data);
    } else {
        fuzz_message(err);
    }
    fclose(f);
    return 0;
}
