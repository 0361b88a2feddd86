/* cli.h - shared pieces of the peerwave command: exit codes, errors, option parsing, result
 * reports (key: value or TSV), the progress indicator and --check. */
#ifndef PW_CLI_H
#define PW_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "peerwave.h"
#include "peerwave_batch.h"
#include "peerwave_dist.h"

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* Print "peerwave: <message>" to stderr (printf-style). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "peerwave: warning: ..." as cli_error writes it; under --mpi on rank 0 alone (the ranks read the
 * same inputs, so each would say the same).  The readers' warnings (io_warn) come here too. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --check's failure: the sequential reference's run failed (its status) or its result differs. */
void cli_check_failed(pw_status reference);

/* Parse a whole decimal integer in [lo, hi]; 0 on success, -1 (with a message) otherwise. */
int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out);
/* A comma-separated list of whole decimal integers in [lo, hi], up to `most` of them, into
 * out[0 .. *n); an empty element (",," or a trailing comma) is an error; 0, or -1 (with a message). */
int cli_parse_int_list(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out, int most, int *n);
/* --devices 0,2,..: up to `most` device numbers, none twice, into devices[0 .. *n); 0, or -1 with
 * the error printed. */
int cli_parse_devices(const char *text, int *devices, int most, int *n);
/* Parse a finite number in [lo, hi] (open ends when open != 0). */
int cli_parse_double(const char *opt, const char *text, double lo, double hi, int open, double *out);
/* Parse "HxW" (both >= 1). */
int cli_parse_size(const char *opt, const char *text, int64_t *rows, int64_t *cols);
/* Parse "HxW" with both >= least; the error ends with `why` (NULL: nothing), e.g. " (boundary plus interior)". */
int cli_parse_size_least(const char *opt, const char *text, long long least, const char *why, int64_t *rows,
                         int64_t *cols);
/* Parse a type name among `allowed` (a mask of CLI_DTYPE bits); an error names those. */
int cli_parse_dtype(const char *opt, const char *text, unsigned allowed, pw_dtype *out);
#define CLI_DTYPE(t) (1u << (t)) /* cli_parse_dtype's `allowed`: CLI_DTYPE(PW_F32) | CLI_DTYPE(PW_F64) */

/* The options every subcommand shares. */
typedef struct cli_trace {
    pw_trace_record *records;
    int64_t count, capacity;
    int failed;
} cli_trace;


typedef struct cli_common {
    pw_options options;
    double train_ratio;   /* --train-ratio: the training corner's share of rows and of columns */
    const char *trace_path; /* --trace FILE.svg */
    cli_trace trace;
    int quiet;     /* only the result lines */
    int tsv;       /* a header line and a value line, tab-separated */
    int check;     /* also run the sequential CPU reference and compare */
    int progress;  /* progress on stderr even when it is not a terminal */
    int mpi;       /* --mpi: one rank of mpirun's processes */
    int devices[16], n_devices; /* --devices 0,1,... / --gpus N: sw and dtw over these GPUs (2 .. 16) */
    int device_given; /* --device was given (else --mpi takes the rank's local index) */
    int balance;   /* --balance: band widths by each rank's measured speed (pw_comm_measure_weight) */
    int nccl;      /* --nccl: with --mpi, GPU bands' chunks over NCCL (pw_comm_use_nccl) */
    int bands_per_gpu; /* --bands-per-gpu K: with --gpus/--devices, K bands a GPU in turns (0: 1) */
    /* every option given, by its long name ("name-a", "strategy"), in command-line order: a
     * command refuses those that do not apply to a form of it (cli_option_given) */
    const char *given[64];
    int n_given;
    /* the files the options given write (output, path, plot, view, trace): their long names and
     * paths, checked against the command's input files (cli_parse) */
    const char *output_option[8], *output_path[8];
    int n_outputs;
    /* the files options read (init, grid, query, db, input): under --mpi an output may not be one */
    const char *input_path[16];
    int n_inputs;
} cli_common;

