/* flowshop.c - the job queue's order: makespans, a lower bound, exact and heuristic orders, and
 * the online window (flowshop.h has the models). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flowshop.h"
#include "../core/alloc.h"

static double max2(double a, double b) { return a > b ? a : b; }
static double pos(double a) { return a > 0 ? a : 0; }

static double stage(const pw_flow_job *j, int k) { return k == 0 ? j->s : k == 1 ? j->p : j->r; }

/* !(t >= 0) is also true for NaN. */
static int bad_time(double t) { return !(t >= 0) || isinf(t); }

static pw_status check_jobs(const pw_flow_job *jobs, int n)
{
    if (!jobs) return PW_ERR_NULL_ARGUMENT;
    if (n <= 0) return PW_ERR_INVALID_SIZE;
    for (int i = 0; i < n; i++)
        if (bad_time(jobs[i].s) || bad_time(jobs[i].p) || bad_time(jobs[i].r)) return PW_ERR_BAD_INPUT;
    return PW_OK;
}

static pw_status check_state(const pw_flow_state *st)
{
    if (!st) return PW_ERR_NULL_ARGUMENT;
    if (st->copy_engines != 1 && st->copy_engines != 2) return PW_ERR_INVALID_ARGUMENT;
    if (bad_time(st->in_free) || bad_time(st->kernel_free) || bad_time(st->out_free) || bad_time(st->held_r))
        return PW_ERR_BAD_INPUT;
    return PW_OK;
}

static pw_status check_order(const int *order, int n)
{
    unsigned char *seen = pw_calloc((size_t)n, 1);
    if (!seen) return PW_ERR_OUT_OF_MEMORY;
    pw_status st = PW_OK;
    for (int k = 0; k < n && st == PW_OK; k++) {
        if (order[k] < 0 || order[k] >= n || seen[order[k]]) st = PW_ERR_INVALID_ARGUMENT;
        else seen[order[k]] = 1;
    }
    free(seen);
    return st;
}

/* ---- the models ---------------------------------------------------------------------------- */

pw_status pw_flow_state_init(pw_flow_state *st, int copy_engines)
{
    if (!st) return PW_ERR_NULL_ARGUMENT;
    if (copy_engines < 1) return PW_ERR_INVALID_ARGUMENT;
    memset(st, 0, sizeof *st);
    st->copy_engines = copy_engines >= 2 ? 2 : 1;
    return PW_OK;
}

/* The recurrences of flowshop.h, one job at a time (jobs already checked). */
static void add(pw_flow_state *st, const pw_flow_job *job)
{
    const double last_kernel = st->kernel_free;
    st->in_free += job->s; /* a copy-in never waits for anything but its engine */
    st->kernel_free = max2(st->in_free, st->kernel_free) + job->p;
    if (st->copy_engines == 2) {
        st->out_free = max2(st->kernel_free, st->out_free) + job->r;
        return;
    }
    /* One engine: the previous job's copy-out goes now, behind this copy-in. */
    if (st->held) st->in_free = max2(st->in_free, last_kernel) + st->held_r;
    st->held_r = job->r;
    st->held = 1;
}

pw_status pw_flow_state_add(pw_flow_state *st, const pw_flow_job *job)
{
    pw_status e = check_state(st);
    if (e == PW_OK) e = check_jobs(job, 1);
    if (e == PW_OK) add(st, job);
    return e;
}

double pw_flow_state_finish(const pw_flow_state *st)
{
    if (st->copy_engines == 2) return st->out_free;
    return st->held ? max2(st->in_free, st->kernel_free) + st->held_r : st->in_free;
}

static double run_order(const pw_flow_state *start, const pw_flow_job *jobs, const int *order, int n)
{
    pw_flow_state st = *start;
    for (int k = 0; k < n; k++) add(&st, &jobs[order ? order[k] : k]);
    return pw_flow_state_finish(&st);
}

pw_status pw_flow_makespan(const pw_flow_job *jobs, const int *order, int n, int copy_engines,
                           double *makespan)
{
    pw_flow_state st;
    pw_status e = check_jobs(jobs, n);
    if (e == PW_OK && !makespan) e = PW_ERR_NULL_ARGUMENT;
    if (e == PW_OK) e = pw_flow_state_init(&st, copy_engines);
    if (e == PW_OK && order) e = check_order(order, n);
    if (e == PW_OK) *makespan = run_order(&st, jobs, order, n);
    return e;
}

/* ---- the lower bound ----------------------------------------------------------------------- */

typedef struct rank {
    int group;
    double key;
    int job;
} rank;

static int by_rank(const void *x, const void *y)
{
    const rank *a = x, *b = y;
    if (a->group != b->group) return a->group - b->group;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->job - b->job;
}

