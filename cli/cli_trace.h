/* cli_trace.h - `--trace FILE.svg`: collect the library's per-tile records and draw them as a
 * Gantt chart (one lane per worker, tiles coloured by tile-row, idle time visible), with the
 * summary of the paper's section 7.3: idle split into corner and intermediate, time in counter
 * waits, mean tile time. */
#ifndef PW_CLI_TRACE_H
#define PW_CLI_TRACE_H

#include "cli.h"

/* The pw_options.trace sink (user = the cli_trace). */
void cli_trace_collect(void *user, const pw_trace_record *record);

/* Write the SVG to path and add trace_* details to the report; 0, or EXIT_DATA with a message. */
int cli_trace_finish(cli_trace *t, const char *path, const char *title, cli_report *rep);

void cli_trace_free(cli_trace *t);

#endif
