/*
 * test_flowshop.c - the job queue's order (src/batch/flowshop.h): its makespans against an
 * independent event-by-event simulation of the engines, its exact order against all orders, its
 * bound against both, the heuristic against the exact order, the chapter's formula against the
 * simulation, and the online window against FIFO on mixed queues.
 */
#include <math.h>

#include "../src/batch/flowshop.h"
#include "test_util.h"

enum { MAX_JOBS = 64 };

static double stage_of(const pw_flow_job *j, int t) { return t == 0 ? j->s : t == 1 ? j->p : j->r; }

/* ---- the oracle ---------------------------------------------------------------------------- */

/* The stages of the jobs issued in `order`, run event by event.  Stage 3k + t is stage t (copy-in,
 * kernel, copy-out) of the k-th job issued.  Each engine serves a queue of stages in sequence; a
 * stage starts when its engine is idle and the stage before it in its job has ended; then time
 * jumps to the next end.  Two engines: copy-ins, kernels, copy-outs each a queue.  One engine: the
 * copy queue is in_1, in_2, out_1, in_3, out_2, ..., in_n, out_{n-1}, out_n (flowshop.h).  NAN if
 * the queues deadlock. */
static double simulate(const pw_flow_job *jobs, const int *order, int n, int engines)
{
    int queue[3][2 * MAX_JOBS], len[3] = {0, 0, 0}, head[3] = {0, 0, 0}, running[3] = {-1, -1, -1};
    int done[3 * MAX_JOBS] = {0};
    double end[3 * MAX_JOBS], t = 0, last = 0;
    for (int k = 0; k < n; k++) {
        queue[0][len[0]++] = 3 * k;
        queue[1][len[1]++] = 3 * k + 1;
        if (engines >= 2) queue[2][len[2]++] = 3 * k + 2;
        else if (k > 0) queue[0][len[0]++] = 3 * (k - 1) + 2;
    }
    if (engines == 1) queue[0][len[0]++] = 3 * (n - 1) + 2;
    for (;;) {
        /* Start what can start now; a stage of length zero ends at once and may let others start. */
        for (int started = 1; started;) {
            started = 0;
            for (int e = 0; e < 3; e++) {
                if (running[e] >= 0 || head[e] == len[e]) continue;
                const int op = queue[e][head[e]];
                if (op % 3 && !done[op - 1]) continue;
                const double d = stage_of(&jobs[order[op / 3]], op % 3);
                head[e]++, started = 1;
                end[op] = t + d;
                if (d == 0) done[op] = 1;
                else running[e] = op;
            }
        }
        double next = INFINITY;
        for (int e = 0; e < 3; e++)
            if (running[e] >= 0) next = fmin(next, end[running[e]]);
        if (next == INFINITY) break;
        t = next;
        for (int e = 0; e < 3; e++)
            if (running[e] >= 0 && end[running[e]] == t) done[running[e]] = 1, running[e] = -1;
    }
    for (int e = 0; e < 3; e++)
        if (head[e] != len[e]) return NAN;
    for (int op = 0; op < 3 * n; op++) last = fmax(last, end[op]);
    return last;
}

/* ---- helpers ------------------------------------------------------------------------------- */

/* Stage times 0..max (a seventh of them zero), integers unless real: integer sums are exact, so
 * makespans computed along different paths must be equal, not close. */
static double random_time(double max, int real)
{
    if (test_rand() % 7 == 0) return 0;
    return real ? max * test_unit() : (double)test_range(0, (int64_t)max);
}

/* Each set draws its own scale per stage, so copy-bound, kernel-bound and balanced sets all occur. */
static void random_jobs(pw_flow_job *jobs, int n, int real)
{
    static const double scale[] = {3, 10, 30};
    double max[3];
    for (int t = 0; t < 3; t++) max[t] = scale[test_rand() % 3];
    for (int i = 0; i < n; i++)
        jobs[i] = (pw_flow_job){random_time(max[0], real), random_time(max[1], real), random_time(max[2], real)};
}

