#!/usr/bin/env bash
# tests/gpu/issue30_run.sh - issue 30's figures in one run on one GPU, from binaries built on the
# development machine and carried (tests/gpu/pack_bins.sh test_batch test_queue bench_batch_sw
# bench_job_queue): test_batch --gpu and test_queue --gpu; the protein search (10^6 simulated
# records of 256 and of 512 letters and a Swiss-Prot-like mix, BLOSUM62 11/1, queries of 144 to 5478,
# a sample checked against parasail and the CPU); HDSS on the mix and on skewed lengths against the
# GPU alone, the CPU alone and a static split; the job queue (CuMAS) over 25 arrival orders.
#   run(command="bash tests/gpu/issue30_run.sh", carry=["build-gpu/carry/bins.tar.xz"])
set -u
out=${OUT:-/tmp/pw-issue30}/issue30; mkdir -p "$out"
say() { echo "$*" | tee -a "$out/summary.txt"; }
: > "$out/summary.txt"
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
n=/tmp/v/new
export LD_LIBRARY_PATH=$n${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
say "$(git rev-parse --short HEAD 2>/dev/null) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
CUDA_VISIBLE_DEVICES=0 timeout 150 $n/test_batch --gpu > "$out/test_batch_gpu.log" 2>&1
say "test_batch --gpu: rc=$? $(tail -1 "$out/test_batch_gpu.log")"
CUDA_VISIBLE_DEVICES=0 timeout 150 $n/test_queue --gpu > "$out/test_queue_gpu.log" 2>&1
say "test_queue --gpu: rc=$? $(tail -1 "$out/test_queue_gpu.log")"
Q=144,464,1000,2005,5478
for shape in "--length 256" "--length 512"; do
  say "== search, 10^6 records $shape"
  timeout 240 $n/bench_batch_sw --backend cuda --records 1000000 $shape --queries $Q --sample 1000 $([ "$shape" = "--length 256" ] && echo --parasail) \
    2> "$out/search_stderr.log" | tee -a "$out/search.log" | grep -E "^(search|summary)" | tee -a "$out/summary.txt"
done
for lengths in --mix --skewed; do
  say "== search and schedules, 10^6 records $lengths (GPU alone, CPU alone, HDSS, static)"
  timeout 200 $n/bench_batch_sw --backend cuda --records 1000000 $lengths --queries $Q --sample 200 --schedules \
    2> "$out/schedules_stderr.log" | tee -a "$out/schedules.log" | grep -E "^(search|summary|schedules|  hdss|  static)" |
    tee -a "$out/summary.txt"
done
say "== job queue: 25 orders"
timeout 200 $n/bench_job_queue --orders 25 > "$out/bench_job_queue.log" 2>&1
say "bench_job_queue: rc=$?"
grep -E "^(job set|serial|fifo|reorder|summary|CHECK|CPU CHECK)" "$out/bench_job_queue.log" | tee -a "$out/summary.txt"
