/* wisdom.c - see wisdom.h. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wisdom.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

#define LINE_MAX_BYTES (PW_WISDOM_KEY_MAX + 128)
#define MAX_LINES 4096 /* a file that grew past this keeps its newest lines */
#define MAX_FILE_BYTES ((long long)MAX_LINES * LINE_MAX_BYTES) /* a file larger is not one of ours */
static const char header[] = "# peerwave wisdom: key\td (s per diagonal step)\ttau_s (s per hand-off)\tworkers\n";

/* The wisdom file for reading: a regular file no larger than any we write, or NULL (a device such
 * as /dev/zero, whose endless bytes were read for ever, or a directory). */
static FILE *open_wisdom(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (long long)st.st_size > MAX_FILE_BYTES) return NULL;
    return fopen(path, "r");
}

/* May pw_wisdom_save replace the file at path?  When there is none, or it is ours (empty, or our
 * header line first): another file named by --wisdom (notes, a binary) was overwritten before. */
static int ours_or_none(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return errno == ENOENT;
    if (!S_ISREG(st.st_mode)) return 0;
    if (st.st_size == 0) return 1;
    FILE *f = open_wisdom(path);
    if (!f) return 0;
    char first[sizeof header];
    const int ok = fgets(first, sizeof first, f) && !strcmp(first, header);
    fclose(f);
    return ok;
}

pw_status pw_wisdom_key(const char *app, const pw_plan *plan, char *key, size_t size)
{
    if (!app || !plan || !key) return PW_ERR_NULL_ARGUMENT;
    if (strpbrk(app, "\t\n\r")) return PW_ERR_INVALID_ARGUMENT;
    char machine[160] = "cpu";
    if (plan->backend == PW_BACKEND_CUDA) {
#ifdef PW_HAVE_CUDA
        pw_status st = pw_cuda_describe(plan->device, machine, sizeof machine);
        if (st != PW_OK) return st;
#endif
    } else {
        /* the vector set too: a fit made on the scalar cells says nothing of AVX-512 tiles */
        snprintf(machine, sizeof machine, "cpu:%d threads:%s", plan->workers_available, pw_simd_name(plan->simd));
    }
    int n = snprintf(key, size, "%s|%s|%s|h=%lld|cap=%d", app, machine,
                     plan->tiling.shape == PW_TILE_HYPER ? "hyper" : "square", (long long)plan->tiling.h,
                     plan->backend == PW_BACKEND_CUDA ? plan->workers : 0);
    return n > 0 && (size_t)n < size ? PW_OK : PW_ERR_INVALID_ARGUMENT;
}

const char *pw_wisdom_default_path(char *path, size_t size)
{
    const char *env = getenv("PEERWAVE_WISDOM");
    int n;
    if (env) {
        if (!env[0] || !strcmp(env, "none")) return NULL;
        n = snprintf(path, size, "%s", env);
    } else if ((env = getenv("XDG_CACHE_HOME")) && env[0]) {
        n = snprintf(path, size, "%s/peerwave/wisdom.tsv", env);
    } else if ((env = getenv("HOME")) && env[0]) {
        n = snprintf(path, size, "%s/.cache/peerwave/wisdom.tsv", env);
    } else {
        return NULL;
    }
    return n > 0 && (size_t)n < size ? path : NULL;
}

/* Split "key\td\ttau\tworkers\n"; 1 when well formed. */
static int parse_line(char *line, char **key, pw_model_fit *fit)
{
    char *tab = strchr(line, '\t');
    if (!tab || line[0] == '#') return 0;
    *tab = 0;
    char *end;
    double d = strtod(tab + 1, &end);
    if (*end != '\t') return 0;
    double tau = strtod(end + 1, &end);
    if (*end != '\t') return 0;
    long workers = strtol(end + 1, &end, 10);
    if (*end != '\n' && *end != 0) return 0;
    if (!(d > 0 && d < 1) || !(tau > 0 && tau < 1) || workers < 1 || workers > (1L << 30)) return 0;
    *key = line;
    fit->d = d;
    fit->tau_s = tau;
    fit->workers_available = (int)workers;
    return 1;
}

