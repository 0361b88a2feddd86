/* test_cell_cache.c - the compiled-cell cache (src/jit/cell_cache.c): what it stores comes back
 * intact, and what it must not trust it does not load -- a damaged, truncated, foreign-writable or
 * linked entry, a directory that others could write or swap (itself or one above it). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"
#include "../src/jit/cell_cache.h"

static char root[256];

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", root, name); }

static int loads(const char *dir, const char *key, const char *want, size_t want_n)
{
    void *data = NULL;
    size_t n = 0;
    int ok = pw_cache_load(dir, key, "bin", &data, &n) && n == want_n && !memcmp(data, want, n);
    free(data);
    return ok;
}

static void test_entries(void)
{
    char dir[512], file[600];
    path_of(dir, sizeof dir, "entries");
    CHECK(mkdir(dir, 0700) == 0, "mkdir %s", dir);
    const char image[] = "a compiled cell, 40 bytes of it........";
    CHECK(pw_cache_store(dir, "k1", "bin", image, sizeof image) == 0, "store");
    CHECK(loads(dir, "k1", image, sizeof image), "stored and loaded back");
    CHECK(!loads(dir, "k2", image, sizeof image), "an absent key is no entry");
    snprintf(file, sizeof file, "%s/k1.bin", dir);
    struct stat s;
    CHECK(stat(file, &s) == 0 && (s.st_mode & 077) == 0, "the entry is private (mode %o)", (unsigned)s.st_mode & 0777);
    /* one byte of the image changed: the hash no longer matches */
    FILE *f = fopen(file, "r+b");
    CHECK(f && fseek(f, -3, SEEK_END) == 0 && fputc('!', f) != EOF && fclose(f) == 0, "alter %s", file);
    CHECK(!loads(dir, "k1", image, sizeof image), "an altered entry is not loaded");
    /* truncated (a torn write) */
    CHECK(pw_cache_store(dir, "k1", "bin", image, sizeof image) == 0 && truncate(file, 20) == 0, "truncate");
    CHECK(!loads(dir, "k1", image, sizeof image), "a truncated entry is not loaded");
    /* writable by others */
    CHECK(pw_cache_store(dir, "k1", "bin", image, sizeof image) == 0 && chmod(file, 0666) == 0, "chmod");
    CHECK(!loads(dir, "k1", image, sizeof image), "an entry others can write is not loaded");
    /* a link to an intact entry elsewhere */
    CHECK(pw_cache_store(dir, "k3", "bin", image, sizeof image) == 0, "store k3");
    char link[600], target[600];
    snprintf(target, sizeof target, "%s/k3.bin", dir);
    snprintf(link, sizeof link, "%s/k4.bin", dir);
    CHECK(symlink(target, link) == 0, "symlink");
    CHECK(!loads(dir, "k4", image, sizeof image), "a link is not followed");
    /* different inputs, different keys; the same input, the same key */
    pw_hash a, b, c;
    char ka[PW_CACHE_KEY_CHARS], kb[PW_CACHE_KEY_CHARS], kc[PW_CACHE_KEY_CHARS];
    pw_hash_init(&a), pw_hash_init(&b), pw_hash_init(&c);
    pw_hash_add_str(&a, "ab"), pw_hash_add_str(&a, "c");
    pw_hash_add_str(&b, "a"), pw_hash_add_str(&b, "bc");
    pw_hash_add_str(&c, "ab"), pw_hash_add_str(&c, "c");
    pw_hash_hex(&a, ka), pw_hash_hex(&b, kb), pw_hash_hex(&c, kc);
    CHECK(strcmp(ka, kb) != 0 && strcmp(ka, kc) == 0 && strlen(ka) == 32, "keys %s %s %s", ka, kb, kc);
}

static const char *dir_for(const char *env, char *buf, size_t n, const char **why)
{
    setenv("PEERWAVE_CACHE", env, 1);
    return pw_cache_dir(buf, n, why);
}

static void test_directories(void)
{
    char buf[4096], p[512], q[600];
    const char *why = NULL;
    CHECK(dir_for("none", buf, sizeof buf, &why) == NULL && why == NULL, "PEERWAVE_CACHE=none: off, quietly");
    path_of(p, sizeof p, "made");
    const char *d = dir_for(p, buf, sizeof buf, &why);
    struct stat s;
    CHECK(d && stat(p, &s) == 0 && S_ISDIR(s.st_mode) && (s.st_mode & 0777) == 0700, "created 0700: %s", why ? why : "");
    /* the directory itself writable by others */
    path_of(p, sizeof p, "open");
    CHECK(mkdir(p, 0700) == 0 && chmod(p, 0775) == 0, "mkdir open");
    CHECK(dir_for(p, buf, sizeof buf, &why) == NULL && why, "a group-writable cache is refused");
    /* a link to a good directory */
    path_of(p, sizeof p, "made");
    path_of(q, sizeof q, "made-link");
    CHECK(symlink(p, q) == 0, "symlink dir");
    CHECK(dir_for(q, buf, sizeof buf, &why) == NULL && why, "a linked cache directory is refused");
    char slash[700];
    snprintf(slash, sizeof slash, "%s/", q);
    CHECK(dir_for(slash, buf, sizeof buf, &why) == NULL && why, "... also written with a trailing slash");
    /* the path the cache uses is the real one: through a link above it, the link is gone */
    path_of(p, sizeof p, "real-parent");
    path_of(q, sizeof q, "linked-parent");
    CHECK(mkdir(p, 0700) == 0 && symlink(p, q) == 0, "parent link");
    char via[700], want[700];
    snprintf(via, sizeof via, "%s/c", q);
    snprintf(want, sizeof want, "%s/c", p);
    char *real_want = NULL;
    d = dir_for(via, buf, sizeof buf, &why);
    CHECK(d && (real_want = realpath(want, NULL)) && !strcmp(d, real_want), "the cache path is the real one: %s", d ? d : why);
    free(real_want);
    /* inside a directory others can write (not sticky): they could swap ours */
    path_of(p, sizeof p, "shared");
    CHECK(mkdir(p, 0700) == 0 && chmod(p, 0777) == 0, "mkdir shared");
    snprintf(q, sizeof q, "%s/cache", p);
    CHECK(dir_for(q, buf, sizeof buf, &why) == NULL && why, "a cache below a world-writable directory is refused");
    /* ... unless it is sticky, as /tmp is */
    CHECK(chmod(p, 01777) == 0, "chmod +t");
    CHECK(dir_for(q, buf, sizeof buf, &why) != NULL, "a cache below a sticky directory is taken: %s", why ? why : "");
    /* a file where the directory should be: said so (the note blamed its owner or permissions) */
    path_of(p, sizeof p, "a-file");
    FILE *f = fopen(p, "w");
    CHECK(f && fclose(f) == 0, "make a file");
    CHECK(dir_for(p, buf, sizeof buf, &why) == NULL && why && strstr(why, "a file, not a directory"),
          "a cache path that is a file: %s", why ? why : "(no reason)");
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/pw-test-cache-XXXXXX");
    if (!mkdtemp(root)) return fprintf(stderr, "mkdtemp failed\n"), 1;
    chmod(root, 0700);
    test_entries();
    test_directories();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
    return test_finish();
}