/* The best makespan of a two-machine flow shop: stage ka on the first machine, kb on the second,
 * and with lag the kernel as a delay between them (the second stage starts p after the first
 * ends).  Johnson's rule on (a + l, l + b) is optimal over permutations (Mitten), and every
 * order of the three-stage jobs takes at least this long on those two engines. */
static double johnson(const pw_flow_job *jobs, int n, int ka, int kb, int lag, rank *rk)
{
    for (int i = 0; i < n; i++) {
        double l = lag ? jobs[i].p : 0, a = stage(&jobs[i], ka) + l, b = stage(&jobs[i], kb) + l;
        rk[i] = a < b ? (rank){0, a, i} : (rank){1, -b, i}; /* a < b first, by a up; then by b down */
    }
    qsort(rk, (size_t)n, sizeof *rk, by_rank);
    double first = 0, second = 0;
    for (int k = 0; k < n; k++) {
        const pw_flow_job *j = &jobs[rk[k].job];
        first += stage(j, ka);
        second = max2(second, first + (lag ? j->p : 0)) + stage(j, kb);
    }
    return second;
}

/* The two jobs with the smallest sign * stage k (n >= 2). */
static void two_lowest(const pw_flow_job *jobs, int n, int k, double sign, int low[2])
{
    low[0] = low[1] = -1;
    for (int i = 0; i < n; i++) {
        double v = sign * stage(&jobs[i], k);
        if (low[0] < 0 || v < sign * stage(&jobs[low[0]], k)) low[1] = low[0], low[0] = i;
        else if (low[1] < 0 || v < sign * stage(&jobs[low[1]], k)) low[1] = i;
    }
}

/* min over i != j of sx * stage(i, kx) + sy * stage(j, ky), n >= 2: some optimum takes i among
 * the two best of its side and j among the two best of the other. */
static double pair_min(const pw_flow_job *jobs, int n, int kx, double sx, int ky, double sy)
{
    int x[2], y[2];
    two_lowest(jobs, n, kx, sx, x);
    two_lowest(jobs, n, ky, sy, y);
    double v = INFINITY;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            if (x[a] != y[b]) v = fmin(v, sx * stage(&jobs[x[a]], kx) + sy * stage(&jobs[y[b]], ky));
    return v;
}

/* Each stage's sum and smallest over the jobs; returns the longest job (s + p + r). */
static double stage_sums(const pw_flow_job *jobs, int n, double sum[3], double low[3])
{
    double longest = 0;
    for (int k = 0; k < 3; k++) sum[k] = 0, low[k] = INFINITY;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            sum[k] += stage(&jobs[i], k);
            if (stage(&jobs[i], k) < low[k]) low[k] = stage(&jobs[i], k);
        }
        longest = max2(longest, jobs[i].s + jobs[i].p + jobs[i].r);
    }
    return longest;
}

pw_status pw_flow_lower_bound(const pw_flow_job *jobs, int n, int copy_engines, double *bound)
{
    pw_status e = check_jobs(jobs, n);
    if (e == PW_OK && !bound) e = PW_ERR_NULL_ARGUMENT;
    if (e == PW_OK && copy_engines < 1) e = PW_ERR_INVALID_ARGUMENT;
    rank *rk = e == PW_OK ? pw_malloc(sizeof *rk * (size_t)n) : NULL;
    if (e == PW_OK && !rk) e = PW_ERR_OUT_OF_MEMORY;
    if (e) return e;
    double sum[3], low[3], b = stage_sums(jobs, n, sum, low);
    b = max2(b, johnson(jobs, n, 0, 2, 1, rk));
    b = max2(b, johnson(jobs, n, 0, 1, 0, rk) + low[2]);
    b = max2(b, low[0] + johnson(jobs, n, 1, 2, 0, rk));
    free(rk);
    if (n >= 2) b = max2(b, pair_min(jobs, n, 0, 1, 2, 1) + sum[1]);
    if (copy_engines == 1) {
        /* The engine idles before the first copy-out until kernel a ends (p_a beyond the second
         * copy-in s_b), and before the last one until kernel z ends (beyond the copy-out r_y
         * between them); for n >= 3 the two waits are at different places and add up. */
        double wait = jobs[0].p;
        if (n >= 2) {
            double first = pos(pair_min(jobs, n, 1, 1, 0, -1)), last = pos(pair_min(jobs, n, 1, 1, 2, -1));
            wait = n >= 3 ? first + last : max2(first, last);
        }
        b = max2(b, sum[0] + sum[2] + wait);
    }
    *bound = b;
    return PW_OK;
}

