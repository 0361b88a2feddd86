#!/usr/bin/env bash
# bench/batch_profile.sh - where the GPU database search's time goes, in one device call: build
# bench_batch_sw, time each query length on its own (a million records of length 256; the short
# and the long F chain of batch_sw_proc.cuh), then an
# ncu profile of one kernel launch (query 1000 against 100000 records: warp states, scheduler,
# instruction mix, occupancy, source counters).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/batch_profile.sh
set -u
out=${OUT:-/tmp/pw-batch-profile}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
: > "$out/summary.txt"
summary "$(pw_device_header)"
{ cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=ON -DPEERWAVE_CUDA_ARCHITECTURES=90-real &&
  cmake --build build-gpu -j 16 --target bench_batch_sw; } > "$out/build.log" 2>&1
summary "build: $([ $? = 0 ] && echo ok || echo FAILED)"
for form in shared short; do # the two forms of the cell (batch_sw_proc.cuh)
  for q in 144 464 1000 2005 5478; do
    PEERWAVE_BATCH_FORM=$form ./build-gpu/bench_batch_sw --backend cuda --records 1000000 --length 256 \
      --queries $q --sample 100 2>&1 | grep -E "^search" | sed "s/^/form=$form q$q /" >> "$out/summary.txt"
  done
done
timeout 300 ncu --kernel-name regex:pw_batch_sw_kernel --launch-count 1 --section SpeedOfLight --section Occupancy \
  --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats \
  --section SourceCounters ./build-gpu/bench_batch_sw --backend cuda --records 100000 --length 256 --queries 1000 \
  --sample 10 > "$out/ncu_batch.txt" 2>&1
summary "ncu: rc=$? $(grep -E 'Duration|Registers Per|Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Executed Instructions  ' "$out/ncu_batch.txt" | tr -s ' ' | tr '\n' ';')"
grep -E "Stall|stall" "$out/ncu_batch.txt" | head -20 >> "$out/summary.txt"
echo "---- summary"
cat "$out/summary.txt"
