"""The C library through ctypes: loading libpeerwave.so.0 and the structs of include/peerwave.h
and include/peerwave_runtime.h, field for field (same order, same C types: ctypes lays them out
by the platform's C rules, as the compiler does).

The library is looked for, in order: $PEERWAVE_LIBRARY (a path), the copy installed inside this
package (pip install .), then the system's (the .deb, or cmake --install into a prefix the
dynamic linker searches)."""

import ctypes
import ctypes.util
import os

c_int, c_int64, c_double, c_void_p, c_char_p, c_size_t = (
    ctypes.c_int, ctypes.c_int64, ctypes.c_double, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t)


class Progress(ctypes.Structure):
    _fields_ = [("fraction", c_double), ("cells_done", c_int64), ("cells", c_int64), ("seconds", c_double),
                ("cells_per_second", c_double), ("eta_seconds", c_double), ("has_best", c_int),
                ("best", c_int64), ("final", c_int)]


TRACE_FN = ctypes.CFUNCTYPE(None, c_void_p, c_void_p)
PROGRESS_FN = ctypes.CFUNCTYPE(c_int, c_void_p, ctypes.POINTER(Progress))


class Options(ctypes.Structure):
    _fields_ = [("backend", c_int), ("strategy", c_int), ("shape", c_int), ("tile_h", c_int),
                ("tile_w", c_int64), ("threads", c_int), ("device", c_int), ("rows_per_thread", c_int),
                ("layout", c_int), ("max_blocks", c_int), ("cuda_stream", c_void_p), ("watchdog_ms", c_int64),
                ("trace", TRACE_FN), ("trace_user", c_void_p), ("progress", PROGRESS_FN),
                ("progress_user", c_void_p), ("progress_interval_ms", c_int64),
                ("cancel", ctypes.POINTER(c_int)), ("width_model", c_int), ("train_ratio", c_double),
                ("wisdom", c_char_p), ("simd", c_int), ("sw_prune", c_int),
                ("inthist_f32_edges", c_int), ("inthist_closed", c_int)]


class RunInfo(ctypes.Structure):
    _fields_ = [("backend", c_int), ("strategy", c_int), ("shape", c_int), ("tile_h", c_int), ("tile_w", c_int64),
                ("threads", c_int), ("threads_available", c_int), ("skew", c_int), ("cells", c_int64),
                ("seconds", c_double), ("width_source", c_int), ("wisdom", c_int), ("training_seconds", c_double),
                ("training_rows", c_int64), ("training_cols", c_int64), ("model_d_s", c_double),
                ("model_tau_s", c_double), ("simd", c_int),
                ("pruned_cells", c_int64), ("lane_bits", c_int), ("transposed", c_int)]


class SwParams(ctypes.Structure):
    _fields_ = [("scoring", c_int), ("match", c_int), ("mismatch", c_int), ("matrix", c_void_p),
                ("gap_open", c_int), ("gap_extend", c_int)]


class SwResult(ctypes.Structure):
    _fields_ = [("score", ctypes.c_int32), ("end_a", c_int64), ("end_b", c_int64), ("info", RunInfo)]


class DtwResult(ctypes.Structure):
    _fields_ = [("distance", c_double), ("info", RunInfo)]


class Alignment(ctypes.Structure):  # pw_alignment (include/peerwave_align.h)
    _fields_ = [("score", ctypes.c_int32), ("start_a", c_int64), ("end_a", c_int64), ("start_b", c_int64),
                ("end_b", c_int64), ("cigar", c_void_p), ("columns", c_int64), ("matches", c_int64),
                ("mismatches", c_int64), ("gap_columns", c_int64), ("gaps", c_int64), ("identity", c_double),
                ("seconds_score", c_double), ("seconds_align", c_double), ("cells_align", c_int64),
                ("seconds_start", c_double), ("cells_start", c_int64), ("cells_gpu", c_int64),
                ("seconds_gpu", c_double), ("info", RunInfo)]


class WarpPath(ctypes.Structure):  # pw_warp_path
    _fields_ = [("length", c_int64), ("i", c_void_p), ("j", c_void_p), ("distance", c_double),
                ("seconds", c_double), ("cells", c_int64), ("info", RunInfo)]


class Image(ctypes.Structure):
    _fields_ = [("type", c_int), ("rows", c_int64), ("cols", c_int64), ("stride", c_int64), ("data", c_void_p)]


class CellField(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("type", c_int), ("axes", c_int), ("offset", c_size_t), ("count", c_int64)]


class CellArgs(ctypes.Structure):
    _fields_ = [("rows", c_int64), ("cols", c_int64), ("inputs", ctypes.POINTER(c_void_p)),
                ("params", ctypes.POINTER(c_double)), ("grid", c_void_p), ("sweeps", c_int64),
                ("last_row", c_void_p), ("last_col", c_void_p), ("planes", c_int64)]


MAX_CELL_SIZE = 64


class CellResult(ctypes.Structure):
    _fields_ = [("last", ctypes.c_ubyte * MAX_CELL_SIZE), ("best", ctypes.c_ubyte * MAX_CELL_SIZE),
                ("best_i", c_int64), ("best_j", c_int64), ("compiled", c_int), ("compile_seconds", c_double),
                ("note", ctypes.c_char * 160), ("info", RunInfo)]


def _candidates():
    env = os.environ.get("PEERWAVE_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libpeerwave.so.0")
    yield "libpeerwave.so.0"
    found = ctypes.util.find_library("peerwave")
    if found:
        yield found


def _load():
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise ImportError("peerwave: libpeerwave.so.0 not found (install the package with pip install ., the .deb, "
                      "or set PEERWAVE_LIBRARY); tried: " + "; ".join(errors or ["nothing"]))


