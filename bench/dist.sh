#!/usr/bin/env bash
# bench/dist.sh - one wavefront over several ranks on the CPU (issue 29): bench_dist with 2 and 4
# ranks of threads against one process of as many threads, on the machine's cores (each result
# checked against the single process's).  Reuses build-gpu when bench/queue.sh or tests/gpu/run.sh
# built it in the same call, else builds the CPU part alone.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/dist.sh
set -u
out=${OUT:-/tmp/pw-dist}
mkdir -p "$out"
cd "$(dirname "$0")/.."
bin=build-gpu/bench_dist
if [ ! -x "$bin" ]; then
  cmake -S . -B build-dist -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=OFF > "$out/dist_build.log" 2>&1 &&
    cmake --build build-dist -j "$(nproc)" --target bench_dist >> "$out/dist_build.log" 2>&1
  bin=build-dist/bench_dist
fi
cores=$(nproc)
{
  echo "commit ${PW_COMMIT:-?}, $cores cores"
  for ranks in 2 4; do
    timeout 240 "$bin" --ranks "$ranks" --threads $((cores / ranks)) --sw 60000 --grid 8192
  done
} > "$out/bench_dist.log" 2>&1
cat "$out/bench_dist.log"
