# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed).  NEXT SESSION'S
# FIRST CALL: what session 11 (2026-11-29) built without device time left --
#   - the GPU tasks schedule's pipelined sweeps (2d53b4e) and the barrier's one-sweep path without
#     64-bit divisions (47e6523): test_gpu (HEAT/SOR on every strategy with 1-12 sweeps) and
#     test_cells --gpu (user heat cells, plane-layout 3-D on every strategy);
#   - the pairs kernel's end-cell rule by best_cell.h's macro (one predicate move in its PTX):
#     test_batch --gpu;
#   - HEAT 16384^2 1 and 8 sweeps on barrier and tasks, against the tree before (old/peerwave).
# Binaries built on the development machine, stripped and packed: new = build-gpu at HEAD
# (peerwave, tests/test_gpu, tests/test_cells, tests/test_batch), old = a peerwave built at
# a2fef71 (git worktree add /tmp/old a2fef71, configure and make peerwave_cli there):
#   mkdir -p build-gpu/carry/x/new build-gpu/carry/x/old && for b in peerwave tests/test_gpu tests/test_cells
#     tests/test_batch; do strip -o build-gpu/carry/x/new/$(basename $b) build-gpu/$b; done &&
#     strip -o build-gpu/carry/x/old/peerwave /tmp/old/build/peerwave &&
#     (cd build-gpu/carry/x && tar cf - new old | xz -T4 -3 > ../bins.tar.xz) && rm -rf build-gpu/carry/x
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache PEERWAVE_WISDOM=/tmp/pw-wisdom.tsv
n=/tmp/v/new
timeout 240 $n/test_gpu > $out/test_gpu.log 2>&1; echo "test_gpu: rc=$? $(tail -1 $out/test_gpu.log)"; grep FAIL $out/test_gpu.log | head -5
PW_TEST_ONLY=heat,3d,plane timeout 150 $n/test_cells --gpu > $out/test_cells.log 2>&1; echo "test_cells --gpu (heat, 3d, plane): rc=$? $(tail -1 $out/test_cells.log)"; grep FAIL $out/test_cells.log | head -5
timeout 120 $n/test_batch --gpu > $out/test_batch.log 2>&1; echo "test_batch --gpu: rc=$? $(tail -1 $out/test_batch.log)"; grep FAIL $out/test_batch.log | head -5
secs() { sed -n 's/^seconds: //p'; }
for strategy in barrier tasks; do for sweeps in 1 8; do
  for r in 1 2 3; do for v in old new; do
    echo "$v $(/tmp/v/$v/peerwave heat --size 16386x16386 --sweeps $sweeps --strategy $strategy --backend cuda | secs)"
  done; done | sort | awk -v t="HEAT 16384^2 $sweeps sweeps $strategy" '{a[$1] = a[$1] " " $2} END {for (k in a) print t " " k ":" a[k]}'
done; done
