#!/usr/bin/env bash
# bench/sw_pairs_quick.sh - SW's 16-bit pairs against the 32-bit lanes on a carried (or built)
# peerwave: kernel seconds and scores at PW_SIZES and tile heights PW_TILE_HS, then the genome
# pair (carry .bench-data).  Quick look for issue 28; bench/sw_lanes.sh is the checked benchmark.
#   PW_BIN=build/peerwave bash bench/sw_pairs_quick.sh
set -u
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
bin=${PW_BIN:-build-gpu/peerwave}
out=${OUT:-/tmp/pw-sw-pairs}; mkdir -p "$out"
one() { # LABEL ENV ARGS...
  local label=$1 e=$2; shift 2
  env $e timeout 120 "$bin" sw --backend cuda "$@" > "$out/one.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(score|end_a|end_b|seconds|gcups|tile_w|lane_bits):' "$out/one.txt" | tr '\n' ' ')"
}
for n in ${PW_SIZES:-65536 262144}; do
  pw_seq_file $n 1 > /tmp/a$n.fa; pw_seq_file $n 2 > /tmp/b$n.fa
  for h in ${PW_TILE_HS:-64 128 256}; do
    one "n=$n h=$h pairs " PEERWAVE_SW_LANES=pairs --tile-h $h /tmp/a$n.fa /tmp/b$n.fa
    one "n=$n h=$h scalar" "" --tile-h $h /tmp/a$n.fa /tmp/b$n.fa
  done
done
if [ -f .bench-data/kmer_test_data.tar.gz ] && [ -n "${PW_GENOME_HS:-64 128}" ]; then
  tar xzf .bench-data/kmer_test_data.tar.gz -C /tmp GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  for h in ${PW_GENOME_HS:-64 128}; do
    one "genomes 1/-3/5/2 h=$h pairs" PEERWAVE_SW_LANES=pairs --tile-h $h --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 \
      /tmp/GCF_000195855.1_ASM19585v1_genomic.fna /tmp/GCF_000195955.2_ASM19595v2_genomic.fna
  done
fi
