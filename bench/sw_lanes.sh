#!/usr/bin/env bash
# bench/sw_lanes.sh - SW's 16-bit pairs of lanes (src/cuda/device/sw_packed_lanes.cuh, issue 28)
# (opt-in: PEERWAVE_SW_LANES=pairs; EXPERIMENTAL: correct since 2026-11-28, but slower)
# against the 32-bit lanes (the default) in one device call, in stages
# (PW_STAGES, default "tests sanitize bench genomes"):
#   tests     test_gpu with the pairs requested: random shapes on every strategy (the pairs wherever
#             h = 64, 128, 256 and no pruning) and its packed cases (PW_TEST_SW_PAIRS: scores past
#             16 bits, protein, ties)
#   sanitize  memcheck and racecheck on small shapes
#   bench     bench_suite --only SW (DNA affine 3/1, linear, BLOSUM62 11/1; CUDA events, median of
#             5, each result checked against the threaded CPU engine), PW+HT, at PW_SIZES
#             (default 65536 262144) and tile heights PW_TILE_HS (default 64 128), both lanes
#   quick     (not in the default list) `peerwave sw` on random DNA at PW_SIZES and tile heights
#             PW_TILE_HS, both lanes: kernel seconds and scores, one run each (a first look; with
#             PW_NO_BUILD=1 and PW_BIN=build/peerwave, a binary built elsewhere and carried)
#   genomes   whole M. leprae vs M. tuberculosis (carry .bench-data: kmer-examples' test data)
#             with 1/-3/5/2 and 2/-3/5/2, both lanes: score, end cells and kernel time
#             (PW_GENOME_ARGS, e.g. "--tile-h 128", adds to each run)
#   reference (not in the default list) the genome pair again by bench/sw_reference.cu (one launch
#             per anti-diagonal, plain Gotoh: an independent check; minutes on the whole pair)
#             with PW_REF_SCORES (default "1 -3 5 2"), against the pairs' and the 32-bit lanes'
#             score and end cells (from the genomes stage: run both in one call, e.g.
#             PW_STAGES="genomes reference")
# Logs under $OUT; a summary last.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_lanes.sh
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-sw-lanes}
mkdir -p "$out"
. tests/gpu/device_lib.sh
stage() { [[ " ${PW_STAGES:-tests sanitize bench genomes} " == *" $1 "* ]]; }
bin=${PW_BIN:-./build-gpu/peerwave}
lanes_env() { [ "$1" = pairs ] && echo PEERWAVE_SW_LANES=pairs || echo PW_LANES=32; }
pw_begin

if stage tests; then
  PEERWAVE_SW_LANES=pairs PW_TEST_SW_PAIRS=1 PW_TEST_SHAPES=${PW_TEST_SHAPES:-100} timeout 400 ./build-gpu/tests/test_gpu > "$out/test_gpu.log" 2>&1
  summary "test_gpu: rc=$? $(tail -1 "$out/test_gpu.log")"
  grep -E "^packed|FAIL" "$out/test_gpu.log" | head -30 | tee -a "$out/summary.txt"
fi
if stage sanitize; then
  (export PEERWAVE_SW_LANES=pairs PW_TEST_SW_PAIRS=1; pw_sanitize "$out" memcheck racecheck) | tee -a "$out/summary.txt"
fi
if stage bench; then
  for n in ${PW_SIZES:-65536 262144}; do
    for h in ${PW_TILE_HS:-64 128}; do
      pw_suite "$out/sw.txt" "pairs h=$h" "PEERWAVE_SW_LANES=pairs" --only SW --size $n --tile-h $h --method PW+HT
      pw_suite "$out/sw.txt" "scalar h=$h" "" --only SW --size $n --tile-h $h --method PW+HT
    done
  done
fi
if stage quick; then
  for n in ${PW_SIZES:-65536 262144}; do
    pw_seq_file $n 1 > "$out/a$n.fa"
    pw_seq_file $n 2 > "$out/b$n.fa"
    for h in ${PW_TILE_HS:-64 128 256}; do
      for lanes in pairs scalar; do
        env $(lanes_env $lanes) timeout 120 "$bin" sw --backend cuda --tile-h $h "$out/a$n.fa" "$out/b$n.fa" > "$out/quick.txt" 2>&1
        summary "quick n=$n h=$h $lanes: rc=$? $(grep -E '^(score|end_a|end_b|seconds|tile_w|lane_bits):' "$out/quick.txt" | tr '\n' ' ')"
      done
    done
    rm -f "$out/a$n.fa" "$out/b$n.fa"
  done
fi
if stage genomes && [ -f .bench-data/kmer_test_data.tar.gz ]; then
  tar xzf .bench-data/kmer_test_data.tar.gz -C "$out" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  g1=$out/GCF_000195855.1_ASM19585v1_genomic.fna g2=$out/GCF_000195955.2_ASM19595v2_genomic.fna
  for scores in "1 -3 5 2" "2 -3 5 2"; do
    set -- $scores
    for lanes in pairs scalar; do
      f="$out/genomes_${1}_${2}_$lanes.txt"
      env $(lanes_env $lanes) timeout 120 "$bin" sw --backend cuda \
        --match $1 --mismatch $2 --gap-open $3 --gap-extend $4 ${PW_GENOME_ARGS:-} "$g1" "$g2" > "$f" 2>&1
      summary "genomes $scores $lanes: rc=$? $(grep -E '^(score|end_a|end_b|seconds|gcups|tile_h|lane_bits):' "$f" | tr '\n' ' ')"
    done
  done
fi
if stage reference && [ -f .bench-data/kmer_test_data.tar.gz ]; then
  [ -x build-gpu/sw_reference ] || nvcc -O3 -arch=sm_90 -o build-gpu/sw_reference bench/sw_reference.cu > "$out/sw_reference_build.log" 2>&1
  genomes=$(mktemp -d)
  tar xzf .bench-data/kmer_test_data.tar.gz -C "$genomes" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  g1=$genomes/GCF_000195855.1_ASM19585v1_genomic.fna g2=$genomes/GCF_000195955.2_ASM19595v2_genomic.fna
  set -- ${PW_REF_SCORES:-1 -3 5 2} 0 0 0 0 # (missing scores read as 0)
  args="--match $1 --mismatch $2 --gap-open $3 --gap-extend $4"
  timeout 500 ./build-gpu/sw_reference $args "$g1" "$g2" > "$out/reference.txt" 2>&1
  summary "reference (one launch a diagonal) $1 $2 $3 $4: rc=$? $(grep -E '^(score|end_a|end_b|seconds):' "$out/reference.txt" | tr '\n' ' ')"
  ref=$(grep -E '^(score|end_a|end_b):' "$out/reference.txt" | tr '\n' ' ')
  [ -n "$ref" ] || ref="(no reference result)"
  for lanes in pairs scalar; do
    f="$out/genomes_${1}_${2}_$lanes.txt"
    [ -f "$f" ] || continue
    got=$(grep -E '^(score|end_a|end_b):' "$f" | tr '\n' ' ')
    summary "  $lanes lanes: $([ "$got" = "$ref" ] && echo "equal to the reference" || echo "DIFFERENT: $got")"
  done
  rm -rf "$genomes"
fi
echo "==== summary"
cat "$out/summary.txt"
