# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): pw_fmodf's
# branch-free route (d3858d8) on the GPU and what it gives the 3-D processor, with binaries built
# on the development machine and carried:
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/peerwave", "build-gpu/tests/test_cells",
#       "build-gpu/bench_hyperplane3d"])
set -u
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache
timeout ${PW_TEST_LIMIT:-360} stdbuf -oL ./build-gpu/tests/test_cells --gpu > $OUT/test_cells_gpu.log 2>&1
echo "test_cells --gpu: rc=$? $(tail -1 $OUT/test_cells_gpu.log)"; grep FAIL $OUT/test_cells_gpu.log | head -5
pw=./build-gpu/peerwave; t=/tmp/g3; mkdir -p $t
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
for n in 512 1024; do
  timeout 100 $pw run examples/cells/lu_like.c --size ${n}x${n}x${n} $lu --backend cuda -o $t/g$n.npy > /dev/null 2>&1
  timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda -o $t/o.npy > /dev/null 2>&1
  s=$(for r in 1 2 3; do timeout 60 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda | sed -n 's/^seconds: //p'; done | sort -g | sed -n 2p)
  echo "$n^3 demonstrator 4x8: $s s"
  timeout 100 ./build-gpu/bench_hyperplane3d $t/g$n.npy 7 3 --check $t/o.npy | tr '\n' ' '; echo
  s=$(for r in 1 2 3; do timeout 60 $pw run examples/cells/lu_like.c --grid $t/g$n.npy ${lu/iterations=1/iterations=10} --backend cuda | sed -n 's/^seconds: //p'; done | sort -g | sed -n 2p)
  echo "$n^3 lu_like 10 rounds: $s s"
done
