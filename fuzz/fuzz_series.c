/* fuzz_series.c - libFuzzer target: text/CSV/.npy series; the first byte picks the --column form. */
#include "fuzz_common.h"
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static const char *const columns[] = {NULL, "1", "2", "value"};
    const char *column = columns[data[0] % 4];
    FILE *f = fuzz_open(data + 1, size - 1);
    if (!f) return 0;
    series s;
    char err[256];
    if (series_read_stream(f, "fuzz.txt", column, &s, err, sizeof err) == 0) {
        fuzz_touch(s.data, (size_t)s.length * pw_dtype_size(s.type));
        series_free(&s);
    } else {
        fuzz_message(err);
    }
    fclose(f);
    return 0;
}
