/* hdss.c - HDSS: one loop's items shared by GPUs and CPU groups through one queue (hdss.h). */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hdss.h"
#include "../core/status_detail.h"

enum {
    SCAN_ITEMS = 64,      /* items a new device looks through for ones that suit it */
    END_GAME_SCAN = 1024, /* items the end-game looks through (the rest is small by then) */
    HOLES = 64,           /* ranges the queue may be cut into by items left for other devices */
    STABLE_SAMPLES = 3
};
static const double STABLE_CHANGE = 0.03;  /* the last two fits' rates this close: stable */
static const double ADAPTIVE_SHARE = 0.2;  /* the chapter's cap on the adaptive phase's cells */
static const double TRACK_DECAY = 0.8;     /* weight of the past in a stable device's rate */
static const double LONG_ITEM = 4.0;       /* an item this many times a new device's block is
                                              left to others (it could outlast their run) */
static const double MEASURING_RATE = 0.25; /* a device on its first blocks may yet be fast
                                              (may_be_fast) down to this part of another's rate */
static const double GAIN_TOLERANCE = 0.25; /* a device's fixed costs at most this part of the
                                              others' share of the work (update_best_block) */

typedef struct span { int64_t begin, end; } span; /* items still in the queue */

typedef struct device {
    char *name;
    pw_hdss_kind kind;
    double weight;
    int failed, stopped, in_flight; /* stopped: its last fetch was empty (or its kind is out) */
    int64_t item_cost;                     /* its own cost an item besides the item's cells */
    int from_back;                         /* takes its blocks from the queue's far end */
    int64_t min_items;                     /* the fewest items a block of it holds (0: none) */
    /* The block in flight: its items, its cost to this device (cells plus item_cost an item:
     * what the fit, the doubling and the plan count in) and its cells; the last block's cost. */
    int64_t begin, end, cost, cells, last_cost;
    int64_t cost_done;                     /* in its own units, beside cells_done */
    double fetched_at;
    int samples, stable;
    double n, sx, st, sxx, sxt; /* weighted least squares sums of (cost, seconds): its own units */
    double alpha, rate, best_block;
    int64_t min_block;               /* its own, or the options' (in its own units, as every
                                        block size of a device here: its rate, best_block) */
    int64_t first_block;             /* its first block's cost (>= min_block) */
    double track_cells, track_time;  /* decayed sums: the rate once stable */
    int64_t quota_left, quota_round; /* STATIC */
    int64_t items, cells_done, blocks;
    double busy, finish;
    double planned_end; /* the end-game's common finish T at its last fetch (-1: none planned) */
} device;

struct pw_hdss {
    pthread_mutex_t lock;
    pw_hdss_options opt;
    int n_dev, n_spans, cap_spans, started;
    device *dev;
    char *planned; /* scratch of plan_finish, one flag a device */
    int *order;    /* scratch of covered_by, a device index each */
    int64_t n_items, total_cells, queued_cells, queued_items, adaptive_cells, items_done, cells_done;
    int64_t *prefix; /* prefix[i]: cells of the items before i; NULL when every item costs 1 */
    span *spans;     /* the queue: ranges of items, sorted by begin */
    double start;    /* the first fetch */
    FILE *trace;     /* PEERWAVE_DEBUG_HDSS=1: every block fetched and done, on stderr */
};

typedef struct pick { int span; int64_t begin, end; } pick;

static double monotonic_seconds(void *ctx)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (void)ctx, (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static pw_status fail_with(pw_status s, const char *what)
{
    pw_set_error_detail("hdss: %s", what);
    return s;
}

/* Doubles to cell counts without the undefined conversion of huge or NaN values. */
static int64_t to_cells(double x) { return !(x > 0) ? 0 : x >= 4e18 ? (int64_t)4e18 : (int64_t)x; }

static int64_t before(const pw_hdss *h, int64_t i) { return h->prefix ? h->prefix[i] : i; }
static int64_t cells_of(const pw_hdss *h, int64_t b, int64_t e) { return before(h, e) - before(h, b); }

/* Items [b, e) to a device that pays `item` besides each item's cells (0: the cells). */
static int64_t cost_of(const pw_hdss *h, int64_t item, int64_t b, int64_t e) { return cells_of(h, b, e) + item * (e - b); }

/* The smallest k in (b, e] whose items [b, k) reach x in cost_of(item); e when none does. */
static int64_t first_reaching(const pw_hdss *h, int64_t item, int64_t b, int64_t e, int64_t x)
{
    int64_t lo = b + 1, hi = e;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cost_of(h, item, b, mid) >= x) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* Whole items from b closest to x (at least one): the weighted phase's cut. */
static int64_t cut_nearest(const pw_hdss *h, int64_t item, int64_t b, int64_t e, int64_t x)
{
    int64_t k = first_reaching(h, item, b, e, x);
    if (k > b + 1 && cost_of(h, item, b, k) - x > x - cost_of(h, item, b, k - 1)) k--;
    return k;
}

/* Whole items from b within x (maybe none): the end-game's cut never passes the finish. */
static int64_t cut_floor(const pw_hdss *h, int64_t item, int64_t b, int64_t e, int64_t x)
{
    int64_t k = first_reaching(h, item, b, e, x);
    return cost_of(h, item, b, k) > x ? k - 1 : k;
}

/* The same from the far end: the largest k in [b, e) whose items [k, e) reach x in
 * cost_of(item); b when none does (cost_of(k, e) falls as k grows). */
static int64_t last_reaching(const pw_hdss *h, int64_t item, int64_t b, int64_t e, int64_t x)
{
    int64_t lo = b, hi = e - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (cost_of(h, item, mid, e) >= x) lo = mid; else hi = mid - 1;
    }
    return lo;
}

