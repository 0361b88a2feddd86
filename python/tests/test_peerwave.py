"""The Python module against numpy and textbook loops written here (independent of the C code):
every application, the options as keyword arguments, errors as exceptions, progress and
cancelling, user cells.  Runs on the CPU backend (CI has no GPU); test_gpu_tensors.py does the
GPU and device arrays."""

import os
import re
import sys

import numpy as np
import pytest

import peerwave as pw

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))
import numpy_histogram  # noqa: E402 (numpy 2's default-range edges on any numpy)

CPU = dict(backend="cpu")
STRATEGIES = ["peer", "barrier", "sequential"]
rng = np.random.default_rng(26)


def sw_reference(a, b, match, mismatch, gap_open, gap_extend):
    """Gotoh local alignment, textbook: the best score and its end cell (smallest i, then j)."""
    n, m = len(a), len(b)
    neg = -10 ** 9
    H = np.zeros((n + 1, m + 1), np.int64)
    E = np.full((n + 1, m + 1), neg, np.int64)
    F = np.full((n + 1, m + 1), neg, np.int64)
    best, bi, bj = 0, -1, -1
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            E[i, j] = max(E[i, j - 1] - gap_extend, H[i, j - 1] - gap_open)
            F[i, j] = max(F[i - 1, j] - gap_extend, H[i - 1, j] - gap_open)
            s = match if a[i - 1] == b[j - 1] and a[i - 1] in "ACGT" else mismatch
            H[i, j] = max(0, H[i - 1, j - 1] + s, E[i, j], F[i, j])
            if H[i, j] > best:
                best, bi, bj = int(H[i, j]), i - 1, j - 1
    return best, bi, bj


def dna(n):
    return "".join(rng.choice(list("ACGT"), n))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n,m", [(1, 1), (1, 37), (29, 1), (41, 53), (64, 63)])
def test_sw_against_textbook(strategy, n, m):
    a, b = dna(n), dna(m)
    for go, ge in ((1, 1), (5, 2)):
        r = pw.sw(a, b, match=2, mismatch=-3, gap_open=go, gap_extend=ge, strategy=strategy, threads=3, **CPU)
        assert (r.score, r.end_a, r.end_b) == sw_reference(a, b, 2, -3, go, ge)
        assert r.info.strategy == strategy and r.info.cells == n * m


def test_sw_every_simd_set_against_textbook():
    """Each vector set the processor has (others must be refused, not crash) gives the textbook answer."""
    a, b = dna(150), dna(130)
    want = sw_reference(a, b, 2, -3, 5, 2)
    ran = 0
    for simd in ("scalar", "sse41", "avx2", "avx512"):
        try:
            r = pw.sw(a, b, match=2, mismatch=-3, gap_open=5, gap_extend=2, simd=simd, **CPU)
        except pw.PeerWaveError as e:
            assert "cannot run" in str(e)
            continue
        ran += 1
        assert (r.score, r.end_a, r.end_b) == want and r.info.simd == simd
    assert ran >= 1
    with pytest.raises(ValueError):
        pw.sw(a, b, simd="avx9000", **CPU)


def test_sw_inputs_and_matrix():
    a = dna(200)
    assert pw.sw(a, a, **CPU).score == 2 * 200
    assert pw.sw(a.encode(), np.frombuffer(a.encode(), np.uint8), **CPU).score == 400
    p = pw.sw("HEAGAWGHEE", "PAWHEAE", matrix="BLOSUM62", gap_open=11, gap_extend=1, **CPU)
    q = pw.sw("HEAGAWGHEE", "PAWHEAE", matrix="blosum62", gap_open=11, gap_extend=1, strategy="sequential", **CPU)
    assert p.score == q.score > 0


def dtw_reference(a, b, squared):
    n, m = len(a), len(b)
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            c = (a[i - 1] - b[j - 1]) ** 2 if squared else abs(a[i - 1] - b[j - 1])
            D[i, j] = c + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D[n, m]


