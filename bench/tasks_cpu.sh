#!/usr/bin/env bash
# bench/tasks_cpu.sh - the task engine on the CPU (issue 31): breadth-first search (bench_bfs: a
# road-like grid and an R-MAT graph, task engine DQ and CQ against the textbook queue), and a
# wavefront as a task graph against the peer and barrier engines (HEAT one sweep and SW, median of
# 3, every run checked by --check).  A CPU-only build: runs anywhere (e.g. a GPU machine's host).
#   bash bench/tasks_cpu.sh [GRID] [RMAT_SCALE]
set -u
out=${OUT:-/tmp/pw-tasks}
mkdir -p "$out"
cd "$(dirname "$0")/.."
cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=OFF > "$out/build.log" 2>&1 &&
  cmake --build build-cpu -j "$(nproc)" --target peerwave_cli bench_bfs >> "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
echo "== $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
./build-cpu/bench_bfs --grid ${1:-4096x4096} --rmat ${2:-22} 2>&1 | tee "$out/bfs.log"
median() { sort -n | sed -n 2p; }
for app in "heat --size 8192x8192 --sweeps 1" "sw --tile-h 64 $out/a.fa $out/b.fa"; do
  if [ ! -f "$out/a.fa" ]; then
    awk 'BEGIN { srand(3); print ">a"; for (i = 0; i < 60000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$out/a.fa"
    awk 'BEGIN { srand(4); print ">b"; for (i = 0; i < 60000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$out/b.fa"
  fi
  for s in peer barrier "tasks" "tasks-central"; do
    st=${s%-central}; env=""
    [ "$s" = tasks-central ] && env="PEERWAVE_TASK_QUEUES=central"
    t=$(for r in 1 2 3; do env $env ./build-cpu/peerwave $app --backend cpu --strategy $st --tile-w 512 | sed -n 's/^seconds: //p'; done | median)
    ok=$(env $env ./build-cpu/peerwave $app --backend cpu --strategy $st --tile-w 512 --check | sed -n 's/^check: //p')
    echo "${app%% *} $s: ${t} s (median of 3), check ${ok:-FAILED}"
  done
done | tee "$out/wavefront.log"
