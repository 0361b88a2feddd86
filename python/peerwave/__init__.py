"""PeerWave from Python: wavefront computations on NVIDIA GPUs (peer-synchronised persistent
blocks) and CPU threads, over numpy arrays, or in place over GPU arrays (PyTorch, CuPy, anything
with __cuda_array_interface__ or DLPack).

    import numpy as np, peerwave
    r = peerwave.sw("GATTACA", "GCATGCT", match=2, mismatch=-1, gap_open=3, gap_extend=1)
    r.score, r.end_a, r.end_b, r.info.backend
    s = peerwave.sat(np.arange(12, dtype=np.uint8).reshape(3, 4))     # summed-area table
    peerwave.heat(grid, sweeps=100)                                    # in place

Every function takes the library's options as keyword arguments (see OPTIONS), raises
PeerWaveError (or its subclass Cancelled) with the library's message, and returns results with a
RunInfo of what the run used.  The manual: README.md, "Python"; the C API: include/peerwave.h.
"""

import ctypes
import numbers
import operator
import os
from collections import namedtuple

import numpy as np

from . import _arrays, _native
from ._native import lib

__all__ = ["sw", "sw_align", "dtw", "dtw_path", "sat", "inthist", "heat", "sor", "bfs", "Cell", "PeerWaveError", "Cancelled", "RunInfo",
           "Progress", "version", "build_info", "OPTIONS"]

_STATUS = ["OK", "NULL_ARGUMENT", "INVALID_ARGUMENT", "INVALID_SIZE", "SIZE_OVERFLOW", "ILLEGAL_DEPENDENCE",
           "INVALID_TILE", "UNSUPPORTED", "NO_DEVICE", "OUT_OF_MEMORY", "OVERFLOW", "BAD_INPUT", "THREAD", "TIMEOUT",
           "CUDA", "COMPILE", "CANCELLED", "INTERNAL"]


class PeerWaveError(RuntimeError):
    """A library call failed: .status is the pw_status code, .name its name ("BAD_INPUT" ...), the
    message is pw_status_str() with pw_error_detail() when there is one."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.name = _STATUS[status] if 0 <= status < len(_STATUS) else str(status)


class Cancelled(PeerWaveError):
    """The progress callback asked the run to stop.  (When the callback raises, the run stops and
    that exception itself is raised.)"""


def version():
    """The library's version, "MAJOR.MINOR.PATCH" (pw_version)."""
    return lib.pw_version().decode()


def build_info():
    """What the loaded library was built with (pw_build_info): CUDA and its architectures or not, NVRTC
    for user cells on the GPU, NCCL, MPI; e.g. "no CUDA (CPU threads only), no NVRTC, no NCCL, MPI"."""
    return lib.pw_build_info().decode()


RunInfo = namedtuple("RunInfo", "backend strategy shape tile_h tile_w threads threads_available skew cells seconds "
                                "width_source wisdom training_seconds simd pruned_cells lane_bits transposed")
Progress = namedtuple("Progress", "fraction cells_done cells seconds cells_per_second eta_seconds best final")

_BACKENDS = ["auto", "cpu", "cuda"]
_STRATEGIES = ["peer", "sequential", "barrier", "launch", "tasks"]  # (peerwave.h's order)
_SHAPES = ["hyper", "square"]
_LAYOUTS = ["auto", "row-major", "hybrid"]
_SIMD = ["auto", "scalar", "sse41", "avx2", "avx512"]

OPTIONS = {
    "backend": "'auto' (CUDA when there is a GPU), 'cpu' or 'cuda'",
    "strategy": "'peer' (default), 'sequential', 'barrier', 'launch' (GPU only) or 'tasks' (ready tiles from queues)",
    "shape": "tile shape, 'hyper' (default) or 'square'",
    "tile_h": "rows per tile (0: automatic)",
    "tile_w": "tile width in steps (0: automatic, see width_model)",
    "width_model": "with tile_w 0: 0 = the tile-width model for peer runs of >= 2^26 cells, 1 = always, -1 = never",
    "train_ratio": "the model's training corner: this share of rows and columns (0: 0.1)",
    "wisdom": "file remembering model fits (None: the default, 'none': no file)",
    "threads": "CPU threads (0: one per core)",
    "simd": "CPU vector instructions (sw, dtw, sat, inthist, heat, sor): 'auto' ($PEERWAVE_SIMD, else the widest), 'scalar', 'sse41', 'avx2', 'avx512'",
    "device": "CUDA device index",
    "sw_prune": "CUDA sw: skip what can no longer reach the best score found so far (exact; RunInfo.pruned_cells)",
    "rows_per_thread": "CUDA sw/dtw: tile rows a thread (0, 1, 2, 4, 8)",
    "layout": "CUDA sat/heat/sor: 'auto', 'row-major' or 'hybrid'",
    "max_blocks": "CUDA: at most this many persistent blocks (0: as many as fit)",
    "stream": "CUDA: a stream (an int handle, or an object with .cuda_stream / .ptr) to order the work on",
    "watchdog_ms": "a peer wait without progress for this long fails the run (0: default)",
    "progress": "a callable(Progress) called while the run computes; return True to stop it",
    "progress_interval_ms": "between progress calls (0: 500)",
}


_WIDTH_SOURCES = ["default", "given", "model"]
_WISDOM = ["off", "hit", "saved", "unsaved"]


