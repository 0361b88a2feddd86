#!/usr/bin/env bash
# bench/sw_warp_rows_short.sh - issue 28's short side: the warp-rows kernels (bench/sw_warp_rows.cu)
# with fewer rows a thread (R) and more blocks an SM, at the square sizes the tile engines run
# (65536^2 and 262144^2, random DNA 1/-3/5/2, and the linear gap 2/-3/2/2 at 262144^2), against
# the tile engines' figures there (docs/PERFORMANCE.md).  Each build first on random shapes against
# a CPU Gotoh.  One device call (builds with nvcc there, about a minute):
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_short.sh
set -u
out=${OUT:-/tmp/pw-warp-rows-short}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
configs=${PW_CONFIGS:-"4:4 4:6 8:3 8:4 12:3"}
pw_build_warp_rows_configs
for c in $configs; do
  exe=$bin/swr_${c/:/_}
  summary "R $c: $(grep -E 'registers|spill' "$out/build_${c/:/_}.log" | grep -oE '[0-9]+ bytes spill stores|Used [0-9]+ registers' | sort -u | tr '\n' ' ')"
  [ -x "$exe" ] || { summary "R $c: build FAILED"; continue; }
  (timeout 60 "$exe" --shapes 6; timeout 60 "$exe" --shapes 6 --pairs) > "$out/shapes_${c/:/_}.log" 2>&1
  summary "R $c shapes: $(grep -h 'shapes:' "$out/shapes_${c/:/_}.log" | tr '\n' ' ')"
done
for size in ${PW_SIZES:-65536 262144}; do
  for gaps in affine linear; do
    scores="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2"
    [ $gaps = linear ] && scores="--match 2 --mismatch -3 --gap-open 2 --gap-extend 2"
    [ $size = 65536 ] && [ $gaps = linear ] && continue
    for c in $configs; do
      exe=$bin/swr_${c/:/_}
      [ -x "$exe" ] || continue
      for mode in "" --pairs; do
        for bal in "" --balance; do
          timeout 60 "$exe" $scores --random $size $size --runs 3 $mode $bal > "$out/r.log" 2>&1
          summary "$gaps R $c $mode $bal: $(tail -1 "$out/r.log")"
        done
      done
    done
  done
done
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
