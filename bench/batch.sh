#!/usr/bin/env bash
# bench/batch.sh - the database search on the GPU in one device call: build, test_batch --gpu
# (random batches against a textbook Gotoh, saturation and recomputation), compute-sanitizer
# memcheck over it, then bench_batch_sw (simulated proteins, BLOSUM62 11/1, every result
# checked) on a million records of length 256 and 512 and on a Swiss-Prot-like length mix, and
# the CPU engine on the host's cores for comparison; on the mix also HDSS (GPU and CPU cores
# together) against each alone and against a static split from a training run.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/batch.sh
# PW_RECORDS (default 1000000), PW_QUERIES (default 144,464,1000,2005,5478); last, bench_batch_pairs
# (DTW search and SW pairs on the GPU against the CPU): PW_DTW_QUERIES, PW_DTW_DB, PW_SW_PAIRS.
set -u
out=${OUT:-/tmp/pw-batch}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
[ -x build-gpu/tests/test_batch ] || { tail -30 "$out/build.log"; exit 1; }

timeout 120 ./build-gpu/tests/test_batch --gpu > "$out/test_batch_gpu.log" 2>&1
summary "test_batch --gpu: rc=$? $(tail -1 "$out/test_batch_gpu.log")"
grep FAIL "$out/test_batch_gpu.log" | head -8 | tee -a "$out/summary.txt"
PW_TEST_SEED=5 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_batch --gpu \
  > "$out/sanitizer_memcheck.log" 2>&1
summary "compute-sanitizer memcheck test_batch --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_memcheck.log" | tail -2 | tr '\n' ' ')"

R=${PW_RECORDS:-1000000}
Q=${PW_QUERIES:-144,464,1000,2005,5478}
for shape in "--length 256" "--length 512" "--mix"; do
  summary "== GPU: $R records $shape"
  # (stderr to its own log; on the mix with HDSS's blocks: predicted and measured times, the plan's end)
  name=$(echo $shape | tr -d ' -')
  PEERWAVE_DEBUG_HDSS=$([ "$shape" = --mix ] && echo 1) \
  timeout 240 ./build-gpu/bench_batch_sw --backend cuda --records $R $shape --queries $Q --sample 1000 \
    $([ "$shape" = --mix ] && echo --schedules) 2> "$out/gpu_${name}_stderr.log" |
    tee "$out/gpu_$name.log" | grep -E "^(search|summary|schedules|  hdss|  static)" >> "$out/summary.txt"
  grep -v "^hdss " "$out/gpu_${name}_stderr.log" | head -5 | tee -a "$out/summary.txt"
done
summary "== CPU ($(nproc) cores): 100000 records --mix"
timeout 120 ./build-gpu/bench_batch_sw --backend cpu --records 100000 --mix --queries 144,464,1000 --sample 300 2>&1 |
  tee "$out/cpu_mix.log" | grep -E "^(search|summary)" >> "$out/summary.txt"
# DTW of many series and SW of many pairs (bench_batch_pairs: the GPU engines of batch_dtw.cu
# and pairs_sw.cu against the CPU backend, every checked result bit for bit)
summary "== DTW search and SW pairs (bench_batch_pairs)"
timeout 300 ./build-gpu/bench_batch_pairs --backend cuda --queries ${PW_DTW_QUERIES:-2000} --db ${PW_DTW_DB:-5000} \
  --series-length 256 --pairs ${PW_SW_PAIRS:-200000} --pair-length 256 --runs 3 --sample 50 2>&1 |
  tee "$out/batch_pairs.log" | grep -E "^(DTW|SW)" >> "$out/summary.txt"
echo "---- summary"
cat "$out/summary.txt"
