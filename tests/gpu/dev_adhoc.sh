# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed); now: the 3-D
# processor's chains (rows j a thread, PEERWAVE_3D_TILE's sixth number): test_cells --gpu's 3-D
# sections, then bench/cells3d.sh over tiles with one, two and four chains, with binaries built
# on the development machine, stripped and packed (they pass the 64 MiB a call carries only so):
#   mkdir -p build-gpu/carry && for b in peerwave tests/test_cells bench_hyperplane3d; do
#     strip -o build-gpu/carry/$(basename $b) build-gpu/$b; done &&
#     (cd build-gpu/carry && tar cf - peerwave test_cells bench_hyperplane3d | xz -T4 -3 > bins.tar.xz &&
#      rm peerwave test_cells bench_hyperplane3d)
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
tar xJf build-gpu/carry/bins.tar.xz -C build-gpu/carry && mkdir -p build-gpu/tests &&
  mv build-gpu/carry/peerwave build-gpu/carry/bench_hyperplane3d build-gpu/ && mv build-gpu/carry/test_cells build-gpu/tests/
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache PEERWAVE_WISDOM=/tmp/pw-wisdom.tsv
PW_TEST_ONLY=3d,4x8x1x1,2x4x3x5x8,4x8x4x4x0x2,2x4x2x3x0x4,1x2x4x4x0x2 timeout 150 stdbuf -oL ./build-gpu/tests/test_cells --gpu > $out/test_cells_gpu.log 2>&1
echo "test_cells --gpu (3-D sections): rc=$? $(tail -1 $out/test_cells_gpu.log)"; grep -E "FAIL|section" $out/test_cells_gpu.log | head -12
PW_NO_BUILD=1 PW_CELLS3D_TESTS=0 PW_TILES="4x8 2x8x4x4x0x2 4x8x4x4x0x2 2x4x4x4x0x2 1x8x4x4x0x4 1x8x4x4x0x2 2x8x8x4x0x2 4x4x4x4x0x2" \
  timeout 400 bash bench/cells3d.sh > $out/cells3d.log 2>&1
sed -n '/^=====/,$p' $out/cells3d.log
