# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed); now: why two
# chains a thread made the 3-D processor slower (a2fef71: 1.5-1.9x the time of one chain):
# Nsight Compute's scheduler, warp-state and instruction sections on seed 004's demonstrator at
# 512^3 for the default tile and 2x8 with two chains, and the SASS of both cached kernels.
# Binaries built here, stripped and packed (see git history of this file for the recipe):
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
tar xJf build-gpu/carry/bins.tar.xz -C build-gpu/carry && mv build-gpu/carry/peerwave build-gpu/
export PEERWAVE_CACHE=/tmp/pw-cell-cache
pw=./build-gpu/peerwave; t=$(mktemp -d)
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
timeout 100 $pw run examples/cells/lu_like.c --size 512x512x512 $lu --backend cuda -o $t/g.npy > /dev/null 2>&1
sections="--section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats --section InstructionStats"
for tile in 4x8 2x8x4x4x0x2; do
  PEERWAVE_3D_TILE=$tile timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g.npy --param modulus=7 --backend cuda > /dev/null 2>&1
  ls -t $PEERWAVE_CACHE | head -1 > $t/entry_$tile
  PEERWAVE_3D_TILE=$tile timeout 150 ncu $sections -k regex:pw_peer -o "$out/demo_$tile" -f $pw run examples/cells/demonstrator3d.c --grid $t/g.npy --param modulus=7 --backend cuda > "$out/ncu_$tile.log" 2>&1
  ncu --import "$out/demo_$tile.ncu-rep" --print-summary none > "$out/details_$tile.txt" 2>&1
  echo "$tile: $(grep -E 'Duration|Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Executed Instructions  |Stall' "$out/details_$tile.txt" | sed 's/  */ /g' | tr '\n' ';')"
  tail -c +33 "$PEERWAVE_CACHE/$(cat $t/entry_$tile)" > $t/k.cubin && cuobjdump -sass $t/k.cubin | gzip > "$out/sass_$tile.txt.gz"
done
rm -rf $t