static void shuffle(int *a, int n)
{
    for (int i = 0; i < n; i++) a[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)test_range(0, i), t = a[i];
        a[i] = a[j], a[j] = t;
    }
}

static int next_permutation(int *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) i--;
    if (i < 0) return 0;
    int j = n - 1;
    while (a[j] <= a[i]) j--;
    int t = a[i];
    a[i] = a[j], a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) t = a[l], a[l] = a[r], a[r] = t;
    return 1;
}

static double run_from(const pw_flow_state *start, const pw_flow_job *jobs, const int *order, int n)
{
    pw_flow_state st = *start;
    for (int k = 0; k < n; k++) pw_flow_state_add(&st, &jobs[order[k]]);
    return pw_flow_state_finish(&st);
}

/* The best makespan over all n! orders from start. */
static double brute_force(const pw_flow_job *jobs, int n, const pw_flow_state *start)
{
    int a[MAX_JOBS];
    double best = INFINITY;
    for (int i = 0; i < n; i++) a[i] = i;
    do best = fmin(best, run_from(start, jobs, a, n));
    while (next_permutation(a, n));
    return best;
}

static int is_permutation(const int *order, int n)
{
    int seen[MAX_JOBS] = {0};
    for (int k = 0; k < n; k++) {
        if (order[k] < 0 || order[k] >= n || seen[order[k]]) return 0;
        seen[order[k]] = 1;
    }
    return 1;
}

/* ---- the models against the simulation ----------------------------------------------------- */

static void test_models(void)
{
    /* By hand: (1,1,5), (1,1,1), (1,1,1).  Two engines: copy-ins end 1,2,3, kernels 2,3,4,
     * copy-outs 7,8,9.  One engine: in_1 0-1, in_2 1-2, out_1 2-7, in_3 7-8, out_2 8-9, out_3
     * 9-10 (kernel 3 ran 8-9): 10, which is also sum s + sum r. */
    const pw_flow_job hand[3] = {{1, 1, 5}, {1, 1, 1}, {1, 1, 1}};
    double two = 0, one = 0;
    CHECK(pw_flow_makespan(hand, NULL, 3, 2, &two) == PW_OK && two == 9, "two engines by hand: %g", two);
    CHECK(pw_flow_makespan(hand, NULL, 3, 1, &one) == PW_OK && one == 10, "one engine by hand: %g", one);

    long compared = 0;
    for (int rep = 0; rep < 3000; rep++) {
        pw_flow_job jobs[MAX_JOBS];
        int order[MAX_JOBS];
        const int n = (int)test_range(1, 40), engines = (int)test_range(1, 3), real = rep % 4 == 0;
        random_jobs(jobs, n, real);
        shuffle(order, n);
        double m = -1, m2 = -1, sim = simulate(jobs, order, n, engines);
        CHECK(pw_flow_makespan(jobs, order, n, engines, &m) == PW_OK, "makespan failed");
        CHECK(real ? fabs(m - sim) <= 1e-9 * fmax(1, sim) : m == sim,
              "n=%d engines=%d: recurrence %.17g, simulation %.17g", n, engines, m, sim);
        /* One engine adds constraints to two, never removes any; no order beats the bound. */
        pw_flow_makespan(jobs, order, n, 2, &m2);
        if (engines == 1) CHECK(m >= m2, "one engine %g shorter than two %g", m, m2);
        double bound = -1;
        CHECK(pw_flow_lower_bound(jobs, n, engines, &bound) == PW_OK && bound <= m * (1 + 1e-12),
              "n=%d engines=%d: bound %.17g above an order's %.17g", n, engines, bound, m);
        compared++;
    }
    printf("recurrence == simulation on %ld random sets (n 1..40, 1..3 engines, zero stages)\n", compared);
}

/* ---- bad arguments ------------------------------------------------------------------------- */

