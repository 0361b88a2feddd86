#!/usr/bin/env bash
# bench/sw_warp_rows_sweep.sh - issue 28: which rows a thread (R) and blocks an SM give the
# genome pair its best rate with bench/sw_warp_rows.cu --balance (every round full: the fewest
# warps that need no more rounds than the whole GPU).  One device call, carry .bench-data:
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_sweep.sh
set -u
out=${OUT:-/tmp/pw-warp-rows-sweep}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
configs=${PW_CONFIGS:-"8:3 12:3 16:3 16:2 20:3 20:2 24:3 12:2"}
pw_build_warp_rows_configs
for c in $configs; do
  summary "R $c: $(grep -E 'registers|spill' "$out/build_${c/:/_}.log" | grep -oE '[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' ')"
done
pw_genomes "$bin"
scores="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2"
for c in $configs; do
  exe=$bin/swr_${c/:/_}
  [ -x "$exe" ] || continue
  timeout 60 "$exe" --shapes 8 > "$out/shapes_${c/:/_}.log" 2>&1
  timeout 60 "$exe" --shapes 8 --pairs >> "$out/shapes_${c/:/_}.log" 2>&1
  summary "R $c shapes: $(grep -h 'shapes:' "$out/shapes_${c/:/_}.log" | tr '\n' ' ')"
  for mode in "" --pairs; do
    timeout 60 "$exe" $scores --balance $mode "$g1" "$g2" > "$out/g_${c/:/_}$mode.log" 2>&1
    summary "R $c: $(tail -1 "$out/g_${c/:/_}$mode.log")"
  done
done
for c in ${PW_SWAPPED:-8:3 12:3 24:3}; do
  exe=$bin/swr_${c/:/_}
  [ -x "$exe" ] || continue
  for mode in "" --pairs; do
    timeout 60 "$exe" $scores --balance $mode "$g2" "$g1" > "$out/gs_${c/:/_}$mode.log" 2>&1
    summary "R $c swapped: $(tail -1 "$out/gs_${c/:/_}$mode.log")"
  done
done
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
