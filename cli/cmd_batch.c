/*
 * cmd_batch.c - `peerwave batch JOBS.tsv`: a file of peerwave command lines (sw, dtw, sat,
 * inthist, heat, sor, run), run through one job queue (peerwave_batch.h: copies and kernels of
 * different jobs overlapped on the GPU, in an order chosen for the shortest makespan).
 *
 * Each line is the command it names, unchanged: its own option parsing, input checks, --check
 * and report.  The line runs on a thread of its own up to the point where the command would run
 * its computation (cli_run_pw_job); the lines are prepared one after another (option parsing
 * uses getopt's globals), and only when every line has passed its checks do the jobs go to the
 * queue -- a bad line is named and nothing runs.  Each job's report is printed when its job is
 * done and the lines before it have printed theirs, so the output keeps the file's order.
 * Lines are split into words without a shell: blanks separate, '...' and "..." quote, a
 * backslash escapes the next character (not inside '...'); a line starting with # is a comment.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "io_util.h"
#include "../src/core/status_detail.h"


static const char usage[] =
    "usage: peerwave batch [options] JOBS.tsv\n"
    "Run a file of peerwave commands as one job queue: on the GPU the copies of some jobs run\n"
    "while others compute, in an order chosen for the shortest total time (CuMAS).\n"
    "JOBS.tsv: one command a line, as typed after 'peerwave' (sw, dtw, sat, inthist, heat, sor\n"
    "or run CELL_FILE, with their options; not sw --align, --query/--db searches; a user cell's\n"
    "job copies its own buffers, so they do not overlap other jobs); words split without a\n"
    "shell: '...' and \"...\" quote, \\ escapes; lines starting with # are comments.  Every line\n"
    "is checked (options, input files) before any job runs; a bad one is named, nothing runs.\n"
    "Bad too: a line writing a file another line writes (-o, --path, ...: the same name), and\n"
    "--mpi, --gpus or --devices on a line (the batch's own --gpus/--devices spread its jobs).\n"
    "Each job's report follows a line '# job K (FILE:LINE): COMMAND', in the file's order.\n"
    "  --order reorder|fifo|serial   reorder (default): a window of waiting jobs ordered for the\n"
    "                        shortest makespan; fifo: file order, stages overlapped; serial: one\n"
    "                        job at a time, nothing overlapped\n"
    "  --window N            jobs ordered together (1 .. 64, default 8)\n"
    "  --queue-backend auto|cpu|cuda   where the queue runs its jobs (default auto: the GPU\n"
    "                        when present); a line's own --backend cpu runs that job on the CPU\n"
    "  --gpus N, --devices 0,2,..  several GPUs, a queue each: every job goes to the one\n"
    "                        predicted to be done first (with auto, GPUs not there are left out)\n"
    "  --progress            jobs done, elapsed time and the time left, on stderr once a\n"
    "                        second (on a terminal it shows after 2 s)\n"
    "  --quiet               no job headers and no summary (a line's own --quiet keeps its\n"
    "                        report to the result lines)\n"
    "  --help                this text\n"
    "At most " "1000" " jobs a file (every job's input is read before the first one runs).\n"
    "Output: each job's report, then (not with --quiet) the queue's summary: jobs, failed,\n"
    "backend, copy engines, seconds, the lower bound of the GPU jobs' measured stages, each\n"
    "stage's busy time and the jobs run on the CPU.  Exit status: 0 when every job succeeded,\n"
    "else the first failed job's (1 bad data or a failed run, 2 bad usage).\n";

enum { MAX_JOBS = 1000, MAX_WORDS = 256 };

static const struct {
    const char *name;
    int (*run)(int, char **);
} job_commands[] = {{"sw", cmd_sw},           {"dtw", cmd_dtw},   {"sat", cmd_sat},
                    {"inthist", cmd_inthist}, {"heat", cmd_heat}, {"sor", cmd_sor}, {"run", cmd_run}};

typedef struct batch_run batch_run;

enum { SLOT_PREPARING, SLOT_PREPARED, SLOT_EXITED };

typedef struct batch_slot {
    batch_run *run;
    int index, line;
    char *text; /* the line, for the job's header */
    int argc;
    char **argv;
    int (*command)(int, char **);
    pthread_t thread;
    int state;
    int joinable;  /* its thread was created */
    int refused;   /* the command ran something that is not a queue job */
    char refused_what[64];
    /* the files its options write (cli_batch_output): option long names and paths, an option
     * once (a repeated option's last value is the one the command uses) */
    const char *output_option[8], *output[8];
    int outputs;
    pw_job job;
    int64_t id;
    pw_status submit_status;
    char submit_detail[256]; /* pw_error_detail of a refused submit (set on the main thread) */
    int exit_code;
} batch_slot;