def _info(i):
    return RunInfo(_BACKENDS[i.backend], _STRATEGIES[i.strategy], _SHAPES[i.shape], i.tile_h, i.tile_w, i.threads,
                   i.threads_available, i.skew, i.cells, i.seconds, _WIDTH_SOURCES[i.width_source],
                   _WISDOM[i.wisdom], i.training_seconds, _SIMD[i.simd], i.pruned_cells, i.lane_bits,
                   bool(i.transposed))


def _pick(name, value, names):
    if isinstance(value, bool):  # (an int to Python: strategy=True ran 'sequential')
        raise ValueError(f"{name}={value!r}: one of {', '.join(names)}")
    if isinstance(value, int) and 0 <= value < len(names):
        return value
    try:
        return names.index(value)
    except ValueError:
        raise ValueError(f"{name}={value!r}: one of {', '.join(names)}") from None


def _text(value, name):
    """value as bytes for C: a str (or bytes, or a path-like), else TypeError naming the argument."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str) or hasattr(value, "__fspath__"):
        return os.fsencode(value) if hasattr(value, "__fspath__") else value.encode()
    raise TypeError(f"{name}={value!r}: a string")


def _real(value, name):
    """value as a float; a string is refused (float("1.5") would take it: omega="1.5" ran)."""
    if isinstance(value, (bool, str, bytes, bytearray)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}={value!r}: a number")
    return float(value)


def _index(value, name, lo, hi):
    """value as an int in [lo, hi]; a float or a value past the C argument's range is refused (ctypes
    would pass its low bits: bfs(source=2**64 + 1) ran from vertex 1, heat(g, 2**64) no sweep)."""
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}={value!r}: an integer") from None
    if not lo <= v <= hi:
        raise ValueError(f"{name}={value!r}: out of range [{lo}, {hi}]")
    return v


def _set_int(struct, field, value, name=None):
    """struct.field = value, refused when value is not a whole number or does not fit the field's C
    type (ctypes would keep its low bits: match=2**32+2 ran as 2)."""
    ctype = dict(struct._fields_)[field]
    name = name or field
    try:
        v = operator.index(value)
    except TypeError:
        f = _real(value, name)
        if f != int(f):
            raise TypeError(f"{name}={value!r}: a whole number") from None
        v = int(f)
    bits = 8 * ctypes.sizeof(ctype)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if ctype(-1).value == -1 else (0, (1 << bits) - 1)
    if not lo <= v <= hi:
        raise ValueError(f"{name}={value!r}: out of range [{lo}, {hi}]")
    setattr(struct, field, v)


def _stream_handle(s):
    if s is None:
        return None
    for attr in ("cuda_stream", "ptr", "handle"):
        if hasattr(s, attr):
            return int(getattr(s, attr)) or None
    return int(s) or None


class _Call:
    """Options for one call, with the progress callback kept alive and its exceptions kept.  views:
    the call's device arrays (their stream and device are the defaults of stream= and device=)."""

    def __init__(self, kwargs, streams=(), views=()):
        unknown = set(kwargs) - set(OPTIONS)
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(sorted(unknown))}; options: {', '.join(OPTIONS)}")
        o = _native.Options()
        lib.pw_options_init(ctypes.byref(o))
        o.backend = _pick("backend", kwargs.get("backend", "auto"), _BACKENDS)
        o.strategy = _pick("strategy", kwargs.get("strategy", "peer"), _STRATEGIES)
        o.shape = _pick("shape", kwargs.get("shape", "hyper"), _SHAPES)
        o.layout = _pick("layout", kwargs.get("layout", "auto"), _LAYOUTS)
        o.simd = _pick("simd", kwargs.get("simd", "auto"), _SIMD)
        for k in ("tile_h", "threads", "device", "rows_per_thread", "max_blocks", "sw_prune"):
            _set_int(o, k, kwargs.get(k, 0))
        devices = {v.device_id for v in views if v is not None and v.device_id is not None}
        if len(devices) > 1:
            raise ValueError(f"device arrays on different GPUs {sorted(devices)}: one call runs on one")
        if devices and "device" not in kwargs:
            o.device = devices.pop()
        elif devices and int(kwargs["device"]) != devices.pop():
            raise ValueError(f"device={kwargs['device']}, but the arrays are on another GPU")
        for k in ("tile_w", "watchdog_ms", "progress_interval_ms", "width_model"):
            _set_int(o, k, kwargs.get(k, 0))
        o.train_ratio = _real(kwargs.get("train_ratio", 0), "train_ratio")
        self._wisdom = kwargs.get("wisdom")
        o.wisdom = _text(self._wisdom, "wisdom") if self._wisdom is not None else None
        stream = kwargs.get("stream")
        if stream is None:  # the stream the device arrays' producer named (CUDA Array Interface v3)
            stream = next((s for s in streams if s not in (None, 0)), None)
        o.cuda_stream = _stream_handle(stream)
        self.error = None
        self._hook = None
        if kwargs.get("progress") is not None:
            user = kwargs["progress"]

            def hook(_user, p):
                if self.error is not None:
                    return 1
                q = p.contents
                try:
                    stop = user(Progress(q.fraction, q.cells_done, q.cells, q.seconds, q.cells_per_second,
                                         q.eta_seconds, q.best if q.has_best else None, bool(q.final)))
                    return 1 if stop else 0
                except BaseException as e:  # KeyboardInterrupt too: stop the run, re-raise after it
                    self.error = e
                    return 1

            self._hook = _native.PROGRESS_FN(hook)
            o.progress = self._hook
        self.options = o
        lib.pw_clear_error_detail()  # (the library keeps a failure's detail until another replaces it)

    def check(self, status):
        if self.error is not None:
            raise self.error
        if status != 0:
            detail = lib.pw_error_detail().decode(errors="replace")
            msg = lib.pw_status_str(status).decode()
            if detail:
                msg += f" ({detail})"
            raise (Cancelled if _STATUS[status] == "CANCELLED" else PeerWaveError)(status, msg)