pw_status pw_flow_lower_bound_split(const pw_flow_job *jobs, int n, int copy_engines, int devices, double *bound)
{
    if (devices == 1) return pw_flow_lower_bound(jobs, n, copy_engines, bound);
    pw_status e = check_jobs(jobs, n);
    if (e == PW_OK && !bound) e = PW_ERR_NULL_ARGUMENT;
    if (e == PW_OK && (copy_engines < 1 || devices < 1)) e = PW_ERR_INVALID_ARGUMENT;
    if (e) return e;
    double sum[3], low[3], b = stage_sums(jobs, n, sum, low);
    /* (a device with none of the jobs needs no bound: with fewer jobs than devices the single
     * jobs above are the bound) */
    if (n > devices) {
        b = max2(b, sum[1] / devices + low[0] + low[2]);
        b = max2(b, sum[0] / devices + low[1] + low[2]);
        b = max2(b, sum[2] / devices + low[0] + low[1]);
        if (copy_engines == 1) b = max2(b, (sum[0] + sum[2]) / devices); /* (the engine may copy in
                                                                           while a kernel runs) */
    }
    *bound = b;
    return PW_OK;
}

/* ---- exact and heuristic orders ------------------------------------------------------------ */

/* What each engine still has to do after st for the jobs rest[0..m-1], in any order. */
static double bound_rest(const pw_flow_state *st, const pw_flow_job *jobs, const int *rest, int m)
{
    double b = pw_flow_state_finish(st);
    if (m == 0) return b;
    double sum_s = 0, sum_p = 0, sum_r = 0, low_s = INFINITY, low_r = INFINITY, low_pr = INFINITY,
           first_out = INFINITY;
    for (int k = 0; k < m; k++) {
        const pw_flow_job *j = &jobs[rest[k]];
        sum_s += j->s, sum_p += j->p, sum_r += j->r;
        low_s = fmin(low_s, j->s), low_r = fmin(low_r, j->r), low_pr = fmin(low_pr, j->p + j->r);
        first_out = fmin(first_out, max2(st->kernel_free, st->in_free + j->s) + j->p);
    }
    b = max2(b, max2(st->kernel_free, st->in_free + low_s) + sum_p + low_r);
    if (st->copy_engines == 1) return max2(b, st->in_free + (st->held ? st->held_r : 0) + sum_s + sum_r);
    b = max2(b, st->in_free + sum_s + low_pr);
    return max2(b, max2(st->out_free, first_out) + sum_r);
}

typedef struct search {
    const pw_flow_job *jobs;
    int n;
    int perm[PW_FLOW_EXACT_MAX], *best_order;
    double best;
} search;

/* perm[0..d-1] is issued (giving st); try each of perm[d..n-1] next. */
static void branch(search *x, const pw_flow_state *st, int d)
{
    if (d == x->n) {
        double f = pw_flow_state_finish(st);
        if (f < x->best) x->best = f, memcpy(x->best_order, x->perm, sizeof x->perm[0] * (size_t)x->n);
        return;
    }
    for (int k = d; k < x->n; k++) {
        int t = x->perm[d];
        x->perm[d] = x->perm[k], x->perm[k] = t;
        pw_flow_state next = *st;
        add(&next, &x->jobs[x->perm[d]]);
        if (bound_rest(&next, x->jobs, x->perm + d + 1, x->n - d - 1) < x->best) branch(x, &next, d + 1);
        x->perm[k] = x->perm[d], x->perm[d] = t;
    }
}

static pw_status check_search(const pw_flow_job *jobs, int n, const pw_flow_state *start, const int *order)
{
    pw_status e = check_jobs(jobs, n);
    if (e == PW_OK) e = check_state(start);
    if (e == PW_OK && !order) e = PW_ERR_NULL_ARGUMENT;
    return e;
}