/* Every entry point on these arguments returns want and writes nothing. */
static void all_refuse(const pw_flow_job *jobs, int n, pw_status want, const char *what)
{
    pw_flow_state st;
    pw_flow_state_init(&st, 2);
    int order[MAX_JOBS + 16];
    double v = -7;
    for (int k = 0; k < MAX_JOBS + 16; k++) order[k] = -5;
    pw_status got[7] = {pw_flow_makespan(jobs, NULL, n, 2, &v), pw_flow_lower_bound(jobs, n, 1, &v),
                        pw_flow_exact(jobs, n, &st, order, &v), pw_flow_neh(jobs, n, &st, order, &v),
                        pw_flow_best(jobs, n, &st, order, &v),
                        pw_flow_window(jobs, n, 1, 4, PW_FLOW_ROLLING, order, &v),
                        n == 1 ? pw_flow_state_add(&st, jobs) : want};
    for (int f = 0; f < 7; f++)
        CHECK(got[f] == want, "%s: entry %d gave %s, not %s", what, f, pw_status_str(got[f]), pw_status_str(want));
    CHECK(v == -7 && order[0] == -5 && st.in_free == 0, "%s: something was written", what);
}

static void test_bad_arguments(void)
{
    const pw_flow_job ok[2] = {{1, 2, 3}, {4, 5, 6}};
    all_refuse(NULL, 2, PW_ERR_NULL_ARGUMENT, "NULL jobs");
    all_refuse(ok, 0, PW_ERR_INVALID_SIZE, "n = 0");
    all_refuse(ok, -3, PW_ERR_INVALID_SIZE, "n = -3");
    const double bad[3] = {-1, NAN, INFINITY};
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 3; t++) {
            pw_flow_job j = {1, 1, 1};
            *(t == 0 ? &j.s : t == 1 ? &j.p : &j.r) = bad[b];
            all_refuse(&j, 1, PW_ERR_BAD_INPUT, "bad time");
        }

    double v = -7;
    pw_flow_state st, wrong;
    int order[16];
    const int dup[2] = {1, 1}, out[2] = {0, 2}, id2[2] = {0, 1};
    pw_flow_job many[PW_FLOW_EXACT_MAX + 1];
    for (int k = 0; k <= PW_FLOW_EXACT_MAX; k++) many[k] = (pw_flow_job){1, 1, 1};
    pw_flow_state_init(&st, 1);
    wrong = st, wrong.copy_engines = 3;
    CHECK(pw_flow_makespan(ok, NULL, 2, 0, &v) == PW_ERR_INVALID_ARGUMENT, "0 engines");
    CHECK(pw_flow_lower_bound(ok, 2, -1, &v) == PW_ERR_INVALID_ARGUMENT, "-1 engines");
    CHECK(pw_flow_makespan(ok, NULL, 2, 2, NULL) == PW_ERR_NULL_ARGUMENT, "no result");
    CHECK(pw_flow_lower_bound(ok, 2, 2, NULL) == PW_ERR_NULL_ARGUMENT, "no result");
    CHECK(pw_flow_makespan(ok, dup, 2, 2, &v) == PW_ERR_INVALID_ARGUMENT, "repeated job");
    CHECK(pw_flow_makespan(ok, out, 2, 2, &v) == PW_ERR_INVALID_ARGUMENT, "job out of range");
    CHECK(pw_flow_exact(ok, 2, NULL, order, &v) == PW_ERR_NULL_ARGUMENT, "no state");
    CHECK(pw_flow_exact(ok, 2, &wrong, order, &v) == PW_ERR_INVALID_ARGUMENT, "3 engines in a state");
    CHECK(pw_flow_neh(ok, 2, &st, NULL, &v) == PW_ERR_NULL_ARGUMENT, "no order");
    CHECK(pw_flow_exact(many, PW_FLOW_EXACT_MAX + 1, &st, order, &v) == PW_ERR_INVALID_ARGUMENT, "exact too big");
    CHECK(pw_flow_window(ok, 2, 2, 0, PW_FLOW_ROLLING, order, &v) == PW_ERR_INVALID_ARGUMENT, "window 0");
    CHECK(pw_flow_window(ok, 2, 2, 2, (pw_flow_policy)7, order, &v) == PW_ERR_INVALID_ARGUMENT, "policy 7");
    CHECK(pw_flow_window(ok, 2, 0, 2, PW_FLOW_BLOCKS, order, &v) == PW_ERR_INVALID_ARGUMENT, "0 engines");
    CHECK(pw_flow_state_init(NULL, 2) == PW_ERR_NULL_ARGUMENT && pw_flow_state_init(&st, 0) == PW_ERR_INVALID_ARGUMENT,
          "state init");
    CHECK(v == -7, "a refused call wrote its result");
    /* The k-th allocation failing: PW_ERR_OUT_OF_MEMORY, nothing leaked (the sanitizer build). */
    for (int k = 1; k <= 5; k++) {
        char env[8];
        snprintf(env, sizeof env, "%d", k);
        setenv("PEERWAVE_DEBUG_FAIL_ALLOC", env, 1);
        pw_debug_alloc_reset();
        const pw_status w = pw_flow_window(ok, 2, 2, 2, PW_FLOW_ROLLING, order, NULL);
        const long made = pw_debug_alloc_count();
        pw_debug_alloc_reset();
        const pw_status b = pw_flow_lower_bound(ok, 2, 2, &v);
        pw_debug_alloc_reset();
        const pw_status m = pw_flow_makespan(ok, id2, 2, 2, &v);
        unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
        CHECK(k <= made ? w == PW_ERR_OUT_OF_MEMORY : w == PW_OK, "window with allocation %d failing: %s", k,
              pw_status_str(w));
        CHECK(k == 1 ? b == PW_ERR_OUT_OF_MEMORY && m == PW_ERR_OUT_OF_MEMORY : b == PW_OK && m == PW_OK,
              "bound and makespan with allocation %d failing", k);
    }
    /* Zero-length jobs are valid. */
    const pw_flow_job zero[2] = {{0, 0, 0}, {0, 0, 0}};
    CHECK(pw_flow_makespan(zero, NULL, 2, 1, &v) == PW_OK && v == 0, "zero jobs: %g", v);
}

