/* fuzz_fasta.c - libFuzzer target: the FASTA reader, first record or a record named "x". */
#include <string.h>

#include "fasta.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    FILE *f = fuzz_open(data + 1, size - 1);
    if (!f) return 0;
    fasta_record r;
    char err[256];
    if (fasta_read_stream(f, "fuzz.fa", data[0] & 1 ? "x" : NULL, &r, err, sizeof err) == 0) {
        if ((int64_t)strlen(r.seq) != r.length) __builtin_trap(); /* length must match the text */
        fasta_free(&r);
    } else {
        fuzz_message(err);
    }
    fclose(f);
    return 0;
}
