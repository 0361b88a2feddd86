/* cmd_sw_batch.c - `peerwave sw --query Q.fa --db DB.fa`: every query against every record of a
 * database (or --pairs: record k of one file against record k of the other), the best hits of
 * each query as TSV (peerwave_batch.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_sw_batch.h"
#include "fasta_set.h"
#include "peerwave_batch.h"
#include "../src/core/fnv1a.h"

/* --skip-bad: each record left out, named on stderr. */
static void report_skip(void *user, int64_t record, const char *reason)
{
    const char *path = user;
    fprintf(stderr, "peerwave: %s: record %" PRId64 " skipped: %s\n", path, record, reason);
}

/* A warning when record names repeat (the table names a hit's record by name alone): how many
 * names do, and the first one with its two record numbers (1-based).  One pass, a hash table of
 * the names' indexes. */
static void warn_repeated_names(const char *path, const fasta_set *set)
{
    const int64_t n = set->count;
    uint64_t size = 16;
    while (size < 2 * (uint64_t)n) size *= 2;
    int64_t *slot = malloc(sizeof *slot * size);
    if (!slot) return; /* (only a warning) */
    for (uint64_t k = 0; k < size; k++) slot[k] = -1;
    int64_t repeats = 0, first = -1, again = -1;
    for (int64_t r = 0; r < n; r++) {
        const char *name = fasta_set_name(set, r);
        uint64_t k = pw_fnv1a(PW_FNV1A_BASIS, name, strlen(name)) & (size - 1);
        while (slot[k] >= 0 && strcmp(fasta_set_name(set, slot[k]), name)) k = (k + 1) & (size - 1);
        if (slot[k] < 0) {
            slot[k] = r;
        } else if (repeats++ == 0) {
            first = slot[k], again = r;
        }
    }
    free(slot);
    if (repeats)
        cli_warn("%s: %" PRId64 " record%s repeat%s an earlier one's name (first '%s', records %" PRId64 " and %" PRId64
                  " of those read): the hits table names records by name",
                  path, repeats, repeats > 1 ? "s" : "", repeats > 1 ? "" : "s", fasta_set_name(set, first), first + 1, again + 1);
}