def _device_all(views, what):
    """All device views, or none: one call cannot mix host and device memory."""
    on = [v is not None for v in views]
    if any(on) and not all(on):
        raise TypeError(f"{what}: mix of host and device arrays (all on the GPU, or all on the host)")
    return all(on) and len(views) > 0


# ---- Smith-Waterman ------------------------------------------------------------------------------

SwResult = namedtuple("SwResult", "score end_a end_b info")


def _letters(x, what):
    if isinstance(x, str):
        x = x.encode("ascii")
    if isinstance(x, (bytes, bytearray)):
        return np.frombuffer(bytes(x), dtype=np.uint8)
    a = np.asarray(x)
    if a.dtype != np.uint8 and a.dtype.kind not in ("S",):
        raise TypeError(f"{what}: a str, bytes or uint8 array of letters")
    if a.ndim > 1:  # (a 2-D array was flattened row after row into one sequence)
        raise ValueError(f"{what}: a 1-D array of letters, not shape {a.shape}")
    return np.ascontiguousarray(a.view(np.uint8).ravel())


def _sw_params(match, mismatch, gap_open, gap_extend, matrix):
    p = _native.SwParams()
    lib.pw_sw_params_init(ctypes.byref(p))
    if matrix is not None:
        m = lib.pw_matrix_by_name(_text(matrix, "matrix"))
        if not m:
            raise ValueError(f"matrix={matrix!r}: not a built-in matrix (BLOSUM45/50/62/80/90, PAM30/70/250)")
        p.scoring, p.matrix = 1, m
    for k, v in (("match", match), ("mismatch", mismatch), ("gap_open", gap_open), ("gap_extend", gap_extend)):
        _set_int(p, k, v)
    return p


Alignment = namedtuple("Alignment", "score start_a end_a start_b end_b cigar columns matches mismatches "
                                    "gap_columns gaps identity view seconds_score seconds_align info")


def sw_align(a, b, *, match=2, mismatch=-1, gap_open=1, gap_extend=1, matrix=None, **options):
    """The optimal local alignment itself (pw_sw_align, docs/ALIGN.md): a and b as for sw (host letters).
    Returns Alignment(score, start_a, end_a, start_b, end_b (0-based, inclusive; -1 when score is 0),
    cigar (=, X, I: a letter of a only, D: of b only), columns, matches, mismatches, gap_columns, gaps,
    identity, view (the three-line view), seconds_score, seconds_align, info (the score pass))."""
    p = _sw_params(match, mismatch, gap_open, gap_extend, matrix)
    ha, hb = _letters(a, "a"), _letters(b, "b")
    call = _Call(options, [], [])
    r = _native.Alignment()
    call.check(lib.pw_sw_align(ha.ctypes.data, len(ha), hb.ctypes.data, len(hb), ctypes.byref(p),
                               ctypes.byref(call.options), ctypes.byref(r)))
    try:
        cigar = ctypes.string_at(r.cigar).decode() if r.cigar else ""
        v = lib.pw_alignment_view(ctypes.byref(r), ha.ctypes.data, hb.ctypes.data, ctypes.byref(p), b"a", b"b", 60)
        view = ctypes.string_at(v).decode() if v else ""
        _native.libc.free(v)
    finally:
        lib.pw_alignment_free(ctypes.byref(r))
    return Alignment(r.score, r.start_a, r.end_a, r.start_b, r.end_b, cigar, r.columns, r.matches, r.mismatches,
                     r.gap_columns, r.gaps, r.identity, view, r.seconds_score, r.seconds_align, _info(r.info))


def sw(a, b, *, match=2, mismatch=-1, gap_open=1, gap_extend=1, matrix=None, **options):
    """Best local alignment score (Smith-Waterman-Gotoh) of a against b: str, bytes or uint8 arrays of
    letters (DNA with match/mismatch, or matrix="BLOSUM62" and the other built-in matrices), or
    uint8 device arrays of letters.  A gap of length L costs gap_open + (L-1) gap_extend.
    Returns SwResult(score, end_a, end_b, info): 0-based end positions, -1 when score is 0."""
    p = _sw_params(match, mismatch, gap_open, gap_extend, matrix)
    da, db = _arrays.device_view(a, "a"), _arrays.device_view(b, "b")
    device = _device_all([da, db], "sw")
    if device:
        for d, n in ((da, "a"), (db, "b")):
            if d.dtype != np.uint8 or len(d.shape) != 1:
                raise TypeError(f"{n}: a 1-D uint8 device array of letters")
        ha, hb = da, db
    else:
        ha, hb = _letters(a, "a"), _letters(b, "b")
    call = _Call(options, [da.stream, db.stream] if device else [], [da, db])
    r = _native.SwResult()
    f = lib.pw_sw_device if device else lib.pw_sw
    call.check(f(_arrays.pointer(ha), ha.size if device else len(ha), _arrays.pointer(hb),
                 hb.size if device else len(hb), ctypes.byref(p), ctypes.byref(call.options), ctypes.byref(r)))
    return SwResult(r.score, r.end_a, r.end_b, _info(r.info))


# ---- DTW -----------------------------------------------------------------------------------------

DtwResult = namedtuple("DtwResult", "distance info")


def _is_f32(x):
    """float32 in either byte order (a big-endian '>f4' series is float32 too: it ran as float64)"""
    return x.dtype.kind == "f" and x.dtype.itemsize == 4