def test_sw_align_rescores_to_the_score():
    """The alignment, rescored here column by column, gives the score of the textbook loop."""
    for n, m in [(1, 1), (40, 55), (120, 90)]:
        a = "".join(rng.choice(list("ACGT"), n))
        b = "".join(rng.choice(list("ACGT"), m))
        b = b[: m // 3] + a[: n // 2] + b[m // 3:]
        al = pw.sw_align(a, b, match=2, mismatch=-3, gap_open=5, gap_extend=2, **CPU)
        want, ei, ej = sw_reference(a, b, 2, -3, 5, 2)
        assert (al.score, al.end_a, al.end_b) == (want, ei, ej)
        if want == 0:
            assert al.cigar == "" and al.start_a == -1
            continue
        i, j, score, prev = al.start_a, al.start_b, 0, None
        for run, op in re.findall(r"(\d+)([=XID])", al.cigar):
            for k in range(int(run)):
                if op in "=X":
                    assert (a[i] == b[j]) == (op == "=")
                    score += 2 if a[i] == b[j] else -3
                    i, j = i + 1, j + 1
                else:
                    score -= 5 if k == 0 and prev != op else 2
                    i, j = (i + 1, j) if op == "I" else (i, j + 1)
            prev = op
        assert score == want and (i - 1, j - 1) == (ei, ej)
        assert al.view.count("\n") >= 3 and 0 < al.identity <= 1


def test_dtw_path_costs_the_distance():
    a, b = rng.integers(-5, 6, 70).astype(np.float64), rng.integers(-5, 6, 50).astype(np.float64)
    r = pw.dtw_path(a, b, **CPU)
    p = r.path
    assert p.shape[1] == 2 and tuple(p[0]) == (0, 0) and tuple(p[-1]) == (69, 49)
    steps = np.diff(p, axis=0)
    assert ((steps >= 0) & (steps <= 1)).all() and (steps.sum(axis=1) >= 1).all()
    cost = np.abs(a[p[:, 0]] - b[p[:, 1]]).sum()
    assert cost == r.distance == pw.dtw(a, b, **CPU).distance


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_dtw_against_textbook(strategy):
    a, b = rng.normal(size=47), rng.normal(size=61)
    for cost in ("absolute", "squared"):
        r = pw.dtw(a, b, cost=cost, strategy=strategy, **CPU)
        assert r.distance == pytest.approx(dtw_reference(a, b, cost == "squared"), rel=1e-12)
    r32 = pw.dtw(a.astype(np.float32), b.astype(np.float32), **CPU)
    assert r32.distance == pytest.approx(dtw_reference(a, b, False), rel=1e-4)


def test_the_longer_sequence_first_runs_swapped_with_the_callers_results():
    """a much longer than b: run as b against a (info.transposed), results in a's and b's terms."""
    b = "ACGTACGGTA"
    a = dna(50) + b + dna(80) + b[2:] + dna(60)
    r = pw.sw(a, b, match=2, mismatch=-3, gap_open=5, gap_extend=2, **CPU)
    assert r.info.transposed and (r.score, r.end_a, r.end_b) == sw_reference(a, b, 2, -3, 5, 2)
    x, y = rng.normal(size=300), rng.normal(size=20)
    swapped, kept = pw.dtw(x, y, **CPU), pw.dtw(x, y, strategy="sequential", **CPU)
    assert swapped.info.transposed and not kept.info.transposed and swapped.distance == kept.distance


@pytest.mark.parametrize("shape", [(1, 1), (1, 300), (257, 1), (131, 97)])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32])
def test_sat_against_cumsum(shape, dtype):
    x = rng.integers(0, 200, size=shape).astype(dtype)
    s = pw.sat(x, threads=2, **CPU)
    assert s.dtype == np.int64
    assert np.array_equal(s, np.cumsum(np.cumsum(x.astype(np.int64), 0), 1))
    s32, info = pw.sat(x, dtype=np.int32, info=True, **CPU)
    assert s32.dtype == np.int32 and np.array_equal(s32, s) and info.cells == x.size


def test_sat_float_and_out():
    x = rng.random((40, 30))
    out = np.empty_like(x)
    r = pw.sat(x, out=out, **CPU)
    assert r is out
    assert np.allclose(out, np.cumsum(np.cumsum(x, 0), 1), rtol=1e-12)


