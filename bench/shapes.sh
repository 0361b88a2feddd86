#!/usr/bin/env bash
# bench/shapes.sh - the CLI on skinny and small spaces, CPU against GPU and both orientations:
# where `--backend auto` should send a run, and whether a run is faster with its sequences
# swapped.  Prints, a line a run: app, shape, backend, the run's reported seconds and the
# process's wall seconds (CUDA context included), the result line, the backend that ran and
# whether the run was transposed.
#   bash bench/shapes.sh [PEERWAVE_BINARY]     (default build-gpu/peerwave, else build-cpu/peerwave)
# Inputs are generated under $OUT/in (python3 with numpy).  Logs to $OUT (or /tmp/pw-shapes).
set -u
out=${OUT:-/tmp/pw-shapes}
mkdir -p "$out/in"
cd "$(dirname "$0")/.."
bin=${1:-build-gpu/peerwave}
[ -x "$bin" ] || bin=build-cpu/peerwave
in=$out/in
PEERWAVE_WISDOM=none
export PEERWAVE_WISDOM
python3 - "$in" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
r = np.random.default_rng(7)
def fasta(name, n):
    open(f"{d}/{name}.fa", "w").write(">" + name + "\n" + "".join(r.choice(list("ACGT"), n)) + "\n")
for n in (300, 3000, 30000, 4000000, 16384, 32768, 65536, 131072):
    fasta(f"dna{n}", n)
for n in (256, 2048, 16384, 2000000, 32768, 65536, 131072):
    np.save(f"{d}/ser{n}.npy", r.random(n).astype(np.float32))
for (h, w) in ((64, 1000000), (1000000, 64), (1000, 64000), (64000, 1000), (8000, 8000)):
    np.save(f"{d}/img{h}x{w}.npy", r.integers(0, 255, (h, w), dtype=np.uint8))
EOF
backends=${PW_SHAPES_BACKENDS:-cpu cuda auto}
one() { # app label backend args...
  local app=$1 label=$2 be=$3; shift 3
  local t0 t1 log=$out/run.log rep wall res
  t0=$(date +%s.%N)
  timeout 120 "$bin" "$app" "$@" --backend "$be" > "$log" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  rep=$(awk '/^seconds:/ {print $2}' "$log")
  res=$(grep -m1 -E "^(score|distance|total|residual|checksum):" "$log" | tr -d ' ')
  res="$res $(awk '/^(backend|transposed):/ {printf "%s ", $2}' "$log")"
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
  printf "%-8s %-22s %-5s rc %-3s run %-10s wall %-8.3f %s\n" "$app" "$label" "$be" "$rc" "${rep:-?}" "$wall" "$res" | tee -a "$out/shapes.txt"
}
: > "$out/shapes.txt"
for be in $backends; do
  for n in 300 3000 30000; do
    one sw "$n x 4M" $be "$in/dna$n.fa" "$in/dna4000000.fa"
    one sw "4M x $n" $be "$in/dna4000000.fa" "$in/dna$n.fa"
  done
  for n in 256 2048 16384; do
    one dtw "$n x 2M" $be "$in/ser$n.npy" "$in/ser2000000.npy"
    one dtw "2M x $n" $be "$in/ser2000000.npy" "$in/ser$n.npy"
  done
  for n in 16384 32768 65536; do # ratios 8, 4, 2
    one sw "$n x 131072" $be "$in/dna$n.fa" "$in/dna131072.fa"
    one sw "131072 x $n" $be "$in/dna131072.fa" "$in/dna$n.fa"
    one dtw "$n x 131072" $be "$in/ser$n.npy" "$in/ser131072.npy"
    one dtw "131072 x $n" $be "$in/ser131072.npy" "$in/ser$n.npy"
  done
  [ $be = auto ] && continue # (auto: SW and DTW's rule, apps/linear_orient.h)
  for s in 64x1000000 1000000x64 1000x64000 64000x1000 8000x8000; do
    one sat "$s" $be "$in/img$s.npy" -o "$out/o.npy"
    one heat "$s" $be --size "$s" --sweeps 4 -o "$out/o.npy"
  done
done
rm -f "$out/o.npy"
rm -rf "$in"
echo "================ shapes"
cat "$out/shapes.txt"
