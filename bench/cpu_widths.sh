#!/usr/bin/env bash
# bench/cpu_widths.sh - the CPU peer engine's tiles on grids of few and many columns: SAT u8 and
# HEAT f32 (4 sweeps) over tile heights and widths, every core, median of 3 of the reported
# seconds; "auto" is the library's own choice.  Where its default width leaves too few tiles a
# tile-row for the threads (a tile-row follows the one above two tiles behind), this shows it.
#   bash bench/cpu_widths.sh [PEERWAVE_BINARY]    logs to $OUT (or /tmp/pw-cpu-widths)
set -u
out=${OUT:-/tmp/pw-cpu-widths}
mkdir -p "$out/in"
cd "$(dirname "$0")/.."
bin=${1:-build-cpu/peerwave}
export PEERWAVE_WISDOM=none
shapes=${PW_WIDTH_SHAPES:-8000x8000 64000x1000 1000x64000 200000x320}
python3 - "$out/in" $shapes <<'EOF'
import sys, numpy as np
r = np.random.default_rng(5)
for s in sys.argv[2:]:
    h, w = map(int, s.split("x"))
    np.save(f"{sys.argv[1]}/img{s}.npy", r.integers(0, 255, (h, w), dtype=np.uint8))
EOF
median3() { sort -g | sed -n 2p; }
: > "$out/widths.txt"
for s in $shapes; do
  for app in sat heat; do
    for hw in auto 64x512 64x256 64x128 64x64 32x128 32x64 32x32 16x64 16x32; do
      opts=()
      [ "$hw" != auto ] && opts=(--tile-h "${hw%x*}" --tile-w "${hw#*x}")
      for k in 1 2 3; do
        if [ $app = sat ]; then "$bin" sat "$out/in/img$s.npy" -o "$out/o.npy" --backend cpu "${opts[@]}"
        else "$bin" heat --size "$s" --sweeps 4 -o "$out/o.npy" --backend cpu "${opts[@]}"; fi 2>&1 |
          awk '/^seconds:/ {print $2}'
      done | median3 > "$out/t"
      line=$(printf "%-5s %-11s %-7s %s s" $app "$s" "$hw" "$(cat "$out/t")")
      [ "$hw" = auto ] && line="$line ($("$bin" $app $([ $app = sat ] && echo "$out/in/img$s.npy" || echo "--size $s --sweeps 4") -o "$out/o.npy" --backend cpu 2>&1 | awk '/^tile_(h|w):/ {printf "%s ", $0}'))"
      echo "$line" | tee -a "$out/widths.txt"
    done
  done
done
rm -rf "$out/in" "$out/o.npy" "$out/t"
echo "================ cpu widths"
cat "$out/widths.txt"
