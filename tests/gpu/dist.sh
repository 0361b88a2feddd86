#!/usr/bin/env bash
# tests/gpu/dist.sh - one wavefront over several ranks on the GPU (issue 29), in one device call:
# build, test_dist --gpu (SW and DTW bands on the GPU, 2 and 3 ranks as threads sharing it, each
# on its own stream and SM share, against the CPU engines bit for bit), compute-sanitizer memcheck
# over it, the CPU distributed tests (threads, and mpirun -np 2 / 3 when the machine has MPI).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/dist.sh
set -u
out=${OUT:-/tmp/pw-dist}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
. tests/gpu/device_lib.sh
pw_begin
[ -x build-gpu/tests/test_dist ] || { tail -30 "$out/build.log"; exit 1; }
timeout 150 stdbuf -oL ./build-gpu/tests/test_dist --gpu > "$out/test_dist_gpu.log" 2>&1
summary "test_dist --gpu: rc=$? $(tail -1 "$out/test_dist_gpu.log")"
grep FAIL "$out/test_dist_gpu.log" | head -6 | tee -a "$out/summary.txt"
PW_TEST_SEED=7 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_dist --gpu \
  > "$out/sanitizer_dist.log" 2>&1
summary "compute-sanitizer memcheck test_dist --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_dist.log" | tail -2 | tr '\n' ' ')"
(cd build-gpu && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 ctest -R '^test_dist' --output-on-failure > "$out/ctest_dist.log" 2>&1)
summary "ctest -R test_dist: $(grep -E 'tests passed|tests failed' "$out/ctest_dist.log" | tail -1)"
