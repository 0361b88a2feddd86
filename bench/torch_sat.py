"""torch_sat.py - the PyTorch comparator for SAT (issue 6): x.cumsum(0).cumsum(1) on the GPU,
f32 -> f32 and u8 -> i32, CUDA events, median of RUNS after a warm-up.  Checked against float64
/ int64 sums of the same data (last row and column, where errors accumulate most).
    python3 bench/torch_sat.py N [RUNS]     one line per type: torch_cumsum N TYPE ms Gpix/s check
"""
import sys

import torch


def timed(fn, runs):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    g = torch.Generator(device="cuda").manual_seed(1)
    xf = (torch.randint(0, 8, (n, n), device="cuda", generator=g).float() * 0.125)
    xu = torch.randint(0, 2, (n, n), device="cuda", dtype=torch.uint8, generator=g)
    for name, fn, ref in (
        ("f32", lambda: xf.cumsum(0).cumsum(1), lambda: xf.double().sum(0).cumsum(0)),
        ("u8->i32", lambda: xu.cumsum(0, dtype=torch.int32).cumsum(1), lambda: xu.long().sum(0).cumsum(0)),
    ):
        ms = timed(fn, runs)
        out = fn()
        last = out[-1].double()
        want = ref().double()
        tol = 1e-4 * float(want.abs().max()) if name == "f32" else 0.0
        ok = float((last - want).abs().max()) <= tol
        print(f"torch_cumsum {n} {name} {ms:.4f} ms {n * n / (ms * 1e-3) / 1e9:.2f} Gpix/s check {'ok' if ok else 'DIFFERS'}")
        del out
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
