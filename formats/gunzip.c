/* gunzip.c - gzip-compressed input (genome.fa.gz, a bgzip'ed FASTA, grid.npy.gz, ...): the whole
 * stream is decompressed into an anonymous temporary file first, so that every reader sees a
 * plain, seekable file (the .npy reader measures what is left, the FASTA reader reads bytes) and
 * a corrupt or truncated archive is an error before any parsing, never a shorter input.
 * Concatenated members (bgzip's blocks, `cat a.gz b.gz`) are read one after another, as gzip -d
 * does.  The temporary file lives in $TMPDIR (else /tmp) and is unlinked at once. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_util.h"

#ifdef PEERWAVE_HAVE_ZLIB
#include <zlib.h>

/* An unlinked temporary file for writing and reading back, or NULL with the reason. */
static FILE *anonymous_file(const char *path, char *err, int errlen)
{
    const char *dir = getenv("TMPDIR");
    char name[4096];
    snprintf(name, sizeof name, "%s/peerwave-gunzip-XXXXXX", dir && *dir ? dir : "/tmp");
    const int fd = mkstemp(name);
    if (fd < 0) return io_fail(err, errlen, "%s: no temporary file to decompress into (%s: %s)", path, name, strerror(errno)), NULL;
    unlink(name);
    FILE *t = fdopen(fd, "w+b");
    if (!t) {
        close(fd);
        io_fail(err, errlen, "%s: %s", path, strerror(errno));
    }
    return t;
}

FILE *io_gunzip(FILE *in, const unsigned char *head, size_t head_len, const char *path, char *err, int errlen)
{
    FILE *out = anonymous_file(path, err, errlen);
    if (!out) return NULL;
    enum { CHUNK = 1 << 16 };
    unsigned char *buf_in = malloc(CHUNK), *buf_out = malloc(CHUNK);
    z_stream z;
    memset(&z, 0, sizeof z);
    /* 15 + 16: a gzip wrapper (not zlib's, not raw deflate) */
    int zs = buf_in && buf_out ? inflateInit2(&z, 15 + 16) : Z_MEM_ERROR;
    const char *why = zs == Z_OK ? NULL : "out of memory";
    size_t have = 0;
    if (!why) memcpy(buf_in, head, have = head_len); /* (the bytes the caller read to recognise the format) */
    int in_member = 1, eof = 0, trailing = 0;
    while (!why) {
        if (have == 0 && !eof) {
            have = fread(buf_in, 1, CHUNK, in);
            if (have == 0) {
                if (ferror(in)) why = strerror(errno);
                eof = 1;
            }
        }
        if (why || (have == 0 && eof)) break;
        if (!in_member) { /* another member after the last one's end, or padding that gzip -d ignores too */
            if (buf_in[0] != 0x1f || (have > 1 && buf_in[1] != 0x8b)) {
                trailing = 1;
                break;
            }
            if (inflateReset(&z) != Z_OK) {
                why = "zlib could not start the next member";
                break;
            }
            in_member = 1;
        }
        z.next_in = buf_in;
        z.avail_in = (uInt)have;
        do {
            z.next_out = buf_out;
            z.avail_out = CHUNK;
            zs = inflate(&z, Z_NO_FLUSH);
            if (zs != Z_OK && zs != Z_STREAM_END && zs != Z_BUF_ERROR) {
                why = z.msg ? z.msg : "corrupt data";
                break;
            }
            const size_t made = CHUNK - z.avail_out;
            if (zs == Z_BUF_ERROR && made == 0) break; /* (it needs more input) */
            if (made && fwrite(buf_out, 1, made, out) != made) {
                why = "no room to write the decompressed data (set TMPDIR to a larger disk)";
                break;
            }
            if (zs == Z_STREAM_END) {
                in_member = 0;
                break;
            }
        } while (z.avail_out == 0 || z.avail_in > 0);
        /* keep what the member's end left unread for the next member */
        have = why ? 0 : z.avail_in;
        if (have) memmove(buf_in, z.next_in, have);
    }
    if (!why && in_member) why = "truncated (the last member has no end)";
    /* bytes after the last member: zeros (a tape block's padding) quietly, anything else with a
     * warning, as gzip -d says "trailing garbage ignored" (they may be a damaged member) */
    if (!why && trailing) {
        int garbage = 0;
        for (;;) {
            for (size_t k = 0; k < have && !garbage; k++) garbage = buf_in[k] != 0;
            if (garbage || !(have = fread(buf_in, 1, CHUNK, in))) break;
        }
        if (garbage) io_warn("%s: bytes after the last gzip member that are not a member: ignored (as gzip -d does)", path);
    }
    if (buf_in && buf_out) inflateEnd(&z);
    free(buf_in);
    free(buf_out);
    if (!why && (fflush(out) != 0 || fseek(out, 0, SEEK_SET) != 0)) why = strerror(errno);
    if (why) {
        fclose(out);
        return io_fail(err, errlen, "%s: gzip-compressed, and could not be decompressed: %s", path, why), NULL;
    }
    return out;
}

#else

FILE *io_gunzip(FILE *in, const unsigned char *head, size_t head_len, const char *path, char *err, int errlen)
{
    (void)in, (void)head, (void)head_len;
    return io_fail(err, errlen, "%s: gzip-compressed, and this build has no zlib (apt-get install zlib1g-dev, then "
                   "rebuild; or gunzip it first)", path), NULL;
}

#endif