def dtw(a, b, *, cost="absolute", **options):
    """Dynamic time warping distance of two series (float32 or float64; both of one type, or float64
    when either is): D(i,j) = c(a_i, b_j) + min(D(i-1,j), D(i,j-1), D(i-1,j-1)), cost 'absolute'
    |a-b| or 'squared'.  Device arrays are used in place.  Returns DtwResult(distance, info)."""
    c = _pick("cost", {"abs": "absolute"}.get(cost, cost), ["absolute", "squared"])  # ("abs": the CLI's word)
    da, db = _arrays.device_view(a, "a"), _arrays.device_view(b, "b")
    device = _device_all([da, db], "dtw")
    if device:
        if da.dtype != db.dtype or da.dtype not in (np.float32, np.float64):
            raise TypeError("dtw: two float32 or two float64 device arrays")
        f32 = da.dtype == np.float32
        ha, hb, n, m = da, db, da.size, db.size
    else:
        a, b = _series(a, "a"), _series(b, "b")
        f32 = _is_f32(a) and _is_f32(b)
        t = np.float32 if f32 else np.float64
        ha, hb = np.ascontiguousarray(a.ravel(), t), np.ascontiguousarray(b.ravel(), t)
        n, m = len(ha), len(hb)
    call = _Call(options, [da.stream, db.stream] if device else [], [da, db])
    r = _native.DtwResult()
    f = getattr(lib, "pw_dtw_" + ("f32" if f32 else "f64") + ("_device" if device else ""))
    call.check(f(_arrays.pointer(ha), n, _arrays.pointer(hb), m, c, ctypes.byref(call.options), ctypes.byref(r)))
    return DtwResult(r.distance, _info(r.info))


WarpPath = namedtuple("WarpPath", "path distance seconds info")


def _cell_input(x, dt, name):
    """A cell's input as the declared type, refused where that would change a value (300 into
    uint8_t wraps, 65.7 into int32_t truncates), as `peerwave run` refuses a .npy of another type."""
    if isinstance(x, (bytes, bytearray)):  # (letters: the bytes themselves, for a uint8_t input)
        if np.dtype(dt) != np.uint8:
            raise TypeError(f"input {name}: bytes are letters for a uint8_t input; this one is {np.dtype(dt)}")
        return np.frombuffer(bytes(x), np.uint8).copy()
    if isinstance(x, str):
        raise TypeError(f"input {name}: a str; give bytes (text.encode()) for a uint8_t input, or numbers")
    src = np.asarray(x)
    if src.dtype.kind not in "biuf":
        raise TypeError(f"input {name}: numbers, not dtype {src.dtype}")
    a = np.ascontiguousarray(src, dt)
    if src.dtype != a.dtype and (src.shape != a.shape or
                                 not np.array_equal(a.astype(src.dtype), src, equal_nan=src.dtype.kind in "fc")):
        raise TypeError(f"input {name}: {src.dtype} values that {np.dtype(dt)} cannot hold exactly "
                        f"(convert them yourself if that is meant)")
    return a


def _series(x, what):
    """A host series as a 1-D numeric array: shape (n,), (n, 1) or (1, n), as `peerwave dtw` takes them."""
    if isinstance(x, (str, bytes, bytearray)):
        raise TypeError(f"{what}: a series of numbers, not {type(x).__name__}")
    a = np.asarray(x)
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{what}: numbers, not dtype {a.dtype}")
    if a.ndim == 2 and 1 in a.shape:
        a = a.reshape(-1)
    if a.ndim != 1:
        raise ValueError(f"{what}: one series of shape (n,), (n, 1) or (1, n), not {a.shape}")
    return a


def dtw_path(a, b, *, cost="absolute", **options):
    """An optimal warping path of DTW (pw_dtw_path_*, docs/ALIGN.md), host series as for dtw.  Returns
    WarpPath(path: int64 array (length, 2) of 0-based cells (i, j) from (0, 0) to (n-1, m-1), distance:
    the costs along it summed in double, seconds, info: the GPU passes (empty on the CPU))."""
    c = _pick("cost", {"abs": "absolute"}.get(cost, cost), ["absolute", "squared"])  # ("abs": the CLI's word)
    a, b = _series(a, "a"), _series(b, "b")
    f32 = _is_f32(a) and _is_f32(b)
    t = np.float32 if f32 else np.float64
    ha, hb = np.ascontiguousarray(a.ravel(), t), np.ascontiguousarray(b.ravel(), t)
    call = _Call(options, [], [])
    r = _native.WarpPath()
    f = lib.pw_dtw_path_f32 if f32 else lib.pw_dtw_path_f64
    call.check(f(ha.ctypes.data, len(ha), hb.ctypes.data, len(hb), c, ctypes.byref(call.options), ctypes.byref(r)))
    try:
        n = r.length
        path = np.empty((n, 2), np.int64)
        if n:
            path[:, 0] = np.ctypeslib.as_array(ctypes.cast(r.i, ctypes.POINTER(ctypes.c_int64)), (n,))
            path[:, 1] = np.ctypeslib.as_array(ctypes.cast(r.j, ctypes.POINTER(ctypes.c_int64)), (n,))
    finally:
        lib.pw_warp_path_free(ctypes.byref(r))
    return WarpPath(path, r.distance, r.seconds, _info(r.info))


# ---- images and grids ----------------------------------------------------------------------------

