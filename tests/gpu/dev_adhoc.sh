# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): SW's warp-rows
# engine over two GPUs (issue 29: sw_warp_rows_gpus.cu, asked for only until it has run on two),
# on a 2-GPU machine, with binaries built on the development machine, stripped and packed:
#   mkdir -p build-gpu/carry && strip -o build-gpu/carry/peerwave build-gpu/peerwave &&
#     strip -o build-gpu/carry/test_sw_rows build-gpu/tests/test_sw_rows &&
#     (cd build-gpu/carry && tar cf - peerwave test_sw_rows | xz -T4 > bins2.tar.xz)
#   run(kind="nvidia-h200-x2", command="bash tests/gpu/dev_adhoc.sh",
#       carry=["build-gpu/carry/bins2.tar.xz", ".bench-data/kmer_test_data.tar.gz"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
. tests/gpu/device_lib.sh
mkdir -p build-gpu/tests && tar xJf build-gpu/carry/bins2.tar.xz -C build-gpu/carry &&
  mv build-gpu/carry/peerwave build-gpu/ && mv build-gpu/carry/test_sw_rows build-gpu/tests/
nvidia-smi -L
PW_SW_ROWS_GPUS=0,1 PW_SW_ROWS_LARGE=1 timeout 200 ./build-gpu/tests/test_sw_rows > "$out/test_sw_rows.log" 2>&1
echo "test_sw_rows (GPUs 0,1 too): rc=$? $(tail -2 "$out/test_sw_rows.log" | tr '\n' ' ')"
grep FAIL "$out/test_sw_rows.log" | head -5
t=/tmp/gen; mkdir -p $t
if pw_genomes $t; then
  for run in "1" "2"; do
    f="$out/genomes_${run}gpu.txt"
    if [ $run = 1 ]; then timeout 100 ./build-gpu/peerwave sw --backend cuda --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > "$f" 2>&1
    else timeout 100 ./build-gpu/peerwave sw --gpus 2 --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > "$f" 2>&1; fi
    echo "genomes 1/-3/5/2 on $run GPU(s): rc=$? $(grep -E '^(score|end_a|end_b|seconds|gcups|lane_bits|threads|engine):' "$f" | tr '\n' ' ')"
  done
fi
