#!/usr/bin/env bash
# bench/profile_cells.sh - where user cells spend their time on the GPU, in one device call: build
# (the CLI, test_sw_rows, the 3-D baseline); then Nsight Compute on
#   - seed 004's demonstrator at 512^3 on the 3-D processor (Warp3Proc): speed of light, warp
#     states, and the per-instruction stall samples of the SASS (ncu's source page), to $OUT;
#   - the user heat cell (heat.c) against `peerwave heat`, one sweep at 16384^2: the same sections
#     for both, and both kernels' SASS (cuobjdump of the cached cubin, of the library's kernel).
# With PW_SW_ROWS=1 it first runs test_sw_rows (the warp-rows engine's tests).  Logs under $OUT.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/profile_cells.sh
set -u
out=${OUT:-/tmp/pw-profile-cells}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
PW_BUILD_TARGETS="peerwave_cli bench_hyperplane3d ${PW_SW_ROWS:+test_sw_rows}" pw_begin
export PEERWAVE_CACHE=/tmp/pw-cell-cache
pw=./build-gpu/peerwave
if [ -n "${PW_SW_ROWS:-}" ]; then
  timeout 200 ./build-gpu/tests/test_sw_rows > "$out/test_sw_rows.log" 2>&1
  summary "test_sw_rows: rc=$? $(tail -1 "$out/test_sw_rows.log")"
fi
t=$(mktemp -d)
sections="--section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats --section InstructionStats"
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
timeout 200 $pw run examples/cells/lu_like.c --size 512x512x512 $lu --backend cuda -o $t/g.npy > /dev/null 2>&1
demo="$pw run examples/cells/demonstrator3d.c --grid $t/g.npy --param modulus=7 --backend cuda"
summary "demonstrator 512^3: $(timeout 60 $demo | grep -E '^(tile|threads|seconds)' | tr '\n' ' ')"
timeout 300 ncu $sections --section SourceCounters --import-source no -k regex:pw_ -o "$out/demo3d" -f $demo > "$out/ncu_demo3d.log" 2>&1
summary "ncu demo3d: rc=$?"
ncu --import "$out/demo3d.ncu-rep" --print-summary none > "$out/demo3d_details.txt" 2>&1
ncu --import "$out/demo3d.ncu-rep" --page source --csv --print-source sass > "$out/demo3d_sass.csv" 2>&1
summary "demo3d: $(grep -E 'Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Executed Instructions  |Duration' "$out/demo3d_details.txt" | sed 's/  */ /g' | tr '\n' ';')"
# a cache entry is a 32-byte header and the cubin (src/jit/cell_cache.c)
sass_of_entry() { tail -c +33 "$1" > "$t/entry.cubin" && cuobjdump -sass "$t/entry.cubin" > "$2" 2>&1; }
for f in "$PEERWAVE_CACHE"/*; do sass_of_entry "$f" "$out/sass_$(basename "$f").txt"; done
ls "$PEERWAVE_CACHE" > "$out/cache_before_heat.txt"

# HEAT: built-in against the user cell, one sweep
timeout 300 ncu $sections -k regex:pw_ -o "$out/heat_builtin" -f $pw heat --size 16386x16386 --sweeps 1 --backend cuda > "$out/ncu_heat_builtin.log" 2>&1
timeout 300 ncu $sections -k regex:pw_ -o "$out/heat_user" -f $pw run examples/cells/heat.c --size 16384x16384 --sweeps 1 --backend cuda > "$out/ncu_heat_user.log" 2>&1
for k in builtin user; do
  ncu --import "$out/heat_$k.ncu-rep" --print-summary none > "$out/heat_${k}_details.txt" 2>&1
  summary "heat $k: $(grep -E '^  [a-z_]|Issued Ipc Active|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Executed Instructions  |Duration|Dynamic Shared|Block Size' "$out/heat_${k}_details.txt" | sed 's/  */ /g' | tr '\n' ';')"
done
for f in "$PEERWAVE_CACHE"/*; do
  grep -qx "$(basename "$f")" "$out/cache_before_heat.txt" && continue
  sass_of_entry "$f" "$out/sass_heat_user_$(basename "$f").txt"
done
# the library's stencil kernels (their function headers name the processor)
cuobjdump -sass build-gpu/CMakeFiles/peerwave_objects.dir/src/cuda/stencil_apps.cu.o 2>/dev/null | awk '/Function : /{p = /Stencil/} p' | gzip > "$out/sass_heat_builtin.txt.gz"
gzip "$out"/sass_*.txt "$out"/demo3d_sass.csv 2>/dev/null
summary "sass files: $(ls "$out" | grep -c sass_) ($(du -sh "$out" | cut -f1) in $out)"
rm -rf "$t"
echo "================ summary"
cat "$out/summary.txt"
