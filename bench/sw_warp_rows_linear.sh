#!/usr/bin/env bash
# bench/sw_warp_rows_linear.sh - issue 28's SW linear gap at 262144^2 (and the short side at
# 65536^2): the warp-rows kernels (bench/sw_warp_rows.cu) with the H-only linear cell
# (--linear-cell, pw_swr_column_linear) against the shared (affine) cell on the same pairs, at
# several R (rows a thread) : blocks an SM.  Each build first on random shapes against a CPU Gotoh
# (linear and affine scores, 32-bit lanes and 16-bit pairs).  Random DNA; scores 2/-1/1/1 are
# bench_suite's linear SW (the score passes 16 bits: 32-bit lanes only), 1/-3/2/2 one that fits
# the pairs.  One device call, no library build (about a minute of nvcc):
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_linear.sh
set -u
out=${OUT:-/tmp/pw-warp-rows-linear}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
configs=${PW_CONFIGS:-"4:4 4:6 8:3 8:4 12:3 16:2"}
pw_build_warp_rows_configs
for c in $configs; do
  exe=$bin/swr_${c/:/_}
  summary "R $c: $(grep -oE '[0-9]+ bytes spill stores|Used [0-9]+ registers' "$out/build_${c/:/_}.log" | sort | uniq -c | tr '\n' ' ')"
  [ -x "$exe" ] || { summary "R $c: build FAILED"; continue; }
  (timeout 60 "$exe" --shapes 9 --linear-cell; timeout 60 "$exe" --shapes 9 --pairs --linear-cell) > "$out/shapes_${c/:/_}.log" 2>&1
  summary "R $c shapes: $(grep -h 'shapes:' "$out/shapes_${c/:/_}.log" | tr '\n' ' ')"
  grep -h FAIL "$out/shapes_${c/:/_}.log" | head -3 >> "$out/summary.txt"
done
run() { timeout 60 "$@" > "$out/r.log" 2>&1; tail -1 "$out/r.log" | sed 's/^sw_warp_rows //'; }
for size in ${PW_SIZES:-262144 65536}; do
  for c in $configs; do
    exe=$bin/swr_${c/:/_}
    [ -x "$exe" ] || continue
    for cell in "" --linear-cell; do
      summary "$size R $c 2/-1/1/1 ${cell:-shared}: $(run "$exe" --random $size $size --runs 3 $cell)"
      summary "$size R $c 1/-3/2/2 ${cell:-shared} pairs: $(run "$exe" --match 1 --mismatch -3 --gap-open 2 --gap-extend 2 --random $size $size --runs 3 --pairs $cell)"
    done
    summary "$size R $c 2/-1/1/1 linear balanced: $(run "$exe" --random $size $size --runs 3 --linear-cell --balance)"
  done
done
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