#define CLI_COMMON_HELP                                                                    \
    "Common options:\n"                                                                    \
    "  --backend auto|cpu|cuda     where to run (default auto: CUDA if available)\n"      \
    "  --strategy peer|sequential|barrier|launch|tasks   schedule (default peer; tasks: any\n" \
    "                              ready tile on any free worker, CPU threads or GPU blocks)\n" \
    "  --tile-shape hyper|square   tile shape (default hyper)\n"                          \
    "  --tile-h N                  rows per tile (default automatic)\n"                   \
    "  --tile-w N|auto|model       tile width in steps; model: the tile-width model fitted\n" \
    "                              by a training run on a corner of the input; auto (the\n" \
    "                              default): model for peer runs of >= 2^26 cells, else fixed\n" \
    "  --train-ratio R             training corner: R of the rows and of the columns (0.1)\n" \
    "  --wisdom FILE|none          where trained model fits are remembered, so a later run\n" \
    "                              of the same kind skips the training (default\n"        \
    "                              $PEERWAVE_WISDOM, else ~/.cache/peerwave/wisdom.tsv)\n" \
    "  --threads N                 CPU threads (default: the processors this process may\n"   \
    "                              run on: its affinity mask, e.g. taskset's)\n"              \
    "  --simd auto|scalar|sse41|avx2|avx512  CPU vector instructions (sw dtw sat inthist heat sor;\n" \
    "                              default auto: $PEERWAVE_SIMD, else the widest the\n"     \
    "                              processor has)\n"                                        \
    "  --device N                  CUDA device index (default 0)\n"                       \
    "  --max-blocks N              CUDA: at most N persistent blocks (leave SMs to others)\n" \
    "  --rows-per-thread R         CUDA, sw/dtw: tile rows per thread, 1 2 4 8 (default 1)\n" \
    "  --layout auto|row-major|hybrid   CUDA, sat/heat/sor: device layout (default auto)\n" \
    "  --watchdog-ms N             a peer wait without progress for N ms fails the run\n"  \
    "                              (default 10000 on the GPU, 120000 on the CPU)\n"         \
    "  --check                     also run the sequential CPU reference and compare\n"   \
    "  --tsv                       print a header line and a value line, tab-separated\n"  \
    "  --quiet                     print only the result lines\n"                         \
    "  --trace FILE.svg            draw every tile as a Gantt chart (one lane per CPU\n"    \
    "                              thread or GPU block) and print idle and wait figures\n" \
    "                              (--mpi: each rank its band, rank K>0 in FILE.rankK.svg)\n" \
    "  --progress                  progress on stderr (percentage, rate, time left, sw's\n" \
    "                              best score so far) a line a second, also when stderr\n" \
    "                              is not a terminal (on a terminal it shows after 2 s)\n" \
    "                              Ctrl-C stops a run cleanly (exit 130)\n"               \
    "  --gpus N, --devices 0,1,..  one run over these GPUs of this machine (every app,\n"   \
    "                              and cells as `run` says below its options)\n"         \
    "                              (bands of columns, a thread a GPU: docs/DISTRIBUTED.md);\n" \
    "                              sw --db --schedule hdss|static: every GPU pulls blocks\n" \
    "  --bands-per-gpu K           sw and dtw with --gpus/--devices: K narrower bands a GPU,\n" \
    "                              run one after another (a cyclic split of the columns:\n" \
    "                              a shorter pipeline start; same results)\n" \
    "  --balance                   with --mpi, --gpus or --devices: band widths by each rank's\n" \
    "                              speed, measured by a short run first (same results)\n" \
    "  --mpi                       one rank of mpirun's processes: the run is split into\n" \
    "                              bands of columns over the ranks (CPU engines), rank 0\n" \
    "                              prints (sw dtw sat inthist heat sor run: DISTRIBUTED.md)\n" \
    "  --nccl                      with --mpi and --backend cuda: chunks between the ranks'\n" \
    "                              GPUs go over NCCL, not through the hosts\n" \
    "  --help                      this text\n"

/* One subcommand's options: cli_parse() merges them with the common ones, prints --help and
 * reports unknown options, missing values and wrong argument counts. */
typedef struct cli_command {
    const char *name;
    const char *usage;             /* the whole --help text */
    const char *shortopts;         /* e.g. "o:" (besides -h) */
    const struct option *options;  /* command options, terminated by {0, 0, 0, 0} */
    /* one command option: 0 ok, -1 bad value (message printed) */
    int (*option)(void *ctx, int opt, const char *arg);
    int min_args, max_args;        /* positional arguments */
    const char *args_hint;         /* e.g. "two FASTA files" */
} cli_command;

/* 0: parsed, positional arguments are argv[*first] .. argv[argc-1]; 1: --help printed (exit 0);
 * -1: usage error printed (exit 2). */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_common *common, void *ctx, int *first);

/* The first option given on the command line (its long name, without "--") that is one of
 * names (NULL-terminated), or NULL. */
const char *cli_option_given(const cli_common *c, const char *const *names);

/* From here on, a fatal signal (SIGSEGV, SIGFPE, SIGBUS, SIGILL: most likely a user cell's own
 * fault) prints "peerwave: WHAT ended the process (...)" and exits 1. */
void cli_crash_guard(const char *what);

/* (sat) An int64 image whose values all fit int32 (numpy's default integer type for small counts),
 * converted in place to int32: the sums are the same.  Nonzero (image untouched) if one does not. */
int cli_i64_as_i32(pw_image *img);

/* Do the two paths name one file (the same text, or the same file or directory entry once
 * symbolic links, "." and ".." are resolved; a file not yet made: by its directory)? */
int cli_same_file(const char *a, const char *b);

/* --mpi (cli_parse starts it): the rank's comm, or NULL when not given. */
int cli_mpi_start(uint64_t command_line_hash, int64_t watchdog_ms); /* (ranks with other command lines: refused on every rank) */
pw_comm *cli_mpi_comm(void);