@pytest.mark.parametrize("dtype", [">u2", ">i4", ">f8"])
def test_other_layouts_read_as_their_values(dtype):
    """Big-endian arrays (FITS files give them) and transposed (Fortran-order) ones: the same
    results as the native C-order copy of the same values."""
    x = rng.integers(0, 200, size=(23, 37)).astype(dtype)
    native = np.ascontiguousarray(x, dtype=x.dtype.newbyteorder("="))
    assert not x.dtype.isnative
    assert np.array_equal(pw.sat(x, **CPU), pw.sat(native, **CPU))
    assert np.array_equal(pw.sat(x.T, **CPU), np.cumsum(np.cumsum(native.T.astype(np.float64), 0), 1))
    if dtype == ">u2":
        assert np.array_equal(pw.inthist(x, 5, **CPU), pw.inthist(native, 5, **CPU))


def test_inthist_against_per_bin_cumsum():
    x = rng.integers(0, 256, size=(53, 71)).astype(np.uint8)
    bins = 7
    h = pw.inthist(x, bins, **CPU)
    b = (x.astype(np.int64) * bins) // 256
    for k in range(bins):
        assert np.array_equal(h[k], np.cumsum(np.cumsum((b == k).astype(np.int64), 0), 1))
    f = rng.random((20, 30)).astype(np.float32)
    hf = pw.inthist(f, 4, 0.0, 1.0, **CPU)
    assert hf.shape == (4, 20, 30) and hf[:, -1, -1].sum() == f.size


def test_inthist_range_top_is_in_the_last_bin_as_numpys():
    # numpy.histogram's last bin is closed: a value equal to hi counts in it (u8 and f32 alike)
    x = rng.integers(0, 256, size=(40, 50)).astype(np.uint8)
    assert np.count_nonzero(x == 200) > 0
    assert list(pw.inthist(x, 5, 10, 200, **CPU)[:, -1, -1]) == list(np.histogram(x, 5, range=(10, 200))[0])
    f = np.array([[0, 1, 2, 3], [4, 5, 6, 8]], np.float32)
    assert list(pw.inthist(f, 4, 0.0, 8.0, **CPU)[:, -1, -1]) == list(np.histogram(f, 4, range=(0, 8))[0]) == [2, 2, 2, 2]


def test_inthist_float_default_range_is_numpys():
    """No range for a float image: numpy.histogram's bins ([min, max], the max in the last bin),
    checked pixel by pixel through np.digitize on numpy's own edges."""
    for f in (np.array([[-8, -4, 0, 4, 8]], np.float32), np.round(rng.normal(size=(17, 23)) * 4).astype(np.float32)):
        bins = 4
        h = pw.inthist(f, bins, **CPU)
        edges = numpy_histogram.default_edges(f, bins)
        counts = np.histogram(f, edges)[0]
        assert np.array_equal(h[:, -1, -1], counts)
        b = np.clip(np.digitize(f, edges[1:-1], right=False), 0, bins - 1)
        for k in range(bins):
            assert np.array_equal(h[k], np.cumsum(np.cumsum((b == k).astype(np.int64), 0), 1))


def test_inthist_float_edges_are_numpys():
    """Values far inside a wide range, on numpy's edges, a constant image: numpy.histogram's bins;
    NaN refused without a range (numpy refuses it too)."""
    wide = np.array([[-1e20, -0.5, 0.5, 1e20]], np.float32)
    assert list(pw.inthist(wide, 4, **CPU)[:, -1, -1]) == list(numpy_histogram.default_counts(wide, 4)) == [1, 1, 1, 1]
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)
    assert list(pw.inthist(x, 4, -1e38, 1e38, **CPU)[:, -1, -1]) == [0, 10, 10, 0]
    const = np.full((2, 3), 5.0, np.float32)
    assert np.array_equal(pw.inthist(const, 4, **CPU)[:, -1, -1], numpy_histogram.default_counts(const, 4))
    e = numpy_histogram.default_edges(rng.normal(size=50).astype(np.float32), 9)
    on_edges = np.concatenate([e, np.nextafter(e, np.float32(-np.inf))]).astype(np.float32).reshape(2, -1)
    assert np.array_equal(pw.inthist(on_edges, 9, **CPU)[:, -1, -1], numpy_histogram.default_counts(on_edges, 9))
    with pytest.raises(ValueError, match="NaN or infinite"):
        pw.inthist(np.array([[1, np.nan]], np.float32), 3, **CPU)


