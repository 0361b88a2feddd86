#!/usr/bin/env bash
# bench/sw_warp_rows_ab.sh - versions of the warp-rows kernels on one machine: this tree's
# src/cuda/device/sw_warp_rows_proc.cuh (A) against other copies of that header (PW_AB_VARIANTS,
# "NAME=PATH ...": a header file, or a directory holding a whole version's bench/ and src/ for when
# the harness changed with the header; default B=.bench-data/variants/v89087f9, made by
# `mkdir -p .bench-data/variants/v89087f9 && git archive 89087f9 bench src | tar x -C` it -- carry
# .bench-data; or a patch, bench/variants/NAME.patch), all through bench/sw_warp_rows.cu, on
# the genome pair the way the library runs it (the longer one down the rows, R = 12, 16-bit pairs,
# balanced rounds; PW_AB_ARGS= for 32-bit lanes), in PW_AB_ROUNDS (2) alternating rounds.  Each build's SASS of the pairs kernel
# goes to $OUT/sass_NAME.txt.  Issue 28: 89087f9 ran the genomes in 6.72 s, 06b82ad in 7.76.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_ab.sh
set -u
out=${OUT:-/tmp/pw-warp-rows-ab}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
flags="-O3 -arch=sm_90 -std=c++17 -DPW_R=12 -Xptxas -v"
names="A"
nvcc $flags -Ibench -o "$bin/A" bench/sw_warp_rows.cu > "$out/build_A.log" 2>&1 &
for v in ${PW_AB_VARIANTS:-B=.bench-data/variants/v89087f9}; do
  name=${v%%=*} header=${v#*=}
  [ -e "$header" ] || { summary "no $header"; continue; }
  names="$names $name"
  # a directory is a whole version (harness too, for headers whose arguments changed):
  #   mkdir -p .bench-data/variants/X && git archive C bench src | tar x -C .bench-data/variants/X
  src=$header; [ -d "$header" ] || src=.
  mkdir -p "$bin/$name.src/bench" "$bin/$name.src/src/cuda/device" "$bin/$name.src/src/core"
  cp "$src"/bench/*.cu "$src"/bench/*.h "$bin/$name.src/bench/"
  cp "$src"/src/cuda/device/*.cuh "$bin/$name.src/src/cuda/device/" # (the headers the kernels include)
  cp "$src"/src/cuda/*.cuh "$bin/$name.src/src/cuda/" # (so that a patch may carry the host's side too)
  cp "$src"/src/core/*.h "$bin/$name.src/src/core/"
  # a .patch (bench/variants/: diff -ruN a b of bench/ and src/cuda/device/) goes onto this tree
  if [ "${header%.patch}" != "$header" ]; then
    (cd "$bin/$name.src" && patch -s -p1) < "$header" > "$out/patch_$name.log" 2>&1 || { summary "$name: $header does not apply"; names=${names% $name}; continue; }
  else
    [ -d "$header" ] && header=$header/src/cuda/device/sw_warp_rows_proc.cuh
    cp "$header" "$bin/$name.src/src/cuda/device/sw_warp_rows_proc.cuh"
  fi
  (cd "$bin/$name.src" && nvcc $flags -Ibench -o "$bin/$name" bench/sw_warp_rows.cu > "$out/build_$name.log" 2>&1) &
done
wait
for v in $names; do
  summary "build $v: $(grep -A2 'pairs_kernel' "$out/build_$v.log" | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | tr '\n' ' ')"
  cuobjdump -sass "$bin/$v" | awk '/Function : / { p = /pairs_kernel/ } p' > "$out/sass_$v.txt" 2>&1
done
for v in $names; do # (PW_AB_SHAPES=N: each build on N random shapes against a CPU Gotoh first, both lane widths)
  [ "${PW_AB_SHAPES:-0}" -gt 0 ] || break
  summary "$v shapes: $( (timeout 120 "$bin/$v" --shapes "$PW_AB_SHAPES" --pairs; timeout 120 "$bin/$v" --shapes "$PW_AB_SHAPES") 2>&1 | grep 'shapes:' | tr '\n' ' ')"
done
pw_genomes "$bin"
for round in $(seq "${PW_AB_ROUNDS:-2}"); do
  for v in $names; do
    timeout 60 "$bin/$v" --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --balance ${PW_AB_ARGS---pairs} "$g2" "$g1" > "$out/run.log" 2>&1
    summary "$v: $(tail -1 "$out/run.log")"
  done
done
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
