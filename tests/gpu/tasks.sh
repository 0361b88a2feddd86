#!/usr/bin/env bash
# tests/gpu/tasks.sh - the GPU task engine (issue 31) in one device call: build; breadth-first
# search on it against the textbook queue (test_bfs --gpu) and under compute-sanitizer; every
# app's wavefront as a tile graph among the other strategies (test_gpu: tasks is one of its four
# strategies) and memcheck/racecheck over small shapes; user cells on every GPU strategy; then
# the benchmarks: bench_bfs --gpu (a road-like grid and an R-MAT graph: task engine DQ and CQ
# against one launch a level) and HEAT / SW as tile graphs against PW+FHT and GS+HT (kernel time,
# median of 3, each result checked against the CPU at a smaller size first).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/tasks.sh
# PW_TASKS_STAGES picks stages (default all: "bfs gpu sanitize cells fn bench"): one device call has
# 600 s, and the build takes about five minutes of it on a fresh machine.
set -u
out=${OUT:-/tmp/pw-tasks-gpu}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
. tests/gpu/device_lib.sh
pw_begin
[ -x build-gpu/tests/test_bfs ] || { tail -30 "$out/build.log"; exit 1; }
stages=" ${PW_TASKS_STAGES:-bfs gpu sanitize cells fn bench} "
stage() { [[ "$stages" == *" $1 "* ]]; }
if stage bfs; then
timeout 120 ./build-gpu/tests/test_bfs --gpu > "$out/test_bfs_gpu.log" 2>&1
summary "test_bfs --gpu: rc=$? $(tail -1 "$out/test_bfs_gpu.log")"
grep -E "FAIL|^large" "$out/test_bfs_gpu.log" | head -12 | tee -a "$out/summary.txt"
fi
if stage bfs && stage sanitize; then
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_bfs --gpu > "$out/sanitizer_bfs.log" 2>&1
summary "compute-sanitizer memcheck test_bfs --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_bfs.log" | tail -2 | tr '\n' ' ')"
fi
if stage gpu; then
PW_TEST_SHAPES=${PW_TEST_SHAPES:-120} timeout 200 ./build-gpu/tests/test_gpu > "$out/test_gpu.log" 2>&1
summary "test_gpu (${PW_TEST_SHAPES:-120} shapes, 4 strategies): rc=$? $(tail -1 "$out/test_gpu.log")"
grep -E "FAIL|^concurrent" "$out/test_gpu.log" | head -12 | tee -a "$out/summary.txt"
fi
stage sanitize && pw_sanitize "$out" memcheck racecheck | tee -a "$out/summary.txt"
if stage cells; then
timeout 150 ./build-gpu/tests/test_cells --gpu > "$out/test_cells_gpu.log" 2>&1
summary "test_cells --gpu: rc=$? $(tail -1 "$out/test_cells_gpu.log")"
grep FAIL "$out/test_cells_gpu.log" | head -6 | tee -a "$out/summary.txt"

fi
if stage fn; then # task functions compiled at run time (NVRTC), and the example
timeout 120 ./build-gpu/tests/test_task_fn --gpu > "$out/test_task_fn_gpu.log" 2>&1
summary "test_task_fn --gpu: rc=$? $(tail -1 "$out/test_task_fn_gpu.log")"
grep FAIL "$out/test_task_fn_gpu.log" | head -6 | tee -a "$out/summary.txt"
summary "example_task_fn: $(timeout 60 ./build-gpu/tests/example_task_fn 2>&1 | tail -1)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_task_fn --gpu > "$out/sanitizer_task_fn.log" 2>&1
summary "compute-sanitizer memcheck test_task_fn --gpu: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/sanitizer_task_fn.log" | tail -2 | tr '\n' ' ')"
fi

# ---- benchmarks ----
stage bench || { echo "================ summary"; cat "$out/summary.txt"; exit 0; }
timeout 150 ./build-gpu/bench_bfs --gpu --grid ${PW_BFS_GRID:-1600x1600} --rmat ${PW_BFS_RMAT:-20} > "$out/bench_bfs.log" 2>&1
summary "bench_bfs --gpu: rc=$?"
grep -E "^(grid|rmat)" "$out/bench_bfs.log" | tee -a "$out/summary.txt"
pw=./build-gpu/peerwave
t=$(mktemp -d)
seq_fa() { awk -v n=$1 -v s=$2 'BEGIN { srand(s); print ">x"; for (i = 0; i < n; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }'; }
seq_fa 65536 3 > "$t/a.fa"; seq_fa 65536 4 > "$t/b.fa"; seq_fa 8000 5 > "$t/c.fa"; seq_fa 7000 6 > "$t/d.fa"
median() { sort -g | sed -n 2p; }
# name, strategy, shape, env
methods=("PW+FHT peer hyper -" "GS+HT barrier hyper -" "TASKS-DQ tasks hyper -" "TASKS-CQ tasks hyper PEERWAVE_TASK_QUEUES=central")
# the engine's own tiles, then fine ones (32 x 32: a quarter of a million tasks for HEAT, the
# dissertation's setting, where the queues themselves are the bottleneck: DQ against CQ)
fine="--tile-h 32 --tile-w 32"
for app in "heat --size 16384x16384 --sweeps 1|heat --size 1500x1300 --sweeps 2" "sw $t/a.fa $t/b.fa --gap-open 5 --gap-extend 2|sw $t/c.fa $t/d.fa --gap-open 5 --gap-extend 2" \
           "heat --size 16384x16384 --sweeps 1 $fine|heat --size 1500x1300 --sweeps 2 $fine"; do
  big=${app%%|*}; small=${app##*|}
  for m in "${methods[@]}"; do
    set -- $m; name=$1 strat=$2 shape=$3 env=$4; [ "$env" = - ] && env=
    ok=$(env $env $pw $small --backend cuda --strategy $strat --tile-shape $shape --check 2>&1 | sed -n 's/^check: //p')
    ks=$(for r in 1 2 3; do env $env $pw $big --backend cuda --strategy $strat --tile-shape $shape 2>&1 | sed -n 's/^seconds: //p'; done | median)
    summary "${big%% *}$([[ "$big" == *tile-w* ]] && echo ' (32x32 tiles)') $name: kernel ${ks:-FAILED} s (median of 3; big), check ${ok:-FAILED} (small)"
  done
done
rm -rf "$t"
echo "================ summary"
cat "$out/summary.txt"
