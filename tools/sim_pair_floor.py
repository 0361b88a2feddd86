"""sim_pair_floor.py - the 16-bit pairs' offset form of src/cuda/device/sw_warp_rows_proc.cuh
(PwSwrPairs::cell) against a textbook Smith-Waterman-Gotoh, with 16-bit wrap-around arithmetic as
the DPX instructions do it.  Every value is stored as true + floor (floor = -32768 + K,
K = max(128, gap_open + gap_extend)):
    H = max(max(diag + s, floor), E, F)          (__viaddmax_s16x2, then __vimax3_s16x2)
    E = max(E - ge, H - go), F likewise           (__viaddmax_s16x2; never clamped)
Checked: every cell exact while the best stays within 65535 - K - top; past it, the first stored
value above limit16 = 32767 - top (the kernel's overflow flag) is still exact, so the flag is
raised before anything wrapped.  Scores reach -128 (the profile's padding letter) and +127; gaps
up to the host's 2^14 each (K = go + ge up to 2^15).  tools/sim_warp_rows.py plays the kernel's
hand-overs with the same stored values.
python3 tools/sim_pair_floor.py -> "... bad 0"."""
import random

NEG = -(1 << 40)


def w16(x):
    """A 16-bit lane's two's-complement wrap."""
    x &= 0xffff
    return x - 65536 if x >= 32768 else x


def textbook(a, b, S, go, ge):
    n, m = len(a), len(b)
    H = [[0] * (m + 1) for _ in range(n + 1)]
    E = [[NEG] * (m + 1) for _ in range(n + 1)]
    F = [[NEG] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            E[i][j] = max(E[i][j - 1] - ge, H[i][j - 1] - go)
            F[i][j] = max(F[i - 1][j] - ge, H[i - 1][j] - go)
            H[i][j] = max(0, H[i - 1][j - 1] + S[a[i - 1]][b[j - 1]], E[i][j], F[i][j])
    return H


def pairs(a, b, S, go, ge):
    """The kernel's lane arithmetic: the border is H = 0 and incoming E, F = -go (stored + floor)."""
    K = max(128, go + ge)
    fl = -32768 + K
    n, m = len(a), len(b)
    H = [[fl] * (m + 1) for _ in range(n + 1)]
    E = [[w16(fl - go)] * (m + 1) for _ in range(n + 1)]
    F = [[w16(fl - go)] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            e = max(w16(E[i][j - 1] - ge), w16(H[i][j - 1] - go)) if j > 1 else w16(fl - go)
            f = max(w16(F[i - 1][j] - ge), w16(H[i - 1][j] - go)) if i > 1 else w16(fl - go)
            E[i][j], F[i][j] = e, f
            H[i][j] = max(max(w16(H[i - 1][j - 1] + S[a[i - 1]][b[j - 1]]), fl), e, f)
    return H, fl, K


def scores(rng, big):
    if big:
        return [[rng.randint(100, 127) if x == y else -rng.randint(100, 128) for y in range(4)] for x in range(4)]
    return [[rng.randint(1, 3) if x == y else -rng.randint(1, 4) for y in range(4)] for x in range(4)]


def main():
    rng = random.Random(5)
    cases = bad = flagged = 0
    for t in range(1000):
        long_case = t % 40 == 0  # values up to the range and past it
        n = rng.randint(430, 640) if long_case else rng.randint(1, 30)
        m = n if long_case else rng.randint(1, 30)
        S = scores(rng, long_case or rng.random() < 0.5)
        go = rng.randint(0, 60 if long_case else 20)
        ge = rng.randint(0, go) if rng.random() < 0.8 else rng.randint(0, 20)
        if t % 5 == 1:  # gaps past 64: K = go + ge, up to the host's 2^14 each
            go = rng.choice([rng.randint(64, 300), rng.randint(300, 1 << 14)])
            ge = rng.randint(0, min(go, 1 << 14)) if rng.random() < 0.8 else rng.randint(0, 1 << 14)
        a = [rng.randrange(4) for _ in range(n)]
        b = [x if rng.random() < 0.97 else rng.randrange(4) for x in a[:m]] if long_case or rng.random() < 0.5 \
            else [rng.randrange(4) for _ in range(m)]
        b += [rng.randrange(4) for _ in range(m - len(b))]
        want = textbook(a, b, S, go, ge)
        got, fl, K = pairs(a, b, S, go, ge)
        top = max(max(r) for r in S)
        limit16 = 32767 - top
        best = max(max(r[1:]) for r in want[1:])
        cells = [(i, j) for i in range(1, n + 1) for j in range(1, m + 1)]
        cases += 1
        if best <= 65535 - K - top:
            ok = all(got[i][j] - fl == want[i][j] and got[i][j] <= limit16 for i, j in cells)
        else:  # the first past limit16 (values grow by at most top a step) is exact
            flagged += 1
            first = next((i, j) for i, j in cells if want[i][j] + fl > limit16)
            ok = got[first[0]][first[1]] - fl == want[first[0]][first[1]]
        if not ok:
            bad += 1
            print('FAIL n %d m %d go %d ge %d best %d' % (n, m, go, ge, best))
    print('%d cases (%d past the range), bad %d' % (cases, flagged, bad))


if __name__ == '__main__':
    main()
