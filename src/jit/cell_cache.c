/* cell_cache.c - the private on-disk cache of compiled cells (cell_cache.h). */
#include "cell_cache.h"
#include "../core/fnv1a.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Two 64-bit lanes: FNV-1a and a multiply-xorshift mix of each byte, seeded apart.  Not
 * cryptographic: the directory is private, the hash tells versions apart and finds damage. */
void pw_hash_init(pw_hash *h)
{
    h->a = PW_FNV1A_BASIS;
    h->b = 0x9e3779b97f4a7c15ull;
}

void pw_hash_add(pw_hash *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t k = 0; k < n; k++) {
        h->a = pw_fnv1a_step(h->a, p[k]);
        h->b = (h->b + p[k] + 1) * 0xff51afd7ed558ccdull;
        h->b ^= h->b >> 29;
    }
}

void pw_hash_add_str(pw_hash *h, const char *s) { pw_hash_add(h, s, strlen(s) + 1); }

void pw_hash_hex(const pw_hash *h, char key[PW_CACHE_KEY_CHARS])
{
    snprintf(key, PW_CACHE_KEY_CHARS, "%016llx%016llx", (unsigned long long)h->a, (unsigned long long)h->b);
}

/* mkdir -m 0700 (existing is fine). */
static int make_dir(const char *path) { return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1; }

/* A directory nobody else can replace: not a link, ours and writable by us alone, and every
 * directory above it ours or root's and writable by its owner alone, or sticky (as /tmp: others
 * may not rename or remove what is ours there).  Else someone who can write a parent could swap
 * the cache for theirs between our checks and our loads.  Checked on its real path, which is
 * what the cache then uses (*real: malloc'd), so a link on the way cannot be re-pointed later. */
static int safe_dir(const char *path, char **real_out)
{
    struct stat s;
    *real_out = NULL;
    char *bare = strdup(path); /* without trailing slashes, so that lstat sees a link as a link */
    if (!bare) return 0;
    for (size_t n = strlen(bare); n > 1 && bare[n - 1] == '/'; n--) bare[n - 1] = '\0';
    const int linked = lstat(bare, &s) != 0 || !S_ISDIR(s.st_mode);
    free(bare);
    if (linked) return 0;
    char *real = realpath(path, NULL);
    if (!real) return 0;
    int ok = lstat(real, &s) == 0 && S_ISDIR(s.st_mode) && s.st_uid == geteuid() && (s.st_mode & 022) == 0;
    char *up = strdup(real);
    for (char *slash = up ? strrchr(up, '/') : NULL; ok && slash; slash = strrchr(up, '/')) {
        *slash = '\0'; /* the parent of what was left */
        const char *parent = up[0] ? up : "/";
        ok = stat(parent, &s) == 0 && (s.st_uid == geteuid() || s.st_uid == 0) &&
             ((s.st_mode & 022) == 0 || (s.st_mode & S_ISVTX) != 0);
        if (!up[0]) break;
    }
    ok = ok && up;
    free(up);
    if (ok) *real_out = real;
    else free(real);
    return ok;
}

