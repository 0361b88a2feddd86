/*
 * dist_run.h - the steps every distributed call takes (dist_run.c), so that each application's
 * pw_dist_* (dist_apps.c) is only its own arguments and its own result:
 *
 *   1. pw_dist_agree: every rank's checks and a signature of the arguments that must be equal
 *      (sizes, types, parameters, a hash of inputs every rank holds whole) are gathered; any
 *      failure or difference fails every rank, before any work;
 *   2. dist_band_begin / the app's band run / dist_band_end: the band link around the run;
 *   3. pw_dist_conclude: every rank's status and result bytes are gathered; the first rank that
 *      failed by itself (not because a neighbour gave up) decides every rank's status.
 */
#ifndef PW_DIST_RUN_H
#define PW_DIST_RUN_H

#include <stdint.h>

#include "transport.h"
#include "band_link.h"

#define DIST_SIGNATURE_WORDS 16

typedef struct dist_signature {
    int64_t word[DIST_SIGNATURE_WORDS];
} dist_signature;

/* The rank whose failure the last agreement (step 1 or 3) decided for every rank, -1 if it
 * decided none, and forgotten (taken once): the CLI's ranks other than 0 and that one leave the
 * failure's message to those two (every rank printed the same line); their next error is their
 * own again. */
int pw_dist_failure_take(pw_comm *comm);

/* FNV-1a over bytes, to put inputs every rank holds whole into the signature. */
uint64_t pw_dist_hash(const void *data, size_t bytes, uint64_t seed);

/* Step 1.  local: this rank's checks.  PW_OK on every rank, or the same failure on every rank.
 * device: what this rank runs on ("" for the CPU; a GPU's model and SM count): ranks of equal
 * bands must all run on the same (else the faster wait for the slowest); bands cut by weights
 * (pw_comm_share_weight) may differ. */
#define DIST_DEVICE_BYTES 64
pw_status pw_dist_agree(pw_comm *comm, pw_status local, const dist_signature *sig, const char *device);

/* The first collective of a run (place_band, pw_dist_turn_peers): every rank's `bytes` at mine into
 * all, like the transport's allgather, but where the transport can (threads of one process) a
 * rank that never comes -- it makes no such call, or another one -- ends the others' wait after
 * timeout_ns without an arrival: PW_ERR_TIMEOUT on every rank that came, naming the missing
 * ranks, and the comm out of step (transport.h).  Once past it every rank is in the same call, so
 * the later collectives need no bound.  pw_dist_start_timeout_ns: options->watchdog_ms, else 120 s. */
int64_t pw_dist_start_timeout_ns(const pw_options *options);
pw_status pw_dist_start_gather(pw_comm *comm, int64_t timeout_ns, const void *mine, void *all, size_t bytes);

/* The options a band runs with: the peer strategy; the CUDA backend when asked for, else the
 * CPU (AUTO resolves to it, until GPU bands are verified on several GPUs).  PW_ERR_UNSUPPORTED
 * with a detail otherwise. */
pw_status pw_dist_band_options(const pw_options *options, pw_options *band_options, int64_t *watchdog_ns);

/* Step 3.  status: this rank's; remote: it only failed because a neighbour gave up; mine and all:
 * `bytes` bytes of result, gathered into all (size x bytes) in rank order. */
pw_status pw_dist_conclude(pw_comm *comm, pw_status status, int remote, const void *mine, void *all, size_t bytes);

/* A blocking message to or from rank peer (send: 1 / 0) with a tag kind of transport.h, for the
 * steps after a run that succeeded on every rank (the residual's chain, gathers): every rank
 * reaches its side, so it waits without a watchdog. */
pw_status pw_dist_message(pw_comm *comm, int send, int peer, int kind, void *buf, size_t bytes);

/* Every rank's columns [first, first + count) (pw_dist_split of interior_cols, offset by
 * col_offset) of `planes` planes of rows x cols elements at data (row stride cols, plane stride
 * rows * cols) to every other rank, a few rows a message; pairs in one fixed order on every rank,
 * so the blocking messages cannot wait on each other.  Ranks that are threads of one process and
 * all pass the same data have it all already: nothing moves. */
pw_status pw_dist_gather_columns(pw_comm *c, void *data, size_t elem, int64_t rows, int64_t cols, int planes,
                              int64_t col_offset, int64_t interior_cols);

/* A rank whose caller failed before its part of pw_dist_run (a user cell's arguments, its
 * compile) takes part with that status, so that every rank ends with it (dist_apps.c). */
pw_status pw_dist_run_failed(pw_comm *comm, pw_status failed);
/* pw_dist_run with one more word every rank must agree on (a user cell: a hash of its text, its
 * inputs and parameters). */
pw_status pw_dist_run_signed(pw_comm *comm, const pw_problem *p, const pw_options *options, pw_run_info *info, int64_t word);

/* A caller's own band (a user cell: src/jit/): rows x cols cells split by pw_dist_split (each
 * column of cells_per_col cells: a grid3 cell's planes, else 1);
 * fn(args, options, band, info) runs this rank's band (band->col0 and cols: its columns) with the
 * link attached, on the options' backend (the CPU where it is AUTO); in_place: sweeps with halo
 * columns both ways (the stencil form), else one wavefront whose last column flows right (the
 * linear form); local: the caller's own checks; word: what every rank must agree on.  Every rank
 * takes part (collective). */
typedef pw_status (*dist_band_fn)(void *args, const pw_options *options, const pw_band *band, pw_run_info *info);
pw_status pw_dist_run_user_band(pw_comm *comm, pw_status local, const pw_options *options, int64_t rows, int64_t cols,
                                int64_t cells_per_col, int64_t sweeps, int in_place, int64_t word, dist_band_fn fn, void *args,
                                pw_run_info *info);

/* The last rank's `bytes` at buf to every other rank's buf (collective). */
pw_status pw_dist_from_last_rank(pw_comm *c, void *buf, size_t bytes);

#endif