def _image(x, shape, dtype):
    code = _arrays.DTYPE_CODES.get(np.dtype(dtype))
    if code is None:
        raise TypeError(f"dtype {np.dtype(dtype)} is not one of u8 u16 i32 i64 f32 f64")
    if len(shape) != 2:
        raise ValueError(f"a 2-D array, not {len(shape)}-D")
    return _native.Image(code, shape[0], shape[1], 0, _arrays.pointer(x))


def _sat_out_dtype(dtype):
    return np.dtype(dtype) if np.dtype(dtype).kind == "f" else np.dtype(np.int64)


def _sat_input(x):
    """A host image in a type pw_sat takes (u8 u16 i32 f32 f64) holding the same values: bool as
    u8, other integers (numpy's default int64 among them) as int32 where every value fits, float16
    as float32."""
    if x.dtype == np.bool_:
        return x.astype(np.uint8)
    if x.dtype.kind in "iu" and x.dtype not in (np.uint8, np.uint16, np.int32):
        if x.size and (x.min() < np.iinfo(np.int32).min or x.max() > np.iinfo(np.int32).max):
            raise TypeError(f"image: {x.dtype} values beyond int32's range: pass it as float64 (x.astype(float))")
        return x.astype(np.int32)
    if x.dtype == np.float16:
        return x.astype(np.float32)
    return x


def sat(image, *, out=None, dtype=None, info=False, **options):
    """Summed-area table of a 2-D image (u8, u16, i32, f32, f64; on the host also bool, other
    integers whose values fit int32 -- numpy's default int64 -- and float16): S(i,j) = sum of x over
    [0..i]x[0..j].  Output dtype: out's, else dtype, else int64 for integer images and the image's
    own float type.  Integer sums are exact (PeerWaveError OVERFLOW if one would not fit); float
    sums are IEEE sums as numpy.cumsum's, so a NaN input or an overflow gives NaN or inf
    (`peerwave sat` refuses such images; numpy.isfinite tells).  A device image gives a
    device result (PyTorch and CuPy allocate it; else pass out=).  info=True: (table, RunInfo)."""
    d = _arrays.device_view(image, "image")
    if d is not None:
        odt = np.dtype(dtype) if dtype is not None else _sat_out_dtype(d.dtype)
        if out is None:
            out = _arrays.empty_like_device(d, d.shape, odt)
        do = _arrays.device_view(out, "out")
        if do is None or do.shape != d.shape:
            raise ValueError("out: a device array of the image's shape")
        src, dst, shape, streams = d, do, d.shape, [d.stream, do.stream]
        in_t, out_t = d.dtype, do.dtype
    else:
        x = _sat_input(_arrays.host_array(image, "image"))
        odt = np.dtype(dtype) if dtype is not None else _sat_out_dtype(x.dtype)
        if isinstance(out, np.ndarray):  # (out's dtype wins)
            odt = out.dtype
        if odt not in (np.int32, np.int64, np.float32, np.float64):
            why = " in native byte order" if odt.kind in "if" and not odt.isnative else ""
            raise TypeError(f"sat: output dtype {odt} (int32, int64, float32 or float64{why})")
        if x.dtype.kind == "f" and odt.kind != "f":
            raise TypeError(f"sat: a {x.dtype} image needs a float output dtype, not {odt}")
        if out is None:
            out = np.empty(x.shape, odt)
        _arrays.host_array(out, "out", writable=True)
        if out.shape != x.shape:
            raise ValueError(f"out: shape {out.shape}, the image is {x.shape}")
        src, dst, shape, streams, in_t, out_t = x, out, x.shape, [], x.dtype, out.dtype
    call = _Call(options, streams, [d, _arrays.device_view(out, 'out') if d is not None else None])
    i_in, i_out = _image(src, shape, in_t), _image(dst, shape, out_t)
    ri = _native.RunInfo()
    f = lib.pw_sat_device if d is not None else lib.pw_sat
    call.check(f(ctypes.byref(i_in), ctypes.byref(i_out), ctypes.byref(call.options), ctypes.byref(ri)))
    return (out, _info(ri)) if info else out


