#!/usr/bin/env bash
# bench/trace.sh - on the device: the per-block timeline pictures (GS+HT and PW+FHT on the same
# SW input, issue 5), the cost of tracing (kernel time traced vs untraced), and the automatic
# width: the model's pick and its training cost next to fixed widths.  Needs build-gpu/peerwave.
# Results to $OUT (or /tmp/pw-trace): trace_gs_ht.svg, trace_pw_fht.svg, trace_summary.txt.
set -u
out=${OUT:-/tmp/pw-trace}
mkdir -p "$out"
cd "$(dirname "$0")/.."
pw=./build-gpu/peerwave
log() { echo "$*" | tee -a "$out/trace_summary.txt"; }
: > "$out/trace_summary.txt"
t=$(mktemp -d)
. tests/gpu/device_lib.sh
pw_seq_file 32768 1 > "$t/a32.fa"; pw_seq_file 32768 2 > "$t/b32.fa"
pw_seq_file 65536 3 > "$t/a64.fa"; pw_seq_file 65536 4 > "$t/b64.fa"
keys='^(score|seconds|tile_w|tile_h|threads|tile_w_source|training_s|trace_(tiles|workers|span_ms|idle_corner_pct|idle_intermediate_pct|wait_pct|mean_tile_us)):'
summ() { grep -E "$keys" | tr '\n' ' '; }

# The two pictures: same input, GS+HT (barrier, hyper tiles w = h) and PW+FHT (peer, model width).
log "GS+HT  sw 32768^2: $($pw sw "$t/a32.fa" "$t/b32.fa" --backend cuda --strategy barrier --tile-w 128 --trace "$out/trace_gs_ht.svg" | summ)"
log "PW+FHT sw 32768^2: $($pw sw "$t/a32.fa" "$t/b32.fa" --backend cuda --tile-w model --trace "$out/trace_pw_fht.svg" | summ)"
log "SAT GS+HT / PW+FHT 8192^2 u8:"
{ printf 'P5\n8192 8192\n255\n'; head -c $((8192 * 8192)) /dev/urandom; } > "$t/img.pgm"
log "  $($pw sat "$t/img.pgm" --backend cuda --strategy barrier --tile-w 128 --trace "$t/sat1.svg" | summ)"
log "  $($pw sat "$t/img.pgm" --backend cuda --tile-w model --trace "$t/sat2.svg" | summ)"

# Tracing cost: kernel seconds, 5 runs each way, medians (SW 65536^2, peer, w = 128).
med() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for mode in off on; do
  for r in 1 2 3 4 5; do
    if [ $mode = on ]; then $pw sw "$t/a64.fa" "$t/b64.fa" --backend cuda --tile-w 128 --trace "$t/x.svg"
    else $pw sw "$t/a64.fa" "$t/b64.fa" --backend cuda --tile-w 128; fi | sed -n 's/^seconds: //p'
  done | med > "$t/med_$mode"
done
log "tracing cost, SW 65536^2 PW+HT kernel median: untraced $(cat "$t/med_off") s, traced $(cat "$t/med_on") s"

# The automatic width (default --tile-w auto: model trained on a 10% corner) against fixed widths.
for w in auto 128 64 32 16; do
  log "sw 65536^2 --tile-w $w: $($pw sw "$t/a64.fa" "$t/b64.fa" --backend cuda --tile-w $w | summ)"
done
{ printf 'P5\n16384 16384\n255\n'; head -c $((16384 * 16384)) /dev/urandom; } > "$t/img16.pgm"
for w in auto 128 32; do
  log "sat 16384^2 u8 --tile-w $w: $($pw sat "$t/img16.pgm" --backend cuda --tile-w $w | summ)"
done
for w in auto 128 32; do
  log "heat 16384^2 --tile-w $w: $($pw heat --size 16384x16384 --backend cuda --tile-w $w | summ)"
done
rm -rf "$t"
echo "================ trace summary"
cat "$out/trace_summary.txt"
