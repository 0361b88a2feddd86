# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): 3-D tiles and the user heat cell
set -u
export PEERWAVE_CACHE=/tmp/pw-cell-cache
[ -x build-gpu/peerwave ] || PW_BUILD_TARGETS="peerwave_cli bench_hyperplane3d" bash -c '. tests/gpu/device_lib.sh; pw_build_gpu $OUT/build.log'
pw=./build-gpu/peerwave; t=/tmp/g3; mkdir -p $t
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
for n in 512 1024; do
  [ -f $t/g$n.npy ] || timeout 200 $pw run examples/cells/lu_like.c --size ${n}x${n}x${n} $lu --backend cuda -o $t/g$n.npy > /dev/null 2>&1
  for tile in 4x8 4x4; do for r in 1 2 3; do
    echo "$n $tile demo $(PEERWAVE_3D_TILE=$tile timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda | grep seconds)"
  done; done
  PEERWAVE_3D_TILE=4x8 timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda -o $t/o.npy > /dev/null
  timeout 100 ./build-gpu/bench_hyperplane3d $t/g$n.npy 7 3 --check $t/o.npy
  for r in 1 2 3; do echo "$n lu10 $(timeout 60 $pw run examples/cells/lu_like.c --grid $t/g$n.npy ${lu/iterations=1/iterations=10} --backend cuda | grep seconds)"; done
done
for sw in 1 8; do for r in 1 2 3; do
 echo "builtin $sw: $($pw heat --size 16386x16386 --sweeps $sw --backend cuda | grep -E '^(tile_h|tile_w|seconds)' | tr '\n' ' ')"
 echo "user $sw: $($pw run examples/cells/heat.c --size 16384x16384 --sweeps $sw --backend cuda | grep -E '^(tile_h|tile_w|seconds)' | tr '\n' ' ')"
 echo "user h128 $sw: $($pw run examples/cells/heat.c --size 16384x16384 --sweeps $sw --backend cuda --tile-h 128 | grep -E '^(tile_h|tile_w|seconds)' | tr '\n' ' ')"
done; done
