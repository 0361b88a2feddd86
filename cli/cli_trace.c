/* cli_trace.c - see cli_trace.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_trace.h"
#include "io_util.h"

void cli_trace_collect(void *user, const pw_trace_record *record)
{
    cli_trace *t = user;
    if (t->count == t->capacity) {
        int64_t cap = t->capacity ? 2 * t->capacity : 4096;
        pw_trace_record *grown = realloc(t->records, sizeof *grown * (size_t)cap);
        if (!grown) {
            t->failed = 1;
            return;
        }
        t->records = grown;
        t->capacity = cap;
    }
    t->records[t->count++] = *record;
}

void cli_trace_free(cli_trace *t)
{
    free(t->records);
    memset(t, 0, sizeof *t);
}

typedef struct lane_stats {
    int64_t first, last, busy, wait, tiles;
} lane_stats;

/* Records ordered by worker, then start time: each lane is one contiguous run of the array. */
static int by_worker_then_start(const void *x, const void *y)
{
    const pw_trace_record *a = x, *b = y;
    if (a->worker != b->worker) return a->worker < b->worker ? -1 : 1;
    return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

/* One lane's tiles.  Consecutive tiles of the same tile-row (or narrower than a pixel) whose
 * gap is under a quarter pixel are drawn as one rectangle (data-tiles says how many, data-busy-ns their summed time): a
 * large GPU run has hundreds of thousands of tiles and the picture stays the same. */
static void write_lane_tiles(FILE *f, const pw_trace_record *rec, int64_t n, int64_t t0, double span, double left,
                             double width, double y, double lane_h)
{
    const double merge_ns = span / width / 4;
    for (int64_t k = 0; k < n;) {
        int64_t end = k + 1, busy = rec[k].end_ns - rec[k].start_ns, waited = rec[k].start_ns - rec[k].wait_ns;
        /* same tile-row, or a tile narrower than a pixel (whose colour could not be seen) */
        while (end < n && (double)(rec[end].start_ns - rec[end - 1].end_ns) < merge_ns &&
               (rec[end].tile_row == rec[k].tile_row || (double)(rec[end].end_ns - rec[end].start_ns) < 4 * merge_ns)) {
            busy += rec[end].end_ns - rec[end].start_ns;
            waited += rec[end].start_ns - rec[end].wait_ns;
            end++;
        }
        const pw_trace_record *a = &rec[k], *b = &rec[end - 1];
        double x0 = left + (double)(a->start_ns - t0) / span * width, x1 = left + (double)(b->end_ns - t0) / span * width;
        int hue = (int)((a->tile_row * 137) % 360);
        fprintf(f, "<rect class=\"tile\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"hsl(%d,60%%,55%%)\" "
                   "data-tiles=\"%" PRId64 "\" data-busy-ns=\"%" PRId64 "\"><title>tile-row %" PRId64 ", tiles %" PRId64 "-%" PRId64
                   ": %.1f us busy, %.1f us waiting</title></rect>\n",
                x0, y, x1 - x0 > 0.05 ? x1 - x0 : 0.05, lane_h, hue, end - k, busy, a->tile_row, a->tile_col, b->tile_col,
                (double)busy / 1e3, (double)waited / 1e3);
        k = end;
    }
}

/* The raw records, one line a tile, times in ns since the run began. */
static void write_csv(FILE *f, const cli_trace *t)
{
    fprintf(f, "worker,tile_row,tile_col,wait_ns,start_ns,end_ns\n");
    for (int64_t k = 0; k < t->count; k++) {
        const pw_trace_record *r = &t->records[k];
        fprintf(f, "%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", r->worker, r->tile_row, r->tile_col,
                r->wait_ns, r->start_ns, r->end_ns);
    }
}

/* The Gantt chart: a lane a worker, its tiles coloured by tile-row, the section 7.3 summary. */
static void write_svg(FILE *f, const cli_trace *t, const char *title, const lane_stats *lanes, const int64_t *lane_first,
                      int workers, int64_t t0, int64_t t1)
{
    const double width = 1200, lane_h = workers > 64 ? 6 : 16, gap = workers > 64 ? 1 : 4, left = 90, top = 40;
    double span = (double)(t1 > t0 ? t1 - t0 : 1);
    double height = top + workers * (lane_h + gap) + 40;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
            left + width + 20, height);
    fprintf(f, "<title>%s</title>\n<text x=\"%.0f\" y=\"20\" font-size=\"14\">%s: %" PRId64 " tiles on %d workers, %.3f ms</text>\n",
            title, left, title, t->count, workers, span / 1e6);
    int64_t corner = 0, busy = 0, wait = 0;
    for (int w = 0; w < workers; w++) {
        const lane_stats *l = &lanes[w];
        int64_t lane_span = t1 - t0, lane_corner = l->tiles ? (l->first - t0) + (t1 - l->last) : lane_span;
        corner += lane_corner;
        busy += l->busy;
        wait += l->wait;
        double y = top + w * (lane_h + gap);
        fprintf(f, "<g class=\"lane\" data-worker=\"%d\" data-span-ns=\"%" PRId64 "\" data-busy-ns=\"%" PRId64 "\" data-idle-ns=\"%" PRId64
                   "\" data-corner-idle-ns=\"%" PRId64 "\" data-wait-ns=\"%" PRId64 "\" data-tiles=\"%" PRId64 "\">\n",
                w, lane_span, l->busy, lane_span - l->busy, lane_corner, l->wait, l->tiles);
        if (lane_h >= 10 || w % 8 == 0) fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">worker %d</text>\n", left - 80, y + lane_h - 1, w);
        fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"#eeeeee\"/>\n", left, y, width, lane_h);
        write_lane_tiles(f, t->records + lane_first[w], l->tiles, t0, span, left, width, y, lane_h);
        fprintf(f, "</g>\n");
    }
    double total = (double)(t1 - t0) * workers;
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">grey: idle. corner idle %.1f%%, intermediate idle %.1f%%, counter waits %.1f%%, "
               "mean tile %.2f us</text>\n</svg>\n",
            left, height - 12, 100.0 * (double)corner / total, 100.0 * (double)(total - busy - corner) / total,
            100.0 * (double)wait / total, (double)busy / (double)t->count / 1e3);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