def inthist(image, bins, lo=None, hi=None, *, out=None, info=False, **options):
    """Integral histogram: an int32 array (bins, rows, cols), plane b the summed-area table of
    [bin(x) == b], bins splitting [lo, hi] evenly, hi in the last bin as numpy.histogram puts it
    (default [0, 256) for u8, [0, 65536) for u16;
    for a float image on the host, numpy.histogram's default: [min, max] of its values,
    [v - 0.5, v + 0.5) for one value v, NaN or infinite values refused, as
    `peerwave inthist` does; values on an edge bin as numpy >= 2.0 bins them: its default range's edges
    are float32 arithmetic, numpy 1.x's were float64 rounded).  image: u8, u16 or f32 (host or
    device; a float image on the device needs lo and hi)."""
    bins = operator.index(bins)
    if not 1 <= bins <= 4096:  # (PW_MAX_BINS; before the output's allocation)
        raise ValueError(f"inthist: bins={bins}: 1 to 4096")
    d = _arrays.device_view(image, "image")
    if d is None:
        image = _arrays.host_array(image, "image")  # (host byte order, C order: a copy only where needed)
    dt = d.dtype if d is not None else image.dtype
    if dt not in (np.uint8, np.uint16, np.float32):
        raise TypeError(f"inthist: image dtype {dt}: uint8, uint16 or float32 (convert it with astype: the default "
                        "range follows the type)")
    if (lo is None) != (hi is None):
        raise ValueError("inthist: give lo and hi together (or neither, for the type's default range)")
    default_f32 = False
    if lo is None or hi is None:
        if dt == np.uint8:
            lo, hi = 0, 256
        elif dt == np.uint16:
            lo, hi = 0, 65536
        elif d is None:  # the library's rule (pw_inthist_default_range), as `peerwave inthist` takes it
            x = _arrays.host_array(image, "image")
            i_x, r_lo, r_hi, r_closed = _image(x, x.shape, x.dtype), ctypes.c_double(), ctypes.c_double(), ctypes.c_int()
            lib.pw_clear_error_detail()
            st = lib.pw_inthist_default_range(ctypes.byref(i_x), ctypes.byref(r_lo), ctypes.byref(r_hi), ctypes.byref(r_closed))
            if st != 0:
                detail = lib.pw_error_detail().decode(errors="replace")
                if _STATUS[st] == "BAD_INPUT":  # NaN or infinite samples
                    raise ValueError(f"inthist: {detail} (give lo and hi)")
                raise PeerWaveError(st, lib.pw_status_str(st).decode() + (f" ({detail})" if detail else ""))
            lo, hi, default_f32 = r_lo.value, r_hi.value, True
        else:
            raise ValueError("inthist: lo and hi are needed for float images on the device")
    if d is not None:
        shape = d.shape
        if out is None:
            out = _arrays.empty_like_device(d, (bins,) + tuple(shape), np.int32)
        do = _arrays.device_view(out, "out")
        if do is None or do.dtype != np.int32 or do.shape != (bins,) + tuple(shape):
            raise ValueError("out: an int32 device array (bins, rows, cols)")
        src, dst, streams = d, do, [d.stream, do.stream]
    else:
        src = _arrays.host_array(image, "image")
        shape = src.shape
        if out is None:
            out = np.empty((bins,) + tuple(shape), np.int32)
        _arrays.host_array(out, "out", np.int32, writable=True)
        if out.shape != (bins,) + tuple(shape):
            raise ValueError(f"out: shape {out.shape}, needs {(bins,) + tuple(shape)}")
        dst, streams = out, []
    call = _Call(options, streams, [d])
    call.options.inthist_f32_edges = int(default_f32)  # numpy's (>= 2.0) edges for its default range
    call.options.inthist_closed = 1  # a value equal to hi in the last bin, as numpy.histogram puts it
    i_in = _image(src, shape, src.dtype)
    ri = _native.RunInfo()
    f = lib.pw_inthist_device if d is not None else lib.pw_inthist
    call.check(f(ctypes.byref(i_in), int(bins), _real(lo, "range"), _real(hi, "range"), _arrays.pointer(dst), ctypes.byref(call.options),
                 ctypes.byref(ri)))
    return (out, _info(ri)) if info else out


StencilResult = namedtuple("StencilResult", "residual info")


def _stencil(grid, sweeps, omega, options):
    sweeps = _index(sweeps, "sweeps", 1, 2**63 - 1)  # (an int: 2.9 is refused, not run twice)
    d = _arrays.device_view(grid, "grid")
    if d is not None:
        g, shape, dt, streams = d, d.shape, d.dtype, [d.stream]
    else:
        g = _arrays.host_array(grid, "grid", writable=True)
        shape, dt, streams = g.shape, g.dtype, []
    if dt not in (np.float32, np.float64):
        why = " (in native byte order: the grid is updated in place)" if dt.kind == "f" and not dt.isnative else ""
        raise TypeError(f"grid: float32 or float64, not {dt}{why}")
    call = _Call(options, streams, [d])
    img = _image(g, shape, dt)
    res = ctypes.c_double()
    ri = _native.RunInfo()
    o = ctypes.byref(call.options)
    if omega is None:
        f = lib.pw_heat_device if d is not None else lib.pw_heat
        st = f(ctypes.byref(img), int(sweeps), o, ctypes.byref(res), ctypes.byref(ri))
    else:
        f = lib.pw_sor_device if d is not None else lib.pw_sor
        st = f(ctypes.byref(img), int(sweeps), _real(omega, "omega"), o, ctypes.byref(res), ctypes.byref(ri))
    call.check(st)
    return StencilResult(res.value, _info(ri))


def heat(grid, sweeps=1, **options):
    """Gauss-Seidel heat sweeps in place on a 2-D float32/float64 grid (numpy, or a device array:
    updated where it is), boundary rows and columns fixed.  Returns StencilResult(residual, info)."""
    return _stencil(grid, sweeps, None, options)


def sor(grid, sweeps=1, omega=1.5, **options):
    """Successive over-relaxation sweeps in place (0 < omega < 2), as heat()."""
    return _stencil(grid, sweeps, omega, options)


# ---- breadth-first search on the task engine (include/peerwave_tasks.h) -------------------------

BfsResult = namedtuple("BfsResult", "levels reached depth edges tasks steals threads seconds")
_BFS_ENGINES = ["tasks", "central", "sequential", "levels"]


