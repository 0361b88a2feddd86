/* fasta.c - a streaming FASTA reader: no line-length or sequence-length limit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fasta.h"
#include "fasta_lex.h"
#include "io_util.h"

typedef struct buffer {
    char *data;
    int64_t len, cap;
} buffer;

static int buffer_push(buffer *b, char c)
{
    if (b->len + 1 >= b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 4096;
        char *grown = realloc(b->data, (size_t)cap);
        if (!grown) return -1;
        b->data = grown;
        b->cap = cap;
    }
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
    return 0;
}

int fasta_read(const char *path, const char *name, fasta_record *rec, char *err, int errlen)
{
    memset(rec, 0, sizeof *rec);
    FILE *f = io_open_input(path, err, errlen);
    if (!f) return -1;
    int r = fasta_read_stream(f, path, name, rec, err, errlen);
    fclose(f);
    return r;
}

int fasta_read_stream(FILE *f, const char *path, const char *name, fasta_record *rec, char *err,
                      int errlen)
{
    memset(rec, 0, sizeof *rec);
    buffer header = {0}, seq = {0}; /* (header: the record's name, its first word) */
    int c, taking = 0, failed = 0;
    fasta_lexer lex = FASTA_LEXER_INIT;
    while ((c = getc_unlocked(f)) != EOF) {
        const fasta_token t = fasta_lex(&lex, c);
        if (t == FASTA_BROKEN_BOM) {
            snprintf(err, (size_t)errlen, "%s: not FASTA (a broken byte order mark at its start)", path);
            failed = 2;
            break;
        }
        if (t == FASTA_NO_HEADER) {
            snprintf(err, (size_t)errlen, "%s: not FASTA (no '>' header before line %lld)", path, (long long)lex.line);
            failed = 2;
            break;
        }
        if (t == FASTA_HEADER_START) {
            if (taking) break; /* the record asked for is complete */
            header.len = 0;
            if (header.data) header.data[0] = '\0';
        } else if (t == FASTA_NAME_BYTE) {
            if (buffer_push(&header, (char)c)) {
                failed = 1;
                break;
            }
        } else if (t == FASTA_HEADER_END) {
            taking = !name || strcmp(header.data ? header.data : "", name) == 0;
        } else if (taking && t == FASTA_BAD_BYTE) {
            snprintf(err, (size_t)errlen, "%s: line %lld: character 0x%02x is not a residue letter", path,
                     (long long)lex.line, c);
            failed = 2;
            break;
        } else if (taking && t == FASTA_RESIDUE && buffer_push(&seq, (char)c)) {
            failed = 1;
            break;
        }
    }
    if (lex.in_header && !failed) /* header on the last line without newline */
        taking = !name || strcmp(header.data ? header.data : "", name) == 0;
    const int seen_header = lex.seen_header;
    int read_error = ferror(f);
    if (failed == 1) snprintf(err, (size_t)errlen, "%s: out of memory", path);
    else if (!failed && read_error) snprintf(err, (size_t)errlen, "%s: read error", path), failed = 1;
    else if (!failed && !seen_header) snprintf(err, (size_t)errlen, "%s: empty file or no FASTA header", path), failed = 1;
    else if (!failed && !taking) snprintf(err, (size_t)errlen, "%s: no record named '%s'", path, name), failed = 1;
    else if (!failed && seq.len == 0) {
        char shown[48];
        snprintf(err, (size_t)errlen, "%s: record '%s' has an empty sequence", path,
                 io_printable(header.data ? header.data : "", shown, sizeof shown));
        failed = 1;
    }
    if (failed) {
        free(header.data);
        free(seq.data);
        return -1;
    }
    rec->name = header.data ? header.data : calloc(1, 1);
    rec->seq = seq.data;
    rec->length = seq.len;
    return 0;
}

void fasta_free(fasta_record *rec)
{
    free(rec->name);
    free(rec->seq);
    rec->name = rec->seq = NULL;
}
