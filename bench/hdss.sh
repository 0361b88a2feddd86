#!/usr/bin/env bash
# bench/hdss.sh - HDSS on the database search alone, in one device call (issue 30's goals: within
# 1.10x of the ideal GPU+CPU time, never slower than the GPU alone, finish spread <= 2%): builds
# only bench_batch_sw (or takes PW_BENCH_BIN, a binary built elsewhere and carried), runs the
# Swiss-Prot-like mix (PW_LENGTHS: --mix, or --skewed, --length L) of PW_RECORDS (10^6) records against PW_QUERIES with --schedules (the GPU
# alone, the CPU alone, HDSS, a static split from a training run; every result checked) and
# keeps the scheduler's trace (PEERWAVE_DEBUG_HDSS: every block fetched and done, predicted and
# measured) in $OUT/hdss_trace.log.gz.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/hdss.sh
set -u
out=${OUT:-/tmp/pw-hdss}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
bin=${PW_BENCH_BIN:-}
if [ -z "$bin" ]; then
  PW_BUILD_TARGETS=bench_batch_sw pw_begin
  bin=build-gpu/bench_batch_sw
else
  pw_summary_start
fi
[ -x "$bin" ] || { tail -30 "$out/build.log"; exit 1; }
for run in $(seq "${PW_HDSS_RUNS:-2}"); do
  PEERWAVE_DEBUG_HDSS=1 timeout 200 "$bin" --backend cuda --records "${PW_RECORDS:-1000000}" ${PW_LENGTHS:---mix} \
    --queries "${PW_QUERIES:-144,464,1000,2005,5478}" --sample 200 --schedules 2> "$out/hdss_trace_$run.log" |
    tee "$out/mix_$run.log" | grep -E "^(search|schedules|  hdss|  static)" | sed "s/^/run $run: /" | tee -a "$out/summary.txt"
  grep -v "^hdss " "$out/hdss_trace_$run.log" | head -5 | tee -a "$out/summary.txt"
done
tar czf "$out/hdss_traces.tgz" -C "$out" $(cd "$out" && ls hdss_trace_*.log) && rm -f "$out"/hdss_trace_*.log
echo "---- summary"
cat "$out/summary.txt"
