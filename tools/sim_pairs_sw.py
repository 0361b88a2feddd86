"""sim_pairs_sw.py - the step order of src/cuda/device/pairs_sw_proc.cuh (a warp a pair: 32 lanes of
R = 8 query rows, segments of 256 rows, the record a column a step, H and F of the row above by
shuffles, the bottom rows, the best cell and its tie rule, the warp's reduction) played out in Python
against a textbook Smith-Waterman-Gotoh with pw_sw's end cell (the best score; ties to the smallest
row, then column).  A check of the kernel's indexing that needs no GPU.
python3 tools/sim_pairs_sw.py -> "bad 0"."""
import random
R = 8
NEG = -(2**31) // 2

def textbook(a, b, S, go, ge):
    n, m = len(a), len(b)
    H = [[0] * (m + 1) for _ in range(n + 1)]
    E = [[NEG] * (m + 1) for _ in range(n + 1)]
    F = [[NEG] * (m + 1) for _ in range(n + 1)]
    best, bi, bj = 0, -1, -1
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            E[i][j] = max(E[i][j - 1] - ge, H[i][j - 1] - go)
            F[i][j] = max(F[i - 1][j] - ge, H[i - 1][j] - go)
            H[i][j] = max(0, H[i - 1][j - 1] + S[a[i - 1]][b[j - 1]], E[i][j], F[i][j])
            if H[i][j] > best:  # rows outer, columns inner: the first of equal scores is the smallest row, column
                best, bi, bj = H[i][j], i - 1, j - 1
    return best, (bi if best > 0 else -1), (bj if best > 0 else -1)

def better(s, i, j, bs, bi, bj):
    if s != bs: return s > bs
    return i < bi or (i == bi and j < bj)

def warp(a, b, S, go, ge):
    n, m = len(a), len(b)
    bottom_h, bottom_f = [None] * m, [None] * m
    best = [0] * 32; bi = [-1] * 32; bj = [-1] * 32
    for r0 in range(0, n, 32 * R):
        first = r0 == 0; last = r0 + 32 * R >= n
        row_at = [[a[r0 + k * R + q] if r0 + k * R + q < n else None for q in range(R)] for k in range(32)]
        h = [[0] * R for _ in range(32)]; e = [[NEG] * R for _ in range(32)]
        out_h = [0] * 32; out_f = [NEG] * 32; prev_up = [0] * 32
        for s in range(m + 31):
            sh_h = [out_h[k - 1] if k > 0 else out_h[0] for k in range(32)]
            sh_f = [out_f[k - 1] if k > 0 else out_f[0] for k in range(32)]
            new_h, new_f = list(out_h), list(out_f); writes = []
            for k in range(32):
                j = s - k
                up, f = sh_h[k], sh_f[k]
                if k == 0:
                    top = first or j < 0 or j >= m
                    up = 0 if top else bottom_h[j]
                    f = NEG if top else bottom_f[j]
                if j < 0 or j >= m: continue
                c = b[j]; diag = prev_up[k]; prev_up[k] = up
                for q in range(R):
                    sq = S[row_at[k][q]][c] if row_at[k][q] is not None else 0
                    e[k][q] = max(e[k][q] - ge, h[k][q] - go)
                    f = max(f - ge, up - go)
                    v = max(diag + sq, 0); v = max(v, e[k][q]); v = max(v, f)
                    diag = h[k][q]; h[k][q] = v; up = v
                    row = r0 + k * R + q
                    if row_at[k][q] is not None and v > 0 and better(v, row, j, best[k], bi[k], bj[k]):
                        best[k], bi[k], bj[k] = v, row, j
                new_h[k], new_f[k] = up, f
                if k == 31 and not last: writes.append((j, up, f))
            out_h, out_f = new_h, new_f
            for j, hv, fv in writes: bottom_h[j], bottom_f[j] = hv, fv
    d = 16
    while d > 0:
        nb = list(best); ni = list(bi); nj = list(bj)
        for k in range(32):
            o = k ^ d
            if best[o] > 0 and better(best[o], bi[o], bj[o], best[k], bi[k], bj[k]):
                nb[k], ni[k], nj[k] = best[o], bi[o], bj[o]
        best, bi, bj = nb, ni, nj
        d //= 2
    return best[0], (bi[0] if best[0] > 0 else -1), (bj[0] if best[0] > 0 else -1)

random.seed(2)
bad = 0
for trial in range(200):
    size = random.choice([5, 24])
    S = [[(random.randint(1, 5) if x == y else -random.randint(0, 4)) for y in range(size)] for x in range(size)]
    go = random.randint(1, 12); ge = random.randint(0, min(go, 3))
    n = random.randint(1, 700); m = random.randint(1, 60)
    a = [random.randrange(size) for _ in range(n)]; b = [random.randrange(size) for _ in range(m)]
    if random.random() < 0.3 and m < n:  # a related pair: the record inside the query
        at = random.randrange(n - m + 1); a[at:at + m] = b
    x, y = warp(a, b, S, go, ge), textbook(a, b, S, go, ge)
    if x != y:
        bad += 1
        if bad < 5: print("MISMATCH", n, m, go, ge, x, y)
print("bad", bad)
