# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): user linear cells
# with their row and column inputs loaded once a row / column (Row, Col of the generated cell) on
# the GPU, checked by test_cells --gpu, and the user SW-Gotoh cell against `peerwave sw` (whatever
# engine it takes) at 65536^2 and 262144^2, with binaries built on the development machine:
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/peerwave", "build-gpu/tests/test_cells"])
set -u
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
. tests/gpu/device_lib.sh
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache
timeout ${PW_TEST_LIMIT:-300} stdbuf -oL ./build-gpu/tests/test_cells --gpu > $out/test_cells_gpu.log 2>&1
echo "test_cells --gpu: rc=$? $(tail -1 $out/test_cells_gpu.log)"; grep FAIL $out/test_cells_gpu.log | head -5
pw=./build-gpu/peerwave; t=/tmp/g2; mkdir -p $t
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }
for n in 65536 262144; do
  pw_seq_file $n 11 > "$t/A.fa"; pw_seq_file $n 12 > "$t/B.fa"
  $pw sw $t/A.fa $t/B.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda > $out/sw_$n.txt 2>&1
  $pw run examples/cells/sw_gotoh.c --input a=$t/A.fa --input b=$t/B.fa --param match=1 --param mismatch=-3 \
      --param open=5 --param extend=2 --backend cuda > $out/user_$n.txt 2>&1
  echo "built-in $n: $(grep -E '^(score|end_a|end_b|engine|tile|strategy)' $out/sw_$n.txt | tr '\n' ' ')"
  echo "user     $n: $(grep -E '^(best_h|best|tile|strategy|engine)' $out/user_$n.txt | tr '\n' ' ')"
  b=$(for r in 1 2 3; do $pw sw $t/A.fa $t/B.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda | secs; done | median3)
  bt=$(for r in 1 2 3; do PEERWAVE_SW_ENGINE=tiles $pw sw $t/A.fa $t/B.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda | secs; done | median3)
  u=$(for r in 1 2 3; do $pw run examples/cells/sw_gotoh.c --input a=$t/A.fa --input b=$t/B.fa --param match=1 --param mismatch=-3 \
       --param open=5 --param extend=2 --backend cuda | secs; done | median3)
  l=$(for r in 1 2 3; do $pw run examples/cells/levenshtein.c --input a=$t/A.fa --input b=$t/B.fa --backend cuda | secs; done | median3)
  echo "SW ${n}^2 5/2: built-in $b s (tiles engine $bt s), user cell $u s: user/built-in $(awk -v b=$b -v u=$u 'BEGIN { printf "%.3f", b / u }'), user/tiles $(awk -v b=$bt -v u=$u 'BEGIN { printf "%.3f", b / u }'); levenshtein $l s"
done