/* NEH into order (checked arguments; no allocation, so exact can call it for its first best). */
static double neh(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order)
{
    /* order[] first holds the jobs by decreasing total (insertion sort: NEH itself is O(n^3)),
     * then, from the front, the partial sequence: the k jobs placed so far occupy order[0..k-1]
     * and the next to place is order[k]. */
    for (int i = 0; i < n; i++) {
        double t = jobs[i].s + jobs[i].p + jobs[i].r;
        int k = i;
        for (; k > 0 && jobs[order[k - 1]].s + jobs[order[k - 1]].p + jobs[order[k - 1]].r < t; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (int k = 1; k < n; k++) {
        const int job = order[k];
        int best_at = k;
        double best = INFINITY;
        for (int at = k; at >= 0; at--) { /* job moved one place to the front each time */
            if (at < k) order[at + 1] = order[at], order[at] = job;
            double f = run_order(start, jobs, order, k + 1);
            if (f <= best) best = f, best_at = at; /* <=: the first (frontmost) best place */
        }
        memmove(order, order + 1, sizeof *order * (size_t)best_at); /* job is at order[0] */
        order[best_at] = job;
    }
    double cur = run_order(start, jobs, order, n);
    for (int improved = 1, pass = 0; improved && pass < n; pass++) {
        improved = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                int t = order[i];
                order[i] = order[j], order[j] = t;
                double f = run_order(start, jobs, order, n);
                if (f < cur) cur = f, improved = 1;
                else order[j] = order[i], order[i] = t;
            }
    }
    return cur;
}

/* NEH, then with exact the branch and bound from NEH's order (checked arguments). */
static double find_order(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order, int exact)
{
    double v = neh(jobs, n, start, order);
    if (!exact) return v;
    search x = {.jobs = jobs, .n = n, .best_order = order, .best = v};
    for (int k = 0; k < n; k++) x.perm[k] = k;
    branch(&x, start, 0);
    return x.best;
}

pw_status pw_flow_neh(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order,
                      double *makespan)
{
    pw_status e = check_search(jobs, n, start, order);
    if (e) return e;
    double f = find_order(jobs, n, start, order, 0);
    if (makespan) *makespan = f;
    return PW_OK;
}

pw_status pw_flow_exact(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order,
                        double *makespan)
{
    pw_status e = check_search(jobs, n, start, order);
    if (e == PW_OK && n > PW_FLOW_EXACT_MAX) e = PW_ERR_INVALID_ARGUMENT;
    if (e) return e;
    double f = find_order(jobs, n, start, order, 1);
    if (makespan) *makespan = f;
    return PW_OK;
}

pw_status pw_flow_best(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order,
                       double *makespan)
{
    return n <= PW_FLOW_EXACT_AUTO ? pw_flow_exact(jobs, n, start, order, makespan)
                                   : pw_flow_neh(jobs, n, start, order, makespan);
}

/* ---- the online window --------------------------------------------------------------------- */

/* pick: m entries of scratch. */
static int rolling_pick(const pw_flow_job *win, int oldest_passed, int m, int window, const pw_flow_state *st,
                        int *pick)
{
    /* The oldest job has been passed most (a later job passing a job passes all older ones). */
    if (m <= 1 || oldest_passed >= PW_FLOW_PATIENCE * (window - 1)) return 0;
    find_order(win, m, st, pick, m <= PW_FLOW_EXACT_AUTO);
    return pick[0];
}

int pw_flow_rolling_pick(const pw_flow_job *win, int oldest_passed, int m, int window, const pw_flow_state *st)
{
    int pick[PW_FLOW_WINDOW_MAX];
    return rolling_pick(win, oldest_passed, m < PW_FLOW_WINDOW_MAX ? m : PW_FLOW_WINDOW_MAX, window, st, pick);
}

pw_status pw_flow_window(const pw_flow_job *jobs, int n, int copy_engines, int window,
                         pw_flow_policy policy, int *order, double *makespan)
{
    pw_flow_state st;
    pw_status e = check_jobs(jobs, n);
    if (e == PW_OK && !order) e = PW_ERR_NULL_ARGUMENT;
    if (e == PW_OK && (window < 1 || (policy != PW_FLOW_ROLLING && policy != PW_FLOW_BLOCKS)))
        e = PW_ERR_INVALID_ARGUMENT;
    if (e == PW_OK) e = pw_flow_state_init(&st, copy_engines);
    if (e) return e;
    const int w = window < n ? window : n;
    int *pending = pw_malloc(sizeof(int) * (size_t)n), *passed = pw_calloc((size_t)n, sizeof(int));
    int *pick = pw_malloc(sizeof(int) * (size_t)w);
    pw_flow_job *win = pw_malloc(sizeof *win * (size_t)w);
    if (!pending || !passed || !pick || !win) e = PW_ERR_OUT_OF_MEMORY;
    for (int k = 0; k < n && e == PW_OK; k++) pending[k] = k; /* not yet issued, in arrival order */
    for (int issued = 0, left = n; left > 0 && e == PW_OK;) {
        const int m = left < w ? left : w;
        int take = m;
        for (int k = 0; k < m; k++) win[k] = jobs[pending[k]];
        if (policy == PW_FLOW_ROLLING) {
            pick[0] = rolling_pick(win, passed[pending[0]], m, w, &st, pick);
            take = 1;
        } else {
            find_order(win, m, &st, pick, m <= PW_FLOW_EXACT_AUTO);
        }
        for (int k = 0; k < take; k++) {
            order[issued++] = pending[pick[k]];
            add(&st, &jobs[pending[pick[k]]]);
        }
        if (policy == PW_FLOW_ROLLING) { /* the older jobs were passed by this one */
            for (int k = 0; k < pick[0]; k++) passed[pending[k]]++;
            memmove(pending + pick[0], pending + pick[0] + 1, sizeof(int) * (size_t)(left - pick[0] - 1));
        } else {
            memmove(pending, pending + m, sizeof(int) * (size_t)(left - m));
        }
        left -= take;
    }
    free(pending), free(passed), free(pick), free(win);
    if (e == PW_OK && makespan) *makespan = pw_flow_state_finish(&st);
    return e;
}