/* Whole items ending at e closest to x (at least one): [k, e). */
static int64_t cut_nearest_back(const pw_hdss *h, int64_t item, int64_t b, int64_t e, int64_t x)
{
    int64_t k = last_reaching(h, item, b, e, x);
    if (k < e - 1 && cost_of(h, item, k, e) - x > x - cost_of(h, item, k + 1, e)) k++;
    return k;
}

/* Whole items ending at e within x (maybe none: k == e): [k, e). */
static int64_t cut_floor_back(const pw_hdss *h, int64_t item, int64_t b, int64_t e, int64_t x)
{
    int64_t k = last_reaching(h, item, b, e, x);
    return cost_of(h, item, k, e) > x ? k + 1 : k;
}

/* A block of about x (its units) from d's end of the queue: the front of the first range, or the
 * back of the last. */
static pick pick_at_end(const pw_hdss *h, const device *d, int64_t x)
{
    if (d->from_back) {
        const int s = h->n_spans - 1;
        return (pick){s, cut_nearest_back(h, d->item_cost, h->spans[s].begin, h->spans[s].end, x), h->spans[s].end};
    }
    return (pick){0, h->spans[0].begin, cut_nearest(h, d->item_cost, h->spans[0].begin, h->spans[0].end, x)};
}

/* Leaving a hole inside a range needs a free slot; failures always find theirs (one each). */
static int may_split(const pw_hdss *h) { return h->n_spans < HOLES + 1; }

/* Takes [b, e) out of range s: what is left before and after it replaces the range. */
static void queue_take(pw_hdss *h, int s, int64_t b, int64_t e)
{
    span head = {h->spans[s].begin, b}, tail = {e, h->spans[s].end};
    int n = (head.begin < head.end) + (tail.begin < tail.end);
    memmove(&h->spans[s + n], &h->spans[s + 1], sizeof(span) * (size_t)(h->n_spans - s - 1));
    if (head.begin < head.end) h->spans[s++] = head;
    if (tail.begin < tail.end) h->spans[s] = tail;
    h->n_spans += n - 1;
    h->queued_cells -= cells_of(h, b, e), h->queued_items -= e - b;
}

/* A failed device's block back into the queue, in order, so it is redone first. */
static void queue_return(pw_hdss *h, int64_t b, int64_t e)
{
    int s = 0;
    while (s < h->n_spans && h->spans[s].begin < b) s++;
    memmove(&h->spans[s + 1], &h->spans[s], sizeof(span) * (size_t)(h->n_spans - s));
    h->spans[s] = (span){b, e};
    h->n_spans++;
    h->queued_cells += cells_of(h, b, e), h->queued_items += e - b;
}

static int has_fit(const device *d) { return d->rate > 0; }
static int is_live(const device *d) { return !d->failed && !d->stopped; }

/* What the queue costs device j (its units: cells plus its item cost an item). */
static int64_t queued_for(const pw_hdss *h, const device *j) { return h->queued_cells + j->item_cost * h->queued_items; }

/* Device j's rate in the queue's cells: its own rate over what a cell of the queue costs it on
 * average (devices with an item cost count the queue's items at its mean). */
static double cell_rate(const pw_hdss *h, const device *j)
{
    return h->queued_cells > 0 ? j->rate * (double)h->queued_cells / (double)queued_for(h, j) : j->rate;
}

/* x*: the block whose fixed cost is the fraction p of its time, at least the minimum block.  p is
 * the options' tolerance, less for a device that does most of the work: its fixed costs are paid
 * to gain what the others do, so p stays within GAIN_TOLERANCE of their share, and at least a
 * quarter of the tolerance (blocks of any size would leave no room to adapt) (an H200 search,
 * 2026-11-30: with p = 3% the GPU ran 15 blocks of 45-68 ms, 3% of its time in fixed costs, for
 * the 3% of the work the CPU did; HDSS took 0.99x the GPU alone's time). */
static double others_share(const pw_hdss *h, const device *d)
{
    double all = 0;
    for (const device *q = h->dev; q < h->dev + h->n_dev; q++)
        if (q == d || (is_live(q) && has_fit(q))) all += cell_rate(h, q);
    return all > 0 ? 1 - cell_rate(h, d) / all : 1;
}

static void update_best_block(const pw_hdss *h, device *d)
{
    const double p = fmax(0.25 * h->opt.tolerance, fmin(h->opt.tolerance, GAIN_TOLERANCE * others_share(h, d)));
    d->best_block = fmax(d->alpha * d->rate * (1 - p) / p, (double)d->min_block);
}

/* Least squares of t = alpha + x / R over the samples so far.  A negative intercept (noise) is
 * read as no fixed cost, a slope that is not positive as a pure throughput. */
static void refit(device *d)
{
    double den = d->n * d->sxx - d->sx * d->sx;
    double b = den > 1e-12 * d->n * d->sxx ? (d->n * d->sxt - d->sx * d->st) / den : 0;
    double a = (d->st - b * d->sx) / d->n;
    if (!(b > 0)) d->alpha = 0, d->rate = d->st > 0 ? d->sx / d->st : 0;
    else if (a < 0) d->alpha = 0, d->rate = d->sxt > 0 ? d->sxx / d->sxt : 0;
    else d->alpha = a, d->rate = 1 / b;
}

/* From now on the fixed cost stays and the rate follows the blocks (rates move with the items:
 * long records may run on another engine), starting from the fit as if from one block. */
static void make_stable(const pw_hdss *h, device *d)
{
    d->stable = 1;
    /* The adaptive fit weighs a block 1 / t^2, the stable one 1: rescaled to one a block (the
     * same fit), or its first short blocks would outweigh every later one for good (an H200
     * trace: a CPU group's fixed cost stayed at the 17 ms of its first blocks while its last
     * ones had none, so the end-game gave it too little and it waited 31 ms, 2.7% of the run). */
    const double scale = d->n > 0 ? (double)(d->samples - 1) / d->n : 0;
    d->n *= scale, d->sx *= scale, d->st *= scale, d->sxx *= scale, d->sxt *= scale;
    d->track_cells = (double)(d->last_cost > 0 ? d->last_cost : 1);
    d->track_time = d->track_cells / d->rate;
    update_best_block(h, d);
}