struct batch_run {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    const char *path;
    int go, abandoned, quiet;
    int reported; /* slots 0 .. reported - 1 have printed their reports */
    int exited;   /* slot threads that have ended */
    pw_queue *queue;
};

static _Thread_local batch_slot *current;

int cli_in_batch(void) { return current != NULL; }

/* (a refused job's own command goes on to print its failure: the batch's line names the reason) */
int cli_batch_silenced(void) { return current && (current->run->abandoned || current->refused); }

pw_status cli_batch_refuse(const char *label)
{
    batch_slot *s = current;
    pthread_mutex_lock(&s->run->lock);
    s->refused = 1;
    snprintf(s->refused_what, sizeof s->refused_what, "%s", label);
    pthread_mutex_unlock(&s->run->lock);
    return PW_ERR_UNSUPPORTED;
}

void cli_batch_output(const char *option, const char *path)
{
    batch_slot *s = current;
    if (!s) return;
    if (io_is_stdout(path)) { /* the arrays' stream: every report and the batch's lines on stderr,
                                 from the first on (jobs name their outputs before any runs) */
        io_claim_stdout();
        return;
    }
    int k = 0;
    while (k < s->outputs && strcmp(s->output_option[k], option)) k++;
    if (k == (int)(sizeof s->output / sizeof s->output[0])) return;
    s->output_option[k] = option, s->output[k] = path;
    if (k == s->outputs) s->outputs++;
}

/* Where the batch's own lines go: stdout, or stderr where a job writes an array to stdout. */
static FILE *report_stream(void) { return io_stdout_used() ? stderr : stdout; }

pw_status cli_batch_run_job(pw_job *job)
{
    batch_slot *s = current;
    batch_run *r = s->run;
    pthread_mutex_lock(&r->lock);
    s->job = *job;
    s->state = SLOT_PREPARED;
    pthread_cond_broadcast(&r->changed);
    while (!r->go && !r->abandoned) pthread_cond_wait(&r->changed, &r->lock);
    if (r->abandoned) {
        pthread_mutex_unlock(&r->lock);
        return PW_ERR_CANCELLED;
    }
    pthread_mutex_unlock(&r->lock);
    pw_status st = s->submit_status;
    if (st != PW_OK)
        pw_set_error_detail("%s", s->submit_detail); /* (the detail is per thread: submit ran on the main one) */
    else
        st = pw_queue_wait(r->queue, s->id);
    pthread_mutex_lock(&r->lock); /* the reports keep the file's order */
    while (r->reported < s->index) pthread_cond_wait(&r->changed, &r->lock);
    pthread_mutex_unlock(&r->lock);
    FILE *o = report_stream();
    if (!r->quiet) fprintf(o, "# job %d (%s:%d): %s\n", s->index + 1, r->path, s->line, s->text);
    fflush(o);
    return st;
}

