#!/usr/bin/env bash
# bench/strip_heights.sh - the strips' passes by tile height ($PEERWAVE_PATH_STRIP_H, 0 = the
# default): sw --align on the 1 Mb related pair and dtw --path f64 at 262144^2, with where the time
# went.  PW_HEIGHTS: the heights.
set -u
out=${OUT:-/tmp/pw-strip-h}; mkdir -p "$out"; . tests/gpu/device_lib.sh; pw_begin
export PEERWAVE_CACHE=$out/cache
python3 bench/related_pairs.py "$out" 1000000
python3 -c "import numpy as np; r=np.random.default_rng(25); [np.save('$out/w_%s.npy' % k, np.cumsum(r.standard_normal(262144))) for k in 'ab']"
P=./build-gpu/peerwave; S="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2"
$P sw --backend cuda --align $S $out/a1000000.fa $out/b1000000.fa > /dev/null 2>&1 # compile the cells once
for h in ${PW_HEIGHTS:-0 32 128 256}; do
  env $([ $h != 0 ] && echo PEERWAVE_PATH_STRIP_H=$h) PEERWAVE_PATH_TIMES=1 timeout 100 $P sw --backend cuda --align $S $out/a1000000.fa $out/b1000000.fa 2>&1 >/dev/null | grep align: | sed "s/^/h=$h sw 1Mb: /"
  env $([ $h != 0 ] && echo PEERWAVE_PATH_STRIP_H=$h) PEERWAVE_PATH_TIMES=1 timeout 100 $P dtw --backend cuda --path $out/p.npy $out/w_a.npy $out/w_b.npy 2>&1 >/dev/null | grep path: | sed "s/^/h=$h dtw f64: /"
done
