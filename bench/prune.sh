#!/usr/bin/env bash
# bench/prune.sh - SW block pruning (pw_options.sw_prune, `peerwave sw --prune`) on the GPU in one
# device call: build, test_gpu (its random shapes run with and without pruning, and its pruning
# cases), then `peerwave sw --backend cuda` without and with --prune on a related pair
# (bench/related_pairs.py: 5% substitutions, 1% indels), an unrelated random pair of the same
# length, and whole M. leprae vs M. tuberculosis (carry .bench-data/kmer_test_data.tar.gz, from
# Debian's kmer-examples).  Each line: score, end cells, kernel seconds, pruned_cells; the score
# and end cells must be the same with and without --prune.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/prune.sh
# PW_SW_SIZES (default 1000000), PW_SCORES ("match mismatch open extend", default 1 -3 5 2),
# PW_GENOMES=0: no whole-genome run, PW_RUNS (default 3): runs of each timing.
set -u
out=${OUT:-/tmp/pw-prune}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin

timeout 300 ./build-gpu/tests/test_gpu > "$out/test_gpu.log" 2>&1
summary "test_gpu: rc=$? $(tail -1 "$out/test_gpu.log")"
grep -E "^prune|FAIL" "$out/test_gpu.log" | head -24 | tee -a "$out/summary.txt"

sizes=${PW_SW_SIZES:-1000000}
python3 bench/related_pairs.py "$out" --unrelated $sizes
set -- ${PW_SCORES:-1 -3 5 2}
S="--match $1 --mismatch $2 --gap-open $3 --gap-extend $4"
P=./build-gpu/peerwave
keys='^(score|end_a|end_b|seconds|gcups|pruned_cells):'
pair() { # name a b: without and with --prune, PW_RUNS times each
  for flag in "" --prune; do
    for k in $(seq ${PW_RUNS:-3}); do
      timeout 120 $P sw --backend cuda $S $flag "$2" "$3" > "$out/sw_$1$flag.txt" 2>&1
      summary "sw $1 ${flag:-(all cells)} run $k: rc=$? $(grep -E "$keys" "$out/sw_$1$flag.txt" | tr '\n' ' ')"
    done
  done
  same=$(diff <(grep -E '^(score|end_a|end_b):' "$out/sw_$1.txt") <(grep -E '^(score|end_a|end_b):' "$out/sw_$1--prune.txt") > /dev/null && echo yes || echo NO)
  summary "sw $1: the same score and end cells with --prune: $same"
}
for n in $sizes; do
  pair related$n "$out/a$n.fa" "$out/b$n.fa"
  pair unrelated$n "$out/ua$n.fa" "$out/ub$n.fa"
done
if [ "${PW_GENOMES:-1}" != 0 ] && [ -f .bench-data/kmer_test_data.tar.gz ]; then
  tar xzf .bench-data/kmer_test_data.tar.gz -C "$out" GCF_000195855.1_ASM19585v1_genomic.fna GCF_000195955.2_ASM19595v2_genomic.fna
  PW_RUNS=1 pair genomes "$out/GCF_000195855.1_ASM19585v1_genomic.fna" "$out/GCF_000195955.2_ASM19595v2_genomic.fna"
fi
echo "--- summary"
cat "$out/summary.txt"
