"""numpy_edges_probe.py - does this numpy place a float32 image's default-range histogram edges as
numpy 1.x did (float64 arithmetic, rounded to float32)?  numpy.histogram(x, bins) against
numpy.histogram(x, bins, range=(float(min), float(max))) on test_numpy.py-like cases, and the
edges against float32 arithmetic (numpy 2's linspace keeps float32 scalars in float32).  A device
diagnosis, not a test."""
import numpy as np

print("numpy", np.__version__)
rng = np.random.default_rng(11)
differ = f32_rule = 0
for _ in range(200):
    bins = int(rng.integers(1, 40))
    x = (rng.normal(size=int(rng.integers(1, 60))) * 10.0 ** int(rng.integers(-3, 12))).astype(np.float32)
    x = np.concatenate([x, np.histogram_bin_edges(x, bins).astype(np.float32)])
    e_default = np.histogram_bin_edges(x, bins)
    e_wide = np.histogram_bin_edges(x, bins, range=(float(x.min()), float(x.max())))
    lo, hi = x.min(), x.max()
    step = np.float32(hi - lo) / np.float32(bins)
    e32 = np.arange(bins + 1, dtype=np.float32) * step + lo
    e32[-1] = hi
    differ += not np.array_equal(e_default.astype(np.float32), e_wide.astype(np.float32))
    f32_rule += np.array_equal(e_default.astype(np.float32), e32)
print("of 200 cases: default-range edges differ from the float64 rule in %d; equal to the float32 rule in %d" % (differ, f32_rule))
print("default edges dtype", e_default.dtype)