/* --mpi: 1 if every rank says ok (collective); else 0, and a rank that was fine says which rank
 * was not (that rank has printed its own reason).  Without --mpi: ok.  Every command calls it
 * after reading its inputs, so that a rank that cannot read them (a file missing on one host, no
 * memory) ends every rank with its reason instead of leaving them in the run's first collective. */
int cli_mpi_agree(int ok);
/* This process's rank under --mpi, else 0. */
int cli_mpi_rank(void);

/* --mpi with .npy in and out: each rank reads and writes only its band of columns (cli_bands.c).
 * Exit codes.  asked_type: 0 = automatic, else a pw_dtype + 1. */
int cli_is_npy(const char *path);
int cli_sat_bands(cli_common *common, const char *path, const char *out_path, int asked_type);
int cli_stencil_bands(cli_common *common, const char *init, const char *out_path, int sor, int64_t sweeps, double omega,
                      int asked_type); /* (asked_type: --type + 1, 0 when not given) */

void cli_common_init(cli_common *c);
const char *cli_backend_name(pw_backend b);
const char *cli_strategy_name(pw_strategy s);

/* pw_status_str(st), with pw_error_detail() in parentheses for CUDA failures. */
const char *cli_status_text(pw_status st);

/* The exit code for a failed library call: 2 for option/argument errors, else 1. */
int cli_status_exit(pw_status st);

/* Result lines.  Results print always; details (run info) not with --quiet. */
#define CLI_REPORT_MAX 64
typedef struct cli_report {
    int n;
    char key[CLI_REPORT_MAX][32];
    char value[CLI_REPORT_MAX][160];
    int detail[CLI_REPORT_MAX];
    int absent[CLI_REPORT_MAX]; /* a column --tsv always has, "-" in this run; not a key: value line */
} cli_report;

void cli_result(cli_report *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cli_detail(cli_report *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A result (detail 0) or detail (1) this run does not have (no --check, no -o, no trained width,
 * no --trace): "-" under its --tsv column, so a command's columns are the same whatever its
 * options; no key: value line. */
void cli_absent(cli_report *r, int detail, const char *key);
/* backend, strategy, tile shape/h/w, threads, cells, seconds. */
void cli_detail_info(cli_report *r, const pw_run_info *info);
void cli_report_print(const cli_report *r, const cli_common *c);

/* Write data as .npy to path and add an "output" detail; 0, or EXIT_DATA with a message. */
int cli_write_output(cli_report *r, const char *path, pw_dtype type, int ndim, const int64_t *shape,
                     const void *data);
/* The same by the element's .npy descr (npy_write_elements: also int8, int16, uint32). */
int cli_write_output_elements(cli_report *r, const char *path, const char *descr, int ndim, const int64_t *shape,
                              const void *data);

/* After a successful run: write the --trace picture (if asked) and print the report.  Returns
 * the exit code. */
int cli_finish(cli_common *c, cli_report *r, const char *command);

/* Give c->options the progress hook and the cancel flag (Ctrl-C) when progress shows: on a
 * terminal, or with --progress; never with --quiet.  cli_parse calls it.  -1 (said) where
 * PEERWAVE_PROGRESS_AFTER_MS / _EVERY_MS is not a whole number of ms. */
int cli_progress_attach(cli_common *c);
/* Seconds between progress lines: PEERWAVE_PROGRESS_EVERY_MS, else 1 (a batch's lines too). */
double cli_progress_every_seconds(void);

/* Run job(arg) on a helper thread while the calling thread shows the run's progress on stderr
 * (percentage, rate, time left, SW's best score so far) after about two seconds on a terminal,
 * a line a second with --progress; never with --quiet. */
typedef pw_status (*cli_job_fn)(void *arg);
pw_status cli_run_job(const cli_common *c, const char *label, cli_job_fn job, void *arg);

/* Run one library job (pw_job) as cli_run_job does.  Inside `peerwave batch` (cmd_batch.c) the
 * job goes to the batch's queue instead: the call returns when the queue has run it and the jobs
 * of the lines before have printed their reports, so reports come out in the file's order.
 * cli_run_job itself is refused there (PW_ERR_UNSUPPORTED): only pw_job runs are queue jobs. */
pw_status cli_run_pw_job(const cli_common *c, const char *label, pw_job *job);

/* Inside a job of `peerwave batch` (cmd_batch.c): 1, and the hooks it provides. */
int cli_in_batch(void);
int cli_batch_silenced(void);                 /* the batch was abandoned: this job says nothing */
pw_status cli_batch_run_job(pw_job *job);     /* the queue's run of the job */
pw_status cli_batch_refuse(const char *label); /* a run that is not a queue job */
/* The file a line's option (long name: "output", "path", ...) writes: two lines writing one file
 * are refused before any job runs (the later one would overwrite the earlier one's). */
void cli_batch_output(const char *option, const char *path);

/* Options for the --check reference run: sequential strategy on the CPU. */
pw_options cli_reference_options(void);

#endif
