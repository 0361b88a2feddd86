#!/usr/bin/env bash
# bench/sw_warp_rows_probe.sh - issue 28: how one round's time in bench/sw_warp_rows.cu depends
# on the warps an SM (random DNA, 2^20 columns, rows for exactly 1/3, 2/3, 1 and 2 rounds of the
# full grid), to tell a latency-bound column step from an issue-bound one.  Then the genome pair
# with R 20 and the other orientation (carry .bench-data).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_probe.sh
set -u
out=${OUT:-/tmp/pw-warp-rows-probe}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
for c in 16:3 16:2 12:3 20:2; do
  r=${c%:*} b=${c#*:}
  nvcc -O3 -arch=sm_90 -std=c++17 -Ibench -DPW_R=$r -DPW_SWR_BLOCKS_PER_SM=$b -o "$bin/swr_${r}_$b" \
    bench/sw_warp_rows.cu > "$out/build_${r}_$b.log" 2>&1 || summary "build $c failed: $(tail -3 "$out/build_${r}_$b.log")"
done
sms=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 && echo 132 || echo 132)
m=1048576
for c in 16:3 16:2; do
  r=${c%:*} b=${c#*:}
  full=$((sms * b * 8)) # warps of the full grid
  for mode in "" --pairs; do
    per=$([ -n "$mode" ] && echo 2 || echo 1)
    for frac in 1/3 2/3 1 2; do
      rows=$((full * per * 32 * r * ${frac%/*} / ${frac#*/}))
      timeout 60 "$bin/swr_${r}_$b" --random $rows $m --runs 3 --match 1 --mismatch -3 $mode > "$out/p_${r}_${b}_${frac/\//of}$mode.log" 2>&1
      summary "R $c, $frac of the grid's rows: $(tail -1 "$out/p_${r}_${b}_${frac/\//of}$mode.log")"
    done
  done
done
if pw_genomes "$bin"; then
  scores="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2"
  for c in 20:2 12:3 16:2; do
    for mode in "" --pairs; do
      timeout 60 "$bin/swr_${c/:/_}" $scores --balance $mode "$g2" "$g1" > "$out/gs_${c/:/_}$mode.log" 2>&1
      summary "R $c, genomes the other way: $(tail -1 "$out/gs_${c/:/_}$mode.log")"
    done
  done
  for mode in "" --pairs; do
    timeout 60 "$bin/swr_20_2" $scores --balance $mode "$g1" "$g2" > "$out/g_20_2$mode.log" 2>&1
    summary "R 20:2, genomes: $(tail -1 "$out/g_20_2$mode.log")"
  done
fi
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