/* ---- exact, bound and heuristic against all orders ----------------------------------------- */

static void test_exact(void)
{
    /* Most sets are a few units long, where one unit is over 10%: the worst ratio is also kept
     * over the sets whose optimum is at least 40 units.  NEH is close on average (0.1% over 200
     * seeds, never more than 0.3%) but not always: its worst set is 4.5% over at the default
     * seed and up to 20% at others (mostly one-engine sets), so only the average is held to "a
     * few percent"; the worst is reported and held to 1.5 only to catch a broken search. */
    double worst_neh = 1, worst_long = 1, sum_neh = 0, sum_gap = 0, worst_gap = 1;
    long sets = 0, neh_exact = 0;
    for (int n = 1; n <= 8; n++)
        for (int rep = 0; rep < (n < 8 ? 24 : 8); rep++)
            for (int engines = 1; engines <= 2; engines++) {
                pw_flow_job jobs[MAX_JOBS];
                int order[MAX_JOBS];
                random_jobs(jobs, n, 0);
                /* Half the searches start behind jobs already issued (the window's case). */
                pw_flow_state start;
                pw_flow_state_init(&start, engines);
                if (rep % 2) {
                    pw_flow_job before[3];
                    random_jobs(before, 3, 0);
                    for (int k = 0; k < (int)test_range(1, 3); k++) pw_flow_state_add(&start, &before[k]);
                }
                const double brute = brute_force(jobs, n, &start);
                double exact = -1, neh = -1, bound = -1;
                CHECK(pw_flow_exact(jobs, n, &start, order, &exact) == PW_OK, "exact failed");
                CHECK(exact == brute, "n=%d engines=%d: exact %g, all orders %g", n, engines, exact, brute);
                CHECK(is_permutation(order, n) && run_from(&start, jobs, order, n) == exact, "exact's order");
                CHECK(pw_flow_neh(jobs, n, &start, order, &neh) == PW_OK && is_permutation(order, n), "neh failed");
                CHECK(neh >= brute && run_from(&start, jobs, order, n) == neh, "neh %g below the optimum %g", neh, brute);
                const double ratio = brute > 0 ? neh / brute : 1;
                worst_neh = fmax(worst_neh, ratio), sum_neh += ratio, neh_exact += neh == brute;
                if (brute >= 40) worst_long = fmax(worst_long, ratio);
                sets++;
                if (rep % 2) continue; /* the bound is for an idle GPU */
                CHECK(simulate(jobs, order, n, engines) == neh, "neh's order simulated");
                CHECK(pw_flow_lower_bound(jobs, n, engines, &bound) == PW_OK, "bound failed");
                CHECK(bound <= brute, "n=%d engines=%d: bound %g above the optimum %g", n, engines, bound, brute);
                CHECK(bound <= neh, "bound %g above neh %g", bound, neh);
                const double gap = bound > 0 ? brute / bound : 1;
                sum_gap += gap, worst_gap = fmax(worst_gap, gap);
            }
    printf("exact == all orders on %ld sets (n 1..8, 1 and 2 engines, half from a busy GPU)\n", sets);
    printf("NEH + swaps / exact: average %.4f, worst %.4f (%.4f where the optimum >= 40), exact on %ld of %ld\n",
           sum_neh / sets, worst_neh, worst_long, neh_exact, sets);
    printf("exact / lower bound: average %.4f, worst %.4f\n", sum_gap / (sets / 2.0), worst_gap);
    CHECK(sum_neh / sets <= 1.01 && worst_neh <= 1.5, "NEH too far from exact: average %.4f, worst %.4f",
          sum_neh / sets, worst_neh);
}