def bfs(offsets, targets=None, source=0, *, engine="tasks", **options):
    """Breadth-first levels from `source` of a directed graph in compressed sparse rows: the edges
    of vertex v go to targets[offsets[v]:offsets[v + 1]] (a scipy.sparse CSR matrix may be given
    instead of the two arrays: its indptr and indices).  engine: "tasks" (the task engine on a
    queue a thread or an SM), "central" (one central queue), "sequential" (the textbook queue, on
    the CPU) or "levels" (one kernel launch a level: the GPU baseline).  backend="auto" runs
    tasks, central and levels on the GPU where there is one.  Returns BfsResult(levels (int32, -1
    where unreached), reached, depth, edges looked at, tasks, steals, threads, seconds)."""
    if targets is None and hasattr(offsets, "indptr"):
        offsets, targets = offsets.indptr, offsets.indices
    if targets is None:
        raise TypeError("bfs(offsets, targets, source): the targets are missing")
    for what, a in (("offsets", offsets), ("targets", targets)):  # (floats were cut to integers silently)
        kind = np.asarray(a).dtype.kind
        if kind not in "iu" and not (kind == "f" and np.asarray(a).size == 0):
            raise TypeError(f"{what}: an integer array, not {np.asarray(a).dtype}")
    off = np.ascontiguousarray(offsets, dtype=np.int64)
    tg = np.ascontiguousarray(targets, dtype=np.int64)
    if off.ndim != 1 or tg.ndim != 1 or len(off) < 1:
        raise ValueError("offsets and targets: 1-D arrays (offsets: vertices + 1 entries)")
    if len(off) == 1:
        raise ValueError("bfs: a graph of no vertices (offsets holds vertices + 1 entries)")
    source = _index(source, "source", 0, len(off) - 2)
    if off[-1] > len(tg):
        raise ValueError(f"offsets end at {off[-1]}, but there are {len(tg)} targets")
    call = _Call(options)
    g = _native.Graph(len(off) - 1, off.ctypes.data, tg.ctypes.data)
    levels = np.empty(len(off) - 1, np.int32)
    r = _native.BfsInfo()
    call.check(lib.pw_bfs(ctypes.byref(g), int(source), _pick("engine", engine, _BFS_ENGINES),
                          ctypes.byref(call.options), levels.ctypes.data if len(levels) else None, ctypes.byref(r)))
    return BfsResult(levels, r.reached, r.depth, r.edges, r.tasks, r.steals, r.threads, r.seconds)


# ---- your own cells (the runtime API) ------------------------------------------------------------

_CELL_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.float32, np.float64]
_FORMS = ["linear", "grid", "stencil", "grid3"]
_AXES = {1: "i", 2: "j", 3: "ij", 4: "k", 7: "ijk", 8: "n"}

CellResult = namedtuple("CellResult", "last best best_i best_j last_row compiled compile_seconds note info")


