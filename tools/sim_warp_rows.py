"""sim_warp_rows.py - the warp-rows SW engine's two kernels (src/cuda/device/sw_warp_rows_proc.cuh:
32-bit lanes, and 16-bit pairs of tile-rows) played out in Python: W persistent warps as
coroutines switched at random at every chunk and every failed wait, the counters, rings and
whole-row buffers as lists, each warp's 32 lanes in lockstep a step at a time, line for line as the
kernel.  Small R, RING and W, so that rounds, ring wrap-around and the whole-row buffers all occur
on small shapes.  Checks every best score and end cell (a lane's best kept as the kernel keeps it:
a column's maximum against the lane's best, padding rows and columns never offered) against a
textbook Gotoh, that no schedule stalls (all warps waiting: a deadlock), and the pairs' stop: a
best past a limit (16 bits, scaled down here) sets a flag that every warp must leave on, through
its waits or every STOP_EVERY columns, without a deadlock; and both kernels over G = 2 or 3 GPUs
with rounds dealt out (docs/DESIGN-NOTES.md: not in the kernels yet).  The pairs keep every value as the
kernel does: 16-bit lanes (wrapping) offset by the floor -32768 + max(128, go + ge) (a true 0),
converted back at offers.  Needs no GPU.
python3 tools/sim_warp_rows.py -> "bad 0"."""
import random

R, RING, CHUNK, PAD = 2, 64, 32, 5
STOP_EVERY = 64  # the kernel looks at the stop flag every 1024 step-columns; scaled down here
INF = 1 << 40
ROWS = 32 * R
NEG = -(1 << 29)


def textbook(a, b, p):
    match, mismatch, go, ge = p
    n, m = len(a), len(b)
    H = [0] * (m + 1)
    F = [NEG] * (m + 1)
    best = (0, -1, -1)
    for i in range(1, n + 1):
        diag, left, E = 0, 0, NEG
        for j in range(1, m + 1):
            E = max(E - ge, left - go)
            F[j] = max(F[j] - ge, H[j] - go)
            s = match if a[i - 1] < 4 and a[i - 1] == b[j - 1] else mismatch
            h = max(diag + s, E, F[j], 0)
            diag, H[j], left = H[j], h, h
            if h > best[0]:
                best = (h, i - 1, j - 1)
    return best if best[0] > 0 else (0, -1, -1)


def better(x, y):
    """(score, i, j) x before y by pw_sw's rule: the best score, then the smallest row, column."""
    return x[0] > y[0] or (x[0] == y[0] and (x[1], x[2]) < (y[1], y[2]))


def w16(x):
    """A 16-bit lane's two's-complement wrap (the pairs' DPX arithmetic)."""
    x &= 0xffff
    return x - 65536 if x >= 32768 else x


def offer(lane_best, hs, top, row0, n, col, bias=0):
    """A column whose maximum `top` (true) reached the lane's best: its first real row holding it
    (stored in hs as top + bias)."""
    for r in range(R):
        if hs[r] == top + bias and row0 + r < n:
            cand = (top, row0 + r, col)
            return cand if better(cand, lane_best) else lane_best
    return lane_best


def final(bests):
    top = (0, INF, INF)
    for x in bests:
        if better(x, top):
            top = x
    return top if top[0] > 0 else (0, -1, -1)


def schedule(warps, rng):
    """Runs the warps (coroutines yielding 'wait' or 'chunk') to their ends, switching at random at
    every yield; a long run of failed waits with no progress is a deadlock."""
    live = dict(enumerate(warps))
    stalled = 0
    while live:
        w = rng.choice(list(live))
        try:
            what = next(live[w])
            stalled = stalled + 1 if what == 'wait' else 0
        except StopIteration:
            del live[w]
            stalled = 0
        if stalled > 2000 * len(warps):
            raise RuntimeError('deadlock')


