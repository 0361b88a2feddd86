"""Arrays in and out: numpy arrays on the host; on the GPU any object with
__cuda_array_interface__ (CuPy, PyTorch, Numba) or __dlpack__ (JAX, PyTorch, CuPy) whose memory is
on a CUDA device, used in place: the library is handed the device pointer, nothing is copied."""

import ctypes

import numpy as np

# pw_dtype codes (include/peerwave.h) by numpy dtype
DTYPE_CODES = {np.dtype(np.uint8): 0, np.dtype(np.uint16): 1, np.dtype(np.int32): 2, np.dtype(np.int64): 3,
               np.dtype(np.float32): 4, np.dtype(np.float64): 5}

_DL_CUDA, _DL_CUDA_MANAGED = 2, 13
_DL_CODES = {0: "i", 1: "u", 2: "f"}


class DeviceArray:
    """A view of a device array: pointer, shape, numpy dtype, C-contiguous, and the CUDA stream its
    producer asked us to order work on (None: the default stream)."""

    def __init__(self, obj, ptr, shape, dtype, stream, keep=None, device_id=None):
        self.obj, self.ptr, self.shape, self.dtype, self.stream, self._keep = obj, ptr, tuple(shape), dtype, stream, keep
        self.device_id = device_id

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


def _contiguous_strides(shape, itemsize):
    strides, step = [], itemsize
    for s in reversed(shape):
        strides.append(step)
        step *= s
    return tuple(reversed(strides))


def _check_contiguous(shape, strides_bytes, itemsize, what):
    if strides_bytes is None:
        return
    expect = _contiguous_strides(shape, itemsize)
    if any(n > 1 and s != e for n, s, e in zip(shape, strides_bytes, expect)):
        raise ValueError(f"{what}: a device array must be C-contiguous (make it so with .contiguous() or "
                         f"cupy.ascontiguousarray: the library works on it in place)")


def _from_cai(obj, what):
    cai = obj.__cuda_array_interface__
    ptr = cai["data"][0]
    dtype = np.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    _check_contiguous(shape, cai.get("strides"), dtype.itemsize, what)
    stream = cai.get("stream")
    dev = getattr(obj, "device", None)  # PyTorch: .index; CuPy: .id (the library must run there)
    device_id = getattr(dev, "index", None)
    if device_id is None:
        device_id = getattr(dev, "id", None)
    return DeviceArray(obj, ptr, shape, dtype, stream, device_id=device_id)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _from_dlpack(obj, what):
    capsule = obj.__dlpack__()  # not consumed: the capsule's destructor frees the view when it goes
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))  # DLManagedTensor starts with it
    if t.device.device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        return None
    if t.dtype.lanes != 1 or t.dtype.code not in _DL_CODES:
        raise ValueError(f"{what}: unsupported DLPack type (code {t.dtype.code}, {t.dtype.bits} bits)")
    dtype = np.dtype(f"{_DL_CODES[t.dtype.code]}{t.dtype.bits // 8}")
    shape = tuple(t.shape[k] for k in range(t.ndim))
    if t.strides:
        _check_contiguous(shape, tuple(t.strides[k] * dtype.itemsize for k in range(t.ndim)), dtype.itemsize, what)
    return DeviceArray(obj, (t.data or 0) + t.byte_offset, shape, dtype, None, keep=capsule, device_id=t.device.device_id)


def device_view(obj, what):
    """A DeviceArray when obj lives on a CUDA device, else None."""
    if isinstance(obj, np.ndarray):
        return None
    if hasattr(obj, "__cuda_array_interface__"):
        try:
            return _from_cai(obj, what)
        except (AttributeError, TypeError):  # e.g. a CPU tensor that has the attribute but refuses it
            pass
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        dev_type, _ = obj.__dlpack_device__()
        if int(dev_type) in (_DL_CUDA, _DL_CUDA_MANAGED):
            return _from_dlpack(obj, what)
    return None


def empty_like_device(d, shape, dtype):
    """A new device array on the same device and from the same library as d (PyTorch or CuPy)."""
    mod = type(d.obj).__module__.split(".")[0]
    if mod not in ("torch", "cupy") and d.device_id is not None:  # DLPack from elsewhere: PyTorch's, if here
        try:
            import torch
            return torch.empty(shape, dtype=getattr(torch, np.dtype(dtype).name), device=f"cuda:{d.device_id}")
        except ImportError:
            pass
    if mod == "torch":
        import torch
        tdt = {np.dtype(np.int32): torch.int32, np.dtype(np.int64): torch.int64, np.dtype(np.float32): torch.float32,
               np.dtype(np.float64): torch.float64}[np.dtype(dtype)]
        return torch.empty(shape, dtype=tdt, device=d.obj.device)
    if mod == "cupy":
        import cupy
        with cupy.cuda.Device(d.obj.device.id):
            return cupy.empty(shape, dtype=dtype)
    raise TypeError("pass out= for device arrays from " + mod + " (PyTorch and CuPy arrays are allocated for you)")


def host_array(x, what, dtype=None, writable=False):
    """A C-contiguous numpy array of x in the host's byte order (a copy only when x is not one
    already, or not of dtype; never for writable=True, where the library must update x itself)."""
    if writable:
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{what}: a numpy array (updated in place), not {type(x).__name__}")
        if not x.flags.c_contiguous or not x.flags.writeable:
            raise ValueError(f"{what}: must be C-contiguous and writable (it is updated in place)")
        if dtype is not None and x.dtype != np.dtype(dtype):
            raise TypeError(f"{what}: dtype {x.dtype}, needs {np.dtype(dtype)}")
        return x
    x = np.asarray(x)
    if dtype is None and not x.dtype.isnative:  # (big-endian data, from FITS files for one: the same values, host order)
        dtype = x.dtype.newbyteorder("=")
    return np.asarray(x, dtype=dtype, order="C")  # (ascontiguousarray makes a 0-D array 1-D: "not 1-D" for a scalar)


def pointer(a):
    return ctypes.c_void_p(a.ctypes.data if isinstance(a, np.ndarray) else a.ptr)