/* One block (costing the device x in t seconds, weight w) into the least squares sums, the past weighing
 * `decay` (1: all alike). */
static void fit_add(device *d, double decay, double w, double x, double t)
{
    d->n = decay * d->n + w, d->sx = decay * d->sx + w * x, d->st = decay * d->st + w * t;
    d->sxx = decay * d->sxx + w * x * x, d->sxt = decay * d->sxt + w * x * t;
}

static void add_sample(const pw_hdss *h, device *d, double x, double t)
{
    if (x <= 0) return; /* zero-cost items say nothing about the rate */
    if (t < 1e-12) t = 1e-12;
    if (d->stable) {
        /* The fit goes on with the past decayed, so that the fixed cost follows too: a GPU's
         * first block carries its warm-up, which a fit of the first two blocks reads as a fixed
         * cost of every block (52 ms on an H200 where its blocks cost ~2 ms; a late block of
         * 51e9 cells took 23 ms).  Blocks of one size say nothing about the split: then the
         * fixed cost stays and only the rate follows.  Blocks weigh alike here (the adaptive
         * phase's 1 / t^2 would keep the first, shortest blocks in charge: a CPU group that slowed
         * 2.4x kept a third of its new fixed cost, and its last block ran 27 ms late). */
        fit_add(d, TRACK_DECAY, 1.0, x, t);
        const double spread = d->n * d->sxx - d->sx * d->sx; /* n^2 times the variance of the sizes */
        if (spread > 0.01 * d->sx * d->sx) {
            const double alpha = d->alpha;
            refit(d);
            if (!(d->rate > 0)) d->alpha = alpha; /* (fall through to the rate alone) */
            else {
                d->track_cells = (double)x, d->track_time = (double)x / d->rate;
                update_best_block(h, d);
                return;
            }
        }
        double work = t - d->alpha > 0.01 * t ? t - d->alpha : 0.01 * t;
        d->track_cells = TRACK_DECAY * d->track_cells + x;
        d->track_time = TRACK_DECAY * d->track_time + work;
        d->rate = d->track_cells / d->track_time;
        update_best_block(h, d);
        return;
    }
    double previous = d->rate, w = 1 / (t * t); /* a block's time varies in proportion to it */
    /* A device's first block is its warm-up (a GPU's first launch loads modules and touches its
     * buffers: ~30 ms on an H200, which a fit of the first two blocks read as a 52 ms fixed cost
     * of every block, and the blocks it planned ran 26% long): it counts as a sample, not in the
     * fit, so the second block alone gives the first rate (no fixed cost), the third the first
     * fixed cost. */
    if (d->samples++ == 0) return;
    fit_add(d, 1.0, w, x, t);
    if (d->samples < 2) return;
    refit(d);
    if (d->samples >= STABLE_SAMPLES && fabs(d->rate - previous) < STABLE_CHANGE * d->rate) make_stable(h, d);
}

/* When device j can start on a new block's cells: now, or when its block in flight is predicted
 * to end (a late one any moment), plus its fixed cost. */
static double ready_at(const device *j, double now)
{
    double end = j->in_flight ? j->fetched_at + j->alpha + (double)j->cost / j->rate : now;
    return (end > now ? end : now) + j->alpha;
}

/* Whether the devices in h->planned (but `without`) would finish the whole queue by T, each from
 * its ready_at, taking whole items in turn in the order they become ready -- from the queue's
 * front, or its back (from_back) -- each as many as its own costs let it finish by T.  (Monotone
 * in T: each device's last item is.)  The front cursor is item i of range sf, the back one the end
 * j of range sb; the queue is covered once they meet. */
static int covered_by(const pw_hdss *h, int without, double now, double T)
{
    int *order = h->order, n = 0;
    for (int j = 0; j < h->n_dev; j++) { /* (insertion sort by ready_at: a handful of devices) */
        if (!h->planned[j] || j == without) continue;
        const double r = ready_at(&h->dev[j], now);
        int k = n++;
        for (; k > 0 && ready_at(&h->dev[order[k - 1]], now) > r; k--) order[k] = order[k - 1];
        order[k] = j;
    }
    if (h->n_spans == 0) return 1;
    int sf = 0, sb = h->n_spans - 1;
    int64_t i = h->spans[0].begin, j = h->spans[sb].end;
    int met = 0;
    for (int o = 0; o < n && !met; o++) {
        const device *d = &h->dev[order[o]];
        const double budget = d->rate * (T - ready_at(d, now));
        int64_t left = budget >= 4e18 ? INT64_MAX : to_cells(budget); /* (to_cells stops at 4e18) */
        while (!met && left > 0) {
            if (!d->from_back) {
                const int64_t end = sf == sb ? j : h->spans[sf].end;
                const int64_t k = cut_floor(h, d->item_cost, i, end, left);
                left -= cost_of(h, d->item_cost, i, k);
                if (k < end) { i = k; break; } /* its next item is past T */
                if (sf == sb) met = 1;
                else i = h->spans[++sf].begin;
            } else {
                const int64_t begin = sf == sb ? i : h->spans[sb].begin;
                const int64_t k = cut_floor_back(h, d->item_cost, begin, j, left);
                left -= cost_of(h, d->item_cost, k, j);
                if (k > begin) { j = k; break; }
                if (sf == sb) met = 1;
                else j = h->spans[--sb].end;
            }
        }
    }
    return met;
}

/* When the queued cells would be done if the devices in h->planned (but `without`) shared them
 * so that all end together, each from ready_at: in closed form where every device's costs are
 * the cells; else (an item cost: a cell of a short item costs a GPU more than one of a long item,
 * and the queue is sorted) the least T that covered_by finds, by bisection. */
