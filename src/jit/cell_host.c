/* cell_host.c - a user cell compiled by the system C compiler and loaded (cell_host.h). */
#include "cell_host.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/status_detail.h"
#include "cell_cache.h"
#include "device_sources.h"

extern char **environ;

/* Bump when the generated entry points change: old cache entries then stop matching. */
#define HOST_GLUE_VERSION "host-glue-1"

static const char *embedded(const char *name)
{
    for (int k = 0; k < pw_device_source_count; k++)
        if (!strcmp(pw_device_sources[k].name, name)) return pw_device_sources[k].text;
    return NULL;
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    long n;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = 0;
            if (size) *size = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

static int write_file(const char *path, const char *const *parts, int n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = 1;
    for (int k = 0; k < n; k++) ok &= fputs(parts[k], f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The entry points, in C, after the cell (cell_host.h says what each does). */
static char *glue(const pw_cell_decl *d)
{
    char *g = malloc(4096);
    if (!g) return NULL;
    int n = snprintf(g, 4096, "\n#line 1 \"<peerwave: host entry points>\"\n#include <string.h>\n");
    if (d->form == PW_CELL_LINEAR) {
        n += snprintf(g + n, 4096 - (size_t)n,
                      "void pw_host_boundary(const void *c, int64_t i, int64_t j, void *out)\n"
                      "{ pw_value v = pw_boundary((const pw_ctx *)c, i, j); memcpy(out, &v, sizeof v); }\n"
                      "void pw_host_cell(const void *c, int64_t i, int64_t j, const void *up, const void *left, const void *diag, void *out)\n"
                      "{ pw_value u, l, g; memcpy(&u, up, sizeof u); memcpy(&l, left, sizeof l); memcpy(&g, diag, sizeof g);\n"
                      "  pw_value v = pw_cell((const pw_ctx *)c, i, j, u, l, g); memcpy(out, &v, sizeof v); }\n");
        if (d->reduce_field >= 0) {
            const char *f = d->scalar ? "" : d->fields[d->reduce_field].name;
            const char *dot = d->scalar ? "" : ".";
            const char *t = pw_cell_type_name(d->fields[d->reduce_field].f.type);
            const char *low = !strcmp(t, "float") || !strcmp(t, "double") ? "-__builtin_inf()"
                              : !strcmp(t, "int32_t")                    ? "INT32_MIN"
                              : !strcmp(t, "int64_t")                    ? "INT64_MIN"
                                                                         : "0";
            n += snprintf(g + n, 4096 - (size_t)n,
                          "int pw_host_greater(const void *a, const void *b)\n"
                          "{ pw_value x, y; memcpy(&x, a, sizeof x); memcpy(&y, b, sizeof y); return x%s%s > y%s%s; }\n"
                          "void pw_host_lowest(void *out)\n"
                          "{ pw_value v; memset(&v, 0, sizeof v); v%s%s = (%s)%s; memcpy(out, &v, sizeof v); }\n",
                          dot, f, dot, f, dot, f, t, low);
        }
    } else if (d->form == PW_CELL_STENCIL) { /* the old value read before the write: Gauss-Seidel */
        n += snprintf(g + n, 4096 - (size_t)n,
                      "void pw_host_row(const void *vc, int64_t i, int64_t j0, int64_t j1)\n"
                      "{ const pw_ctx *c = (const pw_ctx *)vc; const int64_t s = c->stride;\n"
                      "  pw_value *row = c->grid + (i + 1) * s + 1;\n"
                      "  for (int64_t j = j0; j < j1; j++) { pw_value *p = row + j; *p = pw_cell(c, *p, p[-s], p[-1], p[s], p[1]); } }\n");
    } else if (d->form == PW_CELL_GRID3) { /* flattened columns: c = j * planes + k; the cell sees
                                              * its point in a window (cell_decl.c: pw_at3 flags reads
                                              * past the downwind halo where `far` is given) */
        n += snprintf(g + n, 4096 - (size_t)n,
                      "void pw_host_row_watch(const void *vc, int64_t i, int64_t c0, int64_t c1, unsigned *far)\n"
                      "{ pw_window3 w; w.c = *(const pw_ctx *)vc; w.far = far; w.i = i;\n"
                      "  const int64_t P = w.c.planes;\n"
                      "  int64_t j = c0 / P, k = c0 - j * P;\n"
                      "  pw_value *row = w.c.grid + (i + %d) * w.c.stride;\n"
                      "  for (int64_t x = c0; x < c1; x++) {\n"
                      "    w.j = j, w.k = k;\n"
                      "    row[(j + %d) * (P + %d) + k + %d] = pw_cell(&w.c, i, j, k);\n"
                      "    if (++k == P) k = 0, j++; } }\n"
                      "void pw_host_row(const void *vc, int64_t i, int64_t c0, int64_t c1)\n"
                      "{ pw_host_row_watch(vc, i, c0, c1, 0); }\n",
                      d->halo, d->halo, 2 * d->halo, d->halo);
    } else {
        n += snprintf(g + n, 4096 - (size_t)n,
                      "void pw_host_row(const void *vc, int64_t i, int64_t j0, int64_t j1)\n"
                      "{ const pw_ctx *c = (const pw_ctx *)vc;\n"
                      "  pw_value *row = c->grid + (i + %d) * c->stride + %d;\n"
                      "  for (int64_t j = j0; j < j1; j++) row[j] = pw_cell(c, i, j); }\n",
                      d->halo, d->halo);
    }
    if (d->form == PW_CELL_GRID || d->form == PW_CELL_GRID3) /* (pw_at's checked reads: cell_decl.c) */
        n += snprintf(g + n, 4096 - (size_t)n,
                      "#ifdef PW_CHECK_READS\n"
                      "static int pw_outside_seen;\nstatic int64_t pw_outside_at[3];\n"
                      "void pw_host_note_outside(int64_t i, int64_t j, int64_t k)\n"
                      "{ if (!__atomic_exchange_n(&pw_outside_seen, 1, __ATOMIC_RELAXED))\n"
                      "    pw_outside_at[0] = i, pw_outside_at[1] = j, pw_outside_at[2] = k; }\n"
                      "int pw_host_outside(int64_t at[3])\n"
                      "{ const int seen = __atomic_exchange_n(&pw_outside_seen, 0, __ATOMIC_RELAXED);\n"
                      "  if (seen) memcpy(at, pw_outside_at, sizeof pw_outside_at);\n  return seen; }\n"
                      "#endif\n");
    if (n >= 4096) {
        free(g);
        return NULL;
    }
    return g;
}

/* cc -shared ... -o so src, its output into log; 0 when it succeeded. */
/* CC split into words at blanks, as make does ("ccache gcc", "gcc -march=native"; no quoting):
 * its words first, then ours (a user's -O0 is overridden by our -O2: cells are built for speed). */
#define CC_MAX_WORDS 16
static int run_cc(const char *cc, const char *src, const char *so, const char *log)
{
    static const char *const ours[] = {"-std=c11", "-O2", "-fPIC", "-shared", "-ffp-contract=off", "-fno-fast-math", "-w", "-o"};
    char words[1024], *save = NULL;
    char *argv[CC_MAX_WORDS + sizeof ours / sizeof *ours + 3];
    int argc = 0;
    if (strlen(cc) >= sizeof words) return -2;
    strcpy(words, cc);
    /* (strtok_r: cells of a batch or of Python threads compile at once) */
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (argc == CC_MAX_WORDS) return -2;
        argv[argc++] = w;
    }
    if (argc == 0) return -2;
    for (size_t k = 0; k < sizeof ours / sizeof *ours; k++) argv[argc++] = (char *)ours[k];
    argv[argc++] = (char *)so;
    argv[argc++] = (char *)src;
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int rc = -1, status;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) == 0 &&
        posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600) == 0 &&
        posix_spawn_file_actions_adddup2(&fa, 1, 2) == 0 && posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0) {
        pid_t w;
        while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {}
        /* (a caller that ignores SIGCHLD reaps the child itself: ECHILD, and the .so decides) */
        rc = w == pid ? (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1) : 0;
    }
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* Load an image as a shared object without a second path on disk: a memory file, kept open while
 * the object is loaded (dlopen knows a library by its path: a reused descriptor number would
 * hand back the library loaded before). */
