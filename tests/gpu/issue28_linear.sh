#!/usr/bin/env bash
# tests/gpu/issue28_linear.sh - one device call for SW's linear-gap warp-rows cell (issue 28):
# while the library builds, the harness (bench/sw_warp_rows.cu, R = 12, three blocks an SM,
# balanced rounds: the library's shape) times the shared and the linear cell on a long random
# pair in 16-bit pairs and 32-bit lanes; then test_sw_rows (the engine forced on random awkward
# shapes, half of them linear, against pw_sw on the CPU), test_cli and test_cells_gpu.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/issue28_linear.sh
set -u
out=${OUT:-/tmp/pw-issue28-linear}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
nvcc -O3 -arch=sm_90 -std=c++17 -Ibench -DPW_R=12 -DPW_SWR_BLOCKS_PER_SM=3 -o "$bin/swr" bench/sw_warp_rows.cu > "$out/harness_build.log" 2>&1
PW_BUILD_TARGETS="peerwave_cli test_sw_rows test_cells" pw_build_gpu "$out/build.log" &
build=$!
size=${PW_SIZE:-2000000}
for cell in "" --linear-cell; do
  for mode in --pairs ""; do
    timeout 90 "$bin/swr" --match 1 --mismatch -3 --gap-open 2 --gap-extend 2 --random $size $size --runs 3 --balance $mode $cell > "$out/h.log" 2>&1
    summary "harness ${cell:-shared} ${mode:-32-bit}: $(tail -1 "$out/h.log" | sed 's/^sw_warp_rows //')"
  done
done
wait $build
summary "build: $([ $? = 0 ] && echo ok || echo FAILED)"
timeout 200 ./build-gpu/tests/test_sw_rows > "$out/test_sw_rows.log" 2>&1 &
rows=$!
(cd build-gpu && timeout 200 ctest --output-on-failure -j 2 -R '^(test_cli|test_cells_gpu)$' > "$out/ctest.log" 2>&1)
summary "ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
wait $rows
summary "test_sw_rows: rc=$? $(tail -1 "$out/test_sw_rows.log")"
grep FAIL "$out/test_sw_rows.log" | head -5 >> "$out/summary.txt"
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
