#!/usr/bin/env bash
# tests/gpu/run.sh - everything GPU in one device call: build, the full CTest suite (CPU + GPU),
# large shapes, compute-sanitizer on small shapes, and the first strategy timing table.
# Logs go to $OUT (or /tmp/pw-gpu); a short summary is printed last.  The tree travels without
# .git, so call it as: PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/run.sh
set -u
out=${OUT:-/tmp/pw-gpu}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
summary() { echo "$*" | tee -a "$out/summary.txt"; }
: > "$out/summary.txt"
summary "commit ${PW_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"

cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=ON > "$out/build.log" 2>&1 &&
  cmake --build build-gpu -j 16 >> "$out/build.log" 2>&1
summary "build: $([ $? = 0 ] && echo ok || echo FAILED)"

(cd build-gpu && timeout 180 ctest --output-on-failure -j 8 > "$out/ctest.log" 2>&1)
summary "ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
grep -E "^[0-9]+ passed" -h "$out/ctest.log" | tail -3 >> "$out/summary.txt"

PW_TEST_SHAPES=${PW_TEST_SHAPES:-150} PW_GPU_LARGE=1 timeout 200 ./build-gpu/tests/test_gpu > "$out/gpu_large.log" 2>&1
summary "test_gpu (150 shapes + large): rc=$? $(tail -1 "$out/gpu_large.log")"
grep -E "^large|FAIL" "$out/gpu_large.log" | head -12 >> "$out/summary.txt"

for tool in memcheck racecheck synccheck; do
  PW_GPU_SMALL=1 PW_TEST_SHAPES=${PW_SANITIZER_SHAPES:-5} timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 ./build-gpu/tests/test_gpu \
    > "$out/sanitizer_$tool.log" 2>&1
  summary "compute-sanitizer $tool: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_$tool.log" | tail -2 | tr '\n' ' ')"
done

timeout 120 ./build-gpu/bench_gpu_strategies 3 > "$out/strategies.txt" 2>&1
summary "strategies: rc=$?"
cat "$out/strategies.txt" >> "$out/summary.txt"
echo "================ summary"
cat "$out/summary.txt"
