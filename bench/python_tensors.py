"""Device arrays in place, measured (issue 26): the same heat run on a PyTorch tensor and on a
numpy array (the library then copies the grid to the GPU and back), wall time median of runs,
with the kernel time the library reports and the tensor's address before and after.
    python3 bench/python_tensors.py [SIDE=8192] [SWEEPS=20] [RUNS=5]"""
import sys
import time

import numpy as np
import torch

import peerwave as pw

side = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
sweeps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
g0 = np.random.default_rng(1).random((side, side), dtype=np.float32)


def timed(f):
    t, info = [], None
    for _ in range(runs + 1):
        torch.cuda.synchronize()
        s = time.perf_counter()
        info = f()
        torch.cuda.synchronize()
        t.append(time.perf_counter() - s)
    return float(np.median(t[1:])), info


tensor = torch.tensor(g0, device="cuda")
ptr = tensor.data_ptr()
wall_t, r_t = timed(lambda: pw.heat(tensor, sweeps=sweeps, backend="cuda"))
host = g0.copy()
wall_h, r_h = timed(lambda: pw.heat(host, sweeps=sweeps, backend="cuda"))
same = tensor.data_ptr() == ptr
print(f"heat {side}^2 f32 x {sweeps}: tensor wall {wall_t * 1e3:.2f} ms (kernel {r_t.info.seconds * 1e3:.2f}), "
      f"numpy wall {wall_h * 1e3:.2f} ms (kernel {r_h.info.seconds * 1e3:.2f}); copies avoided "
      f"{(wall_h - wall_t) * 1e3:.2f} ms; tensor address unchanged: {same}")
x = np.random.default_rng(2).integers(0, 256, (side, side), dtype=np.uint8)
tx = torch.tensor(x, device="cuda")
out = torch.empty((side, side), dtype=torch.int64, device="cuda")
wall_s, _ = timed(lambda: pw.sat(tx, out=out, backend="cuda", info=True))
wall_sh, _ = timed(lambda: pw.sat(x, backend="cuda", info=True))
print(f"sat {side}^2 u8->i64: tensor wall {wall_s * 1e3:.2f} ms, numpy wall {wall_sh * 1e3:.2f} ms; out at "
      f"0x{out.data_ptr():x} (given) == result: {pw.sat(tx, out=out, backend='cuda').data_ptr() == out.data_ptr()}")
