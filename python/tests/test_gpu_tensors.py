"""GPU arrays used in place: PyTorch tensors (through __cuda_array_interface__, and through DLPack
alone) against the CPU backend on the same data.  Pointer identity shows nothing was copied: the
result lives at the tensor's own address (heat, sor: the tensor updated where it is; sat and
inthist into an `out` tensor given by the caller).  SKIP without PyTorch, a GPU or a CUDA build."""

import numpy as np
import pytest

import peerwave as pw

torch = pytest.importorskip("torch")
if not torch.cuda.is_available() or not pw.build_info().startswith("CUDA"):
    pytest.skip("needs a GPU, PyTorch with CUDA and a CUDA build of the library", allow_module_level=True)

CUDA = dict(backend="cuda")
rng = np.random.default_rng(29)


class DLPackOnly:
    """A device array offering DLPack and nothing else (as JAX arrays do)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__()

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def test_heat_updates_the_tensor_where_it_is():
    g0 = rng.random((1023, 777))
    t = torch.tensor(g0, device="cuda")
    ptr = t.data_ptr()
    r = pw.heat(t, sweeps=5, **CUDA)
    h = g0.copy()
    pw.heat(h, sweeps=5, backend="cpu")
    assert t.data_ptr() == ptr and r.info.backend == "cuda"
    assert np.array_equal(t.cpu().numpy(), h)  # bit-identical to the CPU engines
    t32 = torch.tensor(g0, dtype=torch.float32, device="cuda")
    pw.sor(DLPackOnly(t32), sweeps=3, omega=1.7, **CUDA)
    h32 = g0.astype(np.float32)
    pw.sor(h32, sweeps=3, omega=1.7, backend="cpu")
    assert np.array_equal(t32.cpu().numpy(), h32)


def test_sat_and_inthist_into_tensors():
    x = rng.integers(0, 256, size=(1000, 1500)).astype(np.uint8)
    t = torch.tensor(x, device="cuda")
    out = torch.empty(x.shape, dtype=torch.int64, device="cuda")
    r = pw.sat(t, out=out, **CUDA)
    assert r is out and out.data_ptr() == r.data_ptr()
    assert np.array_equal(out.cpu().numpy(), np.cumsum(np.cumsum(x.astype(np.int64), 0), 1))
    s = pw.sat(t, dtype=np.int32, **CUDA)  # allocated by PyTorch on the same device
    assert isinstance(s, torch.Tensor) and s.is_cuda and s.dtype == torch.int32
    assert np.array_equal(s.cpu().numpy(), out.cpu().numpy())
    h = pw.inthist(DLPackOnly(t), 8, **CUDA)
    assert np.array_equal(h.cpu().numpy(), pw.inthist(x, 8, backend="cpu"))


def test_sw_and_dtw_on_device_arrays():
    a = rng.choice(np.frombuffer(b"ACGT", np.uint8), 20000)
    b = rng.choice(np.frombuffer(b"ACGT", np.uint8), 15000)
    ref = pw.sw(a, b, gap_open=5, gap_extend=2, backend="cpu")
    got = pw.sw(torch.tensor(a, device="cuda"), torch.tensor(b, device="cuda"), gap_open=5, gap_extend=2, **CUDA)
    assert (got.score, got.end_a, got.end_b) == (ref.score, ref.end_a, ref.end_b)
    sa, sb = rng.normal(size=5000), rng.normal(size=4000)
    d = pw.dtw(torch.tensor(sa, device="cuda"), torch.tensor(sb, device="cuda"), **CUDA)
    assert d.distance == pw.dtw(sa, sb, backend="cpu").distance


def test_a_tensor_on_a_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        g = torch.rand((512, 512), dtype=torch.float64, device="cuda")
        h = g.cpu().numpy()
        pw.heat(g, sweeps=2, stream=s, **CUDA)
    s.synchronize()
    pw.heat(h, sweeps=2, backend="cpu")
    assert np.array_equal(g.cpu().numpy(), h)


def test_mixing_host_and_device_is_an_error():
    with pytest.raises(TypeError, match="mix"):
        pw.sw(torch.zeros(3, dtype=torch.uint8, device="cuda"), "ACG", **CUDA)
    with pytest.raises(ValueError, match="contiguous"):
        pw.heat(torch.rand((64, 64), device="cuda").t(), **CUDA)


def test_progress_on_the_gpu():
    a = rng.choice(np.frombuffer(b"ACGT", np.uint8), 100000)
    seen = []
    r = pw.sw(a, a[::-1].copy(), progress=seen.append, progress_interval_ms=1, **CUDA)
    assert seen[-1].final and seen[-1].cells_done == r.info.cells and seen[-1].best == r.score
    with pytest.raises(pw.Cancelled):
        pw.sw(a, a[::-1].copy(), progress=lambda p: True, progress_interval_ms=1, **CUDA)
