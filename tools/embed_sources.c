/*
 * embed_sources.c - a build tool: embed the device headers in the library as C strings, so that
 * NVRTC (src/jit/) compiles kernels with no include path at run time.
 *
 *   embed_sources OUT.c ROOT FILE...
 *
 * FILE... are paths relative to ROOT (the repository).  Every file they include with quotes is
 * embedded too, transitively (angle-bracket includes are left alone: the device code takes them
 * only where NVRTC does not look, fixed_width.h).  NVRTC finds a header by the exact text of its
 * #include, so each file is registered under its path relative to ROOT and under every quoted
 * name by which an embedded file includes it; one name that would mean two files is an error.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 256
#define MAX_NAMES 1024

struct file {
    char path[PATH_MAX]; /* relative to ROOT, normalised */
    char *text;
    long size;
};
struct name {
    char text[PATH_MAX];
    int file;
};

static struct file files[MAX_FILES];
static int n_files;
static struct name names[MAX_NAMES];
static int n_names;
static const char *root;

static void die(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "embed_sources: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    exit(1);
}

/* Normalise a/b/../c to a/c in place (paths stay inside ROOT and fit PATH_MAX). */
static void normalise(char *p)
{
    if (strlen(p) >= PATH_MAX) die("path too long: %.80s%s", p, "...");
    char out[PATH_MAX] = "";
    char *save = NULL, *part;
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", p);
    for (part = strtok_r(tmp, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (!strcmp(part, ".")) continue;
        if (!strcmp(part, "..")) {
            char *slash = strrchr(out, '/');
            if (!*out) die("%s leaves the source tree%s", p, "");
            if (slash) *slash = 0;
            else *out = 0;
            continue;
        }
        if (*out) strcat(out, "/");
        strcat(out, part);
    }
    strcpy(p, out);
}

static int add_file(char *path);

static void add_name(const char *text, int file)
{
    /* names are written into C string literals and matched by NVRTC as written */
    if (strpbrk(text, "\"\\\n")) die("a header name with a quote, backslash or newline: %s%s", text, "");
    for (int k = 0; k < n_names; k++)
        if (!strcmp(names[k].text, text)) {
            if (names[k].file != file) die("the include name \"%s\" means two files (%s and another)", text, files[file].path);
            return;
        }
    if (n_names == MAX_NAMES) die("too many names%s%s", "", "");
    snprintf(names[n_names].text, sizeof names[n_names].text, "%s", text);
    names[n_names++].file = file;
}

/* The quoted includes of file f: embed each and register its name. */
static void follow_includes(int f)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", files[f].path);
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = 0;
    else dir[0] = 0;
    for (const char *line = files[f].text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p++ != '#') continue;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, "include", 7)) continue;
        p += 7;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != '"') continue;
        const char *end = strchr(p + 1, '"');
        if (!end || end - p - 1 >= PATH_MAX / 2) die("bad #include in %s%s", files[f].path, "");
        char literal[PATH_MAX], target[2 * PATH_MAX];
        snprintf(literal, sizeof literal, "%.*s", (int)(end - p - 1), p + 1);
        snprintf(target, sizeof target, "%s%s", dir, literal);
        normalise(target);
        add_name(literal, add_file(target));
    }
}

static int add_file(char *path)
{
    for (int k = 0; k < n_files; k++)
        if (!strcmp(files[k].path, path)) return k;
    if (n_files == MAX_FILES) die("too many files%s%s", "", "");
    char full[PATH_MAX * 2];
    snprintf(full, sizeof full, "%s/%s", root, path);
    FILE *in = fopen(full, "rb");
    if (!in) die("cannot open %s: %s", full, strerror(errno));
    struct file *f = &files[n_files];
    snprintf(f->path, sizeof f->path, "%s", path);
    if (fseek(in, 0, SEEK_END) != 0 || (f->size = ftell(in)) < 0) die("cannot size %s (not a regular file?)%s", full, "");
    rewind(in);
    f->text = malloc((size_t)f->size + 1);
    if (!f->text || fread(f->text, 1, (size_t)f->size, in) != (size_t)f->size) die("cannot read %s%s", full, "");
    f->text[f->size] = 0;
    fclose(in);
    const int k = n_files++;
    add_name(path, k);
    follow_includes(k);
    return k;
}

int main(int argc, char **argv)
{
    if (argc < 4) die("usage: embed_sources OUT.c ROOT FILE...%s%s", "", "");
    root = argv[2];
    for (int i = 3; i < argc; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s", argv[i]);
        normalise(path);
        add_file(path);
    }
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
    FILE *out = fopen(tmp, "w");
    if (!out) die("cannot write %s: %s", tmp, strerror(errno));
    fprintf(out, "/* Generated by tools/embed_sources.c from the device headers: do not edit. */\n");
    fprintf(out, "#include \"device_sources.h\"\n\n");
    for (int k = 0; k < n_files; k++) {
        fprintf(out, "/* %s */\nstatic const char file_%d[] = {", files[k].path, k);
        for (long b = 0; b < files[k].size; b++) fprintf(out, "%s%d,", b % 24 ? "" : "\n    ", (unsigned char)files[k].text[b]);
        fprintf(out, "0};\n");
    }
    fprintf(out, "\nconst pw_source_file pw_device_sources[] = {\n");
    for (int k = 0; k < n_names; k++)
        fprintf(out, "    {\"%s\", file_%d, %ld},\n", names[k].text, names[k].file, files[names[k].file].size);
    fprintf(out, "};\nconst int pw_device_source_count = %d;\n", n_names);
    if (fclose(out) || rename(tmp, argv[1])) die("cannot write %s: %s", argv[1], strerror(errno));
    return 0;
}
