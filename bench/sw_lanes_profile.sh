#!/usr/bin/env bash
# bench/sw_lanes_profile.sh - where SW's peer kernel spends its instructions, 16-bit pairs against
# the 32-bit lanes (issue 28): ncu on SW 8192^2 random DNA at h = 128 (a 65536^2 run under ncu
# passes 400 s), and the SASS of the affine R = 4 peer kernels with an opcode count each.
# Into $OUT; PW_BIN the peerwave to look at (default build-gpu/peerwave).
set -u
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
bin=${PW_BIN:-build-gpu/peerwave}
out=${OUT:-/tmp/pw-sw-profile}; mkdir -p "$out"
pw_seq_file 8192 1 > /tmp/a8k.fa; pw_seq_file 8192 2 > /tmp/b8k.fa
for lanes in pairs scalar; do
  e=$([ $lanes = pairs ] && echo PEERWAVE_SW_LANES=pairs || echo PW_NONE=1)
  env $e timeout 90 ncu --kernel-name regex:pw_peer_kernel --launch-count 1 --section InstructionStats \
    --section WarpStateStats --section LaunchStats --section Occupancy --section SourceCounters --print-details all \
    "$bin" sw --backend cuda --tile-h 128 /tmp/a8k.fa /tmp/b8k.fa > "$out/ncu_$lanes.txt" 2>&1
  echo "ncu $lanes: rc=$? $(grep -E 'Executed Instructions  |Warp Cycles Per Issued' "$out/ncu_$lanes.txt" | tr -s ' ' | tr '\n' ' ')"
done
cuobjdump -sass "$bin" > /tmp/all.sass 2>/dev/null
awk -v out="$out" '
/Function :/ { f = ""; name = $3;
  if (name ~ /pw_peer_kernel_bounded/ && name ~ /SwAffineGapsLb0ELb0EELi4E/) {
    if (name ~ /SwPackedLanes/ && name ~ /Lb1EE/) f = out "/pairs.sass";
    else if (name ~ /ScalarLanes/) f = out "/scalar.sass";
  }
  if (f != "") print name > f }
f != "" { print > f }' /tmp/all.sass
for f in "$out"/*.sass; do
  echo "$(basename "$f"): $(grep -E '^\s+/\*[0-9a-f]{4}\*/' "$f" | awk '{op = $2; if (op ~ /^@/) op = $3; sub(/\..*/, "", op); sub(/;/, "", op); c[op]++}
    END {for (o in c) print c[o], o}' | sort -rn | head -12 | tr '\n' ' ')"
done