int pw_wisdom_find(const char *path, const char *key, pw_model_fit *fit)
{
    if (!path || !key || !fit) return 0;
    FILE *f = open_wisdom(path);
    if (!f) return 0;
    char line[LINE_MAX_BYTES], *k;
    pw_model_fit got;
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (parse_line(line, &k, &got) && !strcmp(k, key)) { /* the last line with the key wins */
            fit->d = got.d;
            fit->tau_s = got.tau_s;
            fit->workers_available = got.workers_available;
            found = 1;
        }
    fclose(f);
    return found;
}

/* mkdir of path's directory (one level: the parent of that must exist). */
static void make_parent(const char *path)
{
    char dir[4096];
    size_t n = strlen(path);
    if (n >= sizeof dir) return;
    memcpy(dir, path, n + 1);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return;
    *slash = 0;
    if (mkdir(dir, 0700) != 0 && errno == ENOENT) { /* e.g. ~/.cache missing too */
        char *up = strrchr(dir, '/');
        if (up && up != dir) {
            *up = 0;
            mkdir(dir, 0700);
            *up = '/';
            mkdir(dir, 0700);
        }
    }
}

static int save_locked(const char *path, const char *key, const pw_model_fit *fit);

int pw_wisdom_save(const char *path, const char *key, const pw_model_fit *fit)
{
    if (!path || !key || !fit || strpbrk(key, "\t\n\r") || strlen(key) >= PW_WISDOM_KEY_MAX) {
        errno = EINVAL;
        return -1;
    }
    if (!ours_or_none(path)) { /* not a wisdom file: left as it is, and no lock made beside it
                                  (--wisdom /etc/passwd made /etc/passwd.lock) */
        errno = EEXIST;
        return -1;
    }
    make_parent(path);
    /* Writers take turns on a lock beside the file (flock: processes, and threads through their
     * own descriptors), so that no key another writer added meanwhile is lost; each writes a file
     * of its own and renames it over the wisdom file. */
    char lock_path[4200];
    if (snprintf(lock_path, sizeof lock_path, "%s.lock", path) >= (int)sizeof lock_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *lock = fopen(lock_path, "a");
    if (lock && flock(fileno(lock), LOCK_EX) != 0) fclose(lock), lock = NULL; /* (no lock: as before, the last rename wins) */
    int result = save_locked(path, key, fit);
    const int e = errno;
    if (lock) fclose(lock); /* (closing releases it) */
    errno = e;
    return result;
}

static int save_locked(const char *path, const char *key, const pw_model_fit *fit)
{
    if (!ours_or_none(path)) { /* not a wisdom file: left as it is */
        errno = EEXIST;
        return -1;
    }
    static atomic_uint writes;
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&writes, 1)) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) return -1;
    fputs(header, out);
    /* Keep the other keys' well-formed lines, at most MAX_LINES - 1 of the newest. */
    FILE *in = open_wisdom(path);
    if (in) {
        char line[LINE_MAX_BYTES], copy[LINE_MAX_BYTES], *k;
        long total = 0, skip;
        pw_model_fit got;
        while (fgets(line, sizeof line, in)) total++;
        skip = total - (MAX_LINES - 1);
        rewind(in);
        for (long n = 0; fgets(line, sizeof line, in); n++) {
            memcpy(copy, line, sizeof line);
            if (n < skip || !parse_line(line, &k, &got) || !strcmp(k, key)) continue;
            fputs(copy, out);
            if (!strchr(copy, '\n')) fputc('\n', out);
        }
        fclose(in);
    }
    fprintf(out, "%s\t%.6g\t%.6g\t%d\n", key, fit->d, fit->tau_s, fit->workers_available);
    if (fclose(out) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        errno = e;
        return -1;
    }
    return 0;
}
