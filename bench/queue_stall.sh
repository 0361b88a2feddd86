#!/usr/bin/env bash
# bench/queue_stall.sh - bench_job_queue under a watch: if a run stalls (its log has not grown
# for 45 s), the stacks of all its threads (cuda-gdb) go to $OUT/stacks.txt before it is killed.
# For diagnosing the queue on the device:  PW_COMMIT=... bash bench/queue_stall.sh [ARGS...]
set -u
out=${OUT:-/tmp/pw-queue}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_build_gpu "$out/build.log" || { tail -20 "$out/build.log"; exit 1; }
./build-gpu/bench_job_queue "$@" > "$out/bench_job_queue.log" 2>&1 &
pid=$!
last=0; still=0
while kill -0 $pid 2>/dev/null; do
  sleep 5
  size=$(stat -c %s "$out/bench_job_queue.log")
  if [ "$size" = "$last" ]; then still=$((still + 5)); else still=0; last=$size; fi
  if [ $still -ge 45 ]; then
    echo "STALLED: dumping stacks"
    timeout 90 /usr/local/cuda/bin/cuda-gdb -p $pid -batch -ex "thread apply all bt" > "$out/stacks.txt" 2>&1
    kill -9 $pid
    grep -E "^Thread|^#[0-9]" "$out/stacks.txt" | grep -vE "libc.so|libpthread|clone|start_thread" | head -60
    break
  fi
done
wait $pid 2>/dev/null
echo "bench rc=$?"
grep -E "STALL|queue:|  job |summary|CHECK" "$out/bench_job_queue.log" | head -30