static void *slot_thread(void *p)
{
    batch_slot *s = p;
    current = s;
    const int code = s->command(s->argc, s->argv);
    fflush(stdout);
    fflush(stderr);
    pthread_mutex_lock(&s->run->lock);
    s->exit_code = code;
    s->state = SLOT_EXITED;
    s->run->exited++;
    if (s->run->go) s->run->reported = s->index + 1; /* (a job exits only after its turn) */
    pthread_cond_broadcast(&s->run->changed);
    pthread_mutex_unlock(&s->run->lock);
    return NULL;
}

/* ---- the job file ------------------------------------------------------------------------------ */

/* Split line into words (in place: the words point into the copy it makes); 0, or -1 with the
 * reason in err. */
static int split_words(const char *line, char **copy, int *argc, char **argv, char *err, size_t errlen)
{
    char *out = malloc(strlen(line) + 1);
    if (!out) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *copy = out;
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r') p++;
        if (!*p || *p == '\n') break;
        if (n == MAX_WORDS) {
            snprintf(err, errlen, "more than %d words", MAX_WORDS);
            return -1;
        }
        argv[n++] = out;
        char quote = 0;
        for (; *p && *p != '\n'; p++) {
            if (quote) {
                if (*p == quote) quote = 0;
                else if (*p == '\\' && quote == '"' && p[1] && p[1] != '\n') *out++ = *++p;
                else *out++ = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (*p == '\\' && (!p[1] || p[1] == '\n' || (p[1] == '\r' && (!p[2] || p[2] == '\n')))) {
                snprintf(err, errlen, "the line ends with '\\': one job a line (no continuation lines)");
                return -1;
            } else if (*p == '\\' && p[1] && p[1] != '\n') {
                *out++ = *++p;
            } else if (*p == ' ' || *p == '\t' || *p == '\r') {
                break;
            } else {
                *out++ = *p;
            }
        }
        if (quote) {
            snprintf(err, errlen, "a %c quote is not closed", quote);
            return -1;
        }
        *out++ = '\0';
    }
    *argc = n;
    argv[n] = NULL;
    return 0;
}

/* Read the job file into slots; 0, or the exit code with a message. */
static int read_jobs(const char *path, batch_run *run, batch_slot **slots, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        return EXIT_DATA;
    }
    batch_slot *s = calloc(MAX_JOBS, sizeof *s);
    char *line = NULL;
    size_t cap = 0;
    int n = 0, number = 0, code = 0;
    ssize_t got;
    while (!code && s && (got = getline(&line, &cap, f)) >= 0) {
        number++;
        if (number == 1) got = (ssize_t)io_drop_bom(line, (size_t)got); /* (the FASTA and series readers skip it too) */
        const char *p = line + strspn(line, " \t\r\n");
        if ((size_t)got != strlen(line)) {
            cli_error("%s:%d: not text", path, number);
            code = EXIT_USAGE;
            break;
        }
        if (!*p || *p == '#') continue;
        if (n == MAX_JOBS) {
            cli_error("%s:%d: more than 1000 jobs (split the file)", path, number);
            code = EXIT_USAGE;
            break;
        }
        batch_slot *j = &s[n];
        char err[128], *words[MAX_WORDS + 1], *copy = NULL;
        int argc = 0;
        if (split_words(p, &copy, &argc, words, err, sizeof err)) {
            free(copy);
            cli_error("%s:%d: %s", path, number, err);
            code = EXIT_USAGE;
            break;
        }
        for (size_t k = 0; k < sizeof job_commands / sizeof job_commands[0]; k++)
            if (!strcmp(words[0], job_commands[k].name)) j->command = job_commands[k].run;
        if (!j->command) {
            cli_error("%s:%d: '%s' is not a batch job (sw, dtw, sat, inthist, heat, sor or run)", path, number, words[0]);
            free(copy);
            code = EXIT_USAGE;
            break;
        }
        j->argv = malloc(sizeof *j->argv * (size_t)(argc + 2));
        j->text = strdup(p);
        if (!j->argv || !j->text) {
            free(copy), free(j->argv), free(j->text);
            j->argv = NULL, j->text = NULL;
            cli_error("out of memory");
            code = EXIT_DATA;
            break;
        }
        j->text[strcspn(j->text, "\r\n")] = '\0';
        memcpy(j->argv, words, sizeof *words * (size_t)(argc + 1));
        j->argv[argc + 1] = copy; /* (kept for freeing: words live in it) */
        j->argc = argc, j->line = number, j->index = n, j->run = run;
        n++;
    }
    if (!s) cli_error("out of memory"), code = EXIT_DATA;
    if (!code && n == 0) cli_error("%s: no jobs", path), code = EXIT_DATA;
    free(line);
    fclose(f);
    *slots = s, *count = n;
    return code;
}

