#!/usr/bin/env bash
# demo.sh - set up, then run every application on the bundled examples (auto backend: the GPU
# if present, else CPU threads).  The main job, first: align the two bundled FASTA files.
set -euo pipefail
cd "$(dirname "$0")/.."
# the CUDA part only where a GPU can run it (scripts/setup.sh run); its own build folder then
if command -v nvidia-smi > /dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then build=build; else build=build-cpu; fi
scripts/setup.sh $build run
pw=./$build/peerwave
# the GPU where there is one (auto would give these small examples to the CPU threads, which
# finish them first: README, "which way round, and where")
backend=cpu; [ $build = build ] && backend=cuda
run() { local command=$1; shift; $pw "$command" --backend $backend "$@"; }
out=demo-output # the files the demo writes, kept (and listed at the end)
mkdir -p "$out"
echo "== peerwave sw examples/query.fa examples/target.fa --gap-open 5 --gap-extend 2"
run sw examples/query.fa examples/target.fa --gap-open 5 --gap-extend 2
echo "== peerwave dtw examples/walk_a.txt examples/walk_b.csv --column-b value --quiet"
run dtw examples/walk_a.txt examples/walk_b.csv --column-b value --quiet
echo "== peerwave sat examples/rings.png -o $out/sat.npy --quiet"
run sat examples/rings.png -o "$out/sat.npy" --quiet
echo "== peerwave inthist examples/rings.pgm --bins 16 -o $out/hist.npy --quiet"
run inthist examples/rings.pgm --bins 16 -o "$out/hist.npy" --quiet
echo "== peerwave heat --size 1000x1000 --sweeps 20 -o $out/plate.npy --quiet"
run heat --size 1000x1000 --sweeps 20 -o "$out/plate.npy" --quiet
echo "== peerwave sor --size 1000x1000 --sweeps 20 --omega 1.9 --quiet"
run sor --size 1000x1000 --sweeps 20 --omega 1.9 --quiet
echo "== written: $(ls "$out"/*.npy | tr '\n' ' ')"
