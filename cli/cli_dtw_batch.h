/* cli_dtw_batch.h - the batch form of `peerwave dtw` (--query/--db), cmd_dtw_batch.c. */
#ifndef PW_CLI_DTW_BATCH_H
#define PW_CLI_DTW_BATCH_H

#include "cli.h"

typedef struct cli_dtw_batch_args {
    const char *query_path, *db_path;
    pw_dtw_cost cost;
    int top;   /* nearest series a query (--top) */
    int pairs; /* --pairs: series k against series k */
} cli_dtw_batch_args;

int cmd_dtw_batch(const cli_dtw_batch_args *args, cli_common *common);

#endif