/* ---- the chapter's formula ------------------------------------------------------------------ */

/* Seed 001 Eq. 4.1-4.3 as printed, delays clamped at zero ("positive definite"). */
static double chapter_total(const pw_flow_job *jobs, const int *order, int n)
{
    double dp = 0, dr = 0, sum_s = jobs[order[0]].s;
    for (int k = 1; k < n; k++) {
        const pw_flow_job *a = &jobs[order[k - 1]], *b = &jobs[order[k]];
        const double dp_prev = dp;
        dp = fmax(0, dp + a->p - b->s);
        dr = fmax(0, dr + a->r - b->p - dp_prev);
        sum_s += b->s;
    }
    const pw_flow_job *z = &jobs[order[n - 1]];
    return sum_s + dp + z->p + dr + z->r;
}

static void test_chapter_formula(void)
{
    /* By hand: (1,1,2) then (2,1,1).  Copy-ins end 1 and 3, kernels 2 and 4, copy-outs 4 and 5.
     * Eq. 4.2 counts the copy-out delay from the previous kernel's end as if the next kernel
     * followed it at once (less dp_{i-1}); here the kernel engine idles from 2 to 3 for copy-in 2,
     * which it does not see: dr_2 = 0 + 2 - 1 - 0 = 1, though copy-out 1 (2-4) ends with kernel
     * 2.  Eq. 4.3 then gives 3 + 0 + 1 + 1 + 1 = 6, not 5. */
    const pw_flow_job two[2] = {{1, 1, 2}, {2, 1, 1}};
    const int id[2] = {0, 1};
    CHECK(simulate(two, id, 2, 2) == 5 && chapter_total(two, id, 2) == 6, "the chapter's example: %g and %g",
          simulate(two, id, 2, 2), chapter_total(two, id, 2));
    long differ = 0, total = 0;
    double worst = 0;
    for (int rep = 0; rep < 2000; rep++, total++) {
        pw_flow_job jobs[6];
        int order[6];
        random_jobs(jobs, 6, 0);
        shuffle(order, 6);
        const double sim = simulate(jobs, order, 6, 2), eq = chapter_total(jobs, order, 6);
        if (eq != sim) differ++, worst = fmax(worst, fabs(eq - sim) / sim);
    }
    printf("Eq. 4.1-4.3 differ from the simulation on %ld of %ld random 6-job orders (by up to %.1f%%)\n", differ,
           total, 100 * worst);
    CHECK(differ > 0, "the chapter's formula was never wrong");
}

