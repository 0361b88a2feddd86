/* fuzz_fasta.c - libFuzzer target: the FASTA readers, one record (the first or the one named "x")
 * and every record (fasta_set.h, with and without skipping bad ones). */
#include <string.h>

#include "fasta.h"
#include "fasta_set.h"
#include "fuzz_common.h"

static void fuzz_skip(void *user, int64_t record, const char *reason)
{
    (void)user;
    (void)record;
    if (!*reason || strchr(reason, '\n')) __builtin_trap(); /* a one-line reason (the caller names the file) */
}

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
    if (!(f = fuzz_open(data + 1, size - 1))) return 0;
    fasta_set set;
    if (fasta_set_read_stream(f, "fuzz.fa", &set, data[0] & 2 ? fuzz_skip : NULL, NULL, err, sizeof err) == 0) {
        for (int64_t k = 0; k < set.count; k++) /* lengths and offsets must match the text */
            if ((int64_t)strlen(fasta_set_seq(&set, k)) != fasta_set_length(&set, k) || fasta_set_length(&set, k) < 1)
                __builtin_trap();
        fasta_set_free(&set);
    } else {
        fuzz_message(err);
    }
    fclose(f);
    return 0;
}
