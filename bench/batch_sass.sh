#!/usr/bin/env bash
# bench/batch_sass.sh - the SASS of the GPU database search's kernels (16-bit pairs, R = 16, both
# F chains): instruction counts of the inner loop, to see what a cell costs.  Needs only nvcc and
# cuobjdump (no build of the library).   bash bench/batch_sass.sh
set -u
out=${OUT:-/tmp/pw-batch-sass}
mkdir -p "$out"
cd "$(dirname "$0")/.."
nvcc -std=c++17 -O3 -arch=sm_90 -cubin -Iinclude -I. -o "$out/batch_sw.cubin" src/cuda/batch_sw.cu || exit 1
cuobjdump -sass "$out/batch_sw.cubin" > "$out/batch_sw.sass"
for k in $(grep -oE "Function : [^ ]*lanes16x2Li16ELb[01][^ ]*" "$out/batch_sw.sass" | awk '{print $3}'); do
  awk -v k="$k" '$0 ~ "Function : "k {on=1; next} /Function :/ {on=0} on' "$out/batch_sw.sass" > "$out/$k.sass"
  echo "== $k: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$out/$k.sass") instructions"
  grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' "$out/$k.sass" | awk '{print $NF}' | sed 's/\..*//' |
    sort | uniq -c | sort -rn | head -25
done