def stencil_reference(g, sweeps, omega):
    g = g.copy()
    for _ in range(sweeps):
        for i in range(1, g.shape[0] - 1):
            for j in range(1, g.shape[1] - 1):
                s = ((g[i + 1, j] + g[i, j + 1]) + g[i, j - 1]) + g[i - 1, j]
                g[i, j] = s / 4 if omega is None else (1 - omega) * g[i, j] + omega / 4 * s
    return g


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_heat_and_sor_in_place(strategy):
    g0 = rng.random((23, 19))
    g = g0.copy()
    r = pw.heat(g, sweeps=3, strategy=strategy, **CPU)
    assert np.array_equal(g, stencil_reference(g0, 3, None))  # bit-exact: the same order of additions
    assert r.info.cells == 3 * 21 * 17 and r.residual >= 0
    g = g0.copy()
    pw.sor(g, sweeps=2, omega=1.5, strategy=strategy, **CPU)
    assert np.allclose(g, stencil_reference(g0, 2, 1.5), rtol=1e-14, atol=0)


def test_in_place_needs_a_writable_contiguous_array():
    g = rng.random((10, 10))
    with pytest.raises(ValueError):
        pw.heat(g[:, ::2], **CPU)
    with pytest.raises(TypeError):
        pw.heat(g.tolist(), **CPU)
    with pytest.raises(TypeError):
        pw.heat(g.astype(np.int32), **CPU)


def test_sweeps_past_the_c_range_are_refused():
    g = rng.random((5, 5))
    g0 = g.copy()
    for sweeps in (2**64, 2**64 + 1, 0):  # (2**64 ran no sweep, 2**64 + 1 one: ctypes kept the low bits)
        with pytest.raises(ValueError, match="sweeps"):
            pw.heat(g, sweeps, **CPU)
    with pytest.raises(TypeError, match="sweeps"):
        pw.sor(g, 2.0, **CPU)
    assert np.array_equal(g, g0)


def test_options_as_keywords():
    a, b = dna(300), dna(400)
    r = pw.sw(a, b, threads=1, tile_h=8, tile_w=32, shape="square", **CPU)
    assert (r.info.threads, r.info.tile_h, r.info.shape) == (1, 8, "square")
    with pytest.raises(TypeError, match="unknown option"):
        pw.sw(a, b, thread=2)
    with pytest.raises(ValueError, match="strategy"):
        pw.sw(a, b, strategy="fastest")
    # a number given as a string, or a bool for a named choice, is refused (float("2") took it;
    # strategy=True ran 'sequential', its index 1)
    for bad in ({"match": "2"}, {"threads": "2"}, {"train_ratio": "0.1"}):
        with pytest.raises(TypeError, match=list(bad)[0]):
            pw.sw(a, b, **bad, **CPU)
    with pytest.raises(ValueError, match="strategy"):
        pw.sw(a, b, strategy=True, **CPU)
    with pytest.raises(ValueError, match="1-D"):
        pw.sw(np.zeros((2, 4), np.uint8), b, **CPU)
    with pytest.raises(ValueError, match="NUL"):
        pw.Cell("PW_FORM(linear)\0PW_VALUE(int32_t)\n")
    with pytest.raises(TypeError, match="native byte order"):
        pw.sat(np.ones((3, 4), np.uint8), out=np.empty((3, 4), ">i8"), **CPU)
    with pytest.raises(TypeError, match="omega"):
        pw.sor(rng.random((5, 5)), 1, omega="1.5", **CPU)
    assert pw.sw(a, b, threads=2.0, **CPU).score == r.score  # (a whole float is still a whole number)


def test_tile_width_from_the_model(tmp_path):
    a, b = dna(400), dna(500)
    given = pw.sw(a, b, tile_w=64, **CPU)
    assert given.info.width_source == "given"
    wisdom = str(tmp_path / "wisdom.tsv")
    first = pw.sw(a, b, width_model=1, wisdom=wisdom, **CPU)
    again = pw.sw(a, b, width_model=1, wisdom=wisdom, **CPU)
    assert (first.info.width_source, first.info.wisdom) == ("model", "saved") and first.info.training_seconds > 0
    assert (again.info.wisdom, again.info.training_seconds, again.info.tile_w) == ("hit", 0, first.info.tile_w)
    assert first.score == again.score == given.score
    assert pw.sw(a, b, width_model=-1, **CPU).info.width_source == "default"