/* ---- the online window against FIFO --------------------------------------------------------- */

/* n jobs, a quarter of each kind, all about 12 units long: copy-in heavy, kernel heavy, copy-out heavy
 * and balanced, so copies and kernels take similar time over the set. */
static void mixed_set(pw_flow_job *jobs, int n)
{
    for (int i = 0; i < n; i++) {
        double t[3];
        for (int k = 0; k < 3; k++) t[k] = i % 4 == 3 ? (double)test_range(3, 5) : (double)test_range(1, 3);
        if (i % 4 < 3) t[i % 4] = (double)test_range(6, 10);
        jobs[i] = (pw_flow_job){t[0], t[1], t[2]};
    }
}

/* No job is issued after more than limit jobs that arrived after it. */
static int passed_at_most(const int *order, int n, int limit)
{
    for (int k = 0; k < n; k++) {
        int later = 0;
        for (int l = 0; l < k; l++) later += order[l] > order[k];
        if (later > limit) return 0;
    }
    return 1;
}

static void test_window(void)
{
    enum { N = 40, SETS = 4, ARRIVALS = 25, CONFIGS = 5, ROLL8 = 1 };
    static const struct { int window; pw_flow_policy policy; const char *name; } cfg[CONFIGS] = {
        {4, PW_FLOW_ROLLING, "rolling w=4"}, {8, PW_FLOW_ROLLING, "rolling w=8"}, {8, PW_FLOW_BLOCKS, "blocks w=8"},
        {16, PW_FLOW_ROLLING, "rolling w=16 (NEH)"}, {16, PW_FLOW_BLOCKS, "blocks w=16 (NEH)"}};
    for (int engines = 2; engines >= 1; engines--) {
        /* Makespans as multiples of their set's lower bound, summed over SETS x ARRIVALS queues. */
        double fifo_sum = 0, offline_sum = 0, sum[CONFIGS] = {0}, gain_sum[CONFIGS] = {0}, worst[CONFIGS], best[CONFIGS];
        for (int c = 0; c < CONFIGS; c++) worst[c] = INFINITY, best[c] = -INFINITY;
        for (int set_no = 0; set_no < SETS; set_no++) {
            pw_flow_job set[N];
            int order[N];
            double bound, offline;
            pw_flow_state idle;
            mixed_set(set, N);
            pw_flow_state_init(&idle, engines);
            pw_flow_lower_bound(set, N, engines, &bound);
            pw_flow_neh(set, N, &idle, order, &offline);
            offline_sum += offline / bound;
            for (int a = 0; a < ARRIVALS; a++) {
                int arrival[N];
                pw_flow_job q[N];
                shuffle(arrival, N);
                for (int k = 0; k < N; k++) q[k] = set[arrival[k]];
                double fifo;
                pw_flow_makespan(q, NULL, N, engines, &fifo);
                fifo_sum += fifo / bound;
                for (int c = 0; c < CONFIGS; c++) {
                    const int w = cfg[c].window;
                    const int limit = cfg[c].policy == PW_FLOW_ROLLING ? PW_FLOW_PATIENCE * (w - 1) : w - 1;
                    double m = -1;
                    CHECK(pw_flow_window(q, N, engines, w, cfg[c].policy, order, &m) == PW_OK, "window");
                    CHECK(is_permutation(order, N) && simulate(q, order, N, engines) == m, "%s: order", cfg[c].name);
                    CHECK(passed_at_most(order, N, limit), "%s: a job was passed too often", cfg[c].name);
                    const double gain = 1 - m / fifo;
                    sum[c] += m / bound, gain_sum[c] += gain;
                    worst[c] = fmin(worst[c], gain), best[c] = fmax(best[c], gain);
                }
            }
        }
        const int queues = SETS * ARRIVALS;
        printf("%d engine(s), %d sets of %d jobs x %d arrival orders, as multiples of the lower bound: "
               "offline NEH %.3f, FIFO %.3f\n", engines, SETS, N, ARRIVALS, offline_sum / SETS, fifo_sum / queues);
        for (int c = 0; c < CONFIGS; c++)
            printf("  %-18s %.3f; gain over FIFO: average %.1f%%, worst %.1f%%, best %.1f%%\n", cfg[c].name,
                   sum[c] / queues, 100 * gain_sum[c] / queues, 100 * worst[c], 100 * best[c]);
        CHECK(sum[ROLL8] <= fifo_sum, "%d engines: the window is worse than FIFO on average", engines);
        CHECK(sum[ROLL8] / queues <= 1.1, "%d engines: window average %.3f x the bound", engines, sum[ROLL8] / queues);
    }
}