static double fluid_finish(const pw_hdss *h, int without, double now)
{
    double rate = 0, weighted = 0;
    int item_costs = 0;
    for (int j = 0; j < h->n_dev; j++)
        if (h->planned[j] && j != without) {
            const double r = cell_rate(h, &h->dev[j]);
            rate += r, weighted += r * ready_at(&h->dev[j], now);
            item_costs |= h->dev[j].item_cost != 0;
        }
    const double fluid = ((double)h->queued_cells + weighted) / rate;
    if (!item_costs || h->n_spans == 0) return fluid;
    /* (a first step that `now + step` cannot round away, whatever the clock's origin) */
    double lo = now, hi = now + fmax(fluid - now, fmax(1e-9, 1e-15 * fabs(now)));
    int covered = 0;
    for (int k = 0; k < 64 && !(covered = covered_by(h, without, now, hi)); k++) lo = hi, hi = now + 2 * (hi - now);
    if (!covered) return fluid; /* (no finite T covers it: costs beyond any budget) */
    for (int k = 0; k < 48 && hi - lo > 1e-7 * (hi - now); k++) {
        const double mid = 0.5 * (lo + hi);
        if (covered_by(h, without, now, mid)) hi = mid; else lo = mid;
    }
    return hi;
}

/* The end-game's common finish time T, with the devices that take part in h->planned: the live
 * ones with a rate, less those whose minimum block would end after T (the latest first, T solved
 * again each time), so a slow device never delays the end.  A device stays, with its minimum
 * block, when the others alone would end even later (a fast GPU busy until just before the end).
 * *others counts the devices in besides d. */
static double plan_finish(pw_hdss *h, int dv, double now, int *others)
{
    int in = 0;
    for (int j = 0; j < h->n_dev; j++) {
        device *q = &h->dev[j];
        h->planned[j] = (char)((j == dv || is_live(q)) && has_fit(q));
        in += h->planned[j];
    }
    double T = fluid_finish(h, -1, now);
    for (; in > 1; in--) {
        int worst = -1;
        double worst_end = T;
        for (int j = 0; j < h->n_dev; j++) {
            const int64_t queued = queued_for(h, &h->dev[j]);
            const double m = (double)(queued < h->dev[j].min_block ? queued : h->dev[j].min_block);
            double end = h->planned[j] ? ready_at(&h->dev[j], now) + m / h->dev[j].rate : 0;
            if (end > worst_end) worst = j, worst_end = end;
        }
        if (worst < 0) break;
        double without = fluid_finish(h, worst, now);
        if (without >= worst_end) {
            T = worst_end;
            break;
        }
        h->planned[worst] = 0;
        T = without;
    }
    *others = in - h->planned[dv];
    return T;
}

/* A device without a rate yet: the doubling block, from the front, past the items far longer
 * than it (while another device can take those). */
static int new_device_block(const pw_hdss *h, int dv, int64_t x, pick *p)
{
    if (h->dev[dv].from_back) { /* (the far end: the shortest items) */
        *p = pick_at_end(h, &h->dev[dv], x);
        return 1;
    }
    const span *s = &h->spans[0];
    int64_t k = s->begin, others = 0;
    for (int j = 0; j < h->n_dev; j++) others += j != dv && is_live(&h->dev[j]);
    if (others && may_split(h))
        for (int64_t i = s->begin; i < s->end && i < s->begin + SCAN_ITEMS; i++)
            if ((double)cost_of(h, h->dev[dv].item_cost, i, i + 1) <= LONG_ITEM * (double)x) { k = i; break; }
    *p = (pick){0, k, cut_nearest(h, h->dev[dv].item_cost, k, s->end, x)};
    return 1;
}

/* Whether d would finish item i before every other live device with a rate. */
static int finishes_first(const pw_hdss *h, int dv, int64_t i, double now)
{
    const device *d = &h->dev[dv];
    double mine = now + d->alpha + (double)cost_of(h, d->item_cost, i, i + 1) / d->rate;
    for (const device *q = h->dev; q < h->dev + h->n_dev; q++)
        if (q != d && is_live(q) && has_fit(q) && ready_at(q, now) + (double)cost_of(h, q->item_cost, i, i + 1) / q->rate < mine)
            return 0;
    return 1;
}

/* Whether a device in the plan other than dv can finish item i by T. */
static int another_takes(const pw_hdss *h, int dv, int64_t i, double now, double T)
{
    for (int j = 0; j < h->n_dev; j++) {
        const device *q = &h->dev[j];
        if (j != dv && h->planned[j] && (double)cost_of(h, q->item_cost, i, i + 1) <= q->rate * (T - ready_at(q, now)))
            return 1;
    }
    return 0;
}

/* End-game.  Items are whole, so the shares of plan_finish hold only if each long item goes to
 * a device that can finish it by T.  d's block starts at the first item no other device can
 * finish by T, if d can (or would finish it before anyone else); else at the first item that fits
 * its share (those before it are left for others).  Then as many items as fit its share. */
