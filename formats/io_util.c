/* io_util.c - error text, memory limits and checked allocation for the file readers. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_util.h"
#include "partial_files.h"

int io_fail(char *err, int errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen > 0) vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void (*warn_fn)(const char *message);

void io_set_warn(void (*fn)(const char *message)) { warn_fn = fn; }

void io_warn(const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (warn_fn) warn_fn(message);
    else fprintf(stderr, "peerwave: warning: %s\n", message);
}

const char *io_printable(const char *text, char *out, size_t n)
{
    size_t k = 0;
    for (; text[k] && k < 40 && k + 1 < n; k++) out[k] = text[k] >= 0x20 && text[k] < 0x7f ? text[k] : '?';
    out[k] = 0;
    return out;
}

int64_t io_remaining_bytes(FILE *f)
{
    long here = ftell(f);
    if (here < 0 || fseek(f, 0, SEEK_END) != 0) return -1;
    long end = ftell(f);
    if (fseek(f, here, SEEK_SET) != 0 || end < here) return -1;
    return (int64_t)(end - here);
}

uint64_t io_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return UINT64_MAX / 2;
    return (uint64_t)pages * (uint64_t)page;
}

int io_bom_step(int *state, int c)
{
    static const int mark[3] = {0xef, 0xbb, 0xbf};
    if (*state >= 3) return 0; /* past the mark, or no mark */
    if (c == mark[*state]) {
        ++*state;
        return 1;
    }
    if (*state > 0) return -1;
    *state = 3;
    return 0;
}

int io_bom_length(const char *text)
{
    int state = 0, k = 0;
    while (k < 3 && io_bom_step(&state, (unsigned char)text[k]) == 1) k++;
    return k == 3 ? 3 : 0;
}

size_t io_drop_bom(char *line, size_t len)
{
    const size_t bom = len >= 3 ? (size_t)io_bom_length(line) : 0;
    memmove(line, line + bom, len - bom + 1);
    return len - bom;
}

int io_named_otherwise(const char *path, const char *ext)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return !io_is_stdout(path) && dot && (!slash || dot > slash) && strcasecmp(dot, ext) != 0;
}

long io_getline(char **line, size_t *cap, FILE *f)
{
    size_t n = 0;
    int c, any = 0;
    while ((c = getc(f)) != EOF) {
        any = 1;
        if (c == '\n') break;
        if (c == '\r') {
            const int next = getc(f);
            if (next != '\n' && next != EOF) ungetc(next, f);
            break;
        }
        if (n + 2 > *cap) {
            const size_t grown = *cap ? 2 * *cap : 256;
            char *p = realloc(*line, grown);
            if (!p) {
                errno = ENOMEM;
                return -1;
            }
            *line = p, *cap = grown;
        }
        (*line)[n++] = (char)c;
    }
    if (!any) return -1;
    if (!*line || n + 1 > *cap) {
        char *p = realloc(*line, n + 1);
        if (!p) {
            errno = ENOMEM;
            return -1;
        }
        *line = p, *cap = n + 1;
    }
    (*line)[n] = 0;
    return (long)n;
}

const char *io_bytes_text(uint64_t bytes, char *buf)
{
    static const char *const units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1000 && u < 6) v /= 1000, u++;
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

void *io_alloc(uint64_t count, uint64_t size, const char *what, char *err, int errlen)
{
    char need[32], have[32];
    if (size && count > UINT64_MAX / size) {
        io_fail(err, errlen, "%s: size overflows 64 bits", what);
        return NULL;
    }
    uint64_t bytes = count * size;
    uint64_t mem = io_physical_memory();
    if (bytes > mem || bytes > (uint64_t)SIZE_MAX) {
        io_fail(err, errlen, "%s: %s needed, more than this machine's %s of memory", what,
                io_bytes_text(bytes, need), io_bytes_text(mem, have));
        return NULL;
    }
    void *p = malloc(bytes ? (size_t)bytes : 1);
    if (!p) io_fail(err, errlen, "%s: out of memory allocating %s", what, io_bytes_text(bytes, need));
    return p;
}

/* (set by any job thread of a batch: atomic) */
static int stdout_used;

void io_claim_stdout(void) { __atomic_store_n(&stdout_used, 1, __ATOMIC_RELAXED); }

int io_is_stdout(const char *path)
{
    if (!strcmp(path, "-")) return 1;
    struct stat p, o;
    return stat(path, &p) == 0 && fstat(STDOUT_FILENO, &o) == 0 && p.st_dev == o.st_dev && p.st_ino == o.st_ino;
}

int io_stdout_used(void) { return __atomic_load_n(&stdout_used, __ATOMIC_RELAXED); }

/* The text outputs open now: each FILE handed out with its io_output and final path, so that the
 * callers keep their FILE-only calls.  More at once than the slots (never in this program) are
 * written in place, as text outputs were before. */
#define TEXT_OUTPUTS 16
static struct text_output {
    FILE *f;
    char *path;
    io_output out;
} text_outputs[TEXT_OUTPUTS];
static pthread_mutex_t text_outputs_lock = PTHREAD_MUTEX_INITIALIZER;

