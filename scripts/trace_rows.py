#!/usr/bin/env python3
"""trace_rows.py - what a `--trace FILE.csv` says about the wavefront, a line a figure:
when each tile-row started and finished, the lag between consecutive tile-rows' starts (the
pipeline's fill rate), how long a row ran, and the time a tile took, early and late in its row.
  python3 scripts/trace_rows.py TRACE.csv
"""
import csv
import statistics
import sys


def main(path):
    rows = {}
    with open(path, newline="") as f:
        for rec in csv.DictReader(f):
            r = int(rec["tile_row"])
            start, end = int(rec["start_ns"]), int(rec["end_ns"])
            rows.setdefault(r, []).append((int(rec["tile_col"]), start, end))
    if not rows:
        sys.exit("trace_rows.py: no records in " + path)
    order = sorted(rows)
    first = {r: min(t[1] for t in rows[r]) for r in order}
    last = {r: max(t[2] for t in rows[r]) for r in order}
    lags = [first[b] - first[a] for a, b in zip(order, order[1:])]
    spans = [last[r] - first[r] for r in order]
    tiles = [t[2] - t[1] for r in order for t in sorted(rows[r])]
    early = [t[2] - t[1] for r in order for t in sorted(rows[r])[:3]]
    q = lambda v, p: sorted(v)[min(len(v) - 1, int(p * len(v)))] / 1e3 if v else 0.0
    total = max(last.values()) - min(first.values())
    print(f"tile-rows {len(order)}, tiles {len(tiles)}, span {total / 1e6:.3f} ms")
    print(f"row start lag us: median {q(lags, 0.5):.2f}, p10 {q(lags, 0.1):.2f}, p90 {q(lags, 0.9):.2f}, "
          f"sum {sum(lags) / 1e6:.3f} ms")
    print(f"row span ms: median {q(spans, 0.5) / 1e3:.3f}, min {min(spans) / 1e6:.3f}, max {max(spans) / 1e6:.3f}")
    print(f"tile us: median {q(tiles, 0.5):.2f}, p90 {q(tiles, 0.9):.2f}; a row's first 3 tiles: median {q(early, 0.5):.2f}")
    # lag along the row: does a tile-row fall further behind the one above as it goes?
    ends = {r: {t[0]: t[2] for t in rows[r]} for r in order}
    cols = sorted(set.intersection(*(set(ends[r]) for r in order))) if order else []
    if len(order) > 1 and cols:
        marks = sorted({cols[min(len(cols) - 1, int(f * len(cols)))] for f in (0.0, 0.25, 0.5, 0.75, 1.0)})
        lag_at = [f"tile {c}: {statistics.median(ends[b][c] - ends[a][c] for a, b in zip(order, order[1:])) / 1e3:.2f}"
                  for c in marks]
        print("lag of a tile's end behind the row above's, median us: " + ", ".join(lag_at))
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        r = order[min(len(order) - 1, int(frac * len(order)))]
        print(f"row {r}: start {(first[r] - first[order[0]]) / 1e6:.3f} ms, end {(last[r] - first[order[0]]) / 1e6:.3f} ms")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
