/* cli_align.h - the output of `peerwave sw --align` and `peerwave dtw --path`: report lines, the
 * three-line view, SAM, and the SVG pictures (align_plot.c). */
#ifndef PW_CLI_ALIGN_H
#define PW_CLI_ALIGN_H

#include <stdio.h>

#include "cli.h"
#include "fasta.h"
#include "peerwave_align.h"

/* start_a, start_b (1-based), columns, matches, mismatches, gap_columns, gaps, identity; the
 * timings as details.  al NULL (no --align): the same keys, absent (--tsv's columns stay). */
void cli_report_alignment(cli_report *rep, const pw_alignment *al);

/* The three-line view (60 columns a block), names from the records.  0, or -1 out of memory. */
int cli_print_view(FILE *out, const pw_alignment *al, const fasta_record *a, const fasta_record *b,
                   const pw_sw_params *params);

/* A SAM file: header (@HD, @SQ for b, @PG) and one record for a (unmapped when score is 0). */
int cli_write_sam(FILE *out, const pw_alignment *al, const fasta_record *a, const fasta_record *b,
                  const char *command_line);

/* The alignment over the two sequences as an SVG dot plot (align_plot.c): exact k-mer matches as
 * dots, the alignment's path coloured by its identity, gaps marked, and the identity along the
 * alignment below.  0, or EXIT_DATA with a message. */
int cli_plot_alignment(const char *path, const pw_alignment *al, const fasta_record *a, const fasta_record *b);

/* A warping path over the two series: the path in the (i, j) plane with series a on the left
 * and b on top.  a and b are double or float (f32 != 0). */
int cli_plot_warp_path(const char *path, const pw_warp_path *wp, const void *a, int64_t n, const void *b,
                       int64_t m, int f32);

#endif
