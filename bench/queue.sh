#!/usr/bin/env bash
# bench/queue.sh - the job queue (CuMAS) on the GPU in one device call: build, test_queue --gpu
# (random job sets of every application through the CUDA queue in every order, each result equal
# to the job run directly on the CPU), compute-sanitizer memcheck over it, then bench_job_queue:
# a mixed set in 25 random arrival orders through the serial, FIFO and reordering queues, every
# result checked.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/queue.sh
# PW_QUEUE_ARGS: extra bench_job_queue arguments (e.g. --copy-scale 0.5 --kernel-scale 2).
# PW_QUEUE_TEST_GPU=1: test_gpu (40 shapes) too, before the benchmark.
set -u
out=${OUT:-/tmp/pw-queue}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
[ -x build-gpu/tests/test_queue ] || { tail -30 "$out/build.log"; exit 1; }

timeout 120 ./build-gpu/tests/test_queue --gpu > "$out/test_queue_gpu.log" 2>&1
summary "test_queue --gpu: rc=$? $(tail -1 "$out/test_queue_gpu.log")"
grep FAIL "$out/test_queue_gpu.log" | head -8 | tee -a "$out/summary.txt"
PW_QUEUE_QUICK=1 timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_queue --gpu \
  > "$out/sanitizer_memcheck.log" 2>&1
summary "compute-sanitizer memcheck test_queue --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_memcheck.log" | tail -2 | tr '\n' ' ')"
if [ -n "${PW_QUEUE_TEST_GPU:-}" ]; then # (the device API's residuals against the CPU's, bit for bit)
  PW_TEST_SHAPES=40 timeout 200 ./build-gpu/tests/test_gpu > "$out/test_gpu.log" 2>&1
  summary "test_gpu (40 shapes): rc=$? $(tail -1 "$out/test_gpu.log")"
  grep FAIL "$out/test_gpu.log" | head -8 | tee -a "$out/summary.txt"
fi
timeout 330 ./build-gpu/bench_job_queue --orders 25 ${PW_QUEUE_ARGS:-} > "$out/bench_job_queue.log" 2>&1
summary "bench_job_queue: rc=$?"
grep -E "^(job set|  |cpu check|serial|fifo|reorder|summary|CHECK|CPU CHECK)" "$out/bench_job_queue.log" >> "$out/summary.txt"
echo "---- summary"
cat "$out/summary.txt"
