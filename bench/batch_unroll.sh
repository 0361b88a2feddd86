#!/usr/bin/env bash
# bench/batch_unroll.sh - the GPU database search with its column loop unrolled
# (src/cuda/device/batch_sw_proc.cuh, PW_BATCH_UNROLL: 0 the compiler's choice, 2, 4), in one
# device call: bench_batch_sw built once a setting (the header's default changed in the device's
# copy of the tree, then put back), test_batch --gpu on each unrolled build, then each query of the
# issue's set alone against a million records of length 256 and the Swiss-Prot-like mix, the
# builds in turns (PW_ROUNDS rounds), every result sampled against the CPU.  The warp-rows engine
# gained 8% from the same change (docs/PERFORMANCE.md, session 6).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/batch_unroll.sh
set -u
out=${OUT:-/tmp/pw-batch-unroll}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
header=src/cuda/device/batch_sw_proc.cuh
keep=$(mktemp)
cp "$header" "$keep"
trap 'cp "$keep" "$header"; rm -f "$keep"' EXIT # (the header back however the script ends)
bin=$(mktemp -d)
pw_summary_start
settings=${PW_UNROLLS:-0 2 4}
for u in $settings; do
  sed -i "s/^#define PW_BATCH_UNROLL [0-9]*/#define PW_BATCH_UNROLL $u/" "$header"
  grep -q "^#define PW_BATCH_UNROLL $u\$" "$header" || { summary "unroll $u: the header's default not found"; continue; }
  if ! PW_BUILD_TARGETS="bench_batch_sw test_batch" pw_build_gpu "$out/build_$u.log"; then
    summary "build unroll $u: FAILED" # (no binary of another setting under its name)
    continue
  fi
  summary "build unroll $u: ok"
  cp build-gpu/bench_batch_sw "$bin/bench_$u" && cp build-gpu/tests/test_batch "$bin/test_$u" || continue
  if [ "$u" != 0 ]; then
    timeout 120 "$bin/test_$u" --gpu > "$out/test_batch_$u.log" 2>&1
    summary "test_batch --gpu, unroll $u: rc=$? $(tail -1 "$out/test_batch_$u.log")"
  fi
done
cp "$keep" "$header"
R=${PW_RECORDS:-1000000}
Q=${PW_QUERIES:-144,464,1000,2005,5478}
for round in $(seq "${PW_ROUNDS:-2}"); do
  for u in $settings; do
    [ -x "$bin/bench_$u" ] || continue
    for q in ${Q//,/ }; do
      timeout 60 "$bin/bench_$u" --backend cuda --records "$R" --length 256 --queries "$q" --sample 100 2>&1 |
        grep -E "^search" | sed "s/^/unroll $u q$q /" | tee -a "$out/summary.txt"
    done
    timeout 120 "$bin/bench_$u" --backend cuda --records "$R" --mix --queries "$Q" --sample 1000 2>&1 |
      grep -E "^search" | sed "s/^/unroll $u mix /" | tee -a "$out/summary.txt"
  done
done
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
