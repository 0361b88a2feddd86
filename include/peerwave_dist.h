/*
 * peerwave_dist.h - one wavefront across several ranks: processes started by mpirun (one rank a
 * process, the CPU engines or one GPU each), or threads of one process.
 *
 * Each rank owns a band of columns (every row of them).  The band's last column is handed to the
 * next rank in chunks of rows as soon as each chunk is final -- a rank's engine finishes its rows
 * top to bottom, so the next rank starts a few rows behind and all ranks work at once (a band of
 * rows would only finish its last row at the very end).  In-place sweeps (HEAT, SOR) also hand
 * their first column back (halo columns both ways), and their pipelined sweeps overlap across
 * ranks.  docs/DISTRIBUTED.md has the design and the commands.
 *
 * Every function here is collective: every rank of the comm calls it, with the same arguments
 * where the comment says so (checked: a rank with different ones makes every rank fail with
 * PW_ERR_INVALID_ARGUMENT).  A rank that fails makes every rank return an error (its status,
 * pw_error_detail naming the rank); a rank that stops answering is caught by the watchdog
 * (options->watchdog_ms) on its neighbours.  A rank that never makes the call: between threads
 * of one process (pw_comm_local) the others return PW_ERR_TIMEOUT once none has arrived for
 * watchdog_ms (0: 120 s), naming it, and the comm is out of step (free it); under MPI they wait
 * (a collective cannot time out: docs/DISTRIBUTED.md).  Results are bit for bit those of one
 * process.
 *
 * The bands run on the CPU engines (PW_BACKEND_CPU or AUTO; the peer strategy), or on the GPU
 * when PW_BACKEND_CUDA is asked for (every app; a rank a GPU: options->device; every rank on the
 * same backend).  GPU bands of ranks that are threads of one process hand their edge columns
 * over directly, kernel to kernel (pw_comm_set_direct); otherwise through the host and the
 * transport (docs/DISTRIBUTED.md).
 */
#ifndef PEERWAVE_DIST_H
#define PEERWAVE_DIST_H

#include "peerwave.h"
#include "peerwave_batch.h" /* pw_job */

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

/* Rows a hand-over chunk carries: 0 (the default) = a 256th of the rows, at least 64 (GPU bands:
 * a 32nd, at least 256; direct hand-overs go a tile-row at a time and ignore it).  Any value
 * >= 1 gives the same results; smaller chunks start the next rank sooner and cost more messages.
 * Set it alike on every rank. */
void pw_comm_set_chunk(pw_comm *comm, int64_t rows);

/* GPU bands whose ranks are threads of one process (pw_comm_local: `--gpus`) hand their edge
 * columns over directly: each band's kernel writes its last column into the next band's device
 * memory and bumps its counters after every tile-row, as tile-rows do inside one GPU (across GPUs
 * with peer access; the host is not involved).  1 (the default): where the comm allows it (not
 * over MPI) and the GPUs can reach each other; 0: always through the link and the host, in chunks.
 * Set it alike on every rank. */
void pw_comm_set_direct(pw_comm *comm, int direct);

/* Ranks that share a device take turns: a rank whose band is one-way (SW, DTW, SAT, INTHIST, a
 * linear user cell: no halo columns coming back) starts its engine only once the rank before it
 * on the same device (the same GPU, or for CPU bands the same host) has finished its own, in rank
 * order, each then with the whole device; its storage is set up before it waits, so the band on
 * its left hands its column over meanwhile.  With more ranks than GPUs (rank k on GPU k mod G) this
 * is a cyclic split of the columns: each GPU runs several narrower bands one after another, and
 * the pipeline's start, one tile-row's crossing of a band per hop, shrinks with the bands' width
 * (docs/DISTRIBUTED.md, "Cyclic bands").  In-place sweeps (HEAT, SOR) hand columns both ways and
 * ignore it.  The ranks of a device must be interleaved (rank k on device k mod G, as `--gpus`
 * with `--bands-per-gpu` places them): a rank whose round on its device (how many ranks come
 * before it there) is below its left neighbour's would start before the band it reads from, and
 * such a layout is refused on every rank, as are ranks that disagree on turns.  0 (the default):
 * ranks sharing a device run at once.  Set it alike on every rank. */
