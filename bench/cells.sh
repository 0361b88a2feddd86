#!/usr/bin/env bash
# bench/cells.sh - user cells on the GPU in one device call: build; test_cells --gpu (every example
# cell on every GPU strategy against textbook loops); compute-sanitizer memcheck and synccheck on a
# few rounds; the kernel cache (first run compiles, second loads); and user cells against the
# built-in apps on the same inputs (kernel seconds, median of 3).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/cells.sh
set -u
out=${OUT:-/tmp/pw-cells}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
export PEERWAVE_CACHE=/tmp/pw-cell-cache
rm -rf "$PEERWAVE_CACHE"
timeout 300 ./build-gpu/tests/test_cells --gpu > "$out/test_cells_gpu.log" 2>&1
summary "test_cells --gpu: rc=$? $(tail -1 "$out/test_cells_gpu.log")"
grep FAIL "$out/test_cells_gpu.log" | head -8 >> "$out/summary.txt"
for tool in memcheck synccheck racecheck; do
  # racecheck does not follow bar.arrive (tests/gpu/device_lib.sh): the stencil cell takes the window processor there
  PEERWAVE_STENCIL_PROCESSOR=$([ $tool = racecheck ] && echo window) PW_TEST_ROUNDS=3 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./build-gpu/tests/test_cells --gpu > "$out/san_$tool.log" 2>&1
  summary "compute-sanitizer $tool: rc=$? $(grep -E 'ERROR SUMMARY|passed' "$out/san_$tool.log" | tail -2 | tr '\n' ' ')"
done

pw=./build-gpu/peerwave
t=$(mktemp -d)
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }
# The cache: an empty one compiles, the second run loads.
rm -rf "$PEERWAVE_CACHE"
pw_seq_file 20000 1 > "$t/a.fa"; pw_seq_file 20000 2 > "$t/b.fa"
for k in 1 2; do
  /usr/bin/time -f "wall %e s" $pw run examples/cells/sw_gotoh.c --input a=$t/a.fa --input b=$t/b.fa --param match=1 \
    --param mismatch=-3 --param open=5 --param extend=2 --backend cuda --check > "$t/c$k" 2>&1
  summary "cache run $k: $(grep -E '^(compiled|compile_s|check|best_h|wall)' "$t/c$k" | tr '\n' ' ')"
done
summary "built-in: $($pw sw $t/a.fa $t/b.fa --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --backend cuda | grep -E '^(score|end_a|end_b)' | tr '\n' ' ')"

for n in 65536 262144; do
  pw_seq_file $n 11 > "$t/A.fa"; pw_seq_file $n 12 > "$t/B.fa"
  for gaps in "5 2" "2 2"; do
    set -- $gaps
    b=$(for r in 1 2 3; do $pw sw $t/A.fa $t/B.fa --match 1 --mismatch -3 --gap-open $1 --gap-extend $2 --backend cuda | secs; done | median3)
    u=$(for r in 1 2 3; do $pw run examples/cells/sw_gotoh.c --input a=$t/A.fa --input b=$t/B.fa --param match=1 --param mismatch=-3 \
         --param open=$1 --param extend=$2 --backend cuda | secs; done | median3)
    summary "SW ${n}^2 gaps $1/$2: built-in $b s, user cell $u s, user/built-in speed $(awk -v b=$b -v u=$u 'BEGIN { printf "%.3f", b / u }')"
  done
  l=$(for r in 1 2 3; do $pw run examples/cells/levenshtein.c --input a=$t/A.fa --input b=$t/B.fa --backend cuda | secs; done | median3)
  summary "levenshtein ${n}^2: $l s ($(awk -v s=$l -v n=$n 'BEGIN { printf "%.0f", n * n / s / 1e9 }') GCUPS)"
done
b=$(for r in 1 2 3; do $pw heat --size 16386x16386 --sweeps 1 --backend cuda | secs; done | median3)
u=$(for r in 1 2 3; do $pw run examples/cells/heat.c --size 16384x16384 --sweeps 1 --backend cuda | secs; done | median3)
summary "HEAT 16384^2 1 sweep: built-in $b s, user cell $u s, user/built-in speed $(awk -v b=$b -v u=$u 'BEGIN { printf "%.3f", b / u }')"
b=$(for r in 1 2 3; do $pw heat --size 16386x16386 --sweeps 8 --backend cuda | secs; done | median3)
u=$(for r in 1 2 3; do $pw run examples/cells/heat.c --size 16384x16384 --sweeps 8 --backend cuda | secs; done | median3)
summary "HEAT 16384^2 8 sweeps: built-in $b s, user cell $u s, user/built-in speed $(awk -v b=$b -v u=$u 'BEGIN { printf "%.3f", b / u }')"
# 3-D (seed 004's demonstrator, f32): the 3-D processor (Warp3Proc, the default), the flattened
# space (PEERWAVE_3D=flat) and seed 004's one-launch-per-hyperplane baseline (bench/hyperplane3d.cu,
# checked bit for bit against ours); points a second and the share of copy bandwidth (8 bytes a
# point, about 3.0 TB/s here).
lu="--param iterations=1 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
gpts() { awk -v s=$1 -v n=$2 'BEGIN { if (s > 0) printf "%.2f Gpoints/s", n * n * n / s / 1e9 }'; }
for n in 512 1024; do
  timeout 200 $pw run examples/cells/lu_like.c --size ${n}x${n}x${n} $lu --backend cuda -o $t/g$n.npy > /dev/null 2>&1
  timeout 100 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda -o $t/ours$n.npy > "$t/one" 2>&1
  summary "demonstrator3d ${n}^3 report: $(grep -E '^(tile|threads|seconds)' "$t/one" | tr '\n' ' ')"
  s3=$(for r in 1 2 3; do timeout 100 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda | secs; done | median3)
  summary "demonstrator3d ${n}^3 3-D tiles: $s3 s ($(gpts $s3 $n))"
  if [ $n = 512 ]; then
    s3=$(for r in 1 2 3; do PEERWAVE_3D=flat timeout 100 $pw run examples/cells/demonstrator3d.c --grid $t/g$n.npy --param modulus=7 --backend cuda --tile-h 8 | secs; done | median3)
    summary "demonstrator3d ${n}^3 flattened (--tile-h 8): $s3 s ($(gpts $s3 $n))"
  fi
  timeout 200 ./build-gpu/bench_hyperplane3d $t/g$n.npy 7 3 --check $t/ours$n.npy > "$t/hp" 2>&1
  summary "hyperplane baseline ${n}^3: $(tr '\n' ' ' < "$t/hp")"
  s3=$(for r in 1 2 3; do timeout 100 $pw run examples/cells/lu_like.c --grid $t/g$n.npy ${lu/iterations=1/iterations=10} --backend cuda | secs; done | median3)
  summary "lu_like (10 rounds) ${n}^3 3-D tiles: $s3 s ($(gpts $s3 $n))"
  rm -f $t/g$n.npy $t/ours$n.npy
done
rm -rf "$t"
echo "================ summary"
cat "$out/summary.txt"
