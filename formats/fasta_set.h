/* fasta_set.h - every record of a multi-FASTA file, for batch search (a query file, a database of
 * millions of records): names and residues in two arenas, read in large blocks. */
#ifndef PW_FASTA_SET_H
#define PW_FASTA_SET_H

#include <stdint.h>
#include <stdio.h>

typedef struct fasta_set {
    int64_t count;
    char *names;      /* count NUL-terminated names (header text after '>' up to the first blank) */
    int64_t *name_at; /* count offsets into names */
    char *residues;   /* all sequences back to back, white space removed (NUL after each) */
    int64_t *seq_at;  /* count + 1 offsets: record k is residues[seq_at[k], seq_at[k+1] - 1) */
    int64_t skipped;  /* records left out by skip_bad */
} fasta_set;

static inline const char *fasta_set_name(const fasta_set *s, int64_t k) { return s->names + s->name_at[k]; }
static inline const char *fasta_set_seq(const fasta_set *s, int64_t k) { return s->residues + s->seq_at[k]; }
static inline int64_t fasta_set_length(const fasta_set *s, int64_t k) { return s->seq_at[k + 1] - s->seq_at[k] - 1; }

/* Called for each bad record skip_bad leaves out (record: 1-based number in the file). */
typedef void (*fasta_skip_fn)(void *user, int64_t record, const char *reason);

/* Read every record of path.  A bad record (an empty sequence, a byte that is not a letter, '*'
 * or '-') fails the whole read with its record number and line in err -- or, when skip is not
 * NULL, is left out and reported through skip.  Returns 0, or -1 with a one-line reason: missing
 * file, no records, text before the first '>', out of memory. */
int fasta_set_read(const char *path, fasta_set *set, fasta_skip_fn skip, void *skip_user, char *err, int errlen);
int fasta_set_read_stream(FILE *f, const char *path, fasta_set *set, fasta_skip_fn skip, void *skip_user, char *err,
                          int errlen);

void fasta_set_free(fasta_set *set);

#endif