def run(a, b, p, W, rng, G=1):
    """The 32-bit kernel on G GPUs (docs/DESIGN-NOTES.md, "Over several GPUs"): global round g of
    W tile-rows runs on GPU g mod G; a GPU's rings and counters are its own, and the row between
    rounds goes to the reading GPU's whole-row buffer (two slots by the reader's round parity) and
    its `inprod` counter, with back-pressure on the reader's warp 0.  Counters count in global
    rounds (base = g x span).  G = 1 is the one-GPU kernel."""
    match, mismatch, go, ge = p
    n, m = len(a), len(b)
    T = (n + ROWS - 1) // ROWS
    span = m + 1
    prod = [[0] * W for _ in range(G)]
    cons = [[0] * W for _ in range(G)]
    ring = [[[None] * RING for _ in range(W)] for _ in range(G)]
    inbuf = [[[None] * m, [None] * m] for _ in range(G)]  # on the reading GPU
    inprod = [0] * G  # written by the upstream GPU's wrap warp
    best_all = []

    def score(row, letter):
        if row >= n:
            return -128
        return match if a[row] < 4 and a[row] == letter else mismatch

    def read(storage, j, tile_row, mask=(1 << 31) - 1):
        """An entry of the row above: written, and by that tile-row for that column (not a stale one)."""
        entry = storage[j & mask]
        assert entry is not None and entry[0] == tile_row and entry[1] == j, \
            'tile-row %d read column %d: found %s' % (tile_row + 1, j, entry[:2] if entry else None)
        return entry[2], entry[3]

    def warp(x, w):
        best = [(0, INF, INF)] * 32
        down = (x + 1) % G  # the GPU that runs the next round
        g = x
        while g * W + w < T:
            t = g * W + w
            base = g * span
            has_above, has_below, wrap = t > 0, t + 1 < T, w == W - 1
            if has_above and w > 0:  # the warp above this round, on this GPU
                above, above_mask = ring[x][w - 1], RING - 1
            elif has_above:  # the last round's wrap warp, through this GPU's whole-row buffer
                above, above_mask = inbuf[x][(g // G) % 2], (1 << 31) - 1
            if wrap:  # the next round's reader: its slot, by its round's parity
                below, below_mask = inbuf[down][((g + 1) // G) % 2], (1 << 31) - 1
            else:
                below, below_mask = ring[x][w], RING - 1
            # that slot was read by the reader's warp 0 in round g + 1 - 2G: done?
            if has_below and wrap and g >= 2 * G:
                while not cons[down][0] >= (g + 2 - 2 * G) * span - 1:
                    yield 'wait'
            h = [[0] * R for _ in range(32)]
            e = [[-go] * R for _ in range(32)]
            out_h, out_f, prev_up = [0] * 32, [-go] * 32, [0] * 32
            nxt = [0] * 32
            nxt[0] = b[0] if m > 0 else 0
            pre = (0, -go)

            def publish_below(v):
                if wrap:
                    inprod[down] = v
                else:
                    prod[x][w] = v
            for s in range(m + 31):
                if s % CHUNK == 0:
                    if has_below:
                        publish_below(base + min(m, max(0, s - 31)))
                    if has_above:
                        cons[x][w] = base + min(m, s)
                    free_from = s - RING + 1
                    while True:
                        if not has_above:
                            ok0 = True
                        elif w > 0:
                            ok0 = prod[x][w - 1] >= base + min(m, s + 33)
                        else:
                            ok0 = inprod[x] >= base - span + min(m, s + 33)
                        ok31 = not (has_below and not wrap) or cons[x][w + 1] >= base + max(0, free_from)
                        if ok0 and ok31:
                            break
                        yield 'wait'
                    if has_above and s == 0:
                        pre = read(above, 0, t - 1)
                    yield 'chunk'
                # the step: shuffles read the values of the step before
                up = [0] + out_h[:31]
                f = [-go] + out_f[:31]
                letter = nxt[:]
                nxt = [0] + letter[:31]
                j0 = s
                up[0] = pre[0] if has_above else 0
                f[0] = pre[1] if has_above else -go
                nxt[0] = b[j0 + 1] if j0 + 1 < m else 0
                if has_above and j0 + 1 < m:
                    pre = read(above, j0 + 1, t - 1, above_mask)
                for k in range(32):
                    j = s - k
                    if not (0 <= j < m):
                        continue
                    diag = prev_up[k]
                    prev_up[k] = up[k]
                    fk = f[k]
                    colmax = 0
                    for r in range(R):
                        row = t * ROWS + k * R + r
                        hn = max(diag + score(row, letter[k]), e[k][r], fk, 0)
                        hgo = hn - go
                        e[k][r] = max(e[k][r] - ge, hgo)
                        fk = max(fk - ge, hgo)
                        diag = h[k][r]
                        h[k][r] = hn
                        colmax = max(colmax, hn)
                    if colmax >= max(best[k][0], 1):
                        best[k] = offer(best[k], h[k], colmax, t * ROWS + k * R, n, j)
                    out_h[k] = h[k][R - 1]
                    out_f[k] = fk
                    if k == 31 and has_below:
                        below[j & below_mask] = (t, j, out_h[k], out_f[k])
            if has_below:
                publish_below(base + m)
            if has_above:
                cons[x][w] = base + m
            g += G
        best_all.extend(best)

    schedule([warp(x, w) for x in range(G) for w in range(W)], rng)
    return final(best_all)


def run_pairs(a, b, p, W, rng, limit=INF, G=1):
    """The --pairs kernel: in round r warp w runs tile-row tl = 2 W r + w in the low halves and
    th = tl + W in the high halves, D step-columns behind; warp 0's row above comes from warp
    W - 1's whole-row buffers (low half: a round ago's high halves at c + D; high half: this
    round's low halves at c - D).  On G GPUs round g runs on GPU g mod G and the wrap warp writes
    its pair words twice: to its own GPU's buffer (this round's high halves read them) and to the
    next GPU's (the next round's low halves), whose warp 0 then waits on both writers.  Each half is computed on its own, in 16-bit lanes offset by FL.
    A warp whose largest value passes `limit` (true; limit + FL stored), looked at every
    STOP_EVERY columns and at its end, sets the stop flag: returns 'stopped' (every warp must
    leave)."""
    match, mismatch, go, ge = p
    n, m = len(a), len(b)
    T = (n + ROWS - 1) // ROWS
    D = 64 * W + 256
    M = m + D
    span = M + 1
    prod = [[0] * W for _ in range(G)]
    cons = [[0] * W for _ in range(G)]
    ring = [[[None] * RING for _ in range(W)] for _ in range(G)]
    full = [[[None] * M, [None] * M] for _ in range(G)]  # by the GPU's own round parity
    # the last round's high halves, on the reading GPU (one GPU: its own whole-row buffers)
    inbuf = full if G == 1 else [[[None] * M, [None] * M] for _ in range(G)]
    inprod = [0] * G
    best_all = []
    stop = [False]
    FL = -32768 + max(128, go + ge)  # the stored 0

    def score(row, letter):
        if row >= n or letter == PAD:
            return -128
        return match if a[row] < 4 and a[row] == letter else mismatch

    def half(entry, which, tile_row, column):
        """One half of a stored entry: made by that tile-row for that (matrix) column."""
        got = entry[which] if entry else None
        assert got is not None and got[0] == tile_row and got[1] == column, \
            'read tile-row %d column %d: found %s' % (tile_row, column, got[:2] if got else None)
        return got[2], got[3]

    def old_written(x):
        """The counter of the writer of GPU x's last-round buffer."""
        return prod[x][W - 1] if G == 1 else inprod[x]

    def warp(x, w):
        best = [(0, INF, INF)] * 32
        seen = FL  # the warp's largest stored H: the overflow check's
        down = (x + 1) % G
        g = x  # the global round; r, this GPU's
        while 2 * W * g + w < T:
            r = g // G
            tl, th = 2 * W * g + w, 2 * W * g + w + W
            base = g * span
            has_below, wrap = tl + 1 < T, w == W - 1
            below = full[x][r % 2] if wrap else ring[x][w]
            below_mask = (1 << 31) - 1 if wrap else RING - 1
            below_next = inbuf[down][((g + 1) // G) % 2] if wrap and G > 1 else None
            # the slots were read: ours by our warp 0 (a round ago on one GPU: as the last round's
            # buffer; two rounds ago on several), the next GPU's by its warp 0 in round g + 1 - 2G
            waits = []
            if has_below and wrap and r >= 2:
                waits.append((x, (g - G + 1) * span - 1 if G == 1 else (g - 2 * G + 1) * span - 1))
                if G > 1:
                    waits.append((down, (g + 2 - 2 * G) * span - 1))
            for gpu, need in waits:
                while not cons[gpu][0] >= need:
                    if stop[0]:
                        return
                    yield 'wait'
            # per lane and half: h, e, and the step's values
            h = [[[FL] * R, [FL] * R] for _ in range(32)]
            e = [[[FL - go] * R, [FL - go] * R] for _ in range(32)]
            out = [[(FL, FL - go), (FL, FL - go)] for _ in range(32)]  # (H, F) a half
            prev_up = [[FL, FL] for _ in range(32)]
            nxt = [(PAD, PAD)] * 32
            nxt[0] = (b[0] if m > 0 else PAD, b[0] if D == 0 and m > 0 else PAD)
            pre = [(FL, FL - go), (FL, FL - go)]

            def above(c):
                if w > 0:
                    entry = ring[x][w - 1][c & (RING - 1)]
                    return [half(entry, 'lo', tl - 1, c), half(entry, 'hi', th - 1, c - D)]
                old = inbuf[x][(r - 1) % 2] if G == 1 else inbuf[x][r % 2]
                lo = half(old[c + D], 'hi', tl - 1, c) if g > 0 and c + D < M else (FL, FL - go)
                hi = half(full[x][r % 2][c - D], 'lo', th - 1, c - D) if c - D >= 0 and th < T else (FL, FL - go)
                return [lo, hi]

            for s in range(M + 31):
                if s % CHUNK == 0:
                    if s % STOP_EVERY == 0:
                        if seen > limit + FL:
                            stop[0] = True
                        if stop[0]:
                            return
                    if has_below:
                        prod[x][w] = base + min(M, max(0, s - 31))
                        if below_next is not None:
                            inprod[down] = base + min(M, max(0, s - 31))
                    cons[x][w] = base + min(M, s)
                    free_from = s - RING + 1
                    while True:
                        now = w == 0 and s + 33 - D > 0 and th < T
                        if w > 0:
                            ok0 = prod[x][w - 1] >= base + min(M, s + 33)
                        elif now and G == 1:  # (which also means its last round is complete)
                            ok0 = prod[x][W - 1] >= base + min(M, s + 33 - D)
                        else:  # several GPUs: the last round's writer is another GPU's warp
                            ok0 = (not now or prod[x][W - 1] >= base + min(M, s + 33 - D)) and \
                                (g == 0 or old_written(x) >= base - span + min(M, s + 33 + D))
                        ok31 = not (has_below and not wrap) or cons[x][w + 1] >= base + max(0, free_from)
                        if ok0 and ok31:
                            break
                        if stop[0]:
                            return
                        yield 'wait'
                    if s == 0:
                        pre = above(0)
                    yield 'chunk'
                # the row above a lane: thread k - 1's last row a step ago; thread 0's from pre
                src = [pre] + [out[k][:] for k in range(31)]
                letters = nxt[:]
                nxt = [None] + letters[:31]
                c0 = s
                lo_c, hi_c = c0 + 1, c0 + 1 - D
                nxt[0] = (b[lo_c] if lo_c < m else PAD, b[hi_c] if 0 <= hi_c < m else PAD)
                if c0 + 1 < M:
                    pre = above(c0 + 1)
                for k in range(32):
                    c = s - k
                    if not (0 <= c < M):
                        continue
                    colmax = [FL, FL]
                    for q, tile_row in ((0, tl), (1, th)):
                        ux, fx = src[k][q]
                        diag = prev_up[k][q]
                        prev_up[k][q] = ux
                        fk = fx
                        for row in range(R):
                            i = tile_row * ROWS + k * R + row
                            sc = score(i, letters[k][q]) if tile_row < T else -128
                            hn = max(max(w16(diag + sc), FL), e[k][q][row], fk)
                            hgo = w16(hn - go)
                            e[k][q][row] = max(w16(e[k][q][row] - ge), hgo)
                            fk = max(w16(fk - ge), hgo)
                            diag = h[k][q][row]
                            h[k][q][row] = hn
                            colmax[q] = max(colmax[q], hn)
                        out[k][q] = (h[k][q][R - 1], fk)
                    # the kernel's end-cell step: either half at or above the lane's best
                    seen = max(seen, colmax[0], colmax[1])
                    if max(colmax) >= max(best[k][0], 1) + FL:
                        lo, hi = colmax[0] - FL, colmax[1] - FL
                        if lo >= max(best[k][0], 1) and c < m:
                            best[k] = offer(best[k], h[k][0], lo, tl * ROWS + k * R, n, c, FL)
                        if hi >= max(best[k][0], 1) and th < T and 0 <= c - D < m:
                            best[k] = offer(best[k], h[k][1], hi, th * ROWS + k * R, n, c - D, FL)
                    if k == 31 and has_below:
                        word = {'lo': (tl, c, out[k][0][0], out[k][0][1]),
                                'hi': (th, c - D, out[k][1][0], out[k][1][1])}
                        below[c & below_mask] = word
                        if below_next is not None:
                            below_next[c] = word
            if has_below:
                prod[x][w] = base + M
                if below_next is not None:
                    inprod[down] = base + M
            cons[x][w] = base + M
            g += G
        if seen > limit + FL:  # (the columns since the last check)
            stop[0] = True
        best_all.extend(best)

    schedule([warp(x, w) for x in range(G) for w in range(W)], rng)
    return 'stopped' if stop[0] else final(best_all)


def main():
    rng = random.Random(5)
    bad = 0
    cases = 0
    # first, shapes of several rounds whose rows are far longer than a ring (its reuse from one
    # round to the next), then random ones
    fixed = [(700, 700, 2), (700, 1000, 3), (500, 700, 4), (640, 900, 2), (333, 1000, 3)]
    for k in range(len(fixed) + 80):
        n = rng.choice([1, 2, 31, 64, 65, 127, 200, 320, 333, 500, 700])
        m = rng.choice([1, 5, 31, 32, 33, 63, 64, 65, 100, 190, 300, 400, 700, 1000])
        W = rng.choice([1, 2, 3, 4])
        if k < len(fixed):
            n, m, W = fixed[k]
        p = rng.choice([(2, -1, 1, 1), (1, -3, 5, 2), (2, -3, 5, 2), (2, -1, 0, 0), (1, -3, 1, 3)])
        b = [rng.randrange(4) for _ in range(m)]
        if rng.random() < 0.5:
            a = [b[(i + 3) % m] if rng.random() < 0.9 else rng.randrange(5) for i in range(n)]
        else:
            a = [rng.randrange(5) for _ in range(n)]
        if rng.random() < 0.2:  # ties: a stretch of b planted in a twice
            for _ in range(2):
                if n > 12 and m > 12:
                    at, frm = rng.randrange(n - 12), rng.randrange(m - 12)
                    a[at:at + 12] = b[frm:frm + 12]
        want = textbook(a, b, p)
        G = rng.choice([2, 3]) if k % 3 == 1 else 1  # several GPUs, rounds dealt out
        for mode, fn in (('lanes', run), ('pairs', run_pairs), ('stop', run_pairs)):
            if mode != 'lanes' and k % 2:
                continue  # (every other case: the pairs' D columns make them slower)
            # the stop: a limit below the best must stop the run, one at it must not
            limit = rng.choice([want[0] - 1, want[0], want[0] // 2]) if mode == 'stop' else INF
            expect = 'stopped' if want[0] > limit else want
            try:
                got = fn(a, b, p, W, rng, limit, G) if mode == 'stop' else fn(a, b, p, W, rng, INF, G) \
                    if mode == 'pairs' else fn(a, b, p, W, rng, G)
            except (RuntimeError, AssertionError) as x:
                got = 'error: %s' % x
            cases += 1
            if got != expect:
                bad += 1
                print('FAIL %s n %d m %d W %d G %d scores %s limit %s: %s, textbook %s' % (mode, n, m, W, G, p, limit,
                                                                                          got, expect))
    print('%d cases, bad %d' % (cases, bad))


if __name__ == '__main__':
    main()
