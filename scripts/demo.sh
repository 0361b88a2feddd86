#!/usr/bin/env bash
# demo.sh - set up, then align the two bundled FASTA files (auto backend: GPU if present).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
./build/peerwave sw examples/query.fa examples/target.fa