static void free_jobs(batch_slot *s, int n)
{
    for (int k = 0; k < n && s; k++) {
        if (s[k].argv) free(s[k].argv[s[k].argc + 1]);
        free(s[k].argv);
        free(s[k].text);
    }
    free(s);
}

/* ---- running it ---------------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Slot s writes a file an earlier slot writes too: the jobs run in any order, so the file would
 * hold whichever finished last.  1 (with a message naming both lines), else 0.  Paths compare as
 * strings: "out.npy" and "./out.npy" are not caught. */
static int same_output(const batch_run *r, const batch_slot *slots, const batch_slot *s)
{
    for (const batch_slot *e = slots; e < s; e++)
        for (int i = 0; i < s->outputs; i++)
            for (int j = 0; j < e->outputs; j++)
                if (cli_same_file(s->output[i], e->output[j])) {
                    cli_error("%s:%d: --%s %s: line %d writes that file too (--%s); give each job its own output "
                              "file; nothing ran", r->path, s->line, s->output_option[i], s->output[i], e->line,
                              e->output_option[j]);
                    return 1;
                }
    return 0;
}

/* Start slot k and wait until it is prepared (0) or has stopped on its checks (its code). */
static int prepare(batch_run *r, batch_slot *slots, batch_slot *s)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 4 << 20);
    const int failed = pthread_create(&s->thread, &attr, slot_thread, s);
    pthread_attr_destroy(&attr);
    if (failed) {
        cli_error("%s:%d: cannot start a thread for this job", r->path, s->line);
        pthread_mutex_lock(&r->lock);
        s->state = SLOT_EXITED;
        r->exited++; /* (as if it had run: the main thread counts exits) */
        pthread_mutex_unlock(&r->lock);
        return EXIT_DATA;
    }
    s->joinable = 1;
    pthread_mutex_lock(&r->lock);
    while (s->state == SLOT_PREPARING) pthread_cond_wait(&r->changed, &r->lock);
    const int exited = s->state == SLOT_EXITED;
    pthread_mutex_unlock(&r->lock);
    if (!exited) return same_output(r, slots, s) ? EXIT_USAGE : 0;
    if (s->refused)
        cli_error("%s:%d: '%s' is not a job a batch can queue (SW scores, DTW distances, sat, inthist, heat, sor, run)",
                  r->path, s->line, s->refused_what);
    else
        cli_error("%s:%d: this job did not pass its checks%s; nothing ran", r->path, s->line,
                  s->exit_code ? " (above)" : " (it asked for --help?)");
    return s->exit_code ? s->exit_code : EXIT_USAGE;
}

typedef struct batch_args {
    pw_queue_options queue;
    int devices[PW_QUEUE_MAX_DEVICES]; /* --gpus, --devices */
    int progress, quiet;
} batch_args;