/* The split bound against every split of small sets over 2 and 3 devices, each device's jobs in
 * their best order (brute force): never above the best, and reached or nearly on sets whose jobs
 * are alike; an assignment the bound must see: all jobs on one of two devices. */
static void test_split_bound(void)
{
    long compared = 0;
    double worst_ratio = 1;
    for (int rep = 0; rep < 300; rep++) {
        pw_flow_job jobs[MAX_JOBS];
        const int n = (int)test_range(1, 7), engines = (int)test_range(1, 2), devices = (int)test_range(2, 3);
        random_jobs(jobs, n, rep % 2);
        double bound = -1;
        CHECK(pw_flow_lower_bound_split(jobs, n, engines, devices, &bound) == PW_OK, "split bound failed");
        int where[MAX_JOBS] = {0};
        double best = INFINITY;
        for (;;) { /* every assignment: where[] counts in base `devices` */
            double span = 0;
            for (int d = 0; d < devices; d++) {
                pw_flow_job mine[MAX_JOBS];
                int count = 0;
                for (int i = 0; i < n; i++)
                    if (where[i] == d) mine[count++] = jobs[i];
                pw_flow_state st;
                pw_flow_state_init(&st, engines);
                if (count) span = fmax(span, brute_force(mine, count, &st));
            }
            best = fmin(best, span);
            int i = 0;
            while (i < n && ++where[i] == devices) where[i++] = 0;
            if (i == n) break;
        }
        CHECK(bound <= best * (1 + 1e-12), "n=%d engines=%d devices=%d: split bound %.17g above the best split %.17g", n,
              engines, devices, bound, best);
        if (best > 0) worst_ratio = fmin(worst_ratio, bound / best);
        compared++;
        /* all on one device: the single-device bound of the whole set may exceed the split bound */
        double one = 0;
        pw_flow_lower_bound(jobs, n, engines, &one);
        CHECK(one >= bound * (1 - 1e-12) || n <= devices, "n=%d: the whole set on one device %.17g below the split bound %.17g",
              n, one, bound);
    }
    const pw_flow_job ok[2] = {{1, 2, 3}, {2, 1, 1}};
    double v = 0;
    CHECK(pw_flow_lower_bound_split(ok, 2, 2, 0, &v) == PW_ERR_INVALID_ARGUMENT, "no devices");
    CHECK(pw_flow_lower_bound_split(ok, 2, 2, 2, NULL) == PW_ERR_NULL_ARGUMENT, "no result");
    printf("split bound <= the best split of %ld small sets over 2-3 devices (lowest bound / best %.2f)\n", compared,
           worst_ratio);
}

int main(void)
{
    test_seed(20240601);
    test_models();
    test_bad_arguments();
    test_exact();
    test_chapter_formula();
    test_window();
    test_split_bound();
    return test_finish();
}