FILE *io_open_text_output(const char *path)
{
    if (io_is_stdout(path)) {
        io_claim_stdout();
        return stdout;
    }
    pthread_mutex_lock(&text_outputs_lock);
    struct text_output *slot = NULL;
    for (int k = 0; k < TEXT_OUTPUTS && !slot; k++)
        if (!text_outputs[k].f) slot = &text_outputs[k];
    FILE *f = NULL;
    char err[64];
    if (!slot) {
        f = fopen(path, "w");
    } else if ((slot->path = strdup(path)) == NULL) {
        errno = ENOMEM;
    } else if (io_output_open(&slot->out, path, err, sizeof err) != 0) {
        const int saved = errno; /* (the callers say strerror(errno)) */
        free(slot->path);
        slot->path = NULL;
        errno = saved;
    } else {
        f = slot->f = slot->out.f;
    }
    pthread_mutex_unlock(&text_outputs_lock);
    return f;
}

/* Closes f; where it is a text output of the slots, puts it in place when `ok` and nothing failed
 * (else removes it: the old file stays).  0, or nonzero on a write error. */
static int close_text_output(FILE *f, int ok)
{
    if (f == stdout) return fflush(stdout) != 0 || !ok;
    pthread_mutex_lock(&text_outputs_lock);
    struct text_output *slot = NULL;
    for (int k = 0; k < TEXT_OUTPUTS && !slot; k++)
        if (text_outputs[k].f == f) slot = &text_outputs[k];
    struct text_output mine = {0};
    if (slot) mine = *slot, slot->f = NULL, slot->path = NULL;
    pthread_mutex_unlock(&text_outputs_lock);
    if (!slot) return fclose(f) != 0 || !ok;
    char err[64];
    const int bad = io_output_close(&mine.out, mine.path, ok && !ferror(f), err, sizeof err) != 0;
    free(mine.path);
    return bad;
}

int io_close_text_output(FILE *f) { return close_text_output(f, 1); }

void io_abandon_text_output(FILE *f) { (void)close_text_output(f, 0); }

int io_output_open(io_output *out, const char *path, char *err, int errlen)
{
    struct stat st;
    out->partial[0] = '\0';
    out->partial_slot = -1;
    out->is_stdout = io_is_stdout(path);
    if (out->is_stdout) {
        io_claim_stdout();
        out->f = stdout;
        return 0;
    }
    /* (a symbolic link is written through, as before: a rename would replace the link itself) */
    const int exists = lstat(path, &st) == 0;
    /* a file we may not write is refused as writing it in place would be (the rename would
     * replace it); a replaced file keeps its permission bits.  Another user's file (which a rename
     * would make ours, and which a sticky folder such as /tmp would not let us rename over) and a
     * file with other hard links are written in place, as before. */
    if (exists && S_ISREG(st.st_mode) && access(path, W_OK) != 0) return io_fail(err, errlen, "%s: %s", path, strerror(errno));
    if (!exists || (S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1)) {
        const int n = snprintf(out->partial, sizeof out->partial, "%s.partial-%ld", path, (long)getpid());
        if (n < 0 || (size_t)n >= sizeof out->partial) out->partial[0] = '\0'; /* (too long: write path itself) */
    }
    /* (remembered before it exists: a signal between its creation and here would leave it) */
    if (out->partial[0]) out->partial_slot = io_partial_remember(out->partial);
    out->f = fopen(out->partial[0] ? out->partial : path, "wb");
    if (!out->f && out->partial[0]) {
        const int saved = errno;
        io_partial_forget(out->partial_slot);
        out->partial_slot = -1;
        errno = saved;
    }
    if (!out->f && out->partial[0] && (errno == EACCES || errno == EROFS || errno == EPERM)) {
        /* a folder we may not create files in, but the file itself writable: write it in place */
        out->partial[0] = '\0';
        out->f = fopen(path, "wb");
    }
    if (!out->f) return io_fail(err, errlen, "%s: %s", path, strerror(errno));
    if (out->partial[0] && exists) (void)fchmod(fileno(out->f), st.st_mode & 0777); /* (best effort) */
    return 0;
}

int io_output_close(io_output *out, const char *path, int ok, char *err, int errlen)
{
    int saved = errno;
    ok = (out->is_stdout ? fflush(out->f) : fclose(out->f)) == 0 && ok;
    if (!ok) saved = errno ? errno : saved;
    out->f = NULL;
    if (out->partial[0]) {
        if (ok && rename(out->partial, path) != 0) ok = 0, saved = errno;
        if (!ok) remove(out->partial);
        io_partial_forget(out->partial_slot);
        out->partial_slot = -1;
    }
    if (!ok) {
        io_fail(err, errlen, "%s: write failed (%s)", path, strerror(saved));
        errno = saved; /* (text outputs' callers say strerror(errno)) */
        return -1;
    }
    return 0;
}

FILE *io_open_input(const char *path, char *err, int errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) return io_fail(err, errlen, "%s: %s", path, strerror(errno)), NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return io_fail(err, errlen, "%s: is a directory", path), NULL;
    }
    /* gzip's magic number (no text, .npy, PGM or PNG file starts with byte 0x1f): decompressed
     * first (gunzip.c).  Else the first byte goes back (one byte of push-back works on pipes). */
    const int c0 = getc(f);
    if (c0 == 0x1f) {
        const int c1 = getc(f);
        if (c1 == 0x8b) {
            const unsigned char head[2] = {0x1f, 0x8b};
            FILE *plain = io_gunzip(f, head, 2, path, err, errlen);
            fclose(f);
            return plain;
        }
        if (fseek(f, 0, SEEK_SET) != 0) {
            fclose(f);
            return io_fail(err, errlen, "%s: starts with byte 0x1f but is not gzip-compressed", path), NULL;
        }
    } else if (c0 != EOF) {
        ungetc(c0, f);
    } else {
        clearerr(f); /* (an empty file: the reader says so) */
    }
    return f;
}
