/* cli_align.c - what `peerwave sw --align` prints: report lines, the CIGAR, the view and SAM. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_align.h"

void cli_report_alignment(cli_report *rep, const pw_alignment *al)
{
    cli_result(rep, "start_a", "%" PRId64, al->start_a + 1);
    cli_result(rep, "start_b", "%" PRId64, al->start_b + 1);
    cli_result(rep, "columns", "%" PRId64, al->columns);
    cli_result(rep, "matches", "%" PRId64, al->matches);
    cli_result(rep, "mismatches", "%" PRId64, al->mismatches);
    cli_result(rep, "gap_columns", "%" PRId64, al->gap_columns);
    cli_result(rep, "gaps", "%" PRId64, al->gaps);
    cli_result(rep, "identity", "%.4f", al->identity);
    cli_detail(rep, "seconds_score", "%.6f", al->seconds_score);
    cli_detail(rep, "seconds_align", "%.6f", al->seconds_align);
    cli_detail(rep, "cells_align", "%" PRId64, al->cells_align);
    cli_detail(rep, "seconds_start", "%.6f", al->seconds_start);
    cli_detail(rep, "cells_start", "%" PRId64, al->cells_start);
    cli_detail(rep, "cells_gpu", "%" PRId64, al->cells_gpu);
    cli_detail(rep, "seconds_gpu", "%.6f", al->seconds_gpu);
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

/* SAM (v1.6): a is the query (the read), b the reference.  The letters of a outside the
 * alignment are soft-clipped, so SEQ is the whole of a; NM counts mismatches and gap columns. */
int cli_write_sam(FILE *out, const pw_alignment *al, const fasta_record *a, const fasta_record *b,
                  const char *command_line)
{
    fprintf(out, "@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:%s\tLN:%" PRId64 "\n", b->name, b->length);
    fprintf(out, "@PG\tID:peerwave\tPN:peerwave\tCL:%s\n", command_line);
    if (al->score == 0) { /* unmapped */
        fprintf(out, "%s\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t*\n", a->name, a->seq);
        return ferror(out) ? -1 : 0;
    }
    fprintf(out, "%s\t0\t%s\t%" PRId64 "\t255\t", a->name, b->name, al->start_b + 1);
    if (al->start_a > 0) fprintf(out, "%" PRId64 "S", al->start_a);
    fputs(al->cigar, out);
    if (al->end_a < a->length - 1) fprintf(out, "%" PRId64 "S", a->length - 1 - al->end_a);
    fprintf(out, "\t*\t0\t0\t%s\t*\tAS:i:%" PRId32 "\tNM:i:%" PRId64 "\n", a->seq, al->score,
            al->mismatches + al->gap_columns);
    return ferror(out) ? -1 : 0;
}
