# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed); next: the
# generated row/column inputs of every type on the GPU (test_cells --gpu: test_input_types), and
# the automatic width's sixteenth-of-a-row cap (8fb2f3d) against session 10's whole-row figures,
# with binaries built on the development machine, stripped and packed (they pass the 64 MiB a
# call carries only so):
#   mkdir -p build-gpu/carry && strip -o build-gpu/carry/peerwave build-gpu/peerwave &&
#     strip -o build-gpu/carry/test_cells build-gpu/tests/test_cells &&
#     (cd build-gpu/carry && tar cf - peerwave test_cells | xz -T2 -3 > bins.tar.xz && rm peerwave test_cells)
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
. tests/gpu/device_lib.sh
tar xJf build-gpu/carry/bins.tar.xz -C build-gpu/carry && mkdir -p build-gpu/tests &&
  mv build-gpu/carry/peerwave build-gpu/ && mv build-gpu/carry/test_cells build-gpu/tests/
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache PEERWAVE_WISDOM=/tmp/pw-wisdom.tsv
# the types section alone first (its own cell: a few NVRTC compiles), then every section, which
# prints its seconds as it ends (the whole test passed 300 s on a cold cache on 2026-11-29)
PW_TEST_ONLY=types timeout 200 stdbuf -oL ./build-gpu/tests/test_cells --gpu > $out/test_cells_types.log 2>&1
echo "test_cells --gpu types: rc=$? $(tail -1 $out/test_cells_types.log)"; grep FAIL $out/test_cells_types.log | head -5
timeout ${PW_TEST_LIMIT:-300} stdbuf -oL ./build-gpu/tests/test_cells --gpu > $out/test_cells_gpu.log 2>&1
echo "test_cells --gpu: rc=$? $(tail -1 $out/test_cells_gpu.log)"; grep -E "FAIL|section" $out/test_cells_gpu.log | head -20
[ -n "${PW_TESTS_ONLY:-}" ] && exit 0
pw=./build-gpu/peerwave; t=/tmp/gw; mkdir -p $t
python3 -c "
import numpy as np
r = np.random.default_rng(5)
for s in 'ab': np.savetxt('/tmp/gw/dtw_%s.txt' % s, r.random(262144, dtype=np.float32), fmt='%.6f')"
for n in 65536 262144; do pw_seq_file $n 11 > $t/A$n.fa; pw_seq_file $n 12 > $t/B$n.fa; done
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }
one() { # name, command...: the first run trains (its width shown), then the median of 3
  local name=$1; shift
  local first=$(timeout 120 "$@" 2>&1 | grep -E '^(tile_w|tile_h)' | tr '\n' ' ')
  echo "$name: $(for r in 1 2 3; do timeout 120 "$@" | secs; done | median3) s [$first]"
}
# session 10, whole rows (H200): SW 12.64 / 84.04 ms, SW linear 75.0, DTW 262144^2 52.08, HEAT 1.955 / 8.115
one "SW 65536^2" $pw sw $t/A65536.fa $t/B65536.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda
one "SW 262144^2" $pw sw $t/A262144.fa $t/B262144.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda
one "SW lin 262144^2" $pw sw $t/A262144.fa $t/B262144.fa --match 2 --mismatch -3 --gap-open 2 --gap-extend 2 --backend cuda
one "DTW 262144^2" $pw dtw $t/dtw_a.txt $t/dtw_b.txt --type f32 --backend cuda
one "HEAT 16384^2 1 sweep" $pw heat --size 16386x16386 --sweeps 1 --backend cuda
one "HEAT 16384^2 8 sweeps" $pw heat --size 16386x16386 --sweeps 8 --backend cuda
# the model's earlier DTW pick (session 9: TILED, width 11105) at the same size, to compare with the capped default
one "DTW 262144^2 w11105" $pw dtw $t/dtw_a.txt $t/dtw_b.txt --type f32 --backend cuda --tile-w 11105
