#!/usr/bin/env bash
# bench/linear.sh - SW/DTW processor work on the device in one call: incremental build, the GPU
# tests (random shapes, every engine against the CPU reference) and compute-sanitizer, then SW
# (affine and linear gaps) and DTW through bench_suite (CUDA events, median of 5, every result checked against the
# threaded CPU engine): every strategy.  --spins "N ..." instead measures the polls a wait spins
# before it sleeps (PEERWAVE_SPIN_POLLS) on SW, DTW (65536^2) and SAT (32768^2, f32 and u8).
# --sass keeps the SASS of the R = 2 peer kernels (h = 64; SW affine and linear gaps, DTW f32).  --shapes times SW (peer, hyper tiles 64 x 128) on tall, wide and square inputs, and summarises two
# --trace CSVs of SW 65536^2 (scripts/trace_rows.py): where a wavefront's time goes.
# --apps: which of SW (both gap models), SWL (linear gaps only), DTW; --tile-hs: PW+HT again at
# these tile heights.  --handoff runs bench/handoff.cu first (one hand-off's latency by protocol; before the build).
# Logs under $OUT; a summary last.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/linear.sh [--no-tests] [--no-bench] [--sass] [--shapes] [--handoff] [--spins "0 64"] [--sizes "65536 262144"] [--apps "SW SWL DTW"] [--tile-hs "32 128"]
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-linear}
mkdir -p "$out"
tests=1 bench=1 sass=0 shapes=0 handoff=0 spins="" sizes="65536 262144" apps="SW DTW" heights=""
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0 ;;
    --no-bench) bench=0 ;;
    --sass) sass=1 ;;
    --shapes) shapes=1 ;;
    --handoff) handoff=1 ;;
    --spins) spins=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --apps) apps=$2; shift ;;
    --tile-hs) heights=$2; shift ;;
    *) echo "bench/linear.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
. tests/gpu/device_lib.sh
if [ $handoff = 1 ]; then
  nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/pw_handoff bench/handoff.cu && /tmp/pw_handoff 1024 > "$out/handoff.txt" 2>&1
  cat "$out/handoff.txt"
fi
pw_begin
[ $handoff = 1 ] && cat "$out/handoff.txt" >> "$out/summary.txt"

if [ $tests = 1 ]; then
  pw_quick_tests "$out" | tee -a "$out/summary.txt"
fi
if [ $sass = 1 ]; then
  # (the plain peer kernels' mangled names: the apps' template arguments and ScalarLanes<App, 2>)
  for pair in sw_affine:I5SwAppI12SwAffineGapsLb0ELb0EELi2E11ScalarLanesIS3_Li2EEEEvT_ \
              sw_linear:I5SwAppI12SwLinearGapsLb0ELb0EELi2E11ScalarLanesIS3_Li2EEEEvT_ \
              dtw_f32:I6DtwAppIfLb0ELb0ELi0EELi2E11ScalarLanesIS2_Li2EEEEvT_; do
    name=${pair%%:*} k="_Z22pw_peer_kernel_boundedI8WarpProc${pair#*:}14pw_engine_args"
    f="$out/sass_$name.txt"
    cuobjdump -sass -fun "$k" build-gpu/libpeerwave.a > "$f" 2>&1
    summary "sass $name: $(grep -cE '^ +/\*[0-9a-f]+\*/' "$f") instructions," \
      "$(grep -c 'SHFL' "$f") SHFL, $(grep -c 'BRA.DIV' "$f") BRA.DIV," \
      "$(grep -c 'CCTL.IVALL' "$f") CCTL.IVALL, $(grep -c 'MEMBAR' "$f") MEMBAR"
  done
fi
if [ $shapes = 1 ]; then
  t=$(mktemp -d)
  for n in 64 4096 16384 65536; do pw_seq_file $n 1 > "$t/a$n.fa"; pw_seq_file $n 2 > "$t/b$n.fa"; done
  sw=(./build-gpu/peerwave sw --backend cuda --tile-h 64)
  # one tile-row (64 x N: a step's latency), one column of tiles (N x 64: the hand-over), between
  for shape in "64 65536" "65536 64" "65536 65536" "65536 16384" "16384 65536" "65536 4096" "4096 65536"; do
    set -- $shape
    secs=$(pw_median_seconds "${sw[@]}" "$t/a$1.fa" "$t/b$2.fa" --tile-w 128)
    summary "shape SW $1 x $2 PW+HT 64x128: median of 3 ${secs} s"
  done
  # one column of tiles under the measuring switches and other heights: what a hand-over costs
  for v in "h=64" "h=64 PEERWAVE_SPIN_POLLS=0" "h=64 PEERWAVE_SPIN_POLLS=1000000" "h=32" "h=128" \
           "h=64 PEERWAVE_LINEAR_PROCESSOR=block"; do
    set -- $v
    h=${1#h=}; shift
    secs=$(pw_median_seconds "$@" ./build-gpu/peerwave sw "$t/a65536.fa" "$t/b64.fa" --backend cuda --tile-h $h --tile-w 128)
    summary "column SW 65536 x 64 PW+HT h=$h $*: median of 3 ${secs} s"
  done
  for w in 128 1024; do
    "${sw[@]}" "$t/a65536.fa" "$t/b65536.fa" --tile-w $w --trace "$t/trace.csv" > /dev/null
    summary "trace SW 65536^2 PW+HT 64x$w:"
    python3 scripts/trace_rows.py "$t/trace.csv" | sed 's/^/  /' | tee -a "$out/summary.txt"
  done
  rm -rf "$t"
fi
[ $bench = 1 ] || { echo "==== summary"; cat "$out/summary.txt"; exit 0; }
run() { pw_suite "$out/linear.txt" "$@"; } # label, env, args...
if [ -n "$spins" ]; then
  for n in $spins; do
    for app in SW DTW; do run "spin=$n" "PEERWAVE_SPIN_POLLS=$n" --only $app --method PW+HT --size 65536; done
    run "spin=$n" "PEERWAVE_SPIN_POLLS=$n" --only SAT --method PW+HT --size 32768
  done
else
  for n in $sizes; do
    for app in $apps; do
      run "default" "" --only $app --size $n
      for h in $heights; do run "h=$h" "" --only $app --size $n --tile-h $h --method PW+HT; done
    done
  done
fi
echo "==== summary"; cat "$out/summary.txt"
