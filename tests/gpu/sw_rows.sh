#!/usr/bin/env bash
# tests/gpu/sw_rows.sh - SW's warp-rows engine in one device call: build peerwave and
# test_sw_rows, the engine forced on random shapes against the CPU (with the long automatic case),
# then the whole-genome pair (carry .bench-data) with the library's own choice against the tile
# engines (PEERWAVE_SW_ENGINE=tiles): score, end cell, kernel seconds, lanes.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/sw_rows.sh
# (PW_ENGINES=auto: the genomes without the tile engines' runs, whose figures are known)
set -u
out=${OUT:-/tmp/pw-sw-rows}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
. tests/gpu/device_lib.sh
PW_BUILD_TARGETS=${PW_BUILD_TARGETS:-"peerwave_cli test_sw_rows"} pw_begin
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
# (several GPUs: test_sw_rows also runs the engine over GPUs 0 and 1, and the genomes go on 2)
[ "$gpus" -ge 2 ] && export PW_SW_ROWS_GPUS=0,1
PW_SW_ROWS_LARGE=1 timeout 300 ./build-gpu/tests/test_sw_rows > "$out/test_sw_rows.log" 2>&1
summary "test_sw_rows: rc=$? $(tail -2 "$out/test_sw_rows.log" | tr '\n' ' ')"
grep FAIL "$out/test_sw_rows.log" | head -10 | tee -a "$out/summary.txt"
for tool in memcheck racecheck; do
  PW_SW_ROWS_SMALL=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 ./build-gpu/tests/test_sw_rows \
    > "$out/sanitizer_$tool.log" 2>&1
  summary "compute-sanitizer $tool (small shapes): rc=$? $(grep -E 'ERROR SUMMARY|cases' "$out/sanitizer_$tool.log" | tail -2 | tr '\n' ' ')"
done
if pw_genomes "$out"; then
  for scores in "1 -3 5 2" "2 -3 5 2"; do
    set -- $scores
    for engine in ${PW_ENGINES:-auto tiles}; do
      engine=${engine/auto/}
      f="$out/genomes_${1}_${2}_${engine:-auto}.txt"
      PEERWAVE_SW_ENGINE=$engine timeout 150 ./build-gpu/peerwave sw --backend cuda \
        --match $1 --mismatch $2 --gap-open $3 --gap-extend $4 "$g1" "$g2" > "$f" 2>&1
      summary "genomes $scores ${engine:-auto}: rc=$? $(grep -E '^(score|end_a|end_b|seconds|gcups|tile_h|lane_bits):' "$f" | tr '\n' ' ')"
    done
  done
  if [ "$gpus" -ge 2 ]; then # the engine over 2 GPUs, rounds dealt out (asked for: rows)
    for scores in "1 -3 5 2" "2 -3 5 2"; do
      set -- $scores
      f="$out/genomes_${1}_${2}_2gpus.txt"
      PEERWAVE_SW_ENGINE=rows timeout 150 ./build-gpu/peerwave sw --gpus 2 --match $1 --mismatch $2 --gap-open $3 \
        --gap-extend $4 "$g1" "$g2" > "$f" 2>&1
      summary "genomes $scores on 2 GPUs: rc=$? $(grep -E '^(score|end_a|end_b|seconds|gcups|tile_h|lane_bits|threads):' "$f" | tr '\n' ' ')"
    done
  fi
  for engine in ${PW_ENGINES:-tiles auto}; do # --align: its score pass on the tile engines, or (by itself) this engine
    engine=${engine/auto/}
    f="$out/genomes_align_${engine:-auto}.txt"
    PEERWAVE_SW_ENGINE=$engine timeout 150 ./build-gpu/peerwave sw --backend cuda --align \
      --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$g1" "$g2" > "$f" 2>&1
    summary "genomes --align ${engine:-auto}: rc=$? $(grep -E '^(score|start_a|end_a|start_b|end_b|columns|matches|gaps|seconds_score|seconds_align|tile_h|lane_bits):' "$f" | tr '\n' ' ') cigar md5 $(grep -E '^cigar:' "$f" | md5sum | cut -c1-12)"
  done
  rm -f "$g1" "$g2"
fi
echo "==== summary"
cat "$out/summary.txt"