static int end_game_block(const pw_hdss *h, int dv, double now, double T, int64_t share, pick *p)
{
    const int64_t item = h->dev[dv].item_cost; /* (share: in d's units) */
    if (h->dev[dv].from_back) { /* whole items from the back within its share, or the last one if
                                   it would finish that before anyone else (the long items at the
                                   front are the front devices') */
        const int s = h->n_spans - 1;
        const int64_t b = h->spans[s].begin, e = h->spans[s].end;
        int64_t k = cut_floor_back(h, item, b, e, share);
        if (k == e && finishes_first(h, dv, e - 1, now)) k = e - 1;
        *p = (pick){s, k, e};
        return k < e;
    }
    int scanned = 0, fit_span = -1;
    int64_t fit = 0;
    for (int s = 0; s < h->n_spans && scanned < END_GAME_SCAN; s++) {
        const span *q = &h->spans[s];
        for (int64_t i = q->begin; i < q->end && scanned < END_GAME_SCAN; i++, scanned++) {
            const int64_t mine = cost_of(h, item, i, i + 1);
            if (i > q->begin && !may_split(h)) break; /* only range fronts can be taken */
            if (!another_takes(h, dv, i, now, T) && (mine <= share || finishes_first(h, dv, i, now))) {
                *p = (pick){s, i, cut_floor(h, item, i, q->end, share > mine ? share : mine)};
                return 1;
            }
            if (mine <= share && fit_span < 0) fit_span = s, fit = i;
        }
    }
    if (fit_span < 0) return 0;
    *p = (pick){fit_span, fit, cut_floor(h, item, fit, h->spans[fit_span].end, share)};
    return 1;
}

/* Whether device j, still without a rate, may yet prove at least MEASURING_RATE of d's: not once
 * its block in flight has run so long that even ending now would make it slower (a CPU group
 * 2000x slower than the GPU kept the GPU doubling its blocks, seven more than alone, test_hdss). */
static int may_be_fast(const pw_hdss *h, const device *j, const device *d, double now)
{
    if (!j->in_flight || !(now > j->fetched_at) || !has_fit(d)) return 1;
    return (double)j->cells / (now - j->fetched_at) >= MEASURING_RATE * cell_rate(h, d);
}

/* A block of d with fewer than d's min_items items grows to that many, or to what its range has,
 * away from the end it is cut from (a GPU underfilled by few long items runs them at a fraction
 * of its rate: the plans count a fill it cannot have; on the search's queue, sorted longest
 * first, a front device's extra items near the end are short ones). */
static void widen_to_min_items(const pw_hdss *h, const device *d, pick *p)
{
    const span s = h->spans[p->span];
    if (p->end - p->begin >= d->min_items) return;
    if (d->from_back) p->begin = p->end - s.begin > d->min_items ? p->end - d->min_items : s.begin;
    else p->end = s.end - p->begin > d->min_items ? p->begin + d->min_items : s.end;
}

/* ADAPTIVE: the block for device d, or 0 for nothing more. */
static int adaptive_block(pw_hdss *h, int dv, double now, pick *p)
{
    device *d = &h->dev[dv];
    if (h->adaptive_cells > ADAPTIVE_SHARE * (double)h->total_cells) /* the chapter's cap */
        for (device *q = h->dev; q < h->dev + h->n_dev; q++)
            if (!q->stable && q->samples >= 2 && has_fit(q)) make_stable(h, q);
    int64_t grow = d->last_cost > INT64_MAX / 4 ? INT64_MAX / 2 : 2 * d->last_cost;
    const int64_t least = d->last_cost ? d->min_block : d->first_block;
    const int64_t doubling = grow > least ? grow : least;
    int64_t x = doubling;
    if (!has_fit(d)) return new_device_block(h, dv, x, p);
    if (d->stable) { /* weighted: R_d times the longest block time any stable device needs */
        double block_time = 0;
        for (const device *q = h->dev; q < h->dev + h->n_dev; q++)
            if (q->stable && !q->failed) block_time = fmax(block_time, q->best_block / q->rate);
        x = to_cells(fmax(d->rate * block_time, d->best_block));
    }
    int others;
    double T = plan_finish(h, dv, now, &others);
    d->planned_end = T;
    if (!others) { /* alone: nothing to balance */
        /* ... unless another live device is still on its first blocks: it may be the fast one
         * (a GPU's first block is its slowest) and take most of the queue once measured, so d
         * keeps doubling instead of taking its weighted block (an H200 trace: the CPU took 0.6 s
         * of work 0.14 s in, ran 1.08 s, and ended 0.1 s after the GPU alone would have) */
        int measuring = 0;
        for (int j = 0; j < h->n_dev; j++)
            measuring += j != dv && is_live(&h->dev[j]) && !has_fit(&h->dev[j]) && may_be_fast(h, &h->dev[j], d, now);
        if (measuring && x > doubling) x = doubling;
        *p = pick_at_end(h, d, x);
        return 1;
    }
    if (!h->planned[dv]) return 0; /* its minimum block would end after the others are done */
    int64_t share = to_cells(d->rate * (T - now - d->alpha));
    /* A rate measured on the front of the queue need not hold further on (the search's queue is
     * sorted longest first: on an H200 a GPU block ran 15% longer than predicted, a CPU block
     * 1.8x): no block takes more than half of d's time to T while that half is at least its
     * minimum block, so d is measured again before its last blocks are planned.  (A few more
     * fixed costs near the end; an overrun of the planned end costs the whole run.)  Not where
     * that half's work would be less than its fixed cost: then the second half has no slack for
     * a rate off by a little (a CPU group with 33 ms a block, 81 ms before the end, took 7 ms of
     * work, ran 10 ms late and had no time left for another block: 3% before the GPU, test_hdss). */
    /* (Not where the others' part of the time to T is less than one of d's fixed costs: cutting
     * d's blocks then costs more than they add -- a CPU group 2000x slower than the GPU made it
     * halve six more times for 1 ms of help, test_hdss.) */
    const int64_t half = to_cells(d->rate * ((T - now) / 2 - d->alpha));
    const int helped = others_share(h, d) * (T - now) >= d->alpha;
    if (helped && x > half && half >= d->min_block && (double)half >= d->alpha * d->rate) x = half;
    if (x <= share / 2) { /* two blocks or more to go: the end-game plans the last ones */
        const pick q = pick_at_end(h, d, x);
        if (now + d->alpha + (double)cost_of(h, d->item_cost, q.begin, q.end) / d->rate <= T) {
            *p = q;
            return 1;
        }
    }
    return end_game_block(h, dv, now, T, share, p);
}

