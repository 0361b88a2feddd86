#!/usr/bin/env bash
# bench/scan.sh - SAT/INTHIST scan-processor work on the device in one call: incremental build,
# the GPU tests and sanitizers (tests/gpu/device_lib.sh), then SAT f32 and u8->i32 and INTHIST
# through bench_suite (CUDA events, median of 5, every result checked) at several tile widths,
# and NPP's integral on the same u8 images.  Logs under $OUT; a summary last.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/scan.sh [--no-tests] [--sizes "16384 32768"] [--widths "128 1024"]
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-scan}
mkdir -p "$out"
tests=1 sizes="16384 32768" widths="128 512 2048 32768"
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0 ;;
    --sizes) sizes=$2; shift ;;
    --widths) widths=$2; shift ;;
  esac
  shift
done
. tests/gpu/device_lib.sh
pw_begin
[ $tests = 1 ] && pw_quick_tests "$out" | tee -a "$out/summary.txt"
for n in $sizes; do
  OUT=$out bash bench/widths.sh SAT "$n" "$widths" >> "$out/summary.txt"
  ./build-gpu/bench_suite --runs 5 --only INTHIST --method PW+HT --size $n 2>&1 | grep -E "^INTHIST" | tee -a "$out/scan.txt" >> "$out/summary.txt"
  [ -x build-gpu/bench_npp_integral ] && summary "$(./build-gpu/bench_npp_integral $n 7 2>&1 | tail -1)"
done
echo "==== summary"; cat "$out/summary.txt"
