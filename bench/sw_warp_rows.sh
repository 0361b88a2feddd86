#!/usr/bin/env bash
# bench/sw_warp_rows.sh - issue 28's experiment (bench/sw_warp_rows.cu: one long SW pair the way
# the database search runs many short ones; 32-bit lanes and, --pairs, 16-bit pairs of tile-rows)
# in one device call, without building the library:
# random shapes against a CPU Gotoh, a random 65536^2 pair against bench/sw_reference.cu (one
# launch per anti-diagonal), then the rates at 262144^2 and on the M. leprae x M. tuberculosis
# genomes (carry .bench-data; their scores, 4702 at 1/-3/5/2 and 49383 at 2/-3/5/2, are the
# library's checked ones), with three blocks an SM (80 registers) and two (no cap).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows.sh
set -u
out=${OUT:-/tmp/pw-warp-rows}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
for b in 3 2; do
  nvcc -O3 -arch=sm_90 -std=c++17 -Ibench -DPW_SWR_BLOCKS_PER_SM=$b -Xptxas -v -o "$bin/swr$b" bench/sw_warp_rows.cu \
    > "$out/build_$b.log" 2>&1
  summary "build, $b blocks an SM: rc=$? $(grep -E 'registers|spill' "$out/build_$b.log" | tr -s ' ' | tr '\n' ' ')"
done
nvcc -O3 -arch=sm_90 -Ibench -o "$bin/sw_reference" bench/sw_reference.cu > "$out/build_reference.log" 2>&1
[ -x "$bin/swr3" ] || { cat "$out/build_3.log"; exit 1; }

for mode in "" --pairs; do
  timeout 150 "$bin/swr3" --shapes ${PW_SHAPES:-60} $mode > "$out/shapes${mode}.log" 2>&1
  summary "shapes against the CPU ${mode:-(32-bit lanes)}: rc=$? $(tail -1 "$out/shapes${mode}.log")"
  grep FAIL "$out/shapes${mode}.log" | head -5 | tee -a "$out/summary.txt"
done

fa() { awk -v n=$1 -v seed=$2 'BEGIN { srand(seed); print ">r"; for (i = 0; i < n; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }'; }
fa 65536 11 > "$bin/a64k.fa"
fa 65536 12 > "$bin/b64k.fa"
scores="--match 2 --mismatch -1 --gap-open 3 --gap-extend 1"
ref=$(timeout 120 "$bin/sw_reference" $scores "$bin/a64k.fa" "$bin/b64k.fa" 2>&1 | sed -n 's/^score: //p')
for mode in "" --pairs; do
  got=$(timeout 60 "$bin/swr3" $scores $mode "$bin/a64k.fa" "$bin/b64k.fa" 2>&1 | tee "$out/random64k$mode.log" |
        sed -n 's/.*score \([0-9-]*\)[, ].*/\1/p')
  summary "65536^2 random, 2/-1/3/1 ${mode}: score $got, sw_reference $ref: $([ -n "$got" ] && [ "$got" = "$ref" ] && echo same || echo DIFFERENT)"
  summary "$(tail -1 "$out/random64k$mode.log")"
done

for b in 3 2; do
  for mode in "" --pairs; do
    timeout 120 "$bin/swr$b" --random 262144 262144 --runs 3 $mode > "$out/random256k_$b$mode.log" 2>&1
    summary "$b blocks an SM: $(tail -1 "$out/random256k_$b$mode.log")"
  done
done
# 262144 rows are only 512 tile-rows of 512: fewer rows a thread give more warps work
for r in 8 4; do
  nvcc -O3 -arch=sm_90 -std=c++17 -Ibench -DPW_R=$r -o "$bin/swr_r$r" bench/sw_warp_rows.cu > "$out/build_r$r.log" 2>&1 &&
    timeout 120 "$bin/swr_r$r" --shapes 20 > "$out/shapes_r$r.log" 2>&1
  summary "R = $r: shapes $(tail -1 "$out/shapes_r$r.log")"
  timeout 120 "$bin/swr_r$r" --shapes 20 --pairs > "$out/shapes_r${r}_pairs.log" 2>&1
  summary "R = $r: shapes --pairs $(tail -1 "$out/shapes_r${r}_pairs.log")"
  timeout 120 "$bin/swr_r$r" --random 262144 262144 --runs 3 > "$out/random256k_r$r.log" 2>&1
  summary "R = $r: $(tail -1 "$out/random256k_r$r.log")"
done

if pw_genomes "$bin"; then
  for b in 3 2; do
    for sc in "--match 1 --mismatch -3 --gap-open 5 --gap-extend 2" "--match 2 --mismatch -3 --gap-open 5 --gap-extend 2"; do
      for mode in "" --pairs; do # (2/-3/5/2 is past 16 bits: the pairs must say so)
        timeout 100 "$bin/swr$b" $sc $mode "$g1" "$g2" > "$out/genomes.log" 2>&1
        summary "genomes, $b blocks an SM: rc=$? $(tail -1 "$out/genomes.log")"
      done
    done
  done
fi
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