const char *pw_cache_dir(char *buf, size_t size, const char **why)
{
    const char *env = getenv("PEERWAVE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    *why = NULL;
    if (env && (!env[0] || !strcmp(env, "none"))) return NULL;
    if (env) {
        n = snprintf(buf, size, "%s", env);
    } else if (xdg && xdg[0]) {
        n = snprintf(buf, size, "%s/peerwave", xdg);
        if (n > 0 && (size_t)n < size) make_dir(buf);
        n = snprintf(buf, size, "%s/peerwave/cells", xdg);
    } else if (home && home[0]) {
        n = snprintf(buf, size, "%s/.cache", home);
        if (n > 0 && (size_t)n < size) make_dir(buf);
        n = snprintf(buf, size, "%s/.cache/peerwave", home);
        if (n > 0 && (size_t)n < size) make_dir(buf);
        n = snprintf(buf, size, "%s/.cache/peerwave/cells", home);
    } else {
        return NULL;
    }
    if (n <= 0 || (size_t)n >= size) {
        *why = "the cache directory's path is too long";
        return NULL;
    }
    if (make_dir(buf) != 0) {
        *why = "the cache directory cannot be created";
        return NULL;
    }
    struct stat is;
    if (stat(buf, &is) == 0 && !S_ISDIR(is.st_mode)) { /* ($PEERWAVE_CACHE naming a file, say) */
        *why = "the cache path is a file, not a directory";
        return NULL;
    }
    char *real = NULL;
    if (!safe_dir(buf, &real)) {
        *why = "the cache directory, or one above it, is another user's or writable by others";
        return NULL;
    }
    n = snprintf(buf, size, "%s", real);
    free(real);
    if (n <= 0 || (size_t)n >= size) {
        *why = "the cache directory's path is too long";
        return NULL;
    }
    return buf;
}

/* An entry: "PWCACHE1", the image's size and hash (16 bytes), the image. */
static const char magic[8] = {'P', 'W', 'C', 'A', 'C', 'H', 'E', '1'};

static int entry_path(char *buf, size_t size, const char *dir, const char *key, const char *ext)
{
    int n = snprintf(buf, size, "%s/%s.%s", dir, key, ext);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int pw_cache_load(const char *dir, const char *key, const char *ext, void **data, size_t *size)
{
    char path[4096];
    *data = NULL;
    *size = 0;
    if (!dir || entry_path(path, sizeof path, dir, key, ext) != 0) return 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat s;
    unsigned char head[8 + 8 + 16];
    void *img = NULL;
    int ok = 0;
    if (fstat(fd, &s) == 0 && S_ISREG(s.st_mode) && s.st_uid == geteuid() && (s.st_mode & 022) == 0 &&
        s.st_size >= (off_t)sizeof head && read(fd, head, sizeof head) == (ssize_t)sizeof head &&
        !memcmp(head, magic, 8)) {
        uint64_t n;
        memcpy(&n, head + 8, 8);
        if (n == (uint64_t)s.st_size - sizeof head && n > 0 && (img = malloc((size_t)n)) &&
            read(fd, img, (size_t)n) == (ssize_t)n) {
            pw_hash h;
            pw_hash_init(&h);
            pw_hash_add(&h, img, (size_t)n);
            ok = !memcmp(head + 16, &h.a, 8) && !memcmp(head + 24, &h.b, 8);
            if (ok) *size = (size_t)n;
        }
    }
    close(fd);
    if (!ok) {
        free(img);
        return 0;
    }
    *data = img;
    return 1;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int pw_cache_store(const char *dir, const char *key, const char *ext, const void *data, size_t size)
{
    char path[4096], tmp[4200];
    if (!dir || entry_path(path, sizeof path, dir, key, ext) != 0) return errno = ENAMETOOLONG, -1;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.XXXXXX", path, (long)getpid());
    int fd = mkostemp(tmp, O_CLOEXEC); /* mode 0600 */
    if (fd < 0) return -1;
    unsigned char head[8 + 8 + 16];
    uint64_t n = size;
    pw_hash h;
    pw_hash_init(&h);
    pw_hash_add(&h, data, size);
    memcpy(head, magic, 8);
    memcpy(head + 8, &n, 8);
    memcpy(head + 16, &h.a, 8);
    memcpy(head + 24, &h.b, 8);
    int rc = write_all(fd, head, sizeof head) == 0 && write_all(fd, data, size) == 0 ? 0 : -1;
    if (close(fd) != 0) rc = -1;
    if (rc == 0) rc = rename(tmp, path);
    if (rc != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
    }
    return rc;
}

void pw_cache_note(const char *why, char *note, size_t size)
{
    if (why && note && size && !note[0]) snprintf(note, size, "compiled code not cached: %s", why);
}