static void *load_image(const void *image, size_t size, int *fd_out)
{
#ifdef MFD_EXEC /* Linux 6.3+ may make memory files non-executable unless asked */
    int fd = memfd_create("peerwave-cell", MFD_CLOEXEC | MFD_EXEC);
    if (fd < 0 && errno == EINVAL) fd = memfd_create("peerwave-cell", MFD_CLOEXEC);
#else
    int fd = memfd_create("peerwave-cell", MFD_CLOEXEC);
#endif
    *fd_out = fd;
    if (fd < 0) return NULL;
    void *h = NULL;
    const char *p = image;
    size_t left = size;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        p += w;
        left -= (size_t)w;
    }
    if (!left) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            /* a function the cell declares or its form needs but never defines (pw_boundary of a
             * linear cell, say) links only now: name it rather than the memory file */
            const char *why = dlerror(), *missing = why ? strstr(why, "undefined symbol: ") : NULL;
            if (missing) {
                missing += strlen("undefined symbol: ");
                pw_set_cell_missing_detail(missing, (int)strcspn(missing, " \n"));
            }
            else
                pw_set_error_detail("loading the compiled cell: %s", why ? why : "unknown reason");
        }
    }
    if (!h) {
        close(fd);
        *fd_out = -1;
    }
    return h;
}

