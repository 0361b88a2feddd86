#!/usr/bin/env bash
# bench/sw_warp_rows_ab.sh - two versions of the warp-rows kernels on one machine: this tree's
# src/cuda/device/sw_warp_rows_proc.cuh (A) against another copy of that header (B: PW_AB_HEADER,
# default .bench-data/sw_warp_rows_proc_89087f9.cuh, `git show 89087f9:src/cuda/device/
# sw_warp_rows_proc.cuh` -- carry .bench-data), both through bench/sw_warp_rows.cu, on the genome
# pair the way the library runs it (the longer one down the rows, R = 12, 16-bit pairs, balanced
# rounds), alternating A B A B.  Issue 28: 89087f9 ran the genomes in 6.72 s, 5f06f0f in 7.39.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_ab.sh
set -u
out=${OUT:-/tmp/pw-warp-rows-ab}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
other=${PW_AB_HEADER:-.bench-data/sw_warp_rows_proc_89087f9.cuh}
[ -f "$other" ] || { summary "no $other"; exit 1; }
bin=$(mktemp -d)
mkdir -p "$bin/b/bench" "$bin/b/src/cuda/device" "$bin/b/src/core"
cp bench/*.cu bench/*.h "$bin/b/bench/"
cp src/cuda/device/memory.cuh "$bin/b/src/cuda/device/"
cp src/core/fixed_width.h "$bin/b/src/core/"
cp "$other" "$bin/b/src/cuda/device/sw_warp_rows_proc.cuh"
flags="-O3 -arch=sm_90 -std=c++17 -DPW_R=12 -Xptxas -v"
nvcc $flags -Ibench -o "$bin/A" bench/sw_warp_rows.cu > "$out/build_A.log" 2>&1 &
(cd "$bin/b" && nvcc $flags -Ibench -o "$bin/B" bench/sw_warp_rows.cu > "$out/build_B.log" 2>&1) &
wait
for v in A B; do summary "build $v: $(grep -A2 'pairs_kernel' "$out/build_$v.log" | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | tr '\n' ' ')"; done
pw_genomes "$bin"
for v in A B A B; do
  timeout 60 "$bin/$v" --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --balance --pairs "$g2" "$g1" > "$out/run.log" 2>&1
  summary "$v: $(tail -1 "$out/run.log")"
done
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
