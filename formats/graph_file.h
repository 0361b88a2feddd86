/* graph_file.h - a directed graph from a file, as CSR (pw_graph of peerwave_tasks.h):
 *   - Matrix Market coordinate (.mtx): "%%MatrixMarket matrix coordinate pattern|real|integer
 *     general|symmetric", '%' comments, a size line "rows cols entries" (square: rows = cols =
 *     vertices), then "i j [value]" lines (1-based); entry (i, j) is the edge i -> j, symmetric
 *     matrices give both directions; values are ignored (BFS counts hops);
 *   - DIMACS shortest-path (.gr, the 9th DIMACS challenge's road networks): 'c' comments, "p sp N
 *     M", then "a u v w" arcs (1-based);
 *   - an edge list: "u v" a line (0-based; more fields ignored), '#' or '%' comments; the vertices
 *     are 0 .. the largest id.
 * The format is told from the first line that is not blank: "%%MatrixMarket", a DIMACS 'c' or
 * 'p' line, else an edge list.  undirected: every edge also the other way. */
#ifndef PW_GRAPH_FILE_H
#define PW_GRAPH_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "peerwave_tasks.h"

typedef struct graph_file {
    pw_graph graph;    /* offsets and targets owned here */
    const char *format; /* "matrix-market", "dimacs" or "edge-list" */
} graph_file;

#define GRAPH_MAX_VERTICES ((int64_t)1 << 28)

/* 0, or -1 with a one-line reason naming the file and line (a malformed line, an index out of
 * range, more than max_vertices vertices, a count that does not match, out of memory). */
int graph_read(const char *path, int undirected, int64_t max_vertices, graph_file *g, char *err, int errlen);
int graph_read_stream(FILE *f, const char *name, int undirected, int64_t max_vertices, graph_file *g, char *err,
                      int errlen);
void graph_file_free(graph_file *g);

#endif
