# tests/gpu/dev_adhoc.sh - the latest ad hoc device call (overwritten as needed): the width model's
# CHUNKED kind on the GPU (src/core/auto_width.c) against the TILED one it replaces, every app's
# default run (--tile-w auto, a fresh wisdom file each, trained by a first run), before and after
# in the same call; user cells at h = 64; test_cells --gpu.  Binaries built on the development
# machine, stripped and packed (three of them pass the 64 MiB a call carries; peerwave.before: the
# tree before the change):
#   mkdir -p build-gpu/carry && for f in peerwave peerwave.before tests/test_cells; do
#     strip -o build-gpu/carry/$(basename $f) build-gpu/$f; done
#   (cd build-gpu/carry && tar cJf bins.tar.xz peerwave peerwave.before test_cells)
#   run(command="bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"])
set -u
if [ -f build-gpu/carry/bins.tar.xz ]; then
  tar xJf build-gpu/carry/bins.tar.xz -C build-gpu/carry && mkdir -p build-gpu/tests &&
    mv build-gpu/carry/peerwave build-gpu/carry/peerwave.before build-gpu/ && mv build-gpu/carry/test_cells build-gpu/tests/
fi
out=${OUT:-/tmp/pw-adhoc}; mkdir -p "$out"
. tests/gpu/device_lib.sh
[ -d /work/main/examples ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; } # test_cells finds the examples there
export PEERWAVE_CACHE=/tmp/pw-cell-cache
t=/tmp/gw; mkdir -p $t
python3 - <<'EOF'
import numpy as np
r = np.random.default_rng(5)
np.save('/tmp/gw/f32_32768.npy', r.random((32768, 32768), dtype=np.float32))
np.save('/tmp/gw/u8_16384.npy', r.integers(0, 256, (16384, 16384), dtype=np.uint8))
for n in (65536, 262144):
    for s in 'ab':
        np.savetxt('/tmp/gw/dtw_%s_%d.txt' % (s, n), r.random(n, dtype=np.float32), fmt='%.6f')
EOF
for n in 65536 262144; do pw_seq_file $n 11 > $t/A$n.fa; pw_seq_file $n 12 > $t/B$n.fa; done
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }
# one line a run kind: before and after (each with its own fresh wisdom, trained by a first run)
cmp_run() {
  local name=$1; shift
  local line="$name:"
  for v in before after; do
    local pw=./build-gpu/peerwave; [ $v = before ] && pw=./build-gpu/peerwave.before
    export PEERWAVE_WISDOM=$t/wisdom_$v.tsv
    local first=$(timeout 120 $pw "$@" 2>&1 | grep -E '^(tile_w|tile_h|score|distance|checksum)' | tr '\n' ' ')
    local s=$(for r in 1 2 3; do timeout 120 $pw "$@" | secs; done | median3)
    line="$line  $v $s s [$first]"
  done
  echo "$line"
}
{
cmp_run "SW 65536^2" sw $t/A65536.fa $t/B65536.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda
cmp_run "SW 262144^2" sw $t/A262144.fa $t/B262144.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda
cmp_run "SW lin 262144^2" sw $t/A262144.fa $t/B262144.fa --match 2 --mismatch -3 --gap-open 2 --gap-extend 2 --backend cuda
cmp_run "DTW 65536^2" dtw $t/dtw_a_65536.txt $t/dtw_b_65536.txt --type f32 --backend cuda
cmp_run "DTW 262144^2" dtw $t/dtw_a_262144.txt $t/dtw_b_262144.txt --type f32 --backend cuda
cmp_run "SAT f32 32768^2" sat $t/f32_32768.npy --backend cuda
cmp_run "SAT u8 16384^2" sat $t/u8_16384.npy --backend cuda
cmp_run "INTHIST 16384^2 16 bins" inthist $t/u8_16384.npy --bins 16 --range 0,256 --backend cuda
cmp_run "HEAT 16384^2 1 sweep" heat --size 16386x16386 --sweeps 1 --backend cuda
cmp_run "HEAT 16384^2 8 sweeps" heat --size 16386x16386 --sweeps 8 --backend cuda
cmp_run "SOR 16384^2 8 sweeps" sor --size 16386x16386 --sweeps 8 --omega 1.5 --backend cuda
} 2>&1 | tee $out/widths.txt
pw=./build-gpu/peerwave
for n in 65536 262144; do
  u=$(for r in 1 2 3; do $pw run examples/cells/sw_gotoh.c --input a=$t/A$n.fa --input b=$t/B$n.fa --param match=1 --param mismatch=-3 \
       --param open=5 --param extend=2 --backend cuda | secs; done | median3)
  echo "user sw_gotoh ${n}^2 default: $u s [$($pw run examples/cells/sw_gotoh.c --input a=$t/A$n.fa --input b=$t/B$n.fa --param match=1 --param mismatch=-3 --param open=5 --param extend=2 --backend cuda | grep -E '^(tile_w|tile_h|best_h)' | tr '\n' ' ')]"
done
timeout ${PW_TEST_LIMIT:-240} stdbuf -oL ./build-gpu/tests/test_cells --gpu > $out/test_cells_gpu.log 2>&1
echo "test_cells --gpu: rc=$? $(tail -1 $out/test_cells_gpu.log)"; grep FAIL $out/test_cells_gpu.log | head -5
