/*
 * peerwave_dist.h - one wavefront across several ranks: processes started by mpirun (one rank a
 * process, the CPU engines or one GPU each), or threads of one process.
 *
 * Each rank owns a band of rows.  The last row of a band is handed to the next rank in column
 * chunks as soon as each chunk is final, exactly as a tile-row hands its last row to the tile-row
 * below inside one engine, so the ranks work at once, one behind the other (a pipeline along the
 * columns); in-place sweeps (HEAT, SOR) also hand their first row up (halo rows both ways), and
 * pipelined sweeps overlap across ranks.  docs/DISTRIBUTED.md has the design and the commands.
 *
 * Every function here is collective: every rank of the comm calls it, with the same arguments
 * where the comment says so (checked: a rank with different ones makes every rank fail with
 * PW_ERR_INVALID_ARGUMENT).  A rank that fails makes every rank return an error (its status,
 * pw_error_detail naming the rank); a rank that stops answering is caught by the watchdog
 * (options->watchdog_ms) on its neighbours.  Results are bit for bit those of one process.
 *
 * So far the bands run on the CPU engines (PW_BACKEND_CPU or AUTO, the peer strategy); the GPU
 * bands (NCCL between GPUs) are issue 29's next step: PW_BACKEND_CUDA is PW_ERR_UNSUPPORTED.
 */
#ifndef PEERWAVE_DIST_H
#define PEERWAVE_DIST_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_comm pw_comm;

/* Every process of MPI_COMM_WORLD, a rank each.  Initialises MPI (MPI_THREAD_SERIALIZED) unless
 * the program already did (then it must have asked for MPI_THREAD_SERIALIZED or more: else
 * PW_ERR_UNSUPPORTED).  PW_ERR_UNSUPPORTED in builds without MPI (pw_build_info says). */
pw_status pw_comm_mpi(pw_comm **comm);

/* `ranks` ranks in this process (1 .. 1024): comms[k] is rank k's handle, to be used by one
 * thread of the caller's per rank, all ranks calling the same functions at once. */
pw_status pw_comm_local(int ranks, pw_comm **comms);

int pw_comm_rank(const pw_comm *comm);
int pw_comm_size(const pw_comm *comm);

/* Columns a hand-over chunk carries: 0 (the default) = about a 32nd of the row, at least 256.
 * Any value >= 1 gives the same results; smaller chunks start the next rank sooner and cost more
 * messages.  Set it alike on every rank. */
void pw_comm_set_chunk(pw_comm *comm, int64_t columns);

/* Each rank frees its own handle (a local group goes with its last handle). */
void pw_comm_free(pw_comm *comm);

/* MPI_Finalize, if pw_comm_mpi initialised MPI; call once, at the end, after pw_comm_free. */
void pw_comm_finalize(void);

/* Rank `rank`'s share of `rows` rows split into the comm's bands as evenly as possible: rows
 * [*first, *first + *count).  PW_ERR_INVALID_SIZE if there are fewer rows than ranks. */
pw_status pw_dist_split(const pw_comm *comm, int rank, int64_t rows, int64_t *first, int64_t *count);

/* SW and DTW: every rank passes the whole sequences (the same on every rank); the rows (a) are
 * split by pw_dist_split; the result arrives on every rank (info: this rank's band). */
pw_status pw_dist_sw(pw_comm *comm, const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                     const pw_options *options, pw_sw_result *result);
pw_status pw_dist_dtw_f32(pw_comm *comm, const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result);
pw_status pw_dist_dtw_f64(pw_comm *comm, const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result);

/* SAT and INTHIST: each rank passes its band of rows of the input and of the output (bands in rank
 * order, any heights >= 1, the same columns, types and bins everywhere; pw_dist_split is one
 * choice); its output band becomes those rows of the whole table.  The overflow guard of integer
 * outputs looks at the whole input (PW_ERR_OVERFLOW on every rank). */
pw_status pw_dist_sat(pw_comm *comm, const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info);
pw_status pw_dist_inthist(pw_comm *comm, const pw_image *in, int bins, double lo, double hi, int32_t *out,
                          const pw_options *options, pw_run_info *info);

/* HEAT and SOR: each rank passes its band of the grid with one halo row on each side: rows
 * [first, first + count + 2) of the whole grid, where rank k's [first, first + count) is its
 * share of the grid's rows - 2 interior rows (pw_dist_split(comm, k, rows - 2, ...), or any
 * heights >= 1 in rank order).  The halo rows are read (the first and last ranks': the grid's
 * fixed border) and may be overwritten; the band's own rows are swept in place.  residual (may be
 * NULL): the whole grid's, on every rank, summed in pw_heat's order. */
pw_status pw_dist_heat(pw_comm *comm, pw_image *band, int64_t sweeps, const pw_options *options, double *residual,
                       pw_run_info *info);
pw_status pw_dist_sor(pw_comm *comm, pw_image *band, int64_t sweeps, double omega, const pw_options *options,
                      double *residual, pw_run_info *info);

#ifdef __cplusplus
}
#endif

#endif
