/* graph_file.c - Matrix Market, DIMACS and edge-list graphs to CSR (graph_file.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph_file.h"
#include "io_util.h"

typedef struct edge_list {
    int64_t *uv; /* pairs */
    int64_t n, cap;
} edge_list;

static int push_edge(edge_list *e, int64_t u, int64_t v)
{
    if (e->n == e->cap) {
        const int64_t cap = e->cap ? 2 * e->cap : 1024;
        int64_t *p = realloc(e->uv, sizeof *p * 2 * (size_t)cap);
        if (!p) return -1;
        e->uv = p, e->cap = cap;
    }
    e->uv[2 * e->n] = u, e->uv[2 * e->n + 1] = v;
    e->n++;
    return 0;
}

/* The next whitespace-separated integer of *p; 0, or -1 (not an integer, out of range). */
static int next_int(const char **p, int64_t *v)
{
    const char *s = *p + strspn(*p, " \t\r");
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || errno || (*end && !strchr(" \t\r\n", *end))) return -1;
    *v = x;
    *p = end;
    return 0;
}

static int blank(const char *s) { return s[strspn(s, " \t\r\n")] == '\0'; }

/* Entry or arc (a, b), 1-based, of a file that declared `vertices` and `declared` of them: 1, or 0
 * with the reason in err. */
static int numbered_edge(edge_list *e, int64_t a, int64_t b, int64_t vertices, int64_t declared, int64_t *entries,
                         int both_ways, const char *what, const char *name, int64_t number, char *err, int errlen)
{
    if (a < 1 || a > vertices || b < 1 || b > vertices) {
        snprintf(err, (size_t)errlen, "%s: line %lld: (%lld, %lld) outside 1..%lld", name, (long long)number,
                 (long long)a, (long long)b, (long long)vertices);
        return 0;
    }
    if (++*entries > declared) {
        snprintf(err, (size_t)errlen, "%s: line %lld: more %s than the %lld declared", name, (long long)number, what,
                 (long long)declared);
        return 0;
    }
    if (push_edge(e, a - 1, b - 1) || (both_ways && a != b && push_edge(e, b - 1, a - 1))) {
        snprintf(err, (size_t)errlen, "%s: out of memory", name);
        return 0;
    }
    return 1;
}

typedef enum { EDGES, MTX, DIMACS } kind;

