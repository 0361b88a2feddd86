#!/usr/bin/env bash
# bench/sw_strip_rows.sh - sw --align on the 1 Mb related pair for a few strip heights K
# ($PEERWAVE_PATH_ROWS; 0 = the default), with where the time went.  PW_K: the heights.
set -u
out=${OUT:-/tmp/pw-sw-rows}; mkdir -p "$out"; . tests/gpu/device_lib.sh; pw_begin
export PEERWAVE_CACHE=$out/cache
python3 bench/related_pairs.py "$out" 1000000
P=./build-gpu/peerwave; S="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2"
for k in ${PW_K:-0 4096 2048 1024}; do
  env $([ $k != 0 ] && echo PEERWAVE_PATH_ROWS=$k) PEERWAVE_PATH_TIMES=1 timeout 200 $P sw --backend cuda --align $S $out/a1000000.fa $out/b1000000.fa > $out/x.txt 2> $out/x.err
  echo "K=$k rc=$? $(grep -E '^(score|seconds_score|seconds_align):' $out/x.txt | tr '\n' ' ') $(grep align: $out/x.err)"
done
