/* cli_sw_batch.h - the batch form of `peerwave sw` (--query/--db), cmd_sw_batch.c. */
#ifndef PW_CLI_SW_BATCH_H
#define PW_CLI_SW_BATCH_H

#include "cli.h"
#include "peerwave_batch.h"

typedef struct cli_sw_batch_args {
    const pw_sw_params *params;
    const char *query_path, *db_path;
    int top;      /* best hits a query (--top) */
    int pairs;    /* --pairs: record k against record k */
    int skip_bad; /* --skip-bad: leave out malformed records, naming each */
    pw_batch_options schedule; /* --schedule, --weights */
} cli_sw_batch_args;

int cmd_sw_batch(const cli_sw_batch_args *args, cli_common *common);

/* DNA scoring (no --matrix) of sequences that hold a letter no nucleotide code uses (E F I L P Q
 * ...: protein, most likely) is allowed but almost surely not meant: a warning on stderr naming
 * the file, the letter and its place (cmd_sw.c).  Looks at the first `most` letters of seq; 1 if
 * it warned. */
int cli_sw_warn_protein(const pw_sw_params *params, const char *path, const char *record, const char *seq, int64_t n,
                        int64_t most);

#endif