void pw_comm_set_turns(pw_comm *comm, int turns);

/* GPU bands of MPI ranks (pw_comm_mpi, a GPU a process) move their chunks with NCCL: ncclSend /
 * ncclRecv between device buffers (NVLink inside a host, the network between hosts) instead of
 * copies through host memory and MPI messages; MPI still starts the ranks and carries everything
 * else.  The bands' kernels then leave 2 SMs free, which NCCL's kernels need to make progress, and
 * it sets NCCL_P2P_USE_CUDA_MEMCPY=1 in the environment unless it is set already (NCCL's copies
 * between the GPUs of one host as kernels stalled beside the bands' persistent kernels; with the
 * copy engines they complete: docs/DISTRIBUTED.md).  Call it on every rank, and go on only if it succeeded on every rank (pw_comm_allgather), since
 * the GPU runs then make NCCL communicators together.  PW_ERR_UNSUPPORTED in builds without NCCL
 * (pw_build_info says) and for ranks that are threads of one process (they hand over directly).
 * CPU bands are not affected. */
pw_status pw_comm_use_nccl(pw_comm *comm);

/* Band widths by speed: each rank gives its weight (its relative speed, > 0) and pw_dist_split
 * then cuts the columns in proportion (at least one a band).  Collective; every rank's weight must
 * be positive (else PW_ERR_INVALID_ARGUMENT on all).  Results never depend on the widths. */
pw_status pw_comm_share_weight(pw_comm *comm, double weight);

/* The same with the weight measured: a short SW run on this rank's engine as options say (a
 * GPU's, or the CPU's threads); *weight (may be NULL) receives its cells a second.  Collective. */
pw_status pw_comm_measure_weight(pw_comm *comm, const pw_options *options, double *weight);

/* Each rank frees its own handle (a local group goes with its last handle). */
void pw_comm_free(pw_comm *comm);

/* Every rank's `bytes` bytes at mine into all (size x bytes, in rank order): for a program's own
 * agreements and results around the distributed calls (the CLI's band files use it).  Collective. */
pw_status pw_comm_allgather(pw_comm *comm, const void *mine, void *all, size_t bytes);

/* MPI_Finalize, if pw_comm_mpi initialised MPI; call once, at the end, after pw_comm_free. */
void pw_comm_finalize(void);

/* Rank `rank`'s share of n columns split into the comm's bands as evenly as possible (or by the
 * shared weights): columns [*first, *first + *count).  Where every band gets 512 columns or more,
 * the cuts fall on multiples of 128 columns (aligned vector access in every band).
 * PW_ERR_INVALID_SIZE if there are fewer columns than ranks. */
pw_status pw_dist_split(const pw_comm *comm, int rank, int64_t n, int64_t *first, int64_t *count);

/* SW and DTW: every rank passes the whole sequences (the same on every rank: checked); the
 * columns (b) are split by pw_dist_split; the result arrives on every rank (info: this rank's
 * band's run, but cells counts the whole matrix and seconds is the run's span, from the first
 * band's engine starting to the last one's stopping, each rank timing from the end of the ranks'
 * agreement to start (a collective) -- at least the longest band's own time -- so that their
 * ratio is the run's rate).  With tile_w 0, GPU bands take the width model's width for their own
 * band (trained on its corners, or from the wisdom file) and SW's tall tiles as pw_sw would; CPU
 * bands keep the fixed tiles. */
pw_status pw_dist_sw(pw_comm *comm, const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                     const pw_options *options, pw_sw_result *result);
pw_status pw_dist_dtw_f32(pw_comm *comm, const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result);
pw_status pw_dist_dtw_f64(pw_comm *comm, const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result);

/* SAT and INTHIST: each rank passes its band of columns of the input and of the output (images of
 * the band's width, every row; bands in rank order, any widths >= 1, the same rows, types and bins
 * everywhere; pw_dist_split is one choice; a band of a larger row-major image is a view with its
 * stride); its output band becomes those columns of the whole table (INTHIST: each plane rows x
 * band width).  The overflow guards look at the whole input (PW_ERR_OVERFLOW on every rank).
 * info: this rank's band's run, but cells counts the whole image (as pw_sat / pw_inthist report
 * it) and seconds is the run's span as pw_dist_sw's (at least the band's own time; a GPU band's
 * start is its first launch, after its upload and its wait for the left column's first row). */
