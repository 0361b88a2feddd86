#!/usr/bin/env bash
# bench/cpu_ab.sh - two peerwave binaries on the same CPU runs, alternating, median of 3 of the
# reported seconds, new / base: for a change of the CPU's automatic choices (tile sizes,
# orientation) that should make nothing slower.  Every core, --backend cpu, no wisdom file.
#   bash bench/cpu_ab.sh BASE_BINARY NEW_BINARY      logs to $OUT (or /tmp/pw-cpu-ab)
set -u
out=${OUT:-/tmp/pw-cpu-ab}
mkdir -p "$out/in"
base=$1 new=$2
export PEERWAVE_WISDOM=none
python3 - "$out/in" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
r = np.random.default_rng(11)
for (h, w) in ((8000, 8000), (64000, 1000), (1000, 64000), (200000, 320), (16384, 16384), (3000, 3000)):
    np.save(f"{d}/img{h}x{w}.npy", r.integers(0, 255, (h, w), dtype=np.uint8))
for n in (3000, 8000, 20000):
    open(f"{d}/dna{n}.fa", "w").write(">s\n" + "".join(r.choice(list("ACGT"), n)) + "\n")
    np.save(f"{d}/ser{n}.npy", r.random(n))
EOF
in=$out/in
runs=(
  "sat $in/img8000x8000.npy -o $out/o.npy" "sat $in/img64000x1000.npy -o $out/o.npy"
  "sat $in/img1000x64000.npy -o $out/o.npy" "sat $in/img200000x320.npy -o $out/o.npy"
  "sat $in/img16384x16384.npy -o $out/o.npy" "sat $in/img3000x3000.npy -o $out/o.npy"
  "inthist $in/img8000x8000.npy --bins 16 -o $out/o.npy"
  "heat --size 8000x8000 --sweeps 4 -o $out/o.npy" "heat --size 64000x1000 --sweeps 4 -o $out/o.npy"
  "heat --size 1000x64000 --sweeps 4 -o $out/o.npy" "heat --size 3000x3000 --sweeps 4 -o $out/o.npy"
  "sor --size 8000x8000 --sweeps 4 --omega 1.5 -o $out/o.npy"
  "sw $in/dna3000.fa $in/dna3000.fa" "sw $in/dna8000.fa $in/dna8000.fa" "sw $in/dna20000.fa $in/dna20000.fa"
  "dtw $in/ser3000.npy $in/ser3000.npy" "dtw $in/ser8000.npy $in/ser8000.npy" "dtw $in/ser20000.npy $in/ser20000.npy"
)
: > "$out/ab.txt"
for r in "${runs[@]}"; do
  for k in 1 2 3; do
    for side in base new; do
      bin=$base; [ $side = new ] && bin=$new
      $bin $r --backend cpu 2>&1 | awk -v s=$side '/^seconds:/ {print s, $2} /^tile_w:/ {print s "_w", $2}'
    done
  done > "$out/t"
  b=$(awk '$1 == "base" {print $2}' "$out/t" | sort -g | sed -n 2p)
  n=$(awk '$1 == "new" {print $2}' "$out/t" | sort -g | sed -n 2p)
  bw=$(awk '$1 == "base_w" {print $2; exit}' "$out/t") nw=$(awk '$1 == "new_w" {print $2; exit}' "$out/t")
  printf "%-62s base %9.6f s (w %s)  new %9.6f s (w %s)  new/base %.3f\n" "$(echo "$r" | sed "s|$in/||g; s|$out/||g")" "$b" "$bw" "$n" "$nw" \
    "$(awk -v a="$n" -v b="$b" 'BEGIN {print a / b}')" | tee -a "$out/ab.txt"
done
rm -rf "$in" "$out/o.npy" "$out/t"
echo "================ cpu a/b"
cat "$out/ab.txt"
