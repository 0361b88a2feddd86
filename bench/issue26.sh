#!/usr/bin/env bash
# bench/issue26.sh - the installable library's GPU side in one device call: build, the progress
# hook and cancel flag on the GPU (test_progress --gpu), the Python module with PyTorch tensors
# (tests/test_python.sh: pip install . offline, pytest incl. test_gpu_tensors.py), what the hook
# costs (bench_progress_cost: SW 262144^2 and HEAT, kernel time, median of interleaved runs), the
# tensors-in-place timing (bench/python_tensors.py) and the CLI's progress lines.  Logs to $OUT.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/issue26.sh
set -u
out=${OUT:-/tmp/pw-26}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
summary "python3: $(python3 -c 'import sys, numpy, torch; print(sys.executable, "numpy", numpy.__version__, "torch", torch.__version__, "gpus", torch.cuda.device_count())' 2>&1 | tail -1)"

timeout 300 ./build-gpu/tests/test_progress --gpu > "$out/progress_gpu.log" 2>&1
summary "test_progress --gpu: rc=$? $(tail -1 "$out/progress_gpu.log")"
grep FAIL "$out/progress_gpu.log" | head -10 >> "$out/summary.txt"

timeout 300 bash tests/test_python.sh build-gpu . > "$out/python.log" 2>&1
summary "test_python (pip install ., pytest with PyTorch): rc=$? $(tail -1 "$out/python.log")"
grep -E "FAIL|Error|error" "$out/python.log" | head -10 >> "$out/summary.txt"

timeout 200 ./build-gpu/bench_progress_cost 262144 7 > "$out/progress_cost.txt" 2>&1
summary "bench_progress_cost: rc=$?"
cat "$out/progress_cost.txt" >> "$out/summary.txt"

PYTHONPATH=build-gpu/python-target timeout 120 python3 bench/python_tensors.py > "$out/tensors.txt" 2>&1
summary "bench_tensors: rc=$?"
cat "$out/tensors.txt" >> "$out/summary.txt"

t=$(mktemp -d)
awk 'BEGIN { srand(3); print ">a"; for (i = 0; i < 200000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$t/a.fa"
awk 'BEGIN { srand(4); print ">b"; for (i = 0; i < 200000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$t/b.fa"
PEERWAVE_PROGRESS_AFTER_MS=0 PEERWAVE_PROGRESS_EVERY_MS=10 ./build-gpu/peerwave sw "$t/a.fa" "$t/b.fa" --gap-open 5 --gap-extend 2 \
  --progress --backend cuda > "$t/out" 2> "$t/err"
summary "cli sw 200000^2 --progress: rc=$? $(grep -E '^(score|seconds):' "$t/out" | tr '\n' ' ')"
head -3 "$t/err" >> "$out/summary.txt"; tail -2 "$t/err" >> "$out/summary.txt"
rm -rf "$t"

pw_sanitize "$out" memcheck synccheck | tee -a "$out/summary.txt"
echo "================ summary"
cat "$out/summary.txt"
