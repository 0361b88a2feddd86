#!/usr/bin/env bash
# bench/scan.sh - SAT/INTHIST scan-processor work on the device in one call: incremental build,
# the GPU tests and sanitizers (tests/gpu/device_lib.sh), then SAT (f32 and u8->i32) and INTHIST
# through bench_suite (CUDA events, median of 5, every result checked), and NPP's integral and
# PyTorch's cumsum on the same sizes.  Logs under $OUT; a summary last.  On the H100 every method
# at both sizes does not fit one 600 s call (the CPU checks of 32768^2 take ~170 s an app):
# pick with --methods, e.g. "PW+FHT" in one call and "GS+HT" in the next.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/scan.sh [--no-tests] [--sizes "16384 32768"]
#       [--methods "PW+FHT GS+HT"] [--apps "SAT INTHIST"] [--tile-hs "128 64"] [--no-comparators]
# (one bench_suite run an app, size and tile height, all methods in it: one CPU reference)
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-scan}
mkdir -p "$out"
tests=1 sizes="16384 32768" methods="PW+FHT GS+HT" apps="SAT INTHIST" tile_hs=128 comparators=1
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0 ;;
    --sizes) sizes=$2; shift ;;
    --methods) methods=$2; shift ;;
    --apps) apps=$2; shift ;;
    --tile-hs) tile_hs=$2; shift ;;
    --no-comparators) comparators=0 ;;
  esac
  shift
done
. tests/gpu/device_lib.sh
pw_begin
[ $tests = 1 ] && pw_quick_tests "$out" | tee -a "$out/summary.txt"
for n in $sizes; do
  for app in $apps; do
    for h in $tile_hs; do
      pw_suite "$out/scan.txt" "h=$h" "" --only $app --size $n --tile-h $h --method "$(echo $methods | tr ' ' ,)"
    done
  done
  if [ $comparators = 1 ]; then
    [ -x build-gpu/bench_npp_integral ] && summary "$(./build-gpu/bench_npp_integral $n 7 2>&1 | tail -1)"
    summary "$(python3 bench/torch_sat.py $n 7 2>&1 | tail -2 | tr '\n' ';')"
  fi
done
echo "==== summary"; cat "$out/summary.txt"