/* STATIC: the device's share in static_rounds blocks; what rounding leaves over goes to
 * whoever asks once no share is left anywhere. */
static int static_block(pw_hdss *h, int dv, pick *p)
{
    device *d = &h->dev[dv];
    int64_t x = d->quota_round < d->quota_left ? d->quota_round : d->quota_left;
    for (int j = 0; d->quota_left == 0 && j < h->n_dev; j++)
        if (j != dv && is_live(&h->dev[j]) && h->dev[j].quota_left > 0) return 0;
    if (d->quota_left == 0) x = INT64_MAX; /* the leftovers */
    const span *s = &h->spans[0];
    *p = (pick){0, s->begin, cut_nearest(h, 0, s->begin, s->end, x)}; /* (shares in cells) */
    int64_t got = cells_of(h, p->begin, p->end);
    int last_round = x == d->quota_left; /* whatever whole items made of it, the share is used */
    d->quota_left = !last_round && d->quota_left > got ? d->quota_left - got : 0;
    return 1;
}

/* STATIC shares: cells by weight over the devices taking part; a failed device's share (rest
 * plus the returned block) is spread the same way over the live ones. */
static void share_out(pw_hdss *h, int64_t cells)
{
    double sum = 0;
    for (int j = 0; j < h->n_dev; j++)
        if (is_live(&h->dev[j])) sum += h->dev[j].weight;
    if (!(sum > 0)) return; /* nobody: the leftover rule of static_block takes it */
    int rounds = h->opt.static_rounds;
    for (int j = 0; j < h->n_dev; j++) {
        device *q = &h->dev[j];
        if (!is_live(q) || q->weight <= 0) continue;
        int64_t more = to_cells((double)cells * q->weight / sum);
        q->quota_left += more;
        int64_t round = more / rounds + (more % rounds != 0);
        if (round > q->quota_round) q->quota_round = round;
    }
}

void pw_hdss_options_init(pw_hdss_options *o)
{
    if (o) *o = (pw_hdss_options){.min_block = 65536, .tolerance = 0.03, .static_rounds = 1};
}

static pw_status check_options(pw_hdss_options *o, const pw_hdss_device *devices, int n)
{
    pw_hdss_options defaults;
    pw_hdss_options_init(&defaults);
    o->min_block = o->min_block ? o->min_block : defaults.min_block;
    o->tolerance = o->tolerance != 0 ? o->tolerance : defaults.tolerance;
    o->static_rounds = o->static_rounds ? o->static_rounds : defaults.static_rounds;
    o->kinds = o->kinds ? o->kinds : PW_HDSS_GPU | PW_HDSS_CPU;
    if (o->mode != PW_HDSS_ADAPTIVE && o->mode != PW_HDSS_STATIC)
        return fail_with(PW_ERR_INVALID_ARGUMENT, "mode is neither ADAPTIVE nor STATIC");
    if (o->min_block < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "min_block is negative");
    if (!(o->tolerance > 0 && o->tolerance <= 0.5))
        return fail_with(PW_ERR_INVALID_ARGUMENT, "tolerance is not in (0, 0.5]");
    if (o->static_rounds < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "static_rounds is negative");
    if (o->kinds & ~(unsigned)(PW_HDSS_GPU | PW_HDSS_CPU))
        return fail_with(PW_ERR_INVALID_ARGUMENT, "kinds has bits other than GPU and CPU");
    int taking_part = 0;
    double weights = 0;
    for (int j = 0; j < n; j++) {
        if (devices[j].kind != PW_HDSS_GPU && devices[j].kind != PW_HDSS_CPU)
            return fail_with(PW_ERR_INVALID_ARGUMENT, "a device's kind is neither GPU nor CPU");
        if (devices[j].min_block < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "a device's min_block is negative");
        if (devices[j].first_block < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "a device's first_block is negative");
        if (devices[j].item_cost < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "a device's item_cost is negative");
        if (devices[j].min_items < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "a device's min_items is negative");
        if (!(devices[j].weight >= 0) || isinf(devices[j].weight))
            return fail_with(PW_ERR_INVALID_ARGUMENT, "a device's weight is negative or not finite");
        if (o->kinds & (unsigned)devices[j].kind) taking_part++, weights += devices[j].weight;
    }
    if (!taking_part) return fail_with(PW_ERR_INVALID_ARGUMENT, "no device of the kinds asked for");
    if (o->mode == PW_HDSS_STATIC && !(weights > 0))
        return fail_with(PW_ERR_INVALID_ARGUMENT, "STATIC needs a positive weight among the devices");
    return PW_OK;
}

/* The costs as prefix sums (NULL when every item costs 1): whole-item cuts by binary search. */
static pw_status make_prefix(pw_hdss *h, const int64_t *costs)
{
    h->total_cells = h->n_items;
    if (!costs) return PW_OK;
    if ((uint64_t)h->n_items + 1 > SIZE_MAX / sizeof(int64_t))
        return fail_with(PW_ERR_SIZE_OVERFLOW, "too many items");
    h->prefix = malloc(sizeof(int64_t) * (size_t)(h->n_items + 1));
    if (!h->prefix) return fail_with(PW_ERR_OUT_OF_MEMORY, "no memory for the costs");
    h->prefix[0] = 0;
    for (int64_t i = 0; i < h->n_items; i++) {
        if (costs[i] < 0) return fail_with(PW_ERR_INVALID_ARGUMENT, "an item's cost is negative");
        if (__builtin_add_overflow(h->prefix[i], costs[i], &h->prefix[i + 1]))
            return fail_with(PW_ERR_SIZE_OVERFLOW, "the items' cells pass INT64_MAX");
    }
    h->total_cells = h->prefix[h->n_items];
    return PW_OK;
}

