#!/usr/bin/env bash
# bench/stencil.sh - HEAT/SOR processor work on the device in one call: incremental build, the
# GPU tests (random shapes; every stencil case draws the warp, window or global processor),
# compute-sanitizer on small shapes, then HEAT and SOR through bench_suite (CUDA events,
# median of runs, every result checked bit-exact against the CPU) over tile heights and widths
# and processors.  Logs under $OUT; a summary last.
# --profile: an ncu profile of one warp-processor HEAT sweep (8192^2, h = 64), the source pages
# (stall samples a SASS line) of one tile-row alone and of a 16384^2 sweep, and the SASS.
# --shapes: HEAT one sweep (peer, hyper tiles) on one tile-row (a step's cost), one column of
# tiles (a tile-row's start lag) and the square, and a --trace of the square summarised by
# scripts/trace_rows.py: where a sweep's time goes.
# --occupancy: ncu's launch and occupancy figures (what limits blocks an SM) of 8 pipelined HEAT
# sweeps, 8192^2, h = 64.
# --suite-only: only the suite's HEAT and SOR lines (every method).
# --quick: only HEAT and SOR (every method), HEAT PW+HT at h = 32 and 128, and 8 HEAT
# sweeps at h = 64 pipelined and one launch each; --env "A=1 B=2,C=3": HEAT PW+FHT (and with
# --quick the 8 sweeps) again under each (commas join variables).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/stencil.sh [--no-tests] [--no-bench] [--profile] [--shapes] [--occupancy] [--quick | --suite-only] [--env "A=1"] [--sizes "16384 32768"]
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-stencil}
mkdir -p "$out"
tests=1 bench=1 profile=0 occupancy=0 shapes=0 quick=0 suite_only=0 envs="" sizes="16384"
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0 ;;
    --no-bench) bench=0 ;;
    --profile) profile=1 ;;
    --occupancy) occupancy=1 ;;
    --shapes) shapes=1 ;;
    --quick) quick=1 ;;
    --suite-only) suite_only=1 ;;
    --env) envs=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    *) echo "bench/stencil.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
. tests/gpu/device_lib.sh
pw_begin

if [ $tests = 1 ]; then
  pw_quick_tests "$out" | tee -a "$out/summary.txt"
fi

if [ $profile = 1 ]; then
  timeout 240 ncu --kernel-name regex:pw_peer_kernel --launch-count 1 --section SpeedOfLight --section Occupancy \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats --section SourceCounters \
    ./build-gpu/peerwave heat --size 8192x8192 --sweeps 1 --tile-h 64 --tile-w 1024 --backend cuda > "$out/ncu_heat.txt" 2>&1
  summary "ncu: rc=$? $(grep -E 'Duration|Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Executed Instructions  |stalled|spends' "$out/ncu_heat.txt" | tr -s ' ' | tr '\n' ';')"
  # where the warps of the R = 2 HEAT kernel stall, instruction by instruction (the report's
  # source page with its SASS): one tile-row alone (a step's and a chunk's cost) and a square
  # sweep (with the tile-rows' waits)
  for shape in 66x16386 16386x16386; do
    timeout 240 ncu --kernel-name regex:pw_peer_kernel --launch-count 1 --section SourceCounters --section WarpStateStats \
      -o "$out/heat" -f ./build-gpu/peerwave heat --size $shape --sweeps 1 --tile-h 64 --tile-w 1024 --backend cuda > /dev/null 2>&1 &&
      ncu -i "$out/heat.ncu-rep" --page source --csv --print-source sass > "$out/source_heat_$shape.csv" 2> "$out/source_heat.err"
    summary "ncu source page $shape: rc=$? $(wc -l < "$out/source_heat_$shape.csv") lines"
    rm -f "$out/heat.ncu-rep"
  done
  cuobjdump -sass -fun '_Z14pw_peer_kernelI15StencilWarpProcIf11StencilCellIfLb0EELi2EEEvT_14pw_engine_args' \
    build-gpu/libpeerwave.a > "$out/sass_heat_r2.txt" 2>&1
  summary "sass HEAT R=2: $(grep -cE '^ +/\*[0-9a-f]+\*/' "$out/sass_heat_r2.txt") instructions, $(grep -c 'LDG' "$out/sass_heat_r2.txt") LDG, $(grep -c 'STG' "$out/sass_heat_r2.txt") STG, $(grep -c 'MEMBAR' "$out/sass_heat_r2.txt") MEMBAR"
