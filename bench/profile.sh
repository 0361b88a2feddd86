#!/usr/bin/env bash
# bench/profile.sh - an ncu profile of the first peer kernel of one bench_suite run (the warm-up),
# for finding what limits a processor: speed of light, occupancy, warp states, scheduler, the
# instruction mix and the source-line counters.  Assumes build-gpu is built (or builds it).
#   PW_COMMIT=... bash bench/profile.sh NAME "bench_suite args"   (report: $OUT/ncu_NAME.txt)
#   e.g. bash bench/profile.sh sw "--only SW --method PW+HT --size 65536"
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-profile}
mkdir -p "$out"
[ $# -eq 2 ] || { echo 'usage: bash bench/profile.sh NAME "bench_suite args"' >&2; exit 2; }
. tests/gpu/device_lib.sh
name=$1 args=$2
[ -x build-gpu/bench_suite ] || pw_build_gpu "$out/build.log"
timeout 400 ncu --kernel-name regex:pw_peer_kernel --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
  --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats \
  --section SourceCounters ./build-gpu/bench_suite --runs 1 $args > "$out/ncu_$name.txt" 2>&1
echo "ncu $name: rc=$? $(grep -E 'Duration|Registers Per|Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Executed Instructions  ' "$out/ncu_$name.txt" | tr -s ' ' | tr '\n' ';')"