pw_status pw_hdss_create(const pw_hdss_device *devices, int n_devices, const int64_t *costs,
                         int64_t n_items, const pw_hdss_options *options, pw_hdss **out)
{
    if (!out) return fail_with(PW_ERR_NULL_ARGUMENT, "out is NULL");
    *out = NULL;
    if (!devices) return fail_with(PW_ERR_NULL_ARGUMENT, "devices is NULL");
    if (n_devices <= 0) return fail_with(PW_ERR_INVALID_SIZE, "n_devices <= 0");
    if (n_items < 0) return fail_with(PW_ERR_INVALID_SIZE, "n_items < 0");
    pw_hdss_options opt;
    if (options) opt = *options; else pw_hdss_options_init(&opt);
    pw_status st = check_options(&opt, devices, n_devices);
    if (st != PW_OK) return st;
    pw_hdss *h = calloc(1, sizeof *h);
    if (!h) return fail_with(PW_ERR_OUT_OF_MEMORY, "no memory");
    pthread_mutex_init(&h->lock, NULL);
    h->opt = opt;
    h->opt.clock = opt.clock ? opt.clock : monotonic_seconds;
    /* PEERWAVE_DEBUG_HDSS=1: a line a block fetched and done, on stderr (a device run's
     * diagnosis: predicted against measured times, the plan's finish; read here only) */
    const char *debug = getenv("PEERWAVE_DEBUG_HDSS");
    h->trace = debug && debug[0] == '1' ? stderr : NULL;
    h->n_dev = n_devices, h->n_items = n_items, h->cap_spans = HOLES + 1 + n_devices;
    h->dev = calloc((size_t)n_devices, sizeof *h->dev);
    h->planned = calloc((size_t)n_devices, 1);
    h->order = calloc((size_t)n_devices, sizeof *h->order);
    h->spans = calloc((size_t)h->cap_spans, sizeof *h->spans);
    st = h->dev && h->planned && h->order && h->spans ? make_prefix(h, costs)
                                          : fail_with(PW_ERR_OUT_OF_MEMORY, "no memory");
    for (int j = 0; st == PW_OK && j < n_devices; j++) {
        device *d = &h->dev[j];
        char fallback[32];
        snprintf(fallback, sizeof fallback, "%s%d", devices[j].kind == PW_HDSS_GPU ? "gpu" : "cpu", j);
        *d = (device){.name = strdup(devices[j].name ? devices[j].name : fallback), .kind = devices[j].kind,
                      .weight = devices[j].weight, .stopped = !(opt.kinds & (unsigned)devices[j].kind),
                      .min_block = devices[j].min_block > 0 ? devices[j].min_block : opt.min_block,
                      .item_cost = opt.mode == PW_HDSS_STATIC ? 0 : devices[j].item_cost, /* (STATIC: cells) */
                      .from_back = opt.mode != PW_HDSS_STATIC && devices[j].from_back,
                      .min_items = opt.mode == PW_HDSS_STATIC ? 0 : devices[j].min_items,
                      .planned_end = -1};
        d->first_block = devices[j].first_block > d->min_block ? devices[j].first_block : d->min_block;
        if (!d->name) st = fail_with(PW_ERR_OUT_OF_MEMORY, "no memory");
        int64_t extra, all; /* (every cost below is at most the whole queue's to this device) */
        if (st == PW_OK && (__builtin_mul_overflow(d->item_cost, n_items, &extra) ||
                            __builtin_add_overflow(h->total_cells, extra, &all)))
            st = fail_with(PW_ERR_SIZE_OVERFLOW, "the items' cells and a device's item costs pass INT64_MAX");
    }
    if (st != PW_OK) {
        pw_hdss_destroy(h);
        return st;
    }
    if (n_items > 0) h->spans[h->n_spans++] = (span){0, n_items};
    h->queued_cells = h->total_cells, h->queued_items = n_items;
    if (opt.mode == PW_HDSS_STATIC) share_out(h, h->total_cells);
    if (h->trace)
        fprintf(h->trace, "hdss start %s, %d devices, %" PRId64 " items, %" PRId64 " cells\n",
                opt.mode == PW_HDSS_STATIC ? "static" : "adaptive", n_devices, n_items, h->total_cells);
    *out = h;
    return PW_OK;
}

void pw_hdss_destroy(pw_hdss *h)
{
    if (!h) return;
    for (int j = 0; h->dev && j < h->n_dev; j++) free(h->dev[j].name);
    pthread_mutex_destroy(&h->lock);
    free(h->dev), free(h->planned), free(h->order), free(h->spans), free(h->prefix), free(h);
}

static pw_status check_device(const pw_hdss *h, int dv)
{
    if (!h) return fail_with(PW_ERR_NULL_ARGUMENT, "the scheduler is NULL");
    if (dv < 0 || dv >= h->n_dev) return fail_with(PW_ERR_INVALID_ARGUMENT, "no such device");
    return PW_OK;
}

