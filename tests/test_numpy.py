#!/usr/bin/env python3
"""test_numpy.py PEERWAVE - the CLI against numpy and plain Python loops, independent of our C code.

numpy writes the inputs (.npy format versions 1.0, 2.0 and 3.0, every element type we take) and
reads our outputs; the expected results come from numpy cumsum and from textbook loops written
here (Gauss-Seidel, SOR, DTW, Smith-Waterman-Gotoh).  Exit 77 (CTest SKIP) without numpy.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)
import numpy_histogram  # (tests/: numpy 2's default-range edges on any numpy)

PW = sys.argv[1]
passed = failed = 0
rng = np.random.default_rng(2026)
tmp = tempfile.mkdtemp(prefix="pw_numpy")


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)


def run(*args):
    r = subprocess.run([PW, *args, "--backend", os.environ.get("PW_BACKEND", "auto")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("peerwave %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return dict(line.split(": ", 1) for line in r.stdout.splitlines())


def save(name, arr, version=None):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=version, allow_pickle=False)
    return path


# --- summed-area tables: every input type, three format versions, output types ---------------
cases = [(np.uint8, None, "i32"), (np.uint16, (2, 0), "i64"), (np.int32, (3, 0), "i64"),
         (np.float32, None, "f32"), (np.float64, (2, 0), "f64")]
for dtype, version, out_type in cases:
    h, w = int(rng.integers(1, 90)), int(rng.integers(1, 90))
    if np.issubdtype(dtype, np.integer):
        lo = -1000 if dtype == np.int32 else 0
        x = rng.integers(lo, np.iinfo(dtype).max if dtype != np.int32 else 1000, size=(h, w)).astype(dtype)
    else:
        x = rng.integers(-8, 8, size=(h, w)).astype(dtype) / 4  # exact in float: sums are exact too
    src = save("in_%s.npy" % np.dtype(dtype).name, x, version)
    out = os.path.join(tmp, "sat.npy")
    res = run("sat", src, "-o", out, "--type", out_type)
    got = np.load(out)
    want = x.astype(np.float64 if out_type.startswith("f") else np.int64).cumsum(0).cumsum(1)
    check(got.dtype == np.dtype(out_type.replace("i", "int").replace("f", "float").replace("32", "32").replace("64", "64")) and
          got.shape == x.shape and (got == want).all(), "sat %s -> %s %dx%d" % (np.dtype(dtype).name, out_type, h, w))
    check(float(res["total"]) == float(want[-1, -1]), "sat total line")

# Other layouts numpy writes: big-endian data and Fortran order (np.save of a transposed array).
for dtype, layout in [(">i4", "big-endian"), (">f8", "big-endian"), ("<u2", "Fortran order"), (">f4", "both")]:
    h, w = int(rng.integers(1, 60)), int(rng.integers(2, 60))
    x = (rng.integers(-500 if "i" in dtype else 0, 500, size=(w, h)) / (4 if "f" in dtype else 1)).astype(dtype)
    x = x.T if layout != "big-endian" else np.ascontiguousarray(x.T)
    src = save("layout.npy", x)
    with open(src, "rb") as f:  # (the file really is in that layout)
        np.lib.format.read_magic(f)
        shape, fortran, descr = np.lib.format.read_array_header_1_0(f)
    check(fortran == (layout != "big-endian") and (descr.byteorder == ">") == (layout != "Fortran order"),
          "numpy wrote a %s file" % layout)
    out = os.path.join(tmp, "layout_sat.npy")
    run("sat", src, "-o", out, "--type", "f64" if "f" in dtype else "i64")
    want = x.astype(np.float64 if "f" in dtype else np.int64).cumsum(0).cumsum(1)
    got = np.load(out)
    check(got.shape == x.shape and (got == want).all(), "sat of a %s %s array %dx%d" % (layout, dtype, h, w))

# Automatic output type: i32 when it fits, i64 when it would not.
big = np.full((300, 300), 65535, dtype=np.uint16)  # sum 5.9e9 > 2^31
res = run("sat", save("big.npy", big), "-o", os.path.join(tmp, "big_sat.npy"))
check(res.get("output_type") == "i64" and np.load(os.path.join(tmp, "big_sat.npy"))[-1, -1] == 65535 * 90000,
      "automatic i64 for large sums")

# --- integral histogram ------------------------------------------------------------------------
x = rng.integers(0, 256, size=(57, 91)).astype(np.uint8)
out = os.path.join(tmp, "ih.npy")
run("inthist", save("ih_in.npy", x), "--bins", "10", "-o", out)
got = np.load(out)
bins = (x.astype(np.int64) * 10) // 256
want = np.stack([(bins == b).astype(np.int64).cumsum(0).cumsum(1) for b in range(10)])
check(got.shape == (10, 57, 91) and got.dtype == np.int32 and (got == want).all(), "inthist u8 10 bins")
xf = rng.random((33, 20), dtype=np.float32)
run("inthist", save("ihf.npy", xf), "--bins", "7", "--range", "0.25,0.75", "-o", out)
got = np.load(out)
b = np.floor((xf.astype(np.float64) - 0.25) * 7 / 0.5)
want = np.stack([(b == k).astype(np.int64).cumsum(0).cumsum(1) for k in range(7)])
check((got == want).all(), "inthist f32 with a range")
# u8 with a range: the values equal to HI in the last bin (numpy's), those above it in none
run("inthist", save("ih_in.npy", x), "--bins", "5", "--range", "10,200", "-o", out)
got = np.load(out)
check(np.array_equal(got[:, -1, -1], np.histogram(x, 5, range=(10, 200))[0]) and np.count_nonzero(x == 200) > 0,
      "inthist u8 with a range: %s, numpy %s" % (got[:, -1, -1], np.histogram(x, 5, range=(10, 200))[0]))


# f32 images bin as numpy.histogram bins them: values on its edges (and their neighbours), ranges
# far wider than the values (fill values such as +-1e20), a constant image; a value equal to HI of
# an explicit range in the last bin, as numpy puts it (until 2026-11-30 the CLI left it out)
def numpy_counts(x, bins, rng=None):
    if rng is None:  # the default range: numpy 2's edges on any numpy (numpy_histogram.py)
        return numpy_histogram.default_counts(x, bins)
    return np.histogram(x, bins, range=rng)[0]


def inthist_cases():
    yield np.array([[-1e20, -0.5, 0.5, 1e20]], np.float32), 4, None
    yield np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5), 4, (-1e38, 1e38)
    yield np.full((3, 2), 5.0, np.float32), 4, None
    lo, hi = -24.20346450805664, 87.0264892578125
    e = np.linspace(lo, hi, 29).astype(np.float32)
    v = np.concatenate([e, np.nextafter(e, np.float32(-np.inf)), np.nextafter(e, np.float32(np.inf))])
    yield v[(v >= np.float32(lo)) & (v <= np.float32(hi))].reshape(1, -1), 28, (lo, hi)
    yield np.array([[0, 1, 2, 3], [4, 5, 6, 8]], np.float32), 4, (0, 8)  # 8: HI, numpy's closed last bin
    for _ in range(40):
        bins = int(rng.integers(1, 40))
        x = (rng.normal(size=int(rng.integers(1, 60))) * 10.0 ** int(rng.integers(-3, 12))).astype(np.float32)
        x = np.concatenate([x, numpy_histogram.default_edges(x, bins).astype(np.float32)])  # its own edges too
        yield x.reshape(1, -1), bins, None


for x, bins, r in inthist_cases():
    args = ["--range", "%r,%r" % r] if r else []
    run("inthist", save("ihe.npy", x), "--bins", str(bins), "-o", out, *args)
    got = np.load(out)
    check(np.array_equal(got[:, -1, -1], numpy_counts(x, bins, r)),
          "inthist f32 %s, %d bins, range %s: %s, numpy %s" % (x.ravel()[:4], bins, r, got[:, -1, -1], numpy_counts(x, bins, r)))
    if r is None:  # pixel by pixel too: np.digitize on numpy's own edges
        edges = numpy_histogram.default_edges(x, bins)
        b = np.clip(np.digitize(x, edges.astype(np.float32)[1:-1]), 0, bins - 1)
        want = np.stack([(b == k).astype(np.int64).cumsum(0).cumsum(1) for k in range(bins)])
        check((got == want).all(), "inthist f32 %s, %d bins: the planes against np.digitize" % (x.ravel()[:4], bins))
# a NaN or an infinity has no default range (numpy refuses it too); with a range it is in no bin
for bad_value in (np.nan, np.inf):
    r = subprocess.run([PW, "inthist", save("ihn.npy", np.array([[1, bad_value, 3]], np.float32)), "--bins", "3"],
                       capture_output=True, text=True)
    check(r.returncode == 1 and "NaN or infinite" in r.stderr, "inthist refuses %r without a range: %s" % (bad_value, r.stderr))
    check(run("inthist", save("ihn.npy", np.array([[1, bad_value, 3]], np.float32)), "--bins", "3", "--range", "0,4")["counted"] == "2",
          "inthist with a range leaves %r in no bin" % bad_value)


# --- heat and SOR refuse what would overflow: a NaN or an infinity, a value over a quarter of the
# type's largest (before any work), and a run whose values grow past the type (over-relaxation)
def refused(args, words):
    r = subprocess.run([PW, *args], capture_output=True, text=True)
    return r.returncode == 1 and words in r.stderr


g = np.zeros((5, 6), np.float32)
g[0, 2] = np.inf
check(refused(["heat", "--init", save("g_inf.npy", g)], "NaN or infinite value at (0, 2)"), "heat refuses an infinite value")
g = np.zeros((5, 6), np.float64)
g[3, 1] = np.nan
check(refused(["sor", "--init", save("g_nan.npy", g)], "NaN or infinite value at (3, 1)"), "sor refuses a NaN")
check(refused(["heat", "--init", save("g_big.npy", np.full((4, 4), 1e308))], "over a quarter of f64's range"),
      "heat refuses a value whose neighbour sum overflows")
board = ((np.indices((8, 8)).sum(0) % 2) * 2 - 1) * np.float32(3.4e38 / 4.1)
check(refused(["sor", "--init", save("g_board.npy", board.astype(np.float32)), "--omega", "1.95", "--sweeps", "5"],
              "the sweeps overflowed"), "sor whose values grow past f32 is an error")


# --- heat and SOR against textbook Gauss-Seidel loops -----------------------------------------
def gauss_seidel(a, sweeps, omega):
    a = a.copy()
    one = a.dtype.type(1)
    for _ in range(sweeps):
        for i in range(1, a.shape[0] - 1):
            for j in range(1, a.shape[1] - 1):
                s = a[i - 1, j] + a[i, j - 1] + a[i + 1, j] + a[i, j + 1]
                if omega is None:
                    a[i, j] = s / a.dtype.type(4)
                else:
                    w = a.dtype.type(omega)
                    a[i, j] = (one - w) * a[i, j] + w / a.dtype.type(4) * s
    return a


for dtype, omega in [(np.float64, None), (np.float32, None), (np.float64, 1.6)]:
    g = rng.random((23, 17)).astype(dtype)
    out = os.path.join(tmp, "g_out.npy")
    args = ["sor", "--omega", str(omega)] if omega else ["heat"]
    run(*args, "--init", save("g.npy", g), "--sweeps", "3", "-o", out)
    got, want = np.load(out), gauss_seidel(g, 3, omega)
    err = np.abs(got.astype(np.float64) - want).max()
    tol = 1e-5 if dtype == np.float32 else 1e-12
    check(got.dtype == dtype and err <= tol, "%s %s: max error %g" % (args[0], np.dtype(dtype).name, err))


# --- DTW against the textbook recurrence ------------------------------------------------------
def dtw(a, b, squared):
    d = np.full((len(a) + 1, len(b) + 1), np.inf)
    d[0, 0] = 0
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = (a[i - 1] - b[j - 1]) ** 2 if squared else abs(a[i - 1] - b[j - 1])
            d[i, j] = c + min(d[i - 1, j], d[i, j - 1], d[i - 1, j - 1])
    return d[-1, -1]


a, b = rng.normal(size=40), rng.normal(size=29)
pa, pb = save("a.npy", a), os.path.join(tmp, "b.csv")
with open(pb, "w") as f:
    f.write("time,signal\n" + "".join("%d,%.17g\n" % (k, v) for k, v in enumerate(b)))
for cost in ["abs", "squared"]:
    got = float(run("dtw", pa, pb, "--column-b", "signal", "--cost", cost)["distance"])
    want = dtw(a, b, cost == "squared")
    check(abs(got - want) <= 1e-9 * max(1, want), "dtw %s: %r vs %r" % (cost, got, want))


# --- Smith-Waterman-Gotoh against the textbook three-matrix recurrence ------------------------
def swg(x, y, match, mismatch, gap_open, gap_extend):
    n, m = len(x), len(y)
    neg = -10 ** 9
    H = [[0] * (m + 1) for _ in range(n + 1)]
    E = [[neg] * (m + 1) for _ in range(n + 1)]
    F = [[neg] * (m + 1) for _ in range(n + 1)]
    best = (0, 0, 0)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            E[i][j] = max(E[i][j - 1] - gap_extend, H[i][j - 1] - gap_open)
            F[i][j] = max(F[i - 1][j] - gap_extend, H[i - 1][j] - gap_open)
            s = match if x[i - 1] == y[j - 1] and x[i - 1] in "ACGT" else mismatch
            H[i][j] = max(0, H[i - 1][j - 1] + s, E[i][j], F[i][j])
            if H[i][j] > best[0]:
                best = (H[i][j], i, j)
    return best


for t in range(6):
    x = "".join(rng.choice(list("ACGT"), size=int(rng.integers(1, 70))))
    y = "".join(rng.choice(list("ACGTN"), size=int(rng.integers(1, 70))))
    for name, s in (("x.fa", x), ("y.fa", y)):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(">%s\n%s\n" % (name, s))
    go, ge = [(1, 1), (5, 2), (3, 1)][t % 3]
    res = run("sw", os.path.join(tmp, "x.fa"), os.path.join(tmp, "y.fa"), "--match", "3", "--mismatch", "-2",
              "--gap-open", str(go), "--gap-extend", str(ge))
    want = swg(x, y, 3, -2, go, ge)
    got = (int(res["score"]), int(res["end_a"]), int(res["end_b"]))
    check(got == want, "sw case %d: %s vs %s" % (t, got, want))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
