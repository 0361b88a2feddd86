/* progress_cost.c - what the progress hook costs on the GPU (issue 26: < 1%): the same run with
 * no hook, with the hook at its default interval (500 ms) and at 1 ms, kernel time (CUDA events,
 * pw_run_info.seconds) as the median of interleaved runs, so drifts of clock or temperature hit
 * all three alike.  The runs' results must agree.
 *   bench_progress_cost [N=262144] [RUNS=7]   SW affine (5/2, 1/-3) N x N, then HEAT 16384^2 x 20 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave.h"

static int count_calls(void *user, const pw_progress *p)
{
    (void)p;
    (*(int *)user)++;
    return 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct job {
    const char *a, *b;
    int64_t n;
    float *grid, *work;
    int64_t side;
} job;

/* One run of app (0: sw, 1: heat) under o: kernel seconds, and a value the variants must share. */
static pw_status run(const job *j, int app, const pw_options *o, double *seconds, double *check)
{
    if (app == 0) {
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.match = 1, p.mismatch = -3, p.gap_open = 5, p.gap_extend = 2;
        pw_sw_result r;
        pw_status st = pw_sw(j->a, j->n, j->b, j->n, &p, o, &r);
        *seconds = r.info.seconds;
        *check = r.score * 1e12 + (double)r.end_a * 1e6 + (double)r.end_b;
        return st;
    }
    memcpy(j->work, j->grid, sizeof(float) * (size_t)(j->side * j->side));
    pw_image g = {PW_F32, j->side, j->side, 0, j->work};
    pw_run_info info;
    double res = 0;
    pw_status st = pw_heat(&g, 20, o, &res, &info);
    *seconds = info.seconds;
    uint64_t h = 0; /* the grid's bits (the grid itself, not only the residual) */
    for (int64_t k = 0; k < j->side * j->side; k++) {
        uint32_t w;
        memcpy(&w, &j->work[k], 4);
        h = h * 1000003u + w;
    }
    (void)res;
    *check = (double)(h >> 11);
    return st;
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 262144;
    const int runs = argc > 2 ? atoi(argv[2]) : 7;
    job j = {0};
    char *a = malloc((size_t)n), *b = malloc((size_t)n);
    srand(7);
    for (int64_t k = 0; k < n; k++) a[k] = "ACGT"[rand() % 4], b[k] = "ACGT"[rand() % 4];
    j.a = a, j.b = b, j.n = n;
    j.side = 16384;
    j.grid = malloc(sizeof(float) * (size_t)(j.side * j.side));
    j.work = malloc(sizeof(float) * (size_t)(j.side * j.side));
    for (int64_t k = 0; k < j.side * j.side; k++) j.grid[k] = (float)(k % 977);
    const char *apps[] = {"sw", "heat"};
    printf("app\tvariant\tkernel_s_median\tslowdown_pct\tcalls_per_run\n");
    for (int app = 0; app < 2; app++) {
        double t[3][64], check[3] = {0};
        int calls[3] = {0};
        for (int r = -1; r < runs && r < 64; r++) /* r = -1: warm-up */
            for (int v = 0; v < 3; v++) {
                pw_options o;
                pw_options_init(&o);
                o.backend = PW_BACKEND_CUDA;
                int c = 0;
                if (v > 0) {
                    o.progress = count_calls;
                    o.progress_user = &c;
                    o.progress_interval_ms = v == 1 ? 0 : 1;
                }
                double s, chk;
                pw_status st = run(&j, app, &o, &s, &chk);
                if (st != PW_OK) {
                    fprintf(stderr, "%s variant %d: %s (%s)\n", apps[app], v, pw_status_str(st), pw_error_detail());
                    return 1;
                }
                if (r < 0) check[v] = chk;
                else t[v][r] = s, calls[v] += c;
                if (chk != check[0]) {
                    fprintf(stderr, "%s variant %d: result differs\n", apps[app], v);
                    return 1;
                }
            }
        const char *names[] = {"no hook", "hook 500 ms", "hook 1 ms"};
        double med[3];
        for (int v = 0; v < 3; v++) {
            qsort(t[v], (size_t)runs, sizeof(double), cmp);
            med[v] = t[v][runs / 2];
            printf("%s\t%s\t%.4f\t%+.2f\t%.1f\n", apps[app], names[v], med[v], 100.0 * (med[v] / med[0] - 1),
                   (double)calls[v] / runs);
        }
    }
    free(a), free(b), free(j.grid), free(j.work);
    return 0;
}