fi
if [ $occupancy = 1 ]; then
  timeout 120 ncu --kernel-name regex:pw_peer_kernel --launch-count 1 --section LaunchStats --section Occupancy \
    ./build-gpu/peerwave heat --size 8192x8192 --sweeps 8 --tile-h 64 --tile-w 1024 --backend cuda > "$out/ncu_occupancy.txt" 2>&1
  summary "ncu occupancy, 8 sweeps: rc=$? $(grep -E 'Block Limit|Registers Per Thread|Shared Memory Configuration Size|Dynamic Shared|Static Shared|Grid Size|Theoretical Occupancy' "$out/ncu_occupancy.txt" | tr -s ' ' | tr '\n' ';')"
fi
if [ $shapes = 1 ]; then
  for h in 32 64; do
    for shape in "$((h + 2))x16386" "16386x$((h + 2))" "16386x4098" "4098x16386" "16386x16386"; do
      secs=$(pw_median_seconds ./build-gpu/peerwave heat --backend cuda --size $shape --tile-h $h --tile-w 1024)
      summary "shape HEAT $shape PW+HT ${h}x1024: median of 3 ${secs} s"
    done
    for v in "PEERWAVE_SPIN_POLLS=0" "PEERWAVE_SPIN_POLLS=1000000"; do
      secs=$(pw_median_seconds $v ./build-gpu/peerwave heat --backend cuda --size 16386x$((h + 2)) --tile-h $h --tile-w 1024)
      summary "shape HEAT 16386x$((h + 2)) PW+HT ${h}x1024 $v: median of 3 ${secs} s"
    done
    ./build-gpu/peerwave heat --backend cuda --size 16386x16386 --tile-h $h --tile-w 1024 --trace "$out/trace_h$h.csv" > /dev/null
    summary "trace HEAT 16384^2 PW+HT ${h}x1024:"
    python3 scripts/trace_rows.py "$out/trace_h$h.csv" | sed 's/^/  /' | tee -a "$out/summary.txt"
    rm -f "$out/trace_h$h.csv"
  done
fi
[ $bench = 1 ] || { echo "==== summary"; cat "$out/summary.txt"; exit 0; }
run() { pw_suite "$out/stencil.txt" "$@"; } # label, env, args...
for n in $sizes; do
  grid=$n
  for e in $envs; do run "$e" "${e//,/ }" --only HEAT --method PW+FHT --size $grid; done
  if [ $suite_only = 1 ]; then
    for app in HEAT SOR; do run "suite" "" --only $app --size $grid; done
    continue
  fi
  if [ $quick = 1 ]; then
    summary "HEAT f32 peer kernels R = 1 2 4: $(cuobjdump --dump-resource-usage build-gpu/libpeerwave.a 2>/dev/null |
      grep -A1 'pw_peer_kernelI15StencilWarpProcIf11StencilCellIfLb0EELi' | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' | tr '\n' ';')"
    for app in HEAT SOR; do run "suite" "" --only $app --size $grid; done
    for h in 32 128; do run "warp h=$h w=1024" "" --only HEAT --method PW+HT --tile-h $h --tile-w 1024 --size $grid; done
    run "warp 8 sweeps h=64 w=1024" "" --only HEAT --method PW+HT --tile-h 64 --tile-w 1024 --sweeps 8 --size $grid
    for e in $envs; do run "$e 8 sweeps h=64 w=1024" "${e//,/ }" --only HEAT --method PW+HT --tile-h 64 --tile-w 1024 --sweeps 8 --size $grid; done
    run "warp 8 sweeps one launch each h=64 w=1024" "PEERWAVE_PIPELINE_SWEEPS=0" --only HEAT --method PW+HT --tile-h 64 --tile-w 1024 --sweeps 8 --size $grid
    continue
  fi
  for app in HEAT SOR; do run "suite" "" --only $app --size $grid; done
  for h in 32 64 128; do
    run "warp h=$h w=1024" "" --only HEAT --method PW+HT --tile-h $h --tile-w 1024 --size $grid
  done
  run "global h=128" "PEERWAVE_STENCIL_PROCESSOR=global" --only HEAT --method PW+HT --tile-h 128 --size $grid
  run "warp SOR h=32 w=1024" "" --only SOR --method PW+HT --tile-h 32 --tile-w 1024 --size $grid
  for h in 32 64; do
    run "warp 8 sweeps h=$h w=1024" "" --only HEAT --method PW+HT --tile-h $h --tile-w 1024 --sweeps 8 --size $grid
  done
  run "warp 8 sweeps one launch each h=32 w=1024" "PEERWAVE_PIPELINE_SWEEPS=0" --only HEAT --method PW+HT --tile-h 32 --tile-w 1024 --sweeps 8 --size $grid
done
echo "==== summary"; cat "$out/summary.txt"