static pw_status resolve(const pw_cell_decl *d, pw_cell_host *out)
{
    void *h = out->handle;
    *(void **)&out->boundary = dlsym(h, "pw_host_boundary");
    *(void **)&out->cell = dlsym(h, "pw_host_cell");
    *(void **)&out->greater = dlsym(h, "pw_host_greater");
    *(void **)&out->lowest = dlsym(h, "pw_host_lowest");
    *(void **)&out->row = dlsym(h, "pw_host_row");
    *(void **)&out->row_watch = dlsym(h, "pw_host_row_watch");
    *(void **)&out->outside = dlsym(h, "pw_host_outside");
    int ok = d->form == PW_CELL_LINEAR ? out->boundary && out->cell && (d->reduce_field < 0 || (out->greater && out->lowest))
                                       : out->row != NULL && (d->form != PW_CELL_GRID3 || out->row_watch != NULL);
    if (!ok) {
        pw_set_error_detail("the compiled cell lacks its entry points (is CC a C compiler? a C++ compiler mangles their "
                            "names)");
        return PW_ERR_COMPILE;
    }
    return PW_OK;
}

/* Compile in a private temporary directory; the image (malloc'd) in *image. */
static pw_status compile(const char *cc, const char *const *parts, int n_parts, void **image, size_t *size, char **log)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096], src[4200], so[4200], logp[4200];
    snprintf(dir, sizeof dir, "%s/peerwave-cc-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        pw_set_error_detail("cannot make a temporary directory for the C compiler: %s", strerror(errno));
        return PW_ERR_COMPILE;
    }
    snprintf(src, sizeof src, "%s/cell.c", dir);
    snprintf(so, sizeof so, "%s/cell.so", dir);
    snprintf(logp, sizeof logp, "%s/cc.log", dir);
    pw_status st = PW_OK;
    if (write_file(src, parts, n_parts) != 0) {
        pw_set_error_detail("cannot write the cell's source for the C compiler: %s", strerror(errno));
        st = PW_ERR_COMPILE;
    } else {
        int rc = run_cc(cc, src, so, logp);
        *log = read_file(logp, NULL);
        if (rc == -2) {
            pw_set_error_detail("CC='%.200s' is not a compiler command: one to %d words apart by blanks, under 1024 "
                                "characters", cc, CC_MAX_WORDS);
            st = PW_ERR_COMPILE;
        } else if (rc < 0) {
            pw_set_error_detail("cannot run the C compiler '%s' (install one, or set CC)", cc);
            st = PW_ERR_COMPILE;
        } else if (rc != 0) {
            pw_set_error_from_log(*log, "the C compiler failed without a message");
            st = PW_ERR_COMPILE;
        } else if (!(*image = read_file(so, size))) {
            pw_set_error_detail("the C compiler wrote no shared object");
            st = PW_ERR_COMPILE;
        }
    }
    unlink(src);
    unlink(so);
    unlink(logp);
    rmdir(dir);
    return st;
}

