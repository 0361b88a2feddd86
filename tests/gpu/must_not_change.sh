#!/usr/bin/env bash
# tests/gpu/must_not_change.sh - issue 32's "must not change" check in one device call, on binaries
# built on the CPU machine and carried (no device build: that alone takes most of a call):
#   1. bench/compare_bins.sh: the carried baseline bench_suite(s) (build-gpu/cmp.tar.xz,
#      cmp/bench_suite_NAME) against this tree's, alternating rounds, on PW_MNC_SPECS
#      ("APPS:SIZE[:METHODS] ...", default SOR,HEAT at 16384^2: the one line past 3% in session 27),
#      PW_MNC_ROUNDS rounds (3); PW_MNC_SPECS=none skips the comparison;
#   2. test_gpu (PW_TEST_SHAPES random shapes and the large ones), then compute-sanitizer memcheck,
#      racecheck, synccheck and initcheck on small shapes (tests/gpu/device_lib.sh's pw_sanitize);
#   3. test_cells --gpu on PW_MNC_CELLS sections (user cells through NVRTC).
# PW_MNC_TESTS=0 stops after the measurements (a call of its own: together they pass 600 s).
# Measurements first, while nothing else runs on the GPU.  Pack the binaries (RelWithDebInfo or
# Release build-gpu at HEAD, stripped): new/{bench_suite,test_gpu,test_cells} in
# build-gpu/carry/bins.tar.xz; then
#   run(command="PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/must_not_change.sh",
#       carry=["build-gpu/carry/bins.tar.xz", "build-gpu/cmp.tar.xz"])
# Logs under $OUT/mnc; the summary last.
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/pw-mnc}/mnc
mkdir -p "$out" /tmp/v
. tests/gpu/device_lib.sh
pw_summary_start
tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v && tar xJf build-gpu/cmp.tar.xz -C /tmp/v || { summary "no carried binaries"; exit 1; }
n=/tmp/v/new
bins=""
for b in /tmp/v/cmp/bench_suite_*; do [ -x "$b" ] && bins="$bins ${b##*/bench_suite_}=$b"; done
for spec in ${PW_MNC_SPECS:-"SOR,HEAT:16384:PW+HT,PW+FHT,GS+HT"}; do
  [ "$spec" = none ] && continue
  set -- ${spec//:/ }
  d=$out/cmpbins_${1%%,*}_$2
  OUT=$d PW_BINS="${bins# } new=$n/bench_suite" timeout ${PW_MNC_CMP_S:-300} \
    bash bench/compare_bins.sh ${PW_MNC_ROUNDS:-3} --runs 5 --only $1 --size $2 ${3:+--method $3} > $d.log 2>&1
  summary "compare_bins $spec: rc=$?"
  [ -f $d/compare_bins.txt ] || OUT=$d bash bench/compare_bins.sh --table $d/lines.txt > /dev/null 2>&1
  cat $d/compare_bins.txt >> "$out/summary.txt"
done
if [ "${PW_MNC_TESTS:-1}" = 0 ]; then echo "---- summary"; cat "$out/summary.txt"; exit 0; fi
# (pw_sanitize runs build-gpu/tests/test_gpu)
mkdir -p build-gpu/tests && cp $n/test_gpu build-gpu/tests/test_gpu
PW_TEST_SHAPES=${PW_TEST_SHAPES:-150} PW_GPU_LARGE=1 timeout 240 $n/test_gpu > "$out/test_gpu.log" 2>&1
summary "test_gpu (${PW_TEST_SHAPES:-150} shapes + large): rc=$? $(tail -1 "$out/test_gpu.log")"
grep FAIL "$out/test_gpu.log" | head -5 | tee -a "$out/summary.txt"
pw_sanitize "$out" memcheck racecheck synccheck initcheck | tee -a "$out/summary.txt"
PW_SOURCE_DIR=$PWD PW_TEST_ONLY=${PW_MNC_CELLS:-3d,flat,heat,reach2} timeout ${PW_MNC_CELLS_S:-200} $n/test_cells --gpu > "$out/test_cells_gpu.log" 2>&1
summary "test_cells --gpu (${PW_MNC_CELLS:-3d,flat,heat,reach2}): rc=$? $(tail -1 "$out/test_cells_gpu.log")"
grep FAIL "$out/test_cells_gpu.log" | head -5 | tee -a "$out/summary.txt"
echo "---- summary"
cat "$out/summary.txt"