def test_path_and_score_errors_say_what():
    with pytest.raises(pw.PeerWaveError, match="overflow"):  # (as dtw refuses it; the path returned inf)
        pw.dtw_path([1e308, -1e308], [0.0], **CPU)
    with pytest.raises(pw.PeerWaveError, match="mismatch 1"):
        pw.sw_align("ACGT", "ACGT", mismatch=1, **CPU)


def test_arguments_a_call_would_ignore_are_refused():
    with pytest.raises(pw.PeerWaveError, match="threads"):
        pw.dtw_path(np.arange(5.0), np.arange(4.0), threads=-3, **CPU)
    cell = pw.Cell(LEVENSHTEIN)
    with pytest.raises(ValueError, match="linear cell has no grid"):
        cell.run(inputs=[np.frombuffer(b"kitten", np.uint8), np.frombuffer(b"sitting", np.uint8)], grid=np.zeros((3, 3)), **CPU)


def test_text_arguments_take_str_bytes_or_paths_and_refuse_the_rest():
    a, b = dna(50), dna(60)
    ref = pw.sw(a, b, **CPU).score
    assert pw.sw(a, b, wisdom=b"none", **CPU).score == ref  # (bytes: AttributeError before)
    with pytest.raises(TypeError, match="matrix"):
        pw.sw(a, b, matrix=62, **CPU)
    with pytest.raises(TypeError, match="text"):
        pw.Cell(62)


def test_errors_are_exceptions_with_the_library_message():
    with pytest.raises(pw.PeerWaveError) as e:
        pw.sw("AC#T", "ACGT", **CPU)
    assert e.value.name == "BAD_INPUT" and "malformed" in str(e.value) and "letter '#' at 3" in str(e.value)
    with pytest.raises(pw.PeerWaveError) as e:
        pw.sor(rng.random((5, 5)), omega=2.5, **CPU)
    assert e.value.name == "INVALID_ARGUMENT" and "omega 2.5" in str(e.value)
    with pytest.raises(pw.PeerWaveError, match=r"over \[5, 5\)"):
        pw.inthist(np.zeros((5, 5), np.uint8), 4, 5, 5, **CPU)
    with pytest.raises(pw.PeerWaveError) as e:
        pw.sat(np.full((3000, 3000), 65535, np.uint16), dtype=np.int32, **CPU)
    assert e.value.name == "OVERFLOW"
    with pytest.raises(pw.PeerWaveError) as e:
        pw.sw("A", "A", strategy="launch", **CPU)
    assert "GPU only" in str(e.value)


def test_progress_and_cancel():
    a, b = dna(3000), dna(3000)
    seen = []
    r = pw.sw(a, b, progress=seen.append, progress_interval_ms=1, **CPU)
    assert seen and seen[-1].final and seen[-1].cells_done == r.info.cells
    assert all(p.best is not None and p.best <= r.score for p in seen) and seen[-1].best == r.score
    assert [p.cells_done for p in seen] == sorted(p.cells_done for p in seen)
    # (the scalar cells: vector ones may finish 9 million cells before the first 1 ms report)
    with pytest.raises(pw.Cancelled):
        pw.sw(a, b, progress=lambda p: True, progress_interval_ms=1, simd="scalar", **CPU)

    class Stop(Exception):
        pass

    def boom(p):
        raise Stop()

    with pytest.raises(Stop):  # the callback's own exception, after the run stopped
        pw.sw(a, b, progress=boom, progress_interval_ms=1, simd="scalar", **CPU)


def test_backend_cuda_without_a_gpu_is_an_error():
    if "CUDA" in pw.build_info() and os.path.exists("/dev/nvidia0"):
        pytest.skip("a GPU is here")
    with pytest.raises(pw.PeerWaveError) as e:
        pw.sw("A", "A", backend="cuda")
    assert e.value.name in ("UNSUPPORTED", "NO_DEVICE")


CELLS = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "cells")
LEVENSHTEIN = open(os.path.join(CELLS, "levenshtein.c")).read()