static int parse_args(int argc, char **argv, batch_args *a, const char **path)
{
    pw_queue_options_init(&a->queue);
    a->progress = a->quiet = 0;
    *path = NULL;
    for (int k = 1; k < argc; k++) {
        const char *o = argv[k];
        const char *v = k + 1 < argc ? argv[k + 1] : NULL;
        int64_t w;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 1;
        } else if (!strcmp(o, "--progress")) {
            a->progress = 1;
        } else if (!strcmp(o, "--quiet")) {
            a->quiet = 1;
        } else if (!strcmp(o, "--order") && v) {
            k++;
            if (!strcmp(v, "reorder")) a->queue.order = PW_QUEUE_REORDER;
            else if (!strcmp(v, "fifo")) a->queue.order = PW_QUEUE_FIFO;
            else if (!strcmp(v, "serial")) a->queue.order = PW_QUEUE_SERIAL;
            else return cli_error("--order: reorder, fifo or serial, not '%s'", v), -1;
        } else if (!strcmp(o, "--window") && v) {
            k++;
            if (cli_parse_int("--window", v, 1, 64, &w)) return -1;
            a->queue.window = (int)w;
        } else if (!strcmp(o, "--gpus") && v) {
            k++;
            if (cli_parse_int("--gpus", v, 1, PW_QUEUE_MAX_DEVICES, &w)) return -1;
            for (int d = 0; d < (int)w; d++) a->devices[d] = d;
            a->queue.devices = a->devices, a->queue.n_devices = (int)w;
        } else if (!strcmp(o, "--devices") && v) {
            k++;
            if (cli_parse_devices(v, a->devices, PW_QUEUE_MAX_DEVICES, &a->queue.n_devices)) return -1;
            a->queue.devices = a->devices;
        } else if (!strcmp(o, "--queue-backend") && v) {
            k++;
            if (!strcmp(v, "auto")) a->queue.backend = PW_BACKEND_AUTO;
            else if (!strcmp(v, "cpu")) a->queue.backend = PW_BACKEND_CPU;
            else if (!strcmp(v, "cuda")) a->queue.backend = PW_BACKEND_CUDA;
            else return cli_error("--queue-backend: auto, cpu or cuda, not '%s'", v), -1;
        } else if (o[0] == '-' && o[1]) {
            cli_error("batch: unknown option or missing value: %s (see peerwave batch --help)", o);
            return -1;
        } else if (*path) {
            cli_error("batch: one job file, not '%s' too", o);
            return -1;
        } else {
            *path = o;
        }
    }
    if (!*path) {
        cli_error("batch: a job file is needed (see peerwave batch --help)");
        return -1;
    }
    return 0;
}

/* Jobs done, elapsed and the time left, on one stderr line. */
static void show_progress(pw_queue *q, double start, int tty)
{
    pw_queue_stats st;
    if (pw_queue_get_stats(q, &st) != PW_OK) return;
    char left[48] = "the time left not known yet"; /* (no job done: "about 0.0 s left" said nothing true) */
    if (st.done > 0) snprintf(left, sizeof left, "about %.1f s left", st.remaining_seconds);
    /* (on a terminal the line is drawn again in place: padded to the longest "left", else a shorter
     * one left the end of the longer behind) */
    fprintf(stderr, "%speerwave: batch: %lld of %lld jobs done, %.1f s, %-*s%s", tty ? "\r" : "", (long long)st.done,
            (long long)st.submitted, now() - start, tty ? (int)sizeof left - 1 : 0, left, tty ? "   " : "\n");
    fflush(stderr);
}

/* failed: the jobs whose commands failed (the queue counts only the runs that failed, not a
 * result that could not be written afterwards) */