class Cell:
    """A recurrence of your own, written once in the cell language (docs/EXTENDING.md), run on the
    CPU (compiled by the system C compiler) or the GPU (compiled by NVRTC): Cell(text, name)."""

    def __init__(self, text, name="cell.c"):
        h = ctypes.c_void_p()
        source = _text(text, "text")
        if b"\0" in source:  # (C would read the text up to it)
            raise ValueError("text: a NUL character in the cell's text")
        st = lib.pw_cell_create(source, _text(name, "name"), ctypes.byref(h))
        if st != 0:
            raise PeerWaveError(st, lib.pw_status_str(st).decode() + ": " + lib.pw_error_detail().decode(errors="replace"))
        self._h = h
        self.form = _FORMS[lib.pw_cell_get_form(h)]
        self.halo = lib.pw_cell_halo(h)
        self.value_size = lib.pw_cell_value_size(h)
        self.fields = self._list(lib.pw_cell_fields)
        self.inputs = self._list(lib.pw_cell_inputs)
        self.params = self._list(lib.pw_cell_params)
        f = self.fields
        self.dtype = np.dtype(f[0][1]) if len(f) == 1 and f[0][0] == "value" else np.dtype(
            {"names": [n for n, _, _, _ in f], "formats": [t for _, t, _, _ in f],
             "offsets": [o for _, _, _, o in f], "itemsize": self.value_size})

    def _list(self, fn):
        n = ctypes.c_int()
        p = fn(self._h, ctypes.byref(n))
        # (name, dtype, axes, offset); a table input (axes "n") has its element count in offset's place
        return [(p[k].name.decode(), np.dtype(_CELL_TYPES[p[k].type]), _AXES.get(p[k].axes, ""),
                 p[k].count if p[k].axes == 8 else p[k].offset) for k in range(n.value)]

    def __del__(self):
        if getattr(self, "_h", None):
            lib.pw_cell_free(self._h)
            self._h = None

    def _value(self, raw):
        """A value's fields as Python numbers of their own type (int64 exactly: not through double)."""
        b = bytes(raw)
        vals = {name: np.frombuffer(b, dt, 1, off).item() for name, dt, _, off in self.fields}
        return vals["value"] if list(vals) == ["value"] else vals

    def run(self, *, rows=None, cols=None, planes=None, inputs=(), params=(), grid=None, sweeps=1, last_row=False,
            **options):
        """Run the cell.  inputs: arrays in declaration order, or a dict by name (shapes by their axes:
        i (rows,), j (cols,), ij (rows, cols), k (planes,), ijk (rows, cols, planes)); params: numbers in
        order or by name.  Linear form: rows and cols (taken from the inputs when they say them);
        last_row=True also returns row rows-1.  Grid forms: grid, a C-contiguous numpy array of
        self.dtype with the halo around, updated in place (sweeps times).  Returns CellResult: last
        (linear: the value of (rows-1, cols-1)), best/best_i/best_j (PW_REDUCE), compiled, note, info."""
        sweeps = operator.index(sweeps)  # (an int: 1.5 is refused, not run once)
        if sweeps < 1:
            raise ValueError(f"sweeps: at least 1, not {sweeps}")
        if isinstance(inputs, dict):
            names = [n for n, _, _, _ in self.inputs]
            unknown, missing = sorted(set(inputs) - set(names)), [n for n in names if n not in inputs]
            if unknown or missing:  # (an unknown name was ignored)
                raise TypeError(f"inputs: the cell declares {', '.join(names) or 'none'}" +
                                (f"; unknown: {', '.join(map(str, unknown))}" if unknown else "") +
                                (f"; missing: {', '.join(missing)}" if missing else ""))
            inputs = [inputs[n] for n in names]
        if isinstance(params, dict):
            names = [n for n, _, _, _ in self.params]
            unknown, missing = sorted(set(params) - set(names)), [n for n in names if n not in params]
            if unknown or missing:
                raise TypeError(f"params: the cell declares {', '.join(names) or 'none'}" +
                                (f"; unknown: {', '.join(map(str, unknown))}" if unknown else "") +
                                (f"; missing: {', '.join(missing)}" if missing else ""))
            params = [params[n] for n in names]
        if len(inputs) != len(self.inputs) or len(params) != len(self.params):
            raise TypeError(f"the cell declares {len(self.inputs)} inputs and {len(self.params)} params; "
                            f"given {len(inputs)} and {len(params)}")
        h = self.halo
        if self.form == "linear" and grid is not None:  # (it was ignored)
            raise ValueError("grid: a linear cell has no grid (its space is the inputs' lengths, or rows and cols)")
        if self.form == "linear" and sweeps != 1:  # (as `peerwave run --sweeps` on a linear cell)
            raise ValueError(f"sweeps={sweeps}: a linear cell runs once (sweeps are for grid and stencil cells)")
        if self.form != "linear":
            g = _arrays.host_array(grid, "grid", writable=True)
            if g.dtype.itemsize != self.value_size or (g.dtype.names is None) != (self.dtype.names is None) or (
                    self.dtype.names is None and g.dtype != self.dtype):
                raise TypeError(f"grid: dtype {g.dtype}, the cell's values are {self.dtype}")
            want = 3 if self.form == "grid3" else 2
            if g.ndim != want:
                raise ValueError(f"grid: {want}-D with the halo of {h} around, not {g.ndim}-D")
            inner = (g.shape[0] - 2 * h, g.shape[1] - 2 * h, g.shape[2] - 2 * h if want == 3 else 0)
            for what, asked, got in zip(("rows", "cols", "planes"), (rows, cols, planes), inner):
                if asked is not None and asked != got:  # (they were ignored: the grid decides)
                    raise ValueError(f"{what}={asked}: the grid's interior has {got} (its shape {g.shape} "
                                     f"less the halo of {h} each side)")
            if min(inner[:want]) < 1:  # (rows=-1 came out of the check below: no argument of the caller's)
                raise ValueError(f"grid: shape {g.shape}; the cell's halo of {h} each side leaves no interior: "
                                 f"needs at least {(2 * h + 1,) * want}")
            rows, cols, planes = inner
        arrays = []
        for x, (name, dt, axes, count) in zip(inputs, self.inputs):
            a = _cell_input(x, dt, name)
            if axes == "n":  # a table: its own size
                if a.shape != (count,):
                    raise ValueError(f"input {name}: shape {a.shape}, needs ({count},) (a table)")
                arrays.append((name, "n", a))
                continue
            if a.ndim != len(axes):
                raise ValueError(f"input {name}: {a.ndim}-D, shape {a.shape}; axes {axes} need a "
                                 f"{len(axes)}-D array")
            for ax, n in zip(axes, a.shape):
                if ax == "i" and rows is None:
                    rows = n
                elif ax == "j" and cols is None:
                    cols = n
                elif ax == "k" and planes is None:
                    planes = n
            arrays.append((name, axes, a))
        if rows is None or cols is None:
            raise TypeError("rows and cols: give them (no input says them)")
        rows, cols = _index(rows, "rows", 0, 2**63 - 1), _index(cols, "cols", 0, 2**63 - 1)
        dims = {"i": rows, "j": cols, "k": planes or 0}
        for name, axes, a in arrays:
            if axes == "n":
                continue
            want = tuple(dims[c] for c in axes)
            if a.shape != want:
                raise ValueError(f"input {name}: shape {a.shape}, needs {want} (axes {axes})")
        ptrs = (ctypes.c_void_p * max(1, len(arrays)))(*[a.ctypes.data for _, _, a in arrays])
        for v, (name, dt, _, _) in zip(params, self.params):  # (integers travel as doubles: exact to 2^53)
            if dt.kind in "iu" and isinstance(v, (int, np.integer)) and abs(int(v)) > 1 << 53:
                raise ValueError(f"param {name}={v}: integer parameters reach the cell as doubles, exact only "
                                 "within +-2^53")
        pvals = (ctypes.c_double * max(1, len(params)))(*[_real(v, f"param {p[0]}") for v, p in zip(params, self.params)])
        args = _native.CellArgs()
        for k, v in (("rows", rows), ("cols", cols), ("sweeps", sweeps), ("planes", planes or 0)):
            _set_int(args, k, v)
        args.inputs, args.params = ptrs, pvals
        row = None
        if self.form != "linear":
            args.grid = g.ctypes.data
        elif last_row:
            row = np.empty(cols, self.dtype)
            args.last_row = row.ctypes.data
        call = _Call(options)
        r = _native.CellResult()
        call.check(lib.pw_cell_run(self._h, ctypes.byref(args), ctypes.byref(call.options), ctypes.byref(r)))
        last = self._value(r.last) if self.form == "linear" else None
        best = self._value(r.best) if lib.pw_cell_reduced_field(self._h) >= 0 else None
        return CellResult(last, best, r.best_i, r.best_j, row, bool(r.compiled), r.compile_seconds,
                          r.note.decode(errors="replace"), _info(r.info))

    @property
    def compile_log(self):
        return lib.pw_cell_compile_log(self._h).decode(errors="replace")