def levenshtein(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
    return d[-1]


def test_user_cell_linear(tmp_path, monkeypatch):
    monkeypatch.setenv("PEERWAVE_CACHE", str(tmp_path))
    cell = pw.Cell(LEVENSHTEIN, "edit.c")
    assert cell.form == "linear" and [n for n, *_ in cell.inputs] == ["a", "b"]
    for a, b in (("kitten", "sitting"), (dna(57), dna(44)), ("a", "bcd")):
        ua, ub = np.frombuffer(a.encode(), np.uint8), np.frombuffer(b.encode(), np.uint8)
        r = cell.run(inputs={"a": ua, "b": ub}, last_row=True, **CPU)
        assert r.last == levenshtein(a, b) and isinstance(r.last, int)
        assert r.last_row[-1] == r.last and r.last_row.shape == (len(b),)
    with pytest.raises(ValueError):
        cell.run(inputs=[ua, ub], rows=3, **CPU)
    # an input the declared type cannot hold is refused, not wrapped (300 -> 44 = ',')
    with pytest.raises(TypeError, match="cannot hold"):
        cell.run(inputs=[np.array([300]), np.frombuffer(b",", np.uint8)], **CPU)
    assert cell.run(inputs=[np.array([65]), np.frombuffer(b"A", np.uint8)], **CPU).last == 0  # (int64 65 fits)
    with pytest.raises(TypeError):
        cell.run(inputs=[ua, ub], sweeps=1.5, **CPU)
    with pytest.raises(TypeError, match="rows"):
        cell.run(inputs=[ua, ub], rows="6", **CPU)
    # bytes are a uint8_t input's letters; what the call would ignore or misread is refused
    assert cell.run(inputs=[b"kitten", bytearray(b"sitting")], **CPU).last == 3
    with pytest.raises(TypeError, match="str"):
        cell.run(inputs=["kitten", b"sitting"], **CPU)
    with pytest.raises(TypeError, match="unknown: c"):
        cell.run(inputs={"a": ua, "b": ub, "c": ub}, **CPU)
    with pytest.raises(ValueError, match="a linear cell runs once"):
        cell.run(inputs=[ua, ub], sweeps=5, **CPU)
    with pytest.raises(ValueError, match="2-D, shape \\(1, 1\\); axes i need a 1-D"):
        cell.run(inputs=[ua.reshape(1, -1), ub], **CPU)


def test_user_cell_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("PEERWAVE_CACHE", str(tmp_path))
    with pytest.raises(pw.PeerWaveError) as e:
        pw.Cell("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_DEP(-1, 0)\n", "bad.c")
    assert e.value.name in ("BAD_INPUT", "ILLEGAL_DEPENDENCE")
    broken = LEVENSHTEIN.replace("PW_MIN(sub, gap)", "PW_MIN(sub, gap) +")
    with pytest.raises(pw.PeerWaveError) as e:
        pw.Cell(broken, "broken.c").run(inputs=[np.zeros(3, np.uint8), np.zeros(3, np.uint8)], **CPU)
    assert e.value.name == "COMPILE" and "broken.c" in str(e.value)


ECHO64 = """PW_FORM(linear)
PW_VALUE(int64_t)
PW_PARAM(int64_t, p)
PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { (void)i; (void)j; return c->p; }
PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value u, pw_value l, pw_value d) { return c->p; }
"""


def test_integers_that_c_cannot_hold_are_refused(tmp_path, monkeypatch):
    """ctypes keeps an int's low bits: match=2**32+2 ran as 2, threads=2**32+1 as 1, rows=2**64+3 as 3."""
    monkeypatch.setenv("PEERWAVE_CACHE", str(tmp_path))
    for kw in ({"match": 2**32 + 2}, {"gap_open": 2**31}, {"threads": 2**32 + 1}, {"tile_w": 2**64 + 5}):
        with pytest.raises(ValueError, match="out of range"):
            pw.sw("ACGT", "ACGT", **kw, **CPU)
    with pytest.raises(TypeError, match="whole number"):
        pw.sw("ACGT", "ACGT", match=2.5, **CPU)
    with pytest.raises(ValueError, match="1 to 4096"):  # (before a 192 GiB output's allocation)
        pw.inthist(np.zeros((3, 4), np.uint8), 2**32 + 3)
    cell = pw.Cell(ECHO64, "echo64.c")
    assert cell.run(rows=1, cols=2, params=[2**53], **CPU).last == 2**53  # exact in a double
    with pytest.raises(ValueError, match="2\\^53"):
        cell.run(rows=1, cols=2, params=[2**53 + 1], **CPU)
    with pytest.raises(ValueError, match="out of range"):
        cell.run(rows=2**64 + 3, cols=1, params=[1], **CPU)
    with pytest.raises(TypeError, match="unknown: q; missing: p"):
        cell.run(rows=1, cols=1, params={"q": 1}, **CPU)
    assert pw.dtw([1.0], [2.0], cost="abs", **CPU).distance == 1.0  # (the CLI's word for it)


HEAT_CELL = open(os.path.join(CELLS, "heat.c")).read()


def test_user_cell_stencil_is_heat(tmp_path, monkeypatch):
    monkeypatch.setenv("PEERWAVE_CACHE", str(tmp_path))
    cell = pw.Cell(HEAT_CELL, "heat.c")
    g0 = rng.random((20, 26)).astype(np.float32)
    g1, g2 = g0.copy(), g0.copy()
    cell.run(grid=g1, sweeps=4, **CPU)
    pw.heat(g2, sweeps=4, **CPU)
    assert np.array_equal(g1, g2)
    with pytest.raises(TypeError):
        cell.run(grid=g0.astype(np.float64), **CPU)
    with pytest.raises(ValueError, match="rows=10: the grid's interior has 18"):  # (was ignored)
        cell.run(grid=g1, rows=10, cols=24, **CPU)
    with pytest.raises(TypeError, match="native byte order"):
        pw.heat(g0.astype(">f4"), sweeps=1, **CPU)


def test_dtw_big_endian_float32_is_float32():
    """'>f4' series ran in float64 (dtype == np.float32 is False for them)."""
    a, b = rng.normal(size=40).astype(np.float32), rng.normal(size=33).astype(np.float32)
    native = pw.dtw(a, b, **CPU).distance
    assert pw.dtw(a.astype(">f4"), b.astype(">f4"), **CPU).distance == native
    assert pw.dtw_path(a.astype(">f4"), b, **CPU).distance == pw.dtw_path(a, b, **CPU).distance
    assert native != pw.dtw(a.astype(np.float64), b.astype(np.float64), **CPU).distance  # (the test can fail)


def bfs_reference(n, edges, s):
    """Levels by a queue, written here."""
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
    level = [-1] * n
    level[s] = 0
    queue = [s]
    for v in queue:
        for w in adj[v]:
            if level[w] < 0:
                level[w] = level[v] + 1
                queue.append(w)
    return np.array(level, np.int32)


@pytest.mark.parametrize("engine", ["tasks", "central", "sequential"])
def test_bfs_against_a_queue(engine):
    for n in (1, 7, 300):
        edges = [(int(u), int(v)) for u, v in rng.integers(0, n, size=(2 * n, 2))]
        edges.sort(key=lambda e: e[0])
        offsets = np.zeros(n + 1, np.int64)
        for u, _ in edges:
            offsets[u + 1] += 1
        offsets = np.cumsum(offsets)
        targets = np.array([v for _, v in edges], np.int64)
        s = int(rng.integers(0, n))
        r = pw.bfs(offsets, targets, s, engine=engine, threads=3)
        want = bfs_reference(n, edges, s)
        assert np.array_equal(r.levels, want)
        assert r.reached == int((want >= 0).sum()) and r.depth == int(want.max())


def test_bfs_errors():
    with pytest.raises(ValueError, match="source"):
        pw.bfs([0, 1, 1], [1], 5)
    # values ctypes would cut to their low bits, floats cut to integers, no vertices: refused
    for source in (2**64 + 1, 2**70, -1):
        with pytest.raises(ValueError, match="source"):
            pw.bfs([0, 1, 2, 2], [1, 2], source)
    for source in (1.9, np.float64(2.5)):
        with pytest.raises(TypeError, match="source"):
            pw.bfs([0, 1, 2, 2], [1, 2], source)
    with pytest.raises(TypeError, match="offsets"):
        pw.bfs(np.array([0, 1.5, 2, 2]), [1, 2], 0)
    with pytest.raises(ValueError, match="no vertices"):
        pw.bfs(np.array([0]), np.array([]), 0)
    assert list(pw.bfs([0, 1, 2, 2], np.array([1, 2]), 1).levels) == [-1, 0, 1]
    with pytest.raises(pw.PeerWaveError, match="outside"):
        pw.bfs([0, 1], [3], 0)
    with pytest.raises(ValueError):
        pw.bfs([0, 4], [0], 0)
    with pytest.raises(ValueError, match="engine"):
        pw.bfs([0, 0], [], 0, engine="fast")


def test_tasks_strategy_is_the_sequential_result():
    a = "".join(rng.choice(list("ACGT"), 300))
    b = "".join(rng.choice(list("ACGT"), 200))
    ref = pw.sw(a, b, strategy="sequential", backend="cpu")
    got = pw.sw(a, b, strategy="tasks", backend="cpu", tile_h=5, tile_w=7)
    assert (got.score, got.end_a, got.end_b) == (ref.score, ref.end_a, ref.end_b)


def test_version():
    assert pw.version().count(".") == 2 and isinstance(pw.build_info(), str)


def test_inputs_numpy_users_pass():
    """What numpy code hands over as it is: int64 images (numpy's default int), bool, lists; wrong
    shapes and types refused with a Python exception that says why; a failure's message never
    carries an earlier failure's detail."""
    x = rng.integers(-1000, 1000, size=(17, 23))  # int64
    assert np.array_equal(pw.sat(x, **CPU), np.cumsum(np.cumsum(x, 0), 1))
    assert np.array_equal(pw.sat(x.tolist(), **CPU), np.cumsum(np.cumsum(x, 0), 1))
    b = x > 0
    assert np.array_equal(pw.sat(b, **CPU), np.cumsum(np.cumsum(b.astype(np.int64), 0), 1))
    with pytest.raises(TypeError, match="int32"):
        pw.sat(np.array([[2**40, 1]]), **CPU)
    with pytest.raises(TypeError, match="float output"):
        pw.sat(np.ones((2, 2)), dtype=np.int32, **CPU)
    with pytest.raises(ValueError, match="series"):
        pw.dtw(np.zeros((3, 3)), np.ones(3), **CPU)
    with pytest.raises(TypeError):
        pw.dtw("123", np.ones(3), **CPU)
    assert pw.dtw(np.ones((1, 4)), np.ones((4, 1)), **CPU).distance == 0
    with pytest.raises(ValueError, match="together"):
        pw.inthist(np.zeros((2, 2), np.uint8), 2, 10, **CPU)
    with pytest.raises(TypeError):
        pw.heat(np.zeros((4, 4)), 2.9, **CPU)
    with pytest.raises(pw.PeerWaveError, match=r"gap_open >= gap_extend"):
        pw.sw_align("ACGT", "ACGT", gap_open=1, gap_extend=3, **CPU)
    with pytest.raises(pw.PeerWaveError) as e:
        pw.dtw(np.zeros(0), np.ones(3), **CPU)
    assert "gap_open" not in str(e.value)  # (the earlier failure's detail is not this one's)


def test_messages_name_the_argument():
    """Refusals say what was wrong (a bare "a size is out of range" or rows=-1 named nothing the
    caller passed; a 0-D image was "not 1-D")."""
    for call, text in [(lambda: pw.sat(np.zeros((0, 5), np.uint8), **CPU), "an image of 0 x 5"),
                       (lambda: pw.sw(b"", b"ACGT", **CPU), "sequences of 0 and 4 letters"),
                       (lambda: pw.dtw([], [1.0], **CPU), "series of 0 and 1 values"),
                       (lambda: pw.sw(b"ACG", b"AC", gap_open=-1, **CPU), "gap_open -1"),
                       (lambda: pw.dtw([1.0, float("nan")], [1.0], **CPU), r"series a: a NaN or infinite value at index 1")]:
        with pytest.raises(pw.PeerWaveError, match=text):
            call()
    with pytest.raises(ValueError, match="not 0-D"):
        pw.sat(np.float64(3), **CPU)
    grid = pw.Cell("PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 0)\nPW_HALO(1)\n"
                   "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }\n"
                   "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j) { return pw_at(c, i - 1, j) + 1; }\n")
    for shape in [(1, 1), (2, 2), (2, 9)]:
        with pytest.raises(ValueError, match=r"leaves no interior: needs at least \(3, 3\)"):
            grid.run(grid=np.zeros(shape, np.int64), **CPU)
    with pytest.raises(pw.PeerWaveError, match="unknown declaration PW_HAL0"):
        pw.Cell("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(1, 0)\nPW_HAL0(1)\n", "typo.c")
