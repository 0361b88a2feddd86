/* trace_hold.c - see trace_hold.h. */
#include <stdlib.h>

#include "trace_hold.h"

pw_trace_record *pw_trace_buffer_append(pw_trace_buffer *b)
{
    if (b->count == b->capacity) {
        const int64_t cap = b->capacity ? 2 * b->capacity : 256;
        pw_trace_record *grown = realloc(b->records, sizeof *grown * (size_t)cap);
        if (!grown) {
            b->failed = 1;
            return NULL;
        }
        b->records = grown;
        b->capacity = cap;
    }
    return &b->records[b->count++];
}

void pw_trace_buffer_keep(void *buffer, const pw_trace_record *record)
{
    pw_trace_record *slot = pw_trace_buffer_append(buffer);
    if (slot) *slot = *record;
}

pw_status pw_trace_buffer_release(pw_trace_buffer *b, pw_trace_fn sink, void *user)
{
    if (sink)
        for (int64_t k = 0; k < b->count; k++) sink(user, &b->records[k]);
    const int failed = b->failed;
    free(b->records);
    *b = (pw_trace_buffer){0};
    return failed ? PW_ERR_OUT_OF_MEMORY : PW_OK;
}