int cli_trace_finish(cli_trace *t, const char *path, const char *title, cli_report *rep)
{
    if (t->failed) {
        cli_error("--trace: out of memory while recording tiles");
        return EXIT_DATA;
    }
    if (t->count == 0) {
        cli_error("--trace: this run recorded no tiles (tracing covers the tile engines of the peer and barrier "
                  "strategies; the engine that ran has none to draw: the GPU's warp-rows engine and an alignment's "
                  "GPU passes, for one)");
        return EXIT_USAGE;
    }
    qsort(t->records, (size_t)t->count, sizeof *t->records, by_worker_then_start);
    /* a lane for every worker of the run (the report's threads: a worker may have taken no tile
     * at all, e.g. 3 threads on a loaded 2-core machine), and for any a record names */
    int workers = t->records[t->count - 1].worker + 1;
    for (int k = 0; k < rep->n; k++)
        if (!strcmp(rep->key[k], "threads") && atoi(rep->value[k]) > workers) workers = atoi(rep->value[k]);
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (int64_t k = 0; k < t->count; k++) {
        if (t->records[k].start_ns < t0) t0 = t->records[k].start_ns;
        if (t->records[k].end_ns > t1) t1 = t->records[k].end_ns;
    }
    lane_stats *lanes = calloc((size_t)workers, sizeof *lanes);
    int64_t *lane_first = calloc((size_t)workers + 1, sizeof *lane_first);
    if (!lanes || !lane_first) {
        free(lanes), free(lane_first);
        cli_error("--trace: out of memory");
        return EXIT_DATA;
    }
    for (int w = 0; w < workers; w++) lanes[w].first = INT64_MAX, lanes[w].last = INT64_MIN;
    for (int64_t k = 0; k < t->count; k++) {
        const pw_trace_record *r = &t->records[k];
        lane_stats *l = &lanes[r->worker];
        if (r->start_ns < l->first) l->first = r->start_ns;
        if (r->end_ns > l->last) l->last = r->end_ns;
        l->busy += r->end_ns - r->start_ns;
        l->wait += r->start_ns - r->wait_ns;
        l->tiles++;
    }
    for (int w = 0; w < workers; w++) lane_first[w + 1] = lane_first[w] + lanes[w].tiles;
    int64_t corner = 0, busy = 0, wait = 0;
    for (int w = 0; w < workers; w++) {
        corner += lanes[w].tiles ? (lanes[w].first - t0) + (t1 - lanes[w].last) : t1 - t0;
        busy += lanes[w].busy;
        wait += lanes[w].wait;
    }
    FILE *f = io_open_text_output(path);
    if (!f) {
        cli_error("--trace %s: %s", path, strerror(errno));
        free(lanes), free(lane_first);
        return EXIT_DATA;
    }
    if (ends_with(path, ".csv")) {
        write_csv(f, t);
    } else {
        if (io_named_otherwise(path, ".svg"))
            cli_warn("--trace %s: the picture is SVG (a .csv name gets the table), whatever its name's "
                      "extension says", path);
        write_svg(f, t, title, lanes, lane_first, workers, t0, t1);
    }
    int bad = ferror(f);
    bad |= io_close_text_output(f) != 0;
    free(lanes), free(lane_first);
    if (bad) {
        cli_error("--trace %s: write failed", path);
        return EXIT_DATA;
    }
    double span = (double)(t1 > t0 ? t1 - t0 : 1), total = (double)(t1 - t0) * workers;
    cli_detail(rep, "trace", "%s", path);
    cli_detail(rep, "trace_tiles", "%" PRId64, t->count);
    cli_detail(rep, "trace_workers", "%d", workers);
    cli_detail(rep, "trace_span_ms", "%.3f", span / 1e6);
    cli_detail(rep, "trace_idle_corner_pct", "%.2f", 100.0 * (double)corner / total);
    cli_detail(rep, "trace_idle_intermediate_pct", "%.2f", 100.0 * (double)(total - busy - corner) / total);
    cli_detail(rep, "trace_wait_pct", "%.2f", 100.0 * (double)wait / total);
    cli_detail(rep, "trace_mean_tile_us", "%.3f", (double)busy / (double)t->count / 1e3);
    return 0;
}
