#!/usr/bin/env bash
# bench/cpu_model_widths.sh - on runs large enough for the tile-width model (>= 2^26 cells), the
# model's pick (trained afresh each run: no wisdom file) against fixed widths, on every core:
# each configuration 3 times, each run's width and seconds, then the median.
#   bash bench/cpu_model_widths.sh [PEERWAVE_BINARY]    logs to $OUT (or /tmp/pw-model-widths)
set -u
out=${OUT:-/tmp/pw-model-widths}
mkdir -p "$out/in"
bin=${1:-build-cpu/peerwave}
export PEERWAVE_WISDOM=none
python3 - "$out/in" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
r = np.random.default_rng(13)
np.save(f"{d}/img.npy", r.integers(0, 255, (16384, 16384), dtype=np.uint8))
np.save(f"{d}/ser.npy", r.random(20000))
open(f"{d}/dna.fa", "w").write(">s\n" + "".join(r.choice(list("ACGT"), 30000)) + "\n")
EOF
in=$out/in
runs=("sat $in/img.npy -o $out/o.npy" "heat --size 16384x16384 --sweeps 4 -o $out/o.npy"
      "dtw $in/ser.npy $in/ser.npy" "sw $in/dna.fa $in/dna.fa")
: > "$out/model.txt"
for r in "${runs[@]}"; do
  for w in auto 64 128 256 512; do
    opt=(); [ $w != auto ] && opt=(--tile-w $w)
    for k in 1 2 3; do $bin $r --backend cpu "${opt[@]}" 2>&1 | awk '/^tile_w:/ {w = $2} /^seconds:/ {s = $2} END {print w, s}'; done > "$out/t"
    printf "%-6s %-5s widths %-14s seconds %s  median %s\n" "${r%% *}" $w "$(awk '{printf "%s ", $1}' "$out/t")" \
      "$(awk '{printf "%s ", $2}' "$out/t")" "$(awk '{print $2}' "$out/t" | sort -g | sed -n 2p)" | tee -a "$out/model.txt"
  done
done
rm -rf "$in" "$out/o.npy" "$out/t"
echo "================ model widths"
cat "$out/model.txt"
