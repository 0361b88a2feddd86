/* fasta.h - reading one sequence from a FASTA or multi-FASTA file. */
#ifndef PW_FASTA_H
#define PW_FASTA_H

#include <stdint.h>
#include <stdio.h>

typedef struct fasta_record {
    char *name;     /* header text after '>' up to the first blank */
    char *seq;      /* residues, white space removed; NUL-terminated */
    int64_t length;
} fasta_record;

/* Read the record called `name` (or the first one when name is NULL) from path.  Returns 0, or
 * -1 with a one-line reason in err (size errlen): missing file, no '>' header, empty sequence,
 * bytes that are not letters or '*', record not found, out of memory. */
int fasta_read(const char *path, const char *name, fasta_record *rec, char *err, int errlen);

/* The same from an open stream; path only names it in messages (used by the fuzz target). */
int fasta_read_stream(FILE *f, const char *path, const char *name, fasta_record *rec, char *err,
                      int errlen);

void fasta_free(fasta_record *rec);

#endif
