/* fasta_set.c - reading every record of a multi-FASTA file (fasta_set.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fasta_lex.h"
#include "fasta_set.h"
#include "io_util.h"

/* A growing byte or offset array. */
typedef struct grow {
    void *data;
    int64_t len, cap; /* in elements */
    size_t size;      /* element size */
} grow;

static int grow_reserve(grow *g, int64_t more)
{
    if (g->len + more <= g->cap) return 0;
    int64_t cap = g->cap ? g->cap : 4096;
    while (cap < g->len + more) cap *= 2;
    void *p = realloc(g->data, (size_t)cap * g->size);
    if (!p) return -1;
    g->data = p;
    g->cap = cap;
    return 0;
}

static int push_byte(grow *g, char c)
{
    if (grow_reserve(g, 1)) return -1;
    ((char *)g->data)[g->len++] = c;
    return 0;
}

static int push_offset(grow *g, int64_t v)
{
    if (grow_reserve(g, 1)) return -1;
    ((int64_t *)g->data)[g->len++] = v;
    return 0;
}

typedef struct reader {
    grow names, name_at, residues, seq_at;
    int64_t record;       /* 1-based number of the record being read (0: none yet) */
    int64_t record_start; /* residues length when it began */
    const char *bad;      /* why the current record is bad (NULL: fine so far) */
    int64_t bad_line;
    int bad_byte;
} reader;

/* The record being read is complete: keep it (with its NUL), or drop it if it is bad. */
static int finish_record(reader *r, const char *path, int64_t *skipped, fasta_skip_fn skip, void *skip_user, char *err,
                         int errlen)
{
    if (r->record == 0) return 0;
    const char *name = (const char *)r->names.data + ((int64_t *)r->name_at.data)[r->name_at.len - 1];
    char shown[48], why[160];
    if (!r->bad && r->residues.len == r->record_start) r->bad = "an empty sequence";
    if (!r->bad) {
        if (push_byte(&r->residues, '\0')) return io_fail(err, errlen, "%s: out of memory", path);
        return push_offset(&r->seq_at, r->residues.len) ? io_fail(err, errlen, "%s: out of memory", path) : 0;
    }
    if (r->bad_byte >= 0)
        snprintf(why, sizeof why, "line %lld: character 0x%02x is not a residue letter", (long long)r->bad_line,
                 r->bad_byte);
    else
        snprintf(why, sizeof why, "%s", r->bad);
    if (!skip)
        return io_fail(err, errlen, "%s: record %lld ('%s'): %s", path, (long long)r->record,
                       io_printable(name, shown, sizeof shown), why);
    skip(skip_user, r->record, why);
    (*skipped)++;
    r->residues.len = r->record_start; /* forget it and its name (its end offset was never pushed) */
    r->names.len = ((int64_t *)r->name_at.data)[r->name_at.len - 1];
    r->name_at.len--;
    return 0;
}

int fasta_set_read_stream(FILE *f, const char *path, fasta_set *set, fasta_skip_fn skip, void *skip_user, char *err,
                          int errlen)
{
    memset(set, 0, sizeof *set);
    reader r = {.names = {.size = 1}, .name_at = {.size = 8}, .residues = {.size = 1}, .seq_at = {.size = 8}};
    int failed = 0;
    fasta_lexer lex = FASTA_LEXER_INIT;
    int64_t skipped = 0;
    if (push_offset(&r.seq_at, 0)) failed = io_fail(err, errlen, "%s: out of memory", path);
    enum { BLOCK = 1 << 16 };
    char *block = malloc(BLOCK);
    if (!block) failed = io_fail(err, errlen, "%s: out of memory", path);
    size_t got;
    while (!failed && (got = fread(block, 1, BLOCK, f)) > 0) {
        for (size_t k = 0; k < got && !failed; k++) {
            const int c = (unsigned char)block[k];
            switch (fasta_lex(&lex, c)) {
            case FASTA_NOTHING:
                break;
            case FASTA_BROKEN_BOM:
                failed = io_fail(err, errlen, "%s: not FASTA (a broken byte order mark at its start)", path);
                break;
            case FASTA_NO_HEADER:
                failed = io_fail(err, errlen, "%s: not FASTA (no '>' header before line %lld)", path, (long long)lex.line);
                break;
            case FASTA_HEADER_START:
                if (finish_record(&r, path, &skipped, skip, skip_user, err, errlen)) {
                    failed = 1;
                    break;
                }
                r.record++;
                r.record_start = r.residues.len;
                r.bad = NULL;
                r.bad_byte = -1;
                if (push_offset(&r.name_at, r.names.len)) failed = io_fail(err, errlen, "%s: out of memory", path);
                break;
            case FASTA_NAME_BYTE:
                if (push_byte(&r.names, (char)c)) failed = io_fail(err, errlen, "%s: out of memory", path);
                break;
            case FASTA_HEADER_END:
                if (push_byte(&r.names, '\0')) failed = io_fail(err, errlen, "%s: out of memory", path);
                break;
            case FASTA_BAD_BYTE:
                if (!r.bad) {
                    r.bad = "bad byte";
                    r.bad_byte = c;
                    r.bad_line = lex.line;
                }
                break;
            case FASTA_RESIDUE:
                if (!r.bad && push_byte(&r.residues, (char)c)) failed = io_fail(err, errlen, "%s: out of memory", path);
                break;
            }
        }
    }
    free(block);
    if (!failed && lex.in_header && push_byte(&r.names, '\0')) failed = io_fail(err, errlen, "%s: out of memory", path);
    if (!failed && ferror(f)) failed = io_fail(err, errlen, "%s: read error", path);
    if (!failed && finish_record(&r, path, &skipped, skip, skip_user, err, errlen)) failed = 1;
    if (!failed && r.name_at.len == 0)
        failed = io_fail(err, errlen, skipped ? "%s: every record is bad" : "%s: empty file or no FASTA record", path);
    if (failed) {
        free(r.names.data);
        free(r.name_at.data);
        free(r.residues.data);
        free(r.seq_at.data);
        return -1;
    }
    set->count = r.name_at.len;
    set->names = r.names.data;
    set->name_at = r.name_at.data;
    set->residues = r.residues.data;
    set->seq_at = r.seq_at.data;
    set->skipped = skipped;
    return 0;
}

int fasta_set_read(const char *path, fasta_set *set, fasta_skip_fn skip, void *skip_user, char *err, int errlen)
{
    memset(set, 0, sizeof *set);
    FILE *f = io_open_input(path, err, errlen);
    if (!f) return -1;
    int rc = fasta_set_read_stream(f, path, set, skip, skip_user, err, errlen);
    fclose(f);
    return rc;
}

void fasta_set_free(fasta_set *set)
{
    free(set->names);
    free(set->name_at);
    free(set->residues);
    free(set->seq_at);
    memset(set, 0, sizeof *set);
}
