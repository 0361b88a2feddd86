#!/usr/bin/env bash
# bench/sat_trace.sh - where SAT/INTHIST time goes on the device: the per-tile-row trace of the
# peer run (scripts/trace_rows.py: row start lag, row span, first/last row ends) for SAT f32 and
# u8->i32 and INTHIST, and bench_suite timings of the same runs under other grids (--max-blocks)
# and tile heights.  Logs under $OUT; a summary last.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sat_trace.sh [--no-build] [--sizes "16384 32768"]
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-sat-trace}
mkdir -p "$out"
build=1 sizes="16384 32768"
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    --sizes) sizes=$2; shift ;;
  esac
  shift
done
. tests/gpu/device_lib.sh
if [ $build = 1 ]; then pw_begin; else : > "$out/summary.txt"; summary "$(pw_device_header)"; fi
pw=./build-gpu/peerwave
t=$(mktemp -d)
for n in $sizes; do
  python3 -c "import numpy as np; np.save('$t/f32.npy', np.random.default_rng(1).random(($n, $n), dtype=np.float32))"
  { printf 'P5\n%d %d\n255\n' $n $n; head -c $((n * n)) /dev/urandom; } > "$t/u8.pgm"
  for kind in f32 u8; do
    img=$t/f32.npy; [ $kind = u8 ] && img=$t/u8.pgm
    summary "sat $kind $n^2 peer: $($pw sat "$img" --backend cuda --trace "$t/tr.csv" | grep -E '^(seconds|tile_h|tile_w|threads):' | tr '\n' ' ')"
    python3 scripts/trace_rows.py "$t/tr.csv" | sed 's/^/    /' | tee -a "$out/summary.txt"
  done
  summary "inthist u8 $n^2 peer: $($pw inthist "$t/u8.pgm" --bins 4 --backend cuda --trace "$t/tr.csv" | grep -E '^(seconds|tile_h|tile_w|threads):' | tr '\n' ' ')"
  python3 scripts/trace_rows.py "$t/tr.csv" | sed 's/^/    /' | tee -a "$out/summary.txt"
  for mb in 0 128 88 66; do
    pw_suite "$out/suite.txt" "max-blocks=$mb" "" --only SAT --method PW --size $n --max-blocks $mb
  done
  pw_suite "$out/suite.txt" "tile-h=64" "" --only SAT --method PW --size $n --tile-h 64
done
rm -rf "$t"
echo "==== summary"; cat "$out/summary.txt"
