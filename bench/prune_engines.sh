#!/usr/bin/env bash
# bench/prune_engines.sh - what --prune costs against each way pw_sw can run one pair on the GPU,
# with a carried CLI (no build): the default (the warp-rows engine for pairs that fill the GPU),
# the tile engine (PEERWAVE_SW_ENGINE=tiles) and --prune (tiles with the pruning kernels), on a
# related pair (bench/related_pairs.py: 5% substitutions, 1% indels) and an unrelated one.
#   run(command="PW_CLI=/tmp/v/new/peerwave bash bench/prune_engines.sh", carry=[...the CLI...])
# PW_SW_SIZES (default 1000000), scores 1/-3/5/2; kernel seconds as the CLI reports them.
set -u
out=${OUT:-/tmp/pw-prune}/prune_engines
data=/tmp/pw-prune-data # (the inputs and each run's report stay here: only the summary comes back)
mkdir -p "$out" "$data"
cd "$(dirname "$0")/.."
P=${PW_CLI:-./build-gpu/peerwave}
S="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2"
keys='^(score|end_a|end_b|seconds|pruned_cells):'
sizes=${PW_SW_SIZES:-1000000}
python3 bench/related_pairs.py "$data" --unrelated $sizes
for n in $sizes; do
  for pair in "related $data/a$n.fa $data/b$n.fa" "unrelated $data/ua$n.fa $data/ub$n.fa"; do
    set -- $pair
    for way in default tiles prune; do
      env=; flag=
      [ $way = tiles ] && env=PEERWAVE_SW_ENGINE=tiles
      [ $way = prune ] && flag=--prune
      for k in 1 2; do
        env $env timeout 120 $P sw --backend cuda $S $flag "$2" "$3" > "$data/$1$n.$way.txt" 2>&1
        echo "$1 $n $way run $k: rc=$? $(grep -E "$keys" "$data/$1$n.$way.txt" | tr '\n' ' ')" | tee -a "$out/summary.txt"
      done
    done
  done
done
