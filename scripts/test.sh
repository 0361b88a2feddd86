#!/usr/bin/env bash
# test.sh - set up, build and run the whole test suite (CPU tests everywhere; GPU tests run
# where a GPU exists and report SKIP elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cd build
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
