/* cli_trace.c - see cli_trace.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_trace.h"

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

int cli_trace_finish(cli_trace *t, const char *path, const char *title, cli_report *rep)
{
    if (t->failed) {
        cli_error("--trace: out of memory while recording tiles");
        return EXIT_DATA;
    }
    if (t->count == 0) {
        cli_error("--trace: this run recorded no tiles (tracing covers the CPU engines' peer and barrier strategies)");
        return EXIT_USAGE;
    }
    int workers = 0;
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (int64_t k = 0; k < t->count; k++) {
        const pw_trace_record *r = &t->records[k];
        if (r->worker + 1 > workers) workers = r->worker + 1;
        if (r->start_ns < t0) t0 = r->start_ns;
        if (r->end_ns > t1) t1 = r->end_ns;
    }
    lane_stats *lanes = calloc((size_t)workers, sizeof *lanes);
    if (!lanes) {
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
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("--trace %s: %s", path, strerror(errno));
        free(lanes);
        return EXIT_DATA;
    }
    const double width = 1200, lane_h = 16, left = 90, top = 40;
    double span = (double)(t1 > t0 ? t1 - t0 : 1);
    double height = top + workers * (lane_h + 4) + 40;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
            left + width + 20, height);
    fprintf(f, "<title>%s</title>\n<text x=\"%.0f\" y=\"20\" font-size=\"14\">%s: %" PRId64 " tiles on %d workers, %.3f ms</text>\n",
            title, left, title, t->count, workers, span / 1e6);
    int64_t corner = 0, inter = 0, busy = 0, wait = 0;
    for (int w = 0; w < workers; w++) {
        const lane_stats *l = &lanes[w];
        int64_t lane_span = t1 - t0, lane_corner = l->tiles ? (l->first - t0) + (t1 - l->last) : lane_span;
        int64_t lane_idle = lane_span - l->busy;
        corner += lane_corner;
        inter += lane_idle - lane_corner;
        busy += l->busy;
        wait += l->wait;
        double y = top + w * (lane_h + 4);
        fprintf(f, "<g class=\"lane\" data-worker=\"%d\" data-span-ns=\"%" PRId64 "\" data-busy-ns=\"%" PRId64 "\" data-idle-ns=\"%" PRId64
                   "\" data-corner-idle-ns=\"%" PRId64 "\" data-wait-ns=\"%" PRId64 "\">\n",
                w, lane_span, l->busy, lane_idle, lane_corner, l->wait);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">worker %d</text>\n", left - 80, y + lane_h - 4, w);
        fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"#eeeeee\"/>\n", left, y, width, lane_h);
        for (int64_t k = 0; k < t->count; k++) {
            const pw_trace_record *r = &t->records[k];
            if (r->worker != w) continue;
            double x0 = left + (double)(r->start_ns - t0) / span * width, x1 = left + (double)(r->end_ns - t0) / span * width;
            int hue = (int)((r->tile_row * 137) % 360);
            fprintf(f, "<rect class=\"tile\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"hsl(%d,60%%,55%%)\" "
                       "data-start-ns=\"%" PRId64 "\" data-end-ns=\"%" PRId64 "\"><title>tile-row %" PRId64 ", tile %" PRId64
                       ": %.1f us, waited %.1f us</title></rect>\n",
                    x0, y, x1 - x0 > 0.05 ? x1 - x0 : 0.05, lane_h, hue, r->start_ns - t0, r->end_ns - t0, r->tile_row,
                    r->tile_col, (double)(r->end_ns - r->start_ns) / 1e3, (double)(r->start_ns - r->wait_ns) / 1e3);
        }
        fprintf(f, "</g>\n");
    }
    double total = (double)(t1 - t0) * workers;
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">grey: idle. corner idle %.1f%%, intermediate idle %.1f%%, counter waits %.1f%%, "
               "mean tile %.1f us</text>\n</svg>\n",
            left, height - 12, 100.0 * (double)corner / total, 100.0 * (double)inter / total, 100.0 * (double)wait / total,
            (double)busy / (double)t->count / 1e3);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    free(lanes);
    if (bad) {
        cli_error("--trace %s: write failed", path);
        return EXIT_DATA;
    }
    cli_detail(rep, "trace", "%s", path);
    cli_detail(rep, "trace_tiles", "%" PRId64, t->count);
    cli_detail(rep, "trace_idle_corner_pct", "%.2f", 100.0 * (double)corner / total);
    cli_detail(rep, "trace_idle_intermediate_pct", "%.2f", 100.0 * (double)inter / total);
    cli_detail(rep, "trace_wait_pct", "%.2f", 100.0 * (double)wait / total);
    cli_detail(rep, "trace_mean_tile_us", "%.3f", (double)busy / (double)t->count / 1e3);
    return 0;
}
