#!/usr/bin/env bash
# bench/run.sh - the benchmark suite on the device, in one call: build, copy bandwidth, every app
# at the issue's sizes with every method (bench_suite), the PyTorch and NPP comparators on the same
# SAT sizes, the CSV and the SVG chart.  Logs and results go to $OUT (or /tmp/pw-bench).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/run.sh [--small] [--only APP] [--size N]
# (bench_suite's options pass through.)  On the H100 the whole suite takes longer than one 600 s
# device call; by side it fits: --size 16384, --size 32768 --only SAT,INTHIST, --size 32768
# --only HEAT,SOR, then --size 65536 and --size 262144 (the comparators run only for the grid
# sides asked for, and only where SAT is).
set -u
out=${OUT:-/tmp/pw-bench}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
log() { echo "$*" | tee -a "$out/bench_summary.txt"; }
: > "$out/bench_summary.txt"
log "$(pw_device_header), $(date -u +%Y-%m-%d)"
pw_build_gpu "$out/bench_build.log" || { log "build FAILED"; tail -20 "$out/bench_build.log"; exit 1; }
small=0 size= only=SAT
prev=
for a in "$@"; do
  [ "$a" = --small ] && small=1
  [ "$prev" = --size ] && size=$a
  [ "$prev" = --only ] && only=$a
  prev=$a
done
timeout 540 ./build-gpu/bench_suite --runs 5 --csv "$out/suite.csv" "$@" > "$out/suite.txt" 2>&1
rc=$?
log "bench_suite: rc=$rc"
# an H100 runs out of the 540 s before SW/DTW 262144^2: those lines come from a second call
[ $rc = 124 ] && log "bench_suite timed out: run the rest in another call, e.g. bash bench/linear.sh --no-tests --sizes 262144"
cat "$out/suite.txt" >> "$out/bench_summary.txt"
for n in 16384 32768; do
  [ $small = 1 ] && n=$((n / 4))
  [ -n "$size" ] && [ "$size" != $n ] && continue
  case ",$only," in *,SAT,*) ;; *) continue ;; esac
  if [ -x build-gpu/bench_npp_integral ]; then
    log "$(./build-gpu/bench_npp_integral $n 7 2>&1 | tail -1)"
  else
    log "npp: not built (libnppist not found)"
  fi
  log "$(python3 bench/torch_sat.py $n 7 2>&1 | tail -2 | tr '\n' ';')"
done
python3 bench/chart.py "$out/suite.csv" "$out/suite.svg" && log "chart: $out/suite.svg"
echo "================ bench summary"
cat "$out/bench_summary.txt"
