/* fasta.c - a streaming FASTA reader: no line-length or sequence-length limit. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fasta.h"
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

/* A record's name is its header's first word: "> sp1 desc" is sp1, as in samtools and BLAST. */
static void keep_first_word(buffer *header)
{
    if (!header->data) return;
    const size_t start = strspn(header->data, " \t"), n = strcspn(header->data + start, " \t\r");
    memmove(header->data, header->data + start, n);
    header->data[n] = '\0';
    header->len = (int64_t)n;
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
    buffer header = {0}, seq = {0};
    int c, in_header = 0, seen_header = 0, taking = 0, done = 0, line = 1, failed = 0;
    int bom = 0, line_start = 1, after_cr = 0; /* a '>' starts a record only at a line's start */
    while (!done && (c = getc_unlocked(f)) != EOF) {
        const int bom_byte = io_bom_step(&bom, c);
        if (bom_byte < 0) {
            snprintf(err, (size_t)errlen, "%s: not FASTA (a broken byte order mark at its start)", path);
            failed = 2;
            break;
        }
        if (bom_byte) continue;
        /* lines end at LF, CR LF or a lone CR (old Mac files); a CR LF counts once */
        if ((c == '\n' && !after_cr) || c == '\r') line++;
        after_cr = c == '\r';
        const int at_start = line_start;
        line_start = c == '\n' || c == '\r' || (at_start && (c == ' ' || c == '\t')); /* (blanks before a '>' allowed) */
        if (in_header) {
            if (c == '\n' || c == '\r') {
                in_header = 0;
                keep_first_word(&header);
                taking = !name || (header.data && strcmp(header.data, name) == 0);
            } else if (buffer_push(&header, (char)c)) {
                failed = 1;
                break;
            }
            continue;
        }
        if (c == '>' && at_start) {
            if (taking) {
                done = 1;
                break;
            }
            in_header = seen_header = 1;
            header.len = 0;
            if (header.data) header.data[0] = '\0';
            continue;
        }
        if (isspace(c)) continue;
        if (!seen_header) {
            snprintf(err, (size_t)errlen, "%s: not FASTA (no '>' header before line %d)", path, line);
            failed = 2;
            break;
        }
        if (!taking) continue;
        if (!isalpha(c) && c != '*' && c != '-') {
            snprintf(err, (size_t)errlen, "%s: line %d: character 0x%02x is not a residue letter",
                     path, line, c);
            failed = 2;
            break;
        }
        if (c != '-' && buffer_push(&seq, (char)c)) {
            failed = 1;
            break;
        }
    }
    if (in_header && !failed) { /* header on the last line without newline */
        keep_first_word(&header);
        taking = !name || (header.data && strcmp(header.data, name) == 0);
    }
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