lib, library_path = _load()


def _declare(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


P = ctypes.POINTER
_declare("pw_version", c_char_p)
_declare("pw_build_info", c_char_p)
_declare("pw_status_str", c_char_p, c_int)
_declare("pw_error_detail", c_char_p)
_declare("pw_clear_error_detail", None)
_declare("pw_options_init", None, P(Options))
_declare("pw_sw_params_init", None, P(SwParams))
_declare("pw_matrix_by_name", c_void_p, c_char_p)
for _dev in ("", "_device"):
    _declare("pw_sw" + _dev, c_int, c_void_p, c_int64, c_void_p, c_int64, P(SwParams), P(Options), P(SwResult))
    _declare("pw_dtw_f64" + _dev, c_int, c_void_p, c_int64, c_void_p, c_int64, c_int, P(Options), P(DtwResult))
    _declare("pw_dtw_f32" + _dev, c_int, c_void_p, c_int64, c_void_p, c_int64, c_int, P(Options), P(DtwResult))
    _declare("pw_sat" + _dev, c_int, P(Image), P(Image), P(Options), P(RunInfo))
    _declare("pw_inthist" + _dev, c_int, P(Image), c_int, c_double, c_double, c_void_p, P(Options), P(RunInfo))
    _declare("pw_heat" + _dev, c_int, P(Image), c_int64, P(Options), P(c_double), P(RunInfo))
    _declare("pw_sor" + _dev, c_int, P(Image), c_int64, c_double, P(Options), P(c_double), P(RunInfo))
_declare("pw_sat_fits", c_int, P(Image), c_int)
_declare("pw_inthist_default_range", c_int, P(Image), P(c_double), P(c_double), P(c_int))
_declare("pw_inthist_close_last_bin", c_int, P(Image), c_int, c_double, c_void_p)
_declare("pw_sw_align", c_int, c_void_p, c_int64, c_void_p, c_int64, P(SwParams), P(Options), P(Alignment))
_declare("pw_alignment_free", None, P(Alignment))
_declare("pw_alignment_view", c_void_p, P(Alignment), c_void_p, c_void_p, P(SwParams), c_char_p, c_char_p, c_int)
_declare("pw_dtw_path_f64", c_int, c_void_p, c_int64, c_void_p, c_int64, c_int, P(Options), P(WarpPath))
_declare("pw_dtw_path_f32", c_int, c_void_p, c_int64, c_void_p, c_int64, c_int, P(Options), P(WarpPath))
_declare("pw_warp_path_free", None, P(WarpPath))


def _check_layouts():
    """Structs the library writes must be no larger in C than here, or it would write past the
    buffers this module hands it: a library from another version than this module is refused at
    import instead.  Each is written first into a buffer with room to spare and a pattern past the
    struct (pw_options_init, pw_sw_params_init, a one-letter pw_sw for pw_sw_result, whose
    pw_run_info grows with new fields)."""
    pad = 256

    def padded(struct):
        n = ctypes.sizeof(struct) + pad
        buf = (ctypes.c_ubyte * n)(*([0xA5] * n))
        return buf, struct.from_buffer(buf)

    def check(name, struct, buf):
        if any(b != 0xA5 for b in bytes(buf)[ctypes.sizeof(struct):]):
            raise ImportError(f"peerwave: {library_path} writes a larger struct {name} than this Python module "
                              "knows: the library and the module come from different versions")

    obuf, o = padded(Options)
    lib.pw_options_init(ctypes.byref(o))
    check("pw_options", Options, obuf)
    pbuf, p = padded(SwParams)
    lib.pw_sw_params_init(ctypes.byref(p))
    check("pw_sw_params", SwParams, pbuf)
    o.backend, o.strategy, o.threads = 1, 1, 1  # CPU, sequential, one thread
    rbuf, r = padded(SwResult)
    lib.pw_sw(b"A", 1, b"A", 1, ctypes.byref(p), ctypes.byref(o), ctypes.byref(r))
    check("pw_sw_result (pw_run_info)", SwResult, rbuf)


_check_layouts()

libc = ctypes.CDLL(None)  # free() for the view string
libc.free.argtypes = [c_void_p]
libc.free.restype = None


class Graph(ctypes.Structure):  # pw_graph (include/peerwave_tasks.h)
    _fields_ = [("vertices", c_int64), ("offsets", c_void_p), ("targets", c_void_p)]


class BfsInfo(ctypes.Structure):  # pw_bfs_info
    _fields_ = [("reached", c_int64), ("depth", ctypes.c_int32), ("edges", c_int64), ("tasks", c_int64),
                ("steals", c_int64), ("threads", c_int), ("seconds", c_double)]


_declare("pw_bfs", c_int, P(Graph), c_int64, c_int, P(Options), c_void_p, P(BfsInfo))
_declare("pw_cell_create", c_int, c_char_p, c_char_p, P(c_void_p))
_declare("pw_cell_free", None, c_void_p)
_declare("pw_cell_get_form", c_int, c_void_p)
_declare("pw_cell_value_size", c_size_t, c_void_p)
_declare("pw_cell_fields", P(CellField), c_void_p, P(c_int))
_declare("pw_cell_inputs", P(CellField), c_void_p, P(c_int))
_declare("pw_cell_params", P(CellField), c_void_p, P(c_int))
_declare("pw_cell_halo", c_int, c_void_p)
_declare("pw_cell_reduced_field", c_int, c_void_p)
_declare("pw_cell_run", c_int, c_void_p, P(CellArgs), P(Options), P(CellResult))
_declare("pw_cell_compile_log", c_char_p, c_void_p)
_declare("pw_cell_field_as_double", c_double, c_void_p, c_void_p, c_int)
