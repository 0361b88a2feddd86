# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): the 3-D
# processor's knobs (PEERWAVE_3D_TILE=KWxNW[xAHEADxCHUNK[xBLOCKS]]) with binaries built here and
# carried (build-gpu/peerwave, build-gpu/tests/test_cells), each tile's grid compared with 4x8's.
set -u
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache
pw=./build-gpu/peerwave; t=/tmp/g3; mkdir -p $t
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
for n in 512 1024; do
  timeout 100 $pw run examples/cells/lu_like.c --size ${n}x${n}x${n} $lu --backend cuda -o $t/g$n.npy > /dev/null 2>&1
  rm -f $t/first.npy
  for tile in ${PW_TILES:-4x8 4x8x2x2 4x8x2x1 4x8x4x4x3 4x8x2x2x3 8x1x2x2x16}; do
    PEERWAVE_3D_TILE=$tile timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda -o $t/this.npy > /dev/null 2>&1
    [ -f $t/first.npy ] || cp $t/this.npy $t/first.npy
    s=$(for r in 1 2 3; do PEERWAVE_3D_TILE=$tile timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda | sed -n 's/^seconds: //p'; done | sort -g | sed -n 2p)
    echo "$n^3 $tile: $s s $(cmp -s $t/this.npy $t/first.npy && echo same || echo DIFFERS)"
  done
done
timeout 150 ./build-gpu/tests/test_cells --gpu > $OUT/test_cells_gpu.log 2>&1
echo "test_cells --gpu: rc=$? $(tail -1 $OUT/test_cells_gpu.log)"; grep FAIL $OUT/test_cells_gpu.log | head -5
