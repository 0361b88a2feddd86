#!/usr/bin/env bash
# bench/align.sh - alignments and warping paths on the GPU in one device call (issue 25): build,
# test_align (CPU, --cells, --nvrtc, --gpu), test_cells --gpu (table inputs), then timings of
# `peerwave sw --align` and `peerwave dtw --path` against the score / distance pass alone on
# generated inputs.  Logs to $OUT.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/align.sh
set -u
out=${OUT:-/tmp/pw-align}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
export PEERWAVE_CACHE=$out/cache

for mode in ${PW_ALIGN_TESTS-"" --cells --nvrtc --gpu}; do
  timeout 400 ./build-gpu/tests/test_align $mode > "$out/test_align$mode.log" 2>&1
  summary "test_align $mode: rc=$? $(tail -1 "$out/test_align$mode.log")"
  grep FAIL "$out/test_align$mode.log" | head -5 >> "$out/summary.txt"
done
if [ -z "${PW_ALIGN_TESTS+x}" ]; then
  timeout 300 ./build-gpu/tests/test_cells --gpu > "$out/test_cells_gpu.log" 2>&1
  summary "test_cells --gpu: rc=$? $(tail -1 "$out/test_cells_gpu.log")"
fi

# Inputs: related DNA pairs (bench/related_pairs.py) and random walks.
python3 bench/related_pairs.py "$out" 100000 1000000
python3 - "$out" <<'PY'
import sys, numpy as np
out = sys.argv[1]
rng = np.random.default_rng(26)
for n in (65536, 262144):
    for name in "ab":
        np.save(f"{out}/walk_{name}{n}.npy", np.cumsum(rng.standard_normal(n)).astype(np.float32))
PY
P=./build-gpu/peerwave
for n in ${PW_ALIGN_SIZES:-100000}; do # (1000000: over 5 minutes at 30d2606: docs/PERFORMANCE.md)
  timeout 300 $P sw --backend cuda --align --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 \
    --view "$out/view$n.txt" --plot "$out/align$n.svg" "$out/a$n.fa" "$out/b$n.fa" > "$out/sw_align$n.txt" 2>&1
  summary "sw --align $n: rc=$? $(grep -E '^(score|start_a|end_a|columns|identity|seconds_score|seconds_align|cells_align|seconds_start|cells_start|cells_gpu|seconds_gpu):' "$out/sw_align$n.txt" | tr '\n' ' ')"
  timeout 300 $P sw --backend cuda --align --format sam --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 \
    "$out/a$n.fa" "$out/b$n.fa" > "$out/sw$n.sam" 2>&1
  summary "  sam: rc=$? $(wc -c < "$out/sw$n.sam") bytes"
done
for n in 65536 262144; do
  # the DTW pass cell alone (compiled, then cached) against the built-in DTW, both in f64
  python3 -c "import numpy as np; [np.save('$out/w64_%s$n.npy' % c, np.load('$out/walk_%s$n.npy' % c).astype(np.float64)) for c in 'ab']"
  for k in 1 2; do
    timeout 200 $P run src/align/cells/dtw_pass.c --backend cuda --input a="$out/w64_a$n.npy" --input b="$out/w64_b$n.npy" \
      --param squared=0 --param f32=1 > "$out/dtw_cell$n.txt" 2>&1
    summary "dtw_pass cell $n (run $k): rc=$? $(grep -E '^(compiled|compile_s|seconds|gcups|tile_w|tile_h):' "$out/dtw_cell$n.txt" | tr '\n' ' ')"
  done
  timeout 200 $P dtw --backend cuda --type f64 "$out/w64_a$n.npy" "$out/w64_b$n.npy" > "$out/dtw64_$n.txt" 2>&1
  summary "dtw f64 $n (built-in): rc=$? $(grep -E '^(seconds|gcups):' "$out/dtw64_$n.txt" | tr '\n' ' ')"
  timeout 200 $P dtw --backend cuda "$out/walk_a$n.npy" "$out/walk_b$n.npy" > "$out/dtw$n.txt" 2>&1
  summary "dtw $n (distance): rc=$? $(grep -E '^(distance|seconds|gcups):' "$out/dtw$n.txt" | tr '\n' ' ')"
  /usr/bin/time -f "wall %e s" timeout 300 $P dtw --backend cuda --path "$out/path$n.npy" "$out/walk_a$n.npy" "$out/walk_b$n.npy" > "$out/dtw_path$n.txt" 2>&1
  summary "dtw --path $n: rc=$? $(grep -E '^(distance|path_length|path_cost|seconds|seconds_path|cells_path|cells_path_gpu|seconds_path_gpu|wall)' "$out/dtw_path$n.txt" | tr '\n' ' ')"
done
rm -rf "$out/cache" "$out"/*.fa "$out"/walk_*.npy "$out"/w64_*.npy "$out"/path*.npy
