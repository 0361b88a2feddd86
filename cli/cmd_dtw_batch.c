/* cmd_dtw_batch.c - `peerwave dtw --query Q --db DB`: every query series against every series of a
 * database (or --pairs: series k against series k), the nearest of each query as TSV
 * (pw_dtw_search, peerwave_batch.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_dtw_batch.h"
#include "peerwave_batch.h"
#include "series_set.h"

static int read_set(const char *path, series_set *s, pw_series_set *view)
{
    char err[512];
    if (series_set_read(path, s, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_DATA;
    }
    const double **v = malloc(sizeof *v * (size_t)s->count);
    int64_t *len = malloc(sizeof *len * (size_t)s->count);
    if (!v || !len) {
        free(v);
        free(len);
        series_set_free(s);
        cli_error("%s: out of memory", path);
        return EXIT_DATA;
    }
    for (int64_t k = 0; k < s->count; k++) {
        v[k] = s->values + s->at[k];
        len[k] = s->at[k + 1] - s->at[k];
    }
    *view = (pw_series_set){s->count, v, len};
    return 0;
}

typedef struct dtw_batch_job {
    const cli_dtw_batch_args *args;
    const pw_series_set *q, *db;
    pw_options options;
    pw_dtw_hit *hits;
    pw_batch_info info;
} dtw_batch_job;

static pw_status run_batch(void *p)
{
    dtw_batch_job *j = p;
    if (j->args->pairs) return pw_dtw_pairs(j->q, j->db, j->args->cost, &j->options, j->hits, &j->info);
    return pw_dtw_search(j->q, j->db, j->args->cost, &j->options, j->args->top, j->hits, &j->info);
}

int cmd_dtw_batch(const cli_dtw_batch_args *args, cli_common *common)
{
    series_set qs, dbs;
    pw_series_set q, db;
    int code = read_set(args->query_path, &qs, &q);
    if (code) return code;
    if ((code = read_set(args->db_path, &dbs, &db))) {
        free((void *)q.values);
        free((void *)q.length);
        series_set_free(&qs);
        return code;
    }
    if (args->pairs && q.count != db.count) { /* (as sw --pairs says it) */
        cli_error("dtw --pairs: %s has %" PRId64 " series and %s %" PRId64 ": --pairs runs series k against series k "
                  "(every query against every record: drop --pairs)",
                  args->query_path, q.count, args->db_path, db.count);
        free((void *)q.values), free((void *)q.length), free((void *)db.values), free((void *)db.length);
        series_set_free(&qs), series_set_free(&dbs);
        return EXIT_USAGE;
    }
    const int64_t slots = args->pairs ? q.count : q.count * args->top;
    dtw_batch_job job = {args, &q, &db, common->options, calloc((size_t)slots, sizeof(pw_dtw_hit)), {0}};
    pw_status st = job.hits ? cli_run_job(common, "dtw", run_batch, &job) : PW_ERR_OUT_OF_MEMORY;
    if (st != PW_OK) {
        cli_error("dtw --query %s --db %s: %s", args->query_path, args->db_path, cli_status_text(st));
        code = cli_status_exit(st);
    } else {
        /* series are numbered from 0 in the order of the file (its rows or its lines) */
        printf("query\trank\trecord\tdistance\tquery_length\trecord_length\n");
        for (int64_t k = 0; k < slots; k++) {
            const pw_dtw_hit *h = &job.hits[k];
            if (h->record < 0) continue;
            printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%.17g\t%" PRId64 "\t%" PRId64 "\n", h->query,
                   args->pairs ? 1 : k % args->top + 1, h->record, h->distance, q.length[h->query], db.length[h->record]);
        }
        if (fflush(stdout)) {
            cli_error("writing the hits failed");
            code = EXIT_DATA;
        }
        if (!common->quiet)
            fprintf(stderr, "peerwave: %" PRId64 " pairs, %.3g cells in %.3f s (%.2f GCUPS); cpu, a thread a pair\n",
                    job.info.pairs, (double)job.info.cells, job.info.seconds,
                    job.info.seconds > 0 ? (double)job.info.cells / job.info.seconds / 1e9 : 0.0);
    }
    free(job.hits);
    free((void *)q.values);
    free((void *)q.length);
    free((void *)db.values);
    free((void *)db.length);
    series_set_free(&qs);
    series_set_free(&dbs);
    return code;
}