int graph_read_stream(FILE *f, const char *name, int undirected, int64_t max_vertices, graph_file *g, char *err,
                      int errlen)
{
    memset(g, 0, sizeof *g);
    edge_list e = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int64_t number = 0, vertices = -1, declared = -1, max_id = -1, entries = 0;
    int symmetric = 0, sized = 0, ok = 1;
    kind k = EDGES;
    int decided = 0;
#define FAIL(...)                                                                        \
    do {                                                                                 \
        snprintf(err, (size_t)errlen, __VA_ARGS__);                                      \
        ok = 0;                                                                          \
    } while (0)
    while (ok && (got = getline(&line, &cap, f)) >= 0) {
        number++;
        if ((size_t)got != strlen(line)) {
            FAIL("%s: line %lld: not text (a NUL byte)", name, (long long)number);
            break;
        }
        if (number == 1) got = (ssize_t)io_drop_bom(line, (size_t)got); /* (a byte order mark, as some editors write) */
        if (!decided) {
            if (blank(line)) continue;
            decided = 1;
            /* (the banner in any case, as its other words; a .mtx file without one is refused: read
             * as an edge list, its size line became an edge and every vertex moved by one) */
            const size_t name_len = strlen(name);
            const int mtx_name = (name_len > 4 && !strcasecmp(name + name_len - 4, ".mtx")) ||
                                 (name_len > 7 && !strcasecmp(name + name_len - 7, ".mtx.gz"));
            if (mtx_name && strncasecmp(line, "%%MatrixMarket", 14)) {
                FAIL("%s: line %lld: a .mtx file starts with its banner \"%%%%MatrixMarket matrix coordinate FIELD "
                     "SYMMETRY\"", name, (long long)number);
                break;
            }
            if (!strncasecmp(line, "%%MatrixMarket", 14)) {
                k = MTX;
                char object[32] = "", format[32] = "", field[32] = "", sym[32] = "";
                if (sscanf(line + 14, "%31s %31s %31s %31s", object, format, field, sym) != 4 ||
                    strcasecmp(object, "matrix") || strcasecmp(format, "coordinate")) {
                    FAIL("%s: line 1: a Matrix Market coordinate matrix is needed (\"%%%%MatrixMarket matrix coordinate "
                         "FIELD SYMMETRY\")", name);
                    break;
                }
                if (strcasecmp(sym, "general") && strcasecmp(sym, "symmetric") && strcasecmp(sym, "skew-symmetric") &&
                    strcasecmp(sym, "hermitian")) {
                    FAIL("%s: line 1: unknown symmetry '%s'", name, sym);
                    break;
                }
                symmetric = strcasecmp(sym, "general") != 0;
                continue;
            }
            if (line[0] == 'c' || line[0] == 'p') k = DIMACS;
        }
        const char *p = line;
        if (k == MTX) {
            if (line[0] == '%' || blank(line)) continue;
            int64_t a, b, c;
            if (!sized) {
                if (next_int(&p, &a) || next_int(&p, &b) || next_int(&p, &c) || !blank(p) || a < 0 || b < 0 || c < 0) {
                    FAIL("%s: line %lld: the size line \"rows cols entries\" is needed", name, (long long)number);
                    break;
                }
                if (a != b) { /* (entry i j is the edge i -> j: rows and columns number the same vertices) */
                    FAIL("%s: line %lld: a %lld x %lld matrix: a graph's adjacency matrix is square (rows = columns = "
                         "vertices)", name, (long long)number, (long long)a, (long long)b);
                    break;
                }
                vertices = a, declared = c, sized = 1;
                if (vertices > max_vertices) FAIL("%s: %lld vertices: more than %lld", name, (long long)vertices, (long long)max_vertices);
                continue;
            }
            if (next_int(&p, &a) || next_int(&p, &b)) {
                FAIL("%s: line %lld: an entry \"i j [value]\" is needed", name, (long long)number);
                break;
            }
            ok = numbered_edge(&e, a, b, vertices, declared, &entries, symmetric || undirected, "entries", name, number,
                               err, errlen);
        } else if (k == DIMACS) {
            if (line[0] == 'c' || blank(line)) continue;
            if (line[0] == 'p') {
                char what[16] = "";
                long long n = -1, m = -1;
                if (sized || sscanf(line + 1, "%15s %lld %lld", what, &n, &m) != 3 || n < 0 || m < 0) {
                    FAIL("%s: line %lld: one problem line \"p sp VERTICES ARCS\" is needed", name, (long long)number);
                    break;
                }
                vertices = n, declared = m, sized = 1;
                if (vertices > max_vertices) FAIL("%s: %lld vertices: more than %lld", name, (long long)vertices, (long long)max_vertices);
                continue;
            }
            if (line[0] == 'n' && sized) continue; /* a flow problem's node line ("n 1 s"): no arc */
            int64_t a, b;
            p = line + 1;
            if ((line[0] != 'a' && line[0] != 'e') || !sized || next_int(&p, &a) || next_int(&p, &b)) {
                FAIL("%s: line %lld: an arc \"a U V [W]\" after the problem line is needed", name, (long long)number);
                break;
            }
            /* (a colouring file's "e u v" is an undirected edge, as a symmetric .mtx entry: both ways) */
            ok = numbered_edge(&e, a, b, vertices, declared, &entries, undirected || line[0] == 'e', "arcs", name, number,
                               err, errlen);
        } else {
            if (line[0] == '#' || line[0] == '%' || blank(line)) continue;
            int64_t a, b; /* (more fields, e.g. weights, may follow) */
            if (next_int(&p, &a) || next_int(&p, &b)) {
                FAIL("%s: line %lld: an edge \"U V\" of vertex numbers is needed", name, (long long)number);
                break;
            }
            if (a < 0 || b < 0 || a >= max_vertices || b >= max_vertices) {
                FAIL("%s: line %lld: vertex numbers 0..%lld, not (%lld, %lld)", name, (long long)number,
                     (long long)max_vertices - 1, (long long)a, (long long)b);
                break;
            }
            max_id = a > max_id ? a : max_id;
            max_id = b > max_id ? b : max_id;
            if (push_edge(&e, a, b) || (undirected && a != b && push_edge(&e, b, a))) FAIL("%s: out of memory", name);
        }
    }
    free(line);
    if (ok && ferror(f)) FAIL("%s: %s", name, strerror(errno));
    if (ok && k != EDGES && !sized) FAIL("%s: no %s line", name, k == MTX ? "size" : "problem");
    if (ok && k == EDGES) vertices = max_id + 1;
    if (ok && vertices < 1) FAIL("%s: no vertices", name);
    if (ok && k != EDGES && entries != declared)
        FAIL("%s: %lld %s, %lld declared", name, (long long)entries, k == MTX ? "entries" : "arcs", (long long)declared);
    /* CSR: count, offsets, place (stable: the file's order a vertex) */
    int64_t *offsets = NULL, *targets = NULL;
    if (ok) {
        offsets = calloc((size_t)vertices + 1, sizeof *offsets);
        targets = malloc(sizeof *targets * (size_t)(e.n ? e.n : 1));
        if (!offsets || !targets) FAIL("%s: out of memory (%lld vertices, %lld edges)", name, (long long)vertices, (long long)e.n);
    }
    if (ok) {
        for (int64_t i = 0; i < e.n; i++) offsets[e.uv[2 * i] + 1]++;
        for (int64_t v = 0; v < vertices; v++) offsets[v + 1] += offsets[v];
        int64_t *fill = malloc(sizeof *fill * (size_t)vertices);
        if (!fill) {
            FAIL("%s: out of memory", name);
        } else {
            memcpy(fill, offsets, sizeof *fill * (size_t)vertices);
            for (int64_t i = 0; i < e.n; i++) targets[fill[e.uv[2 * i]]++] = e.uv[2 * i + 1];
            free(fill);
        }
    }
    free(e.uv);
    if (!ok) {
        free(offsets), free(targets);
        return -1;
    }
    g->graph = (pw_graph){vertices, offsets, targets};
    g->format = k == MTX ? "matrix-market" : k == DIMACS ? "dimacs" : "edge-list";
    return 0;
#undef FAIL
}

int graph_read(const char *path, int undirected, int64_t max_vertices, graph_file *g, char *err, int errlen)
{
    FILE *f = io_open_input(path, err, errlen); /* (gzip-compressed graphs too, as every reader takes) */
    if (!f) {
        memset(g, 0, sizeof *g);
        return -1;
    }
    int r = graph_read_stream(f, path, undirected, max_vertices, g, err, errlen);
    fclose(f);
    return r;
}

void graph_file_free(graph_file *g)
{
    free((void *)g->graph.offsets);
    free((void *)g->graph.targets);
    memset(g, 0, sizeof *g);
}