static void print_summary(pw_queue *q, int n, int failed)
{
    pw_queue_stats st;
    if (pw_queue_get_stats(q, &st) != PW_OK) return;
    FILE *o = report_stream();
    fprintf(o, "# batch: %d jobs, %d failed, backend %s, copy engines %d, %.3f s", n, failed,
            st.backend == PW_BACKEND_CUDA ? "cuda" : "cpu", st.copy_engines, st.seconds);
    if (st.copy_engines > 0)
        fprintf(o, ", lower bound %.3f s, busy: copy-in %.3f s, kernels %.3f s, copy-out %.3f s", st.lower_bound,
                st.copy_in_seconds, st.kernel_seconds, st.copy_out_seconds);
    /* (on_cpu: jobs a GPU queue ran on the CPU; a CPU queue runs them all there, nothing to add) */
    if (st.backend == PW_BACKEND_CUDA || st.device_failed) /* (a failed GPU's queue reports the CPU backend) */
        fprintf(o, ", on the CPU %lld%s", (long long)st.on_cpu, st.device_failed ? " (the GPU failed; the rest ran on the CPU)" : "");
    fputc('\n', o);
    for (int k = 0; st.devices > 1 && k < st.devices; k++) { /* each GPU's queue */
        pw_queue_stats d;
        int device;
        if (pw_queue_get_device_stats(q, k, &d, &device) != PW_OK) continue;
        fprintf(o, "# batch: GPU %d: %lld jobs, %.3f s, busy: copy-in %.3f s, kernels %.3f s, copy-out %.3f s, on the CPU %lld%s\n",
                device, (long long)d.submitted, d.seconds, d.copy_in_seconds, d.kernel_seconds, d.copy_out_seconds,
                (long long)d.on_cpu, d.device_failed ? " (this GPU failed)" : "");
    }
}

int cmd_batch(int argc, char **argv)
{
    batch_args args;
    const char *path;
    int r = parse_args(argc, argv, &args, &path);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    cli_crash_guard("batch: a job (a run line's cell, most likely; the other jobs' results are lost)");
    batch_run run = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, path, 0, 0, args.quiet, 0, 0, NULL};
    batch_slot *slots = NULL;
    int n = 0, code = read_jobs(path, &run, &slots, &n);
    if (code) {
        free_jobs(slots, n);
        return code;
    }
    pw_status st = pw_queue_create(&args.queue, &run.queue);
    if (st != PW_OK) {
        cli_error("batch: the job queue: %s", cli_status_text(st));
        free_jobs(slots, n);
        return cli_status_exit(st);
    }
    int started = 0;
    for (; started < n && !code; started++) code = prepare(&run, slots, &slots[started]);
    pthread_mutex_lock(&run.lock);
    if (code) {
        run.abandoned = 1; /* the prepared jobs end quietly */
    } else {
        for (int k = 0; k < n; k++) {
            pw_clear_error_detail(); /* (a refusal's own detail, never an earlier one's) */
            slots[k].submit_status = pw_queue_submit(run.queue, &slots[k].job, &slots[k].id);
            if (slots[k].submit_status != PW_OK)
                snprintf(slots[k].submit_detail, sizeof slots[k].submit_detail, "%s", pw_error_detail());
        }
        run.go = 1;
    }
    pthread_cond_broadcast(&run.changed);
    /* progress once a second (on a terminal from 2 s on) until every job's thread has ended */
    const double start = now();
    const int tty = isatty(STDERR_FILENO);
    const int shows = !args.quiet && !code && (args.progress || tty);
    const double every = cli_progress_every_seconds();
    double last_shown = start + (tty ? 1.0 : 0.0) - every;
    int shown = 0;
    while (run.exited < started) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&run.changed, &run.lock, &until);
        if (shows && run.exited < started && now() - last_shown >= every) {
            pthread_mutex_unlock(&run.lock);
            show_progress(run.queue, start, tty);
            shown = 1, last_shown = now();
            pthread_mutex_lock(&run.lock);
        }
    }
    pthread_mutex_unlock(&run.lock);
    if (shown) /* (a last line, as a single command's "done after") */
        fprintf(stderr, "%speerwave: batch: done after %.1f s\n", tty ? "\n" : "", now() - start);
    for (int k = 0; k < started; k++)
        if (slots[k].joinable) pthread_join(slots[k].thread, NULL);
    if (!code) {
        int failed = 0;
        for (int k = 0; k < n; k++) {
            if (!code) code = slots[k].exit_code;
            failed += slots[k].exit_code != 0;
        }
        if (!args.quiet) print_summary(run.queue, n, failed);
    }
    pw_queue_destroy(run.queue);
    free_jobs(slots, n);
    return code;
}
