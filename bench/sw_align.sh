#!/usr/bin/env bash
# bench/sw_align.sh - SW alignments through the score pass's saved rows (src/align/sw_strips.c) on
# the GPU in one device call: build, test_align --gpu (saved rows against a plain loop, the strip
# pass against a whole matrix, GPU alignments against the CPU's through the same strips) and
# --nvrtc, then `peerwave sw` (score only) against `peerwave sw --align` on generated related pairs
# and on whole M. leprae vs M. tuberculosis (Debian's kmer-examples test data: carry
# .bench-data/kmer_test_data.tar.gz, from /usr/share/doc/kmer-examples/test_data.tar.gz).
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_align.sh
# PW_SKIP_TESTS=1: timings only; PW_SW_SIZES: generated pair lengths ("100000 1000000");
# PW_GENOMES=0: no whole-genome run; PW_SCORES: "match mismatch open extend" (1 -3 5 2); PW_RUNS:
# times each timing runs (medians); PW_SAM=0: no SAM run.
set -u
out=${OUT:-/tmp/pw-sw-align}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
export PEERWAVE_CACHE=$out/cache

if [ -z "${PW_SKIP_TESTS:-}" ]; then
  for mode in --gpu --nvrtc; do
    timeout 400 ./build-gpu/tests/test_align $mode > "$out/test_align$mode.log" 2>&1
    summary "test_align $mode: rc=$? $(tail -1 "$out/test_align$mode.log")"
    grep FAIL "$out/test_align$mode.log" | head -5 | tee -a "$out/summary.txt"
  done
fi

python3 bench/related_pairs.py "$out" ${PW_SW_SIZES:-100000 1000000}
set -- ${PW_SCORES:-1 -3 5 2}
S="--match $1 --mismatch $2 --gap-open $3 --gap-extend $4"
P=./build-gpu/peerwave
keys='^(score|end_a|end_b|start_a|start_b|columns|identity|seconds|gcups|seconds_score|seconds_align|cells_align|cells_gpu|seconds_gpu):'
pair() { # name a b; each timing PW_RUNS times (1)
  for k in $(seq ${PW_RUNS:-1}); do
    timeout 120 $P sw --backend cuda $S "$2" "$3" > "$out/sw_$1.txt" 2>&1
    summary "sw $1 score only (run $k): rc=$? $(grep -E "$keys" "$out/sw_$1.txt" | tr '\n' ' ')"
  done
  if [ "${PW_SAM:-1}" != 0 ]; then
    PEERWAVE_PATH_TIMES=1 timeout 240 $P sw --backend cuda --align $S --format sam "$2" "$3" > "$out/sw_$1.sam" 2> "$out/sw_$1.err"
    summary "sw $1 --align (sam): rc=$? $(wc -c < "$out/sw_$1.sam") bytes; $(grep -E '^align:' "$out/sw_$1.err")"
  fi
  for k in $(seq ${PW_RUNS:-1}); do
    PEERWAVE_PATH_TIMES=1 timeout 240 $P sw --backend cuda --align $S "$2" "$3" > "$out/sw_align_$1.txt" 2> "$out/sw_align_$1.err"
    summary "sw $1 --align (run $k): rc=$? $(grep -E "$keys" "$out/sw_align_$1.txt" | tr '\n' ' ') $(grep -E '^align:' "$out/sw_align_$1.err")"
    grep -vE '^align:' "$out/sw_align_$1.err" | head -3 | tee -a "$out/summary.txt"
  done
}
for n in ${PW_SW_SIZES:-100000 1000000}; do pair $n "$out/a$n.fa" "$out/b$n.fa"; done
if [ "${PW_GENOMES:-1}" != 0 ] && [ -f .bench-data/kmer_test_data.tar.gz ]; then
  tar xzf .bench-data/kmer_test_data.tar.gz -C "$out" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  pair genomes "$out/GCF_000195855.1_ASM19585v1_genomic.fna" "$out/GCF_000195955.2_ASM19595v2_genomic.fna"
fi
echo "--- summary"
cat "$out/summary.txt"
