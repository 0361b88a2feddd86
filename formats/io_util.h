/* io_util.h - small helpers every file reader and writer shares: one-line error messages and
 * allocation that refuses sizes larger than this machine's memory before trying. */
#ifndef PW_IO_UTIL_H
#define PW_IO_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Write "fmt ..." into err (size errlen) and return -1, so readers can `return io_fail(...)`. */
int io_fail(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A reader's warning: the file is read, but not all of it is used (a P5 PGM's later images).  By
 * default the line "peerwave: warning: MESSAGE" on stderr; io_set_warn sends the messages to fn
 * instead (tests; NULL: stderr again). */
void io_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void io_set_warn(void (*fn)(const char *message));

/* Copy text for an error message into out (size n): at most 40 characters, anything that is
 * not printable ASCII shown as '?', so a message stays one line whatever a file holds. */
const char *io_printable(const char *text, char *out, size_t n);

/* Bytes left in f from its position (regular files and memory streams), or -1 if unknown (a
 * pipe).  Readers compare it with what a header claims before allocating anything. */
int64_t io_remaining_bytes(FILE *f);

/* Physical memory of this machine in bytes (a large value when it cannot be told). */
uint64_t io_physical_memory(void);

/* count * size bytes, or NULL with a message naming `what` when the product overflows, exceeds
 * physical memory (so an impossible size fails at once instead of being swapped or killed), or
 * malloc fails.  Zero bytes allocate one byte so NULL always means failure. */
void *io_alloc(uint64_t count, uint64_t size, const char *what, char *err, int errlen);

/* A UTF-8 byte order mark at a text file's start (EF BB BF), as some editors write it: call with
 * each of the first bytes and a state that starts at 0.  1: the byte is part of the mark, skip
 * it; 0: a byte of the text (from the first that is not the mark's); -1: the mark began but
 * broke off (not text: the caller says so). */
int io_bom_step(int *state, int c);
/* The length of a whole byte order mark at the start of text (3), or 0. */
int io_bom_length(const char *text);
/* A text reader's first line of `len` bytes (NUL-terminated) without its byte order mark, moved
 * down in place; the new length. */
size_t io_drop_bom(char *line, size_t len);
/* 1 when path (not stdout) ends in an extension other than ext (".npy": case aside): a caller
 * writing that format whatever the name says warns. */
int io_named_otherwise(const char *path, const char *ext);

/* getline for text readers whose lines may end at LF, CR LF or a lone CR (old Mac files): the
 * line without its end into *line (NUL-terminated; NUL bytes inside it are kept and counted),
 * its length, or -1 at the end of the file with nothing read (or out of memory: ferror is not
 * set then, errno is ENOMEM). */
long io_getline(char **line, size_t *cap, FILE *f);

/* fopen(path, "rb") for a reader, refusing a directory (which fopen opens and which reads as an
 * empty file on Linux), and a gzip-compressed file decompressed whole first (io_gunzip): NULL
 * with the reason in err. */
FILE *io_open_input(const char *path, char *err, int errlen);

/* The gzip stream `in` (whose first head_len bytes the caller already read: they are in head)
 * decompressed into an unlinked temporary file, rewound: NULL with the reason (corrupt or
 * truncated data, no room, a build without zlib). */
FILE *io_gunzip(FILE *in, const unsigned char *head, size_t head_len, const char *path, char *err, int errlen);

/* An output file written whole or not at all: io_output_open opens a new file beside `path`
 * (path.partial-PID) when path is, or would be, a regular file, and path itself otherwise (a
 * terminal, a pipe, /dev/stdout, a symbolic link); io_output_close closes it and, when all went well (ok), puts it
 * in path's place with one rename -- a run killed while writing leaves the old file (or none),
 * never a truncated one.  On failure the partial file is removed.  Both fill err on failure.  A
 * file that may not be written is refused (as writing in place would be), a replaced file keeps
 * its permission bits, and another user's file or one with other hard links is written in place. */
typedef struct io_output {
    FILE *f;
    char partial[4096]; /* "" when writing path itself */
    int is_stdout;      /* path is "-" or the process's standard output: written to stdout */
    int partial_slot;   /* partial_files.h: removed if a signal ends the process meanwhile; -1 none */
} io_output;
int io_output_open(io_output *out, const char *path, char *err, int errlen);

/* "-", or a path that names the file the process's standard output already is (/dev/stdout,
 * /proc/self/fd/1, the file stdout was redirected to): such outputs are written through stdout
 * itself, after whatever it holds, never through a second description of the same file (which
 * would write over it from offset 0). */
int io_is_stdout(const char *path);

/* Whether an output went to stdout in this process (the CLI then prints its report on stderr). */
int io_stdout_used(void);
/* Marks stdout as an output's (reports then go to stderr): done by io_output_open and
 * io_open_text_output, and by `peerwave batch` as soon as a job names "-", before any report. */
void io_claim_stdout(void);

/* A text output (paths, SVG, CSV): stdout for io_is_stdout's paths, else written whole or not at
 * all as io_output's files are (NULL with errno set when it cannot be created);
 * io_close_text_output flushes or closes it and puts it in place (0, or nonzero on a write error:
 * the old file then stays); io_abandon_text_output closes it and removes what was written (a
 * command that fails half-way leaves the old file, or none). */
FILE *io_open_text_output(const char *path);
int io_close_text_output(FILE *f);
void io_abandon_text_output(FILE *f);
int io_output_close(io_output *out, const char *path, int ok, char *err, int errlen);

/* "12.3 GB" style text for a byte count, into buf (size 32). */
const char *io_bytes_text(uint64_t bytes, char *buf);

#endif
