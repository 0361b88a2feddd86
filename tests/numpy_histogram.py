"""numpy_histogram.py - numpy.histogram's default-range edges for a float32 image as numpy >= 2.0
computes them, on any numpy, for the tests that check `peerwave inthist` against numpy.

numpy 2's linspace keeps the image's min and max (float32 scalars) in float32 arithmetic, so its
default-range edges are float32 sums and products; numpy 1.x computed them in float64 and rounded
(tests/gpu/numpy_edges_probe.py measured it: 190 of 200 random cases differ, numpy 2.5.2).
PeerWave follows numpy 2 (pw_options.inthist_f32_edges).  Under numpy 2 this is numpy's own
function; under 1.x the same steps as numpy 2's linspace, written with numpy's float32 scalars."""
import numpy as np


def default_edges(x, bins):
    x = np.asarray(x)
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0" or x.dtype != np.float32:
        return np.histogram_bin_edges(x, bins)
    lo, hi = x.min(), x.max()
    if lo == hi:
        lo, hi = lo - np.float32(0.5), hi + np.float32(0.5)
    delta = np.float32(hi - lo)
    step = np.float32(delta / np.float32(bins))
    k = np.arange(bins + 1, dtype=np.float32)
    edges = (k / np.float32(bins) * delta if step == 0 else k * step) + lo
    edges[-1] = hi
    if not (np.diff(edges) > 0).all():  # (a constant past 2^23, a subnormal range: numpy >= 2.1 refuses these)
        raise ValueError("numpy_histogram: edges that do not increase (numpy 2 refuses these bins)")
    return edges


def default_counts(x, bins):
    """numpy.histogram(x, bins)'s counts on those edges (the last bin closed)."""
    return np.histogram(x, default_edges(x, bins))[0]
