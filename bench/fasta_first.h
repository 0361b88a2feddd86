/*
 * fasta_first.h - the first record of a FASTA file as DNA codes (A C G T/U -> 0..3, any case;
 * every other letter 4), for the standalone benchmarks that read genomes without the library
 * (bench/sw_reference.cu, bench/sw_warp_rows.cu).  Header-only.
 */
#ifndef PW_BENCH_FASTA_FIRST_H
#define PW_BENCH_FASTA_FIRST_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The first record of a FASTA file, encoded (A C G T/U -> 0..3, other letters 4); NULL on error. */
static uint8_t *read_fasta(const char *path, int64_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 1 << 20, n = 0;
    uint8_t *s = (uint8_t *)malloc(cap);
    int c, header = 0, records = 0, at_line_start = 1;
    while (s && (c = fgetc(fp)) != EOF) {
        if (at_line_start && c == '>') {
            if (++records > 1) break;
            header = 1;
        }
        at_line_start = c == '\n';
        if (header) {
            if (c == '\n') header = 0;
            continue;
        }
        if (isspace(c)) continue;
        if (n == cap) s = (uint8_t *)realloc(s, cap *= 2);
        if (!s) break;
        const int u = toupper(c);
        s[n++] = u == 'A' ? 0 : u == 'C' ? 1 : u == 'G' ? 2 : u == 'T' || u == 'U' ? 3 : 4;
    }
    fclose(fp);
    *len = (int64_t)n;
    return s;
}

#endif