pw_status pw_hdss_fetch(pw_hdss *h, int dv, pw_hdss_block *block)
{
    pw_status st = check_device(h, dv);
    if (st != PW_OK) return st;
    if (!block) return fail_with(PW_ERR_NULL_ARGUMENT, "block is NULL");
    *block = (pw_hdss_block){0, 0, 0};
    pthread_mutex_lock(&h->lock);
    device *d = &h->dev[dv];
    double now = h->opt.clock(h->opt.clock_ctx);
    if (!h->started) h->started = 1, h->start = now;
    pick p = {0, 0, 0};
    int64_t asked = 0; /* (the block's cost before min_items widened it: what the next doubles) */
    if (d->in_flight) {
        st = fail_with(PW_ERR_INVALID_ARGUMENT, "the device's block in flight is not done yet");
    } else if (!d->failed && (h->opt.kinds & (unsigned)d->kind)) {
        d->stopped = 0; /* asking again, e.g. after another device failed */
        int got = h->n_spans > 0 && (h->opt.mode == PW_HDSS_STATIC ? static_block(h, dv, &p)
                                                                    : adaptive_block(h, dv, now, &p));
        if (!got) p.end = p.begin;
        asked = cost_of(h, d->item_cost, p.begin, p.end);
        if (got && p.end > p.begin) widen_to_min_items(h, d, &p);
        d->stopped = p.end == p.begin;
    }
    if (p.end > p.begin) {
        int64_t cells = cells_of(h, p.begin, p.end);
        queue_take(h, p.span, p.begin, p.end);
        if (!d->stable) h->adaptive_cells += cells;
        d->in_flight = 1, d->begin = p.begin, d->end = p.end, d->cells = cells;
        d->cost = cost_of(h, d->item_cost, p.begin, p.end);
        d->last_cost = asked;
        d->fetched_at = now;
        *block = (pw_hdss_block){p.begin, p.end, cells};
    }
    if (h->trace)
        fprintf(h->trace,
                "hdss fetch %.4f %s items %" PRId64 "..%" PRId64 " cells %" PRId64 " predicted %.4f s (alpha %.3g, rate %.4g, %s) "
                "plan end %.4f, queued %" PRId64 "\n",
                now - h->start, d->name, p.begin, p.end, cells_of(h, p.begin, p.end),
                has_fit(d) ? d->alpha + (double)cost_of(h, d->item_cost, p.begin, p.end) / d->rate : -1, d->alpha, d->rate,
                d->stable ? "stable" : "adaptive", d->planned_end >= 0 ? d->planned_end - h->start : -1, h->queued_cells);
    pthread_mutex_unlock(&h->lock);
    return st;
}

pw_status pw_hdss_done(pw_hdss *h, int dv, double seconds)
{
    pw_status st = check_device(h, dv);
    if (st != PW_OK) return st;
    if (isnan(seconds) || isinf(seconds)) return fail_with(PW_ERR_INVALID_ARGUMENT, "seconds is not finite");
    if (seconds < 0 && seconds != PW_HDSS_MEASURE)
        return fail_with(PW_ERR_INVALID_ARGUMENT, "seconds is negative (PW_HDSS_MEASURE, -1, lets the scheduler time it)");
    pthread_mutex_lock(&h->lock);
    device *d = &h->dev[dv];
    if (!d->in_flight) {
        st = fail_with(PW_ERR_INVALID_ARGUMENT, "the device has no block in flight");
    } else {
        double now = h->opt.clock(h->opt.clock_ctx);
        double t = seconds >= 0 ? seconds : now - d->fetched_at;
        d->in_flight = 0;
        d->items += d->end - d->begin, d->cells_done += d->cells, d->cost_done += d->cost, d->blocks++;
        d->busy += t, d->finish = now - h->start;
        h->items_done += d->end - d->begin, h->cells_done += d->cells;
        if (h->trace)
            fprintf(h->trace, "hdss done  %.4f %s took %.4f s, predicted %.4f s\n", now - h->start, d->name, t,
                    has_fit(d) ? d->alpha + (double)d->cost / d->rate : -1);
        add_sample(h, d, (double)d->cost, t);
    }
    pthread_mutex_unlock(&h->lock);
    return st;
}

pw_status pw_hdss_fail(pw_hdss *h, int dv)
{
    pw_status st = check_device(h, dv);
    if (st != PW_OK) return st;
    pthread_mutex_lock(&h->lock);
    device *d = &h->dev[dv];
    if (!d->failed) {
        int64_t back = d->in_flight ? d->cells : 0;
        if (d->in_flight) queue_return(h, d->begin, d->end);
        d->in_flight = 0, d->failed = 1;
        if (h->opt.mode == PW_HDSS_STATIC) share_out(h, d->quota_left + back);
        d->quota_left = 0;
    }
    pthread_mutex_unlock(&h->lock);
    return PW_OK;
}

/* A device's rate in cells a second for the report: its fit's, over what a cell of its blocks
 * cost it; a device with no fit (a block or two: a static split's whole share) its cells over
 * its busy time (the summary said 0.00 G/s for a group that did a third of the work). */
static double report_rate(const device *d)
{
    if (d->rate > 0) return d->cost_done > 0 ? d->rate * (double)d->cells_done / (double)d->cost_done : d->rate;
    return d->busy > 0 ? (double)d->cells_done / d->busy : 0;
}

pw_status pw_hdss_get_report(pw_hdss *h, pw_hdss_report *r, pw_hdss_device_report *out, int n_out)
{
    if (!h || !r) return fail_with(PW_ERR_NULL_ARGUMENT, "the scheduler or report is NULL");
    if (n_out < 0 || (n_out > 0 && !out)) return fail_with(PW_ERR_INVALID_ARGUMENT, "bad device reports");
    pthread_mutex_lock(&h->lock);
    double end = 0, first = INFINITY, last = 0; /* the spread leaves failed devices out */
    for (const device *d = h->dev; d < h->dev + h->n_dev; d++) {
        if (d->items > 0) end = fmax(end, d->finish);
        if (d->items > 0 && !d->failed) first = fmin(first, d->finish), last = fmax(last, d->finish);
    }
    *r = (pw_hdss_report){h->items_done, h->cells_done, h->n_items - h->items_done, end,
                          end > 0 && last > 0 ? (last - first) / end : 0};
    for (int j = 0; j < h->n_dev && j < n_out; j++) {
        const device *d = &h->dev[j];
        out[j] = (pw_hdss_device_report){
            d->name, d->kind, d->failed, d->items, d->cells_done, d->blocks,
            h->cells_done > 0 ? (double)d->cells_done / (double)h->cells_done : 0,
            report_rate(d), d->alpha, d->stable ? to_cells(d->best_block) : 0, d->busy, d->finish};
    }
    pthread_mutex_unlock(&h->lock);
    return PW_OK;
}