pw_status pw_dist_sat(pw_comm *comm, const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info);
pw_status pw_dist_inthist(pw_comm *comm, const pw_image *in, int bins, double lo, double hi, int32_t *out,
                          const pw_options *options, pw_run_info *info);

/* HEAT and SOR: each rank passes its band of the grid's columns with one halo column on each side:
 * columns [first, first + count + 2) of every row (a view with the grid's stride), where rank k's
 * [first, first + count) is its share of the cols - 2 interior columns (pw_dist_split(comm, k,
 * cols - 2, ...), or any widths >= 1 in rank order).  The halo columns are read (the first and last
 * ranks': the grid's fixed border) and may be overwritten; the band's own columns are swept in
 * place.  residual (may be NULL): the whole grid's, on every rank, bit for bit pw_heat's.  info:
 * as pw_dist_sat's (cells: the whole interior times the sweeps, as pw_heat's; seconds: the run's
 * span). */
pw_status pw_dist_heat(pw_comm *comm, pw_image *band, int64_t sweeps, const pw_options *options, double *residual,
                       pw_run_info *info);
pw_status pw_dist_sor(pw_comm *comm, pw_image *band, int64_t sweeps, double omega, const pw_options *options,
                      double *residual, pw_run_info *info);

/* A user recurrence (pw_run) of linear storage, its callbacks on every rank (the same problem:
 * rows, cols and cell_size are checked): the columns are split by pw_dist_split, the callbacks of
 * rank k get the whole problem's (i, j) for its band's cells (and the boundary's), and the left
 * neighbour's last column arrives in chunks; the bands run on the CPU engines (PW_ERR_UNSUPPORTED
 * for CUDA, and for full storage).  last_row and last_col (optional) are the whole's on every rank,
 * as pw_run writes them; info as for pw_dist_sw. */
pw_status pw_dist_run(pw_comm *comm, const pw_problem *problem, const pw_options *options, pw_run_info *info);

/* A user cell (peerwave_runtime.h), the same cell and arguments on every rank (checked: a hash of
 * the cell's text, inputs and parameters): bands of columns, on the CPU engines or (options'
 * backend CUDA) on each rank's GPU.  Linear form as pw_dist_run runs a pw_problem; the result
 * (last, the PW_REDUCE best with its cell, last_row and last_col) is the whole run's on every rank.
 * Stencil, grid and grid3 forms: every rank holds the whole grid (ranks that are threads may pass
 * one); the bands sweep their columns with edge columns both ways, as wide as the cell's largest
 * dj (grid3: bands of j, whole planes), sweeps pipelined where the dependences are within (1, 0),
 * (0, 1) and the halo is 1 (else one after another), and every rank
 * ends with the whole swept grid, bit for bit pw_cell_run's.  PW_ERR_UNSUPPORTED for a dependence
 * with dj < 0 (over more than one rank) and, on GPU bands, for grid3 cells that the 3-D processor does not take
 * (EXTENDING.md); PW_ERR_INVALID_SIZE for a band narrower than the
 * largest dj (docs/DISTRIBUTED.md, "Grid and grid3 cells of any reach"). */
pw_status pw_dist_cell_run(pw_comm *comm, pw_cell *cell, const pw_cell_args *args, const pw_options *options,
                           pw_cell_result *result);

/* Any application's job (peerwave_batch.h) held whole by every rank -- the same job on each, as
 * `peerwave ... --mpi` has it after reading its files: the columns are split by pw_dist_split
 * (HEAT/SOR: the interior ones) and each rank runs its band; then every rank holds exactly what
 * pw_job_run would have written (results, residual, and the SAT and INTHIST tables and swept
 * grids, each rank's band sent to every other: outputs and grids must be packed, stride = cols).
 * Ranks that are threads of one process (pw_comm_local) may pass one SAT or INTHIST output for
 * all: each band writes its own columns there and nothing is sent.  Not so a HEAT or SOR grid:
 * each rank's halo columns are its own copies of its neighbours' edges, so each needs its own. */
pw_status pw_dist_job_run(pw_comm *comm, const pw_job *job);

#ifdef __cplusplus
}
#endif

#endif
