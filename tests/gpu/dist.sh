#!/usr/bin/env bash
# tests/gpu/dist.sh - one wavefront over several ranks on the GPU (issue 29), in one device call:
# build, test_dist --gpu (every app's bands on the GPU, 2 and 3 ranks as threads sharing it, each
# on its own stream and SM share, against the CPU engines), compute-sanitizer memcheck
# over it, and bench_dist with 2 ranks sharing the GPU (the CPU distributed tests run in CI).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/dist.sh
set -u
out=${OUT:-/tmp/pw-dist}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
. tests/gpu/device_lib.sh
pw_begin
[ -x build-gpu/tests/test_dist ] || { tail -30 "$out/build.log"; exit 1; }
timeout 170 stdbuf -oL ./build-gpu/tests/test_dist --gpu > "$out/test_dist_gpu.log" 2>&1
summary "test_dist --gpu: rc=$? $(tail -1 "$out/test_dist_gpu.log")"
grep FAIL "$out/test_dist_gpu.log" | head -6 | tee -a "$out/summary.txt"
# (compute-sanitizer runs kernels one at a time: each band launches once its left column's first
# rows are there, and the test keeps to one sweep for HEAT/SOR, whose bands wait on each other)
PW_TEST_SERIAL_KERNELS=1 PW_TEST_SEED=7 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_dist --gpu \
  > "$out/sanitizer_dist.log" 2>&1
summary "compute-sanitizer memcheck test_dist --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_dist.log" | tail -2 | tr '\n' ' ')"
# the bands' cost on one GPU: 2 ranks sharing it (half the SMs each) against the whole GPU
# (direct: the kernels write into each other's memory; 0: through the link and the host)
for direct in 1 0; do
  timeout 60 ./build-gpu/bench_dist --gpus 1 --ranks 2 --blocks 66 --sw-blocks 528 --direct $direct --sw 131072 --grid 16384 \
    > "$out/bench_dist_gpu_$direct.log" 2>&1
  summary "bench_dist --gpus 1 --ranks 2 --direct $direct: rc=$?"
  tail -4 "$out/bench_dist_gpu_$direct.log" | tee -a "$out/summary.txt"
done
