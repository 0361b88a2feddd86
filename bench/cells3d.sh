#!/usr/bin/env bash
# bench/cells3d.sh - the 3-D processor (Warp3Proc) in one device call: build; test_cells --gpu;
# seed 004's demonstrator at 512^3 and 1024^3 for each tile shape in PW_TILES (PEERWAVE_3D_TILE,
# planes a thread x warps a block [x slices ahead x steps a hand-over [x blocks an SM]]; kernel
# seconds, median of 3), each tile's grid compared bit for bit with the first tile's, and the
# one-launch-per-hyperplane baseline checked against the first tile's (after test_cells --gpu and
# its memcheck; PW_CELLS3D_TESTS=0 skips those); the LU-like sweep; with PW_NCU=1 an Nsight
# Compute look at the default tile at 512^3 (scheduler and warp-state sections).
#   PW_COMMIT=$(git rev-parse --short HEAD) PW_TILES="4x8 4x8x2x2 4x8x4x4x3" bash bench/cells3d.sh
set -u
out=${OUT:-/tmp/pw-cells3d}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
export PEERWAVE_CACHE=/tmp/pw-cell-cache
if [ "${PW_CELLS3D_TESTS:-1}" != 0 ]; then
  timeout 300 ./build-gpu/tests/test_cells --gpu > "$out/test_cells_gpu.log" 2>&1
  summary "test_cells --gpu: rc=$? $(tail -1 "$out/test_cells_gpu.log")"
  grep FAIL "$out/test_cells_gpu.log" | head -8 >> "$out/summary.txt"
  PW_TEST_ROUNDS=3 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_cells --gpu > "$out/san_memcheck.log" 2>&1
  summary "compute-sanitizer memcheck: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/san_memcheck.log" | tail -2 | tr '\n' ' ')"
fi
pw=./build-gpu/peerwave
t=$(mktemp -d)
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }
gpts() { awk -v s=$1 -v n=$2 'BEGIN { if (s > 0) printf "%.2f Gpoints/s", n * n * n / s / 1e9 }'; }
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
for n in 512 1024; do
  timeout 200 $pw run examples/cells/lu_like.c --size ${n}x${n}x${n} $lu --backend cuda -o $t/g$n.npy > /dev/null 2>&1
  rm -f $t/ours.npy
  for tile in ${PW_TILES:-4x8}; do
    PEERWAVE_3D_TILE=$tile timeout 100 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda -o $t/this.npy > /dev/null 2>&1
    [ -f $t/ours.npy ] || cp $t/this.npy $t/ours.npy
    same=$(cmp -s $t/this.npy $t/ours.npy && echo "same grid as the first tile" || echo "GRID DIFFERS from the first tile")
    s3=$(for r in 1 2 3; do PEERWAVE_3D_TILE=$tile timeout 100 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda | secs; done | median3)
    s10=$(for r in 1 2 3; do PEERWAVE_3D_TILE=$tile timeout 100 $pw run examples/cells/lu_like.c --grid $t/g$n.npy ${lu/iterations=1/iterations=10} --backend cuda | secs; done | median3)
    summary "${n}^3 tile $tile: demonstrator $s3 s ($(gpts $s3 $n)), lu_like (10 rounds) $s10 s ($(gpts $s10 $n)); $same"
  done
  timeout 200 ./build-gpu/bench_hyperplane3d $t/g$n.npy 7 3 --check $t/ours.npy > "$t/hp" 2>&1
  summary "hyperplane baseline ${n}^3 (checked against the first tile's output): $(tr '\n' ' ' < "$t/hp")"
  if [ $n = 512 ] && [ "${PW_NCU:-0}" = 1 ]; then
    timeout 200 ncu --section SchedulerStats --section WarpStateStats --section SpeedOfLight --section Occupancy -k regex:pw_peer \
      $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda > "$out/ncu.txt" 2>&1
    summary "ncu: $(grep -E 'Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|Duration' "$out/ncu.txt" | sed 's/  */ /g' | tr '\n' ';')"
    grep -E "Stall|stall" "$out/ncu.txt" | head -20 >> "$out/summary.txt"
  fi
  rm -f $t/g$n.npy $t/ours.npy $t/this.npy
done
rm -rf "$t"
echo "================ summary"
cat "$out/summary.txt"
