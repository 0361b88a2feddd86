/*
 * fasta_lex.h - FASTA's bytes told apart, once for both readers (fasta.c: one record, streamed;
 * fasta_set.c: every record): what a byte is depends on where it stands, and these rules are
 * easy to get subtly different in two places.
 *   - a UTF-8 byte order mark at the file's start is skipped (a broken one is an error);
 *   - lines end at LF, CR LF or a lone CR (old Mac files); a CR LF counts as one line;
 *   - a '>' starts a header only at a line's start, blanks before it allowed ("  >a"); inside a
 *     sequence line it is a bad letter (it was a new record until 2026-11-29);
 *   - a record's name is the header's first word: blanks after '>' are skipped ("> sp1 desc" is
 *     sp1, as samtools and BLAST read it), the rest of the line is a description;
 *   - white space between residues is nothing, '-' (a gap in aligned FASTA) is dropped, letters
 *     and '*' are residues, any other byte is bad;
 *   - a residue before the first header means the file is not FASTA.
 */
#ifndef PW_FASTA_LEX_H
#define PW_FASTA_LEX_H

#include <ctype.h>
#include <stdint.h>

#include "io_util.h"

typedef enum fasta_token {
    FASTA_NOTHING,      /* a byte that adds nothing: a mark, a line end, a blank, a gap, a description */
    FASTA_BROKEN_BOM,   /* the start of a byte order mark that is not one: not FASTA */
    FASTA_NO_HEADER,    /* a residue before any header: not FASTA */
    FASTA_HEADER_START, /* a '>' that starts a record */
    FASTA_NAME_BYTE,    /* a byte of the record's name */
    FASTA_HEADER_END,   /* the line end after a header */
    FASTA_RESIDUE,      /* a letter or '*' */
    FASTA_BAD_BYTE      /* any other byte in a sequence */
} fasta_token;

typedef struct fasta_lexer {
    int bom;         /* io_bom_step's state */
    int line_start;  /* only blanks since the last line end */
    int after_cr;    /* the byte before was a CR (its LF ends no second line) */
    int in_header;   /* between a record's '>' and its line end */
    int name_state;  /* in a header: 0 before the name, 1 in it, 2 past it */
    int seen_header;
    int64_t line;    /* 1-based line of the byte just read */
} fasta_lexer;

#define FASTA_LEXER_INIT {.line_start = 1, .line = 1}

static inline fasta_token fasta_lex(fasta_lexer *x, int c)
{
    const int mark = io_bom_step(&x->bom, c);
    if (mark < 0) return FASTA_BROKEN_BOM;
    if (mark) return FASTA_NOTHING;
    if ((c == '\n' && !x->after_cr) || c == '\r') x->line++;
    x->after_cr = c == '\r';
    const int at_start = x->line_start;
    x->line_start = c == '\n' || c == '\r' || (at_start && (c == ' ' || c == '\t'));
    const int blank = c == ' ' || c == '\t';
    if (x->in_header) {
        if (c == '\n' || c == '\r') {
            x->in_header = 0;
            return FASTA_HEADER_END;
        }
        if (x->name_state == 0 && !blank) x->name_state = 1;
        else if (x->name_state == 1 && blank) x->name_state = 2;
        return x->name_state == 1 ? FASTA_NAME_BYTE : FASTA_NOTHING;
    }
    if (c == '>' && at_start) {
        x->in_header = x->seen_header = 1;
        x->name_state = 0;
        return FASTA_HEADER_START;
    }
    if (isspace(c)) return FASTA_NOTHING;
    if (!x->seen_header) return FASTA_NO_HEADER;
    if (c == '-') return FASTA_NOTHING;
    return isalpha(c) || c == '*' ? FASTA_RESIDUE : FASTA_BAD_BYTE;
}

#endif
