/* cli_align.c - what `peerwave sw --align` prints: report lines, the CIGAR, the view and SAM. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cli_align.h"

void cli_report_alignment(cli_report *rep, const pw_alignment *al)
{
    static const char *const results[] = {"start_a", "start_b", "columns", "matches", "mismatches", "gap_columns", "gaps",
                                          "identity"};
    static const char *const details[] = {"seconds_score", "seconds_align", "cells_align", "seconds_start", "cells_start",
                                          "cells_gpu", "seconds_gpu"};
    if (!al) { /* no --align: the same --tsv columns, each "-" */
        for (int k = 0; k < 8; k++) cli_absent(rep, 0, results[k]);
        for (int k = 0; k < 7; k++) cli_absent(rep, 1, details[k]);
        return;
    }
    cli_result(rep, results[0], "%" PRId64, al->start_a + 1);
    cli_result(rep, results[1], "%" PRId64, al->start_b + 1);
    cli_result(rep, results[2], "%" PRId64, al->columns);
    cli_result(rep, results[3], "%" PRId64, al->matches);
    cli_result(rep, results[4], "%" PRId64, al->mismatches);
    cli_result(rep, results[5], "%" PRId64, al->gap_columns);
    cli_result(rep, results[6], "%" PRId64, al->gaps);
    cli_result(rep, results[7], "%.4f", al->identity);
    cli_detail(rep, details[0], "%.6f", al->seconds_score);
    cli_detail(rep, details[1], "%.6f", al->seconds_align);
    cli_detail(rep, details[2], "%" PRId64, al->cells_align);
    cli_detail(rep, details[3], "%.6f", al->seconds_start);
    cli_detail(rep, details[4], "%" PRId64, al->cells_start);
    cli_detail(rep, details[5], "%" PRId64, al->cells_gpu);
    cli_detail(rep, details[6], "%.6f", al->seconds_gpu);
}

int cli_print_view(FILE *out, const pw_alignment *al, const fasta_record *a, const fasta_record *b,
                   const pw_sw_params *params)
{
    char *view = pw_alignment_view(al, a->seq, b->seq, params, a->name, b->name, 60);
    if (!view) return -1;
    fputs(view, out);
    free(view);
    return 0;
}

/* A FASTA name as SAM takes it: QNAME ([!-?A-~]{1,254}: no '@', at most 254 characters, '*'
 * for none) or a reference name (SAM 1.6's RNAME: printable, none of \ , " ' ` ( ) [ ] { } < >,
 * not starting with '*' or '=', which mean "none" and "the same"; "unnamed" for none).  Other
 * bytes (controls, non-ASCII) become '_': samtools refused an empty QNAME, one past 254
 * characters, raw bytes. */
static const char *sam_name(const char *name, int qname, char *buf, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)name; *c && n + 1 < size && (!qname || n < 254); c++) {
        const int refused = qname ? *c == '@' : strchr("\\,\"'`()[]{}<>", *c) != NULL || (n == 0 && (*c == '*' || *c == '='));
        buf[n++] = *c > 0x20 && *c < 0x7F && !refused ? (char)*c : '_';
    }
    buf[n] = 0;
    return n ? buf : qname ? "*" : "unnamed";
}

/* SEQ as SAM takes it ([A-Za-z=.]+): other letters -- a protein's stop '*', a gap '-' -- as X. */
static void put_sam_seq(FILE *out, const char *seq)
{
    for (const char *c = seq; *c; c++)
        fputc((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || *c == '=' || *c == '.' ? *c : 'X', out);
}

/* SAM (v1.6): a is the query (the read), b the reference.  The letters of a outside the
 * alignment are soft-clipped, so SEQ is the whole of a; NM counts mismatches and gap columns. */
int cli_write_sam(FILE *out, const pw_alignment *al, const fasta_record *a, const fasta_record *b,
                  const char *command_line)
{
    char qname[256], rname[1024];
    const char *q = sam_name(a->name, 1, qname, sizeof qname), *r = sam_name(b->name, 0, rname, sizeof rname);
    fprintf(out, "@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:%s\tLN:%" PRId64 "\n", r, b->length);
    fprintf(out, "@PG\tID:peerwave\tPN:peerwave\tCL:%s\n", command_line);
    if (al->score == 0) { /* unmapped */
        fprintf(out, "%s\t4\t*\t0\t0\t*\t*\t0\t0\t", q);
        put_sam_seq(out, a->seq);
        fputs("\t*\n", out);
        return ferror(out) ? -1 : 0;
    }
    fprintf(out, "%s\t0\t%s\t%" PRId64 "\t255\t", q, r, al->start_b + 1);
    if (al->start_a > 0) fprintf(out, "%" PRId64 "S", al->start_a);
    fputs(al->cigar, out);
    if (al->end_a < a->length - 1) fprintf(out, "%" PRId64 "S", a->length - 1 - al->end_a);
    fputs("\t*\t0\t0\t", out);
    put_sam_seq(out, a->seq);
    fprintf(out, "\t*\tAS:i:%" PRId32 "\tNM:i:%" PRId64 "\n", al->score, al->mismatches + al->gap_columns);
    return ferror(out) ? -1 : 0;
}