pw_status pw_host_object_build(const char *const *parts, int n_parts, const char *version, void **handle, int *fd,
                               char **log, int *compiled, char *note, size_t note_size)
{
    *handle = NULL;
    *fd = -1;
    *log = NULL;
    *compiled = 0;
    const char *cc = getenv("CC") && getenv("CC")[0] ? getenv("CC") : "cc";
    pw_hash h;
    pw_hash_init(&h);
    pw_hash_add_str(&h, version);
#if defined(__x86_64__)
    pw_hash_add_str(&h, "x86_64"); /* a home directory shared between machines of two kinds */
#elif defined(__aarch64__)
    pw_hash_add_str(&h, "aarch64");
#endif
    pw_hash_add_str(&h, cc);
    for (int k = 0; k < n_parts; k++) pw_hash_add_str(&h, parts[k]);
    char key[PW_CACHE_KEY_CHARS], dirbuf[4096];
    pw_hash_hex(&h, key);
    const char *why, *dir = pw_cache_dir(dirbuf, sizeof dirbuf, &why);
    pw_cache_note(why, note, note_size);
    void *image = NULL;
    size_t size = 0;
    pw_status st = PW_OK;
    if (pw_cache_load(dir, key, "so", &image, &size)) {
        *handle = load_image(image, size, fd);
        if (!*handle) { /* intact but not loadable here (another machine's?): build it again */
            free(image);
            image = NULL;
        }
    }
    if (!*handle) {
        st = compile(cc, parts, n_parts, &image, &size, log);
        if (st == PW_OK) {
            *compiled = 1;
            if (dir) pw_cache_store(dir, key, "so", image, size); /* a failed store only costs a recompile */
            *handle = load_image(image, size, fd);
            if (!*handle) st = PW_ERR_COMPILE;
        }
    }
    free(image);
    return st;
}

void pw_host_object_close(void *handle, int fd)
{
    if (handle) dlclose(handle);
    if (handle && fd >= 0) close(fd);
}

const char *pw_host_embedded(const char *name) { return embedded(name); }
void *pw_host_object_symbol(void *handle, const char *name) { return dlsym(handle, name); }

pw_status pw_cell_host_build(const pw_cell_decl *d, const char *types, const char *text, const char *name,
                             int checked, pw_cell_host *out, char **log, int *compiled, char *note, size_t note_size)
{
    memset(out, 0, sizeof *out);
    *log = NULL;
    *compiled = 0;
    const char *prelude = embedded("include/peerwave_cell.h");
    char *entry = glue(d), line[4200];
    if (!prelude || !entry) {
        free(entry);
        return prelude ? PW_ERR_OUT_OF_MEMORY : PW_ERR_UNSUPPORTED;
    }
    /* #line makes the compiler's messages point into the user's file. */
    snprintf(line, sizeof line, "\n#line 1 \"%s\"\n", name);
    const char *parts[] = {prelude, checked ? "\n#define PW_CHECK_READS 1\n" : "\n", types, line, text, entry};
    pw_status st = pw_host_object_build(parts, 6, HOST_GLUE_VERSION, &out->handle, &out->fd, log, compiled, note, note_size);
    free(entry);
    if (st == PW_ERR_COMPILE) pw_name_cell_missing_detail(name); /* (load_image knows no name) */
    if (st == PW_OK) st = resolve(d, out);
    if (st == PW_OK && checked && !out->outside) {
        pw_set_error_detail("the checked build of the cell lacks its entry points");
        st = PW_ERR_COMPILE;
    }
    if (st != PW_OK) pw_cell_host_close(out);
    return st;
}

void pw_cell_host_close(pw_cell_host *h)
{
    pw_host_object_close(h->handle, h->fd);
    memset(h, 0, sizeof *h);
}