static int read_set(const char *path, int skip_bad, fasta_set *set, pw_seq_set *view)
{
    char err[512];
    if (fasta_set_read(path, set, skip_bad ? report_skip : NULL, (void *)path, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_DATA;
    }
    const char **seq = malloc(sizeof *seq * (size_t)set->count);
    int64_t *len = malloc(sizeof *len * (size_t)set->count);
    if (!seq || !len) {
        free(seq);
        free(len);
        fasta_set_free(set);
        cli_error("%s: out of memory", path);
        return EXIT_DATA;
    }
    for (int64_t k = 0; k < set->count; k++) {
        seq[k] = fasta_set_seq(set, k);
        len[k] = fasta_set_length(set, k);
    }
    *view = (pw_seq_set){set->count, seq, len};
    warn_repeated_names(path, set);
    return 0;
}

static void free_view(pw_seq_set *view)
{
    free((void *)view->seq);
    free((void *)view->length);
}

typedef struct batch_job {
    const cli_sw_batch_args *args;
    const pw_seq_set *q, *db;
    pw_options options;
    pw_sw_hit *hits;
    pw_batch_info info;
} batch_job;

static pw_status run_batch(void *p)
{
    batch_job *j = p;
    if (j->args->pairs) return pw_sw_pairs_batch(j->q, j->db, j->args->params, &j->options, &j->args->schedule, j->hits, &j->info);
    return pw_sw_search(j->q, j->db, j->args->params, &j->options, &j->args->schedule, j->args->top, j->hits, &j->info);
}

/* "; --weights G,C makes a static split like this": the shares of the work the two sides did (in
 * proportion, as --weights takes them), or nothing when a side did none (--weights takes two
 * positive numbers; the rates, in G/s, printed 0,0 for a small search). */
static const char *weights_hint(const pw_batch_info *in, char *hint, size_t size)
{
    if (!(in->gpu_share > 0 && in->cpu_share > 0)) return "";
    snprintf(hint, size, "; --weights %.4g,%.4g makes a static split like this", 100 * in->gpu_share, 100 * in->cpu_share);
    return hint;
}

int cmd_sw_batch(const cli_sw_batch_args *args, cli_common *common)
{
    char hint[96];
    fasta_set qs, dbs;
    pw_seq_set q, db;
    int code = read_set(args->query_path, args->skip_bad, &qs, &q);
    if (code) return code;
    if ((code = read_set(args->db_path, args->skip_bad, &dbs, &db))) {
        free_view(&q);
        fasta_set_free(&qs);
        return code;
    }
    if (args->pairs && q.count != db.count) { /* (as dtw --pairs says it) */
        cli_error("sw --pairs: %s has %" PRId64 " sequences and %s %" PRId64 ": --pairs runs sequence k against "
                  "sequence k (every query against every record: drop --pairs)",
                  args->query_path, q.count, args->db_path, db.count);
        free_view(&q), free_view(&db);
        fasta_set_free(&qs), fasta_set_free(&dbs);
        return EXIT_USAGE;
    }
    /* (the first records' letters, up to a million: a protein database shows it at once) */
    int64_t looked = 0;
    for (int64_t k = 0; k < q.count && looked < 1000000; looked += q.length[k], k++)
        if (cli_sw_warn_protein(args->params, args->query_path, fasta_set_name(&qs, k), q.seq[k], q.length[k],
                                1000000 - looked))
            break;
    looked = 0;
    for (int64_t k = 0; k < db.count && looked < 1000000; looked += db.length[k], k++)
        if (cli_sw_warn_protein(args->params, args->db_path, fasta_set_name(&dbs, k), db.seq[k], db.length[k],
                                1000000 - looked))
            break;
    const int64_t slots = args->pairs ? q.count : q.count * args->top;
    batch_job job = {args, &q, &db, common->options, calloc((size_t)slots, sizeof(pw_sw_hit)), {0}};
    pw_status st = job.hits ? cli_run_job(common, "sw", run_batch, &job) : PW_ERR_OUT_OF_MEMORY;
    if (st != PW_OK) {
        cli_error("sw --query %s --db %s: %s", args->query_path, args->db_path, cli_status_text(st));
        code = cli_status_exit(st);
    } else {
        /* 1-based end positions (0 when the score is 0), as the single-pair report */
        printf("query\trank\trecord\tscore\tend_query\tend_record\tquery_length\trecord_length\n");
        for (int64_t k = 0; k < slots; k++) {
            const pw_sw_hit *h = &job.hits[k];
            if (h->record < 0) continue; /* fewer records than --top */
            printf("%s\t%" PRId64 "\t%s\t%" PRId32 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n",
                   fasta_set_name(&qs, h->query), args->pairs ? 1 : k % args->top + 1, fasta_set_name(&dbs, h->record),
                   h->score, h->end_query + 1, h->end_record + 1, q.length[h->query], db.length[h->record]);
        }
        if (fflush(stdout)) {
            cli_error("writing the hits failed");
            code = EXIT_DATA;
        }
        const pw_batch_info *in = &job.info;
        if (!common->quiet)
            fprintf(stderr,
                    "peerwave: %" PRId64 " pairs, %.3g cells in %.3f s (%.2f GCUPS; %.3f s in all); backend %s%s%s, "
                    "%d-bit lanes, %" PRId64 " pairs recomputed wider\n",
                    in->pairs, (double)in->cells, in->seconds, in->seconds > 0 ? (double)in->cells / in->seconds / 1e9 : 0.0,
                    in->total_seconds, cli_backend_name(in->backend), in->backend == PW_BACKEND_CPU ? " " : "",
                    in->backend == PW_BACKEND_CPU ? pw_simd_name(in->simd) : "", in->lane_bits, in->recomputed);
        if (in->devices_failed) /* the search finished on the other device: say what broke */
            fprintf(stderr, "peerwave: note: %s\n", pw_error_detail());
        for (int g = 0; !common->quiet && in->gpus > 1 && g < in->gpus; g++)
            fprintf(stderr, "peerwave: GPU %d: %.1f%% of the work at %.2f G/s\n", in->gpu_device[g],
                    100 * in->gpu_device_share[g], in->gpu_device_rate[g] / 1e9);
        if (!common->quiet && args->schedule.schedule != PW_BATCH_ONE)
            fprintf(stderr,
                    "peerwave: %s: %s %.1f%% of the work at %.2f G/s, %s %.1f%% at %.2f G/s; finish spread %.2f%% "
                    "(work: cells and 31 columns a record%s)\n",
                    args->schedule.schedule == PW_BATCH_HDSS ? "hdss" : "static",
                    in->backend == PW_BACKEND_CUDA ? "gpu" : "cpu group 0", 100 * in->gpu_share, in->gpu_rate / 1e9,
                    in->backend == PW_BACKEND_CUDA ? "cpu" : "cpu group 1", 100 * in->cpu_share, in->cpu_rate / 1e9,
                    100 * in->spread, weights_hint(in, hint, sizeof hint));
    }
    free(job.hits);
    free_view(&q);
    free_view(&db);
    fasta_set_free(&qs);
    fasta_set_free(&dbs);
    return code;
}
