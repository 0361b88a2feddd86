#!/usr/bin/env bash
# bench/occupancy.sh - the SW/DTW warp processors' kernel time by tile height and grid size, on
# the device in one call: SW with affine (open 3, extend 1) and linear gaps (1) and DTW (f32),
# peer schedule, hyper tiles h x 128, through the CLI ("seconds:", kernel time; median of 3 runs,
# inputs random).  A grid of 0 blocks is the occupancy API's (every block that fits); fewer
# resident tile-rows can finish sooner where the wavefront's fill dominates (a leading row's
# steps slow with every warp that shares its SM).  Logs under $OUT; a summary last.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/occupancy.sh [--sizes "65536 262144"] [--heights "64 128"] [--blocks "0 1056"]
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-occupancy}
mkdir -p "$out"
sizes="65536 262144" heights="64 128" blocks="0 1056"
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) sizes=$2; shift ;;
    --heights) heights=$2; shift ;;
    --blocks) blocks=$2; shift ;;
    *) echo "bench/occupancy.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
. tests/gpu/device_lib.sh
pw_begin
t=$(mktemp -d)
for n in $sizes; do
  pw_seq_file $n 1 > "$t/a$n.fa"
  pw_seq_file $n 2 > "$t/b$n.fa"
  awk -v n=$n 'BEGIN { srand(3); for (i = 0; i < n; i++) printf "%.4f\n", rand() * 10 }' > "$t/x$n.txt"
  awk -v n=$n 'BEGIN { srand(4); for (i = 0; i < n; i++) printf "%.4f\n", rand() * 10 }' > "$t/y$n.txt"
done
gcups() { awk -v s="$1" -v n="$2" 'BEGIN { printf "%.0f", (s > 0 ? n * n / s / 1e9 : 0) }'; } # seconds, side
for n in $sizes; do
  for h in $heights; do
    for b in $blocks; do
      grid=(--tile-h $h --tile-w 128); [ "$b" = 0 ] || grid+=(--max-blocks $b)
      sw=(./build-gpu/peerwave sw "$t/a$n.fa" "$t/b$n.fa" --backend cuda "${grid[@]}")
      affine=$(pw_median_seconds "${sw[@]}" --gap-open 3 --gap-extend 1)
      linear=$(pw_median_seconds "${sw[@]}")
      dtw=$(pw_median_seconds ./build-gpu/peerwave dtw "$t/x$n.txt" "$t/y$n.txt" --type f32 --backend cuda "${grid[@]}")
      summary "$n^2 h=$h blocks=$b: SW affine $affine s ($(gcups $affine $n) GCUPS), SW linear $linear s" \
        "($(gcups $linear $n)), DTW $dtw s ($(gcups $dtw $n))"
    done
  done
done
rm -rf "$t"
echo "==== summary"; cat "$out/summary.txt"
