#!/usr/bin/env bash
# bench/dtw_path.sh - the warping path through saved rows (src/align/dtw_strips.c) on the GPU in
# one device call: build, test_align --gpu (saved rows against a plain loop, GPU paths against
# the CPU's) and test_gpu's DTW shapes (the kernel change), then the distance alone (f32 and f64)
# against `dtw --path` at 65536^2 and 262144^2, for a few strip heights.  Logs to $OUT.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/dtw_path.sh
set -u
out=${OUT:-/tmp/pw-dtw-path}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
export PEERWAVE_CACHE=$out/cache

if [ -z "${PW_SKIP_TESTS:-}" ]; then
  timeout 400 ./build-gpu/tests/test_align --gpu > "$out/test_align_gpu.log" 2>&1
  summary "test_align --gpu: rc=$? $(tail -1 "$out/test_align_gpu.log")"
  grep FAIL "$out/test_align_gpu.log" | head -5 | tee -a "$out/summary.txt"
  PW_TEST_SHAPES=${PW_TEST_SHAPES:-120} timeout 300 ./build-gpu/tests/test_gpu > "$out/test_gpu.log" 2>&1
  summary "test_gpu: rc=$? $(tail -1 "$out/test_gpu.log")"
  grep FAIL "$out/test_gpu.log" | head -5 | tee -a "$out/summary.txt"
fi

python3 - "$out" <<'PY'
import sys, numpy as np
out = sys.argv[1]
rng = np.random.default_rng(25)
for n in (65536, 262144):
    for name in "ab":
        w = np.cumsum(rng.standard_normal(n))
        np.save(f"{out}/walk_{name}{n}.npy", w.astype(np.float32))
        np.save(f"{out}/w64_{name}{n}.npy", w.astype(np.float64))
PY
P=./build-gpu/peerwave
for n in ${PW_PATH_SIZES:-65536 262144}; do
  for t in f32 f64; do
    in=$([ $t = f32 ] && echo walk || echo w64)
    for k in $(seq ${PW_DIST_RUNS:-3}); do
      timeout 200 $P dtw --backend cuda --type $t "$out/${in}_a$n.npy" "$out/${in}_b$n.npy" > "$out/dtw_$t$n.txt" 2>&1
      summary "dtw $t $n distance (run $k): rc=$? $(grep -E '^(distance|seconds|gcups):' "$out/dtw_$t$n.txt" | tr '\n' ' ')"
    done
    for rows in ${PW_PATH_ROWS_LIST:-0 2048 4096}; do
      export PEERWAVE_PATH_TIMES=1
      for k in $(seq ${PW_PATH_RUNS:-2}); do
        env $([ $rows != 0 ] && echo PEERWAVE_PATH_ROWS=$rows) /usr/bin/time -f "wall %e s" timeout 300 \
          $P dtw --backend cuda --type $t --path "$out/path.npy" "$out/${in}_a$n.npy" "$out/${in}_b$n.npy" > "$out/path_$t$n.txt" 2>&1
        summary "dtw $t $n --path (rows $rows, run $k): rc=$? $(grep -E '^(distance|path_length|path_cost|seconds_path|cells_path|cells_path_gpu|seconds_path_gpu|wall|path:)' "$out/path_$t$n.txt" | tr '\n' ' ')"
      done
    done
  done
done
rm -rf "$out/cache" "$out"/walk_*.npy "$out"/w64_*.npy "$out"/path.npy
