#!/usr/bin/env bash
# test.sh - set up, build and run the whole test suite: the normal build (CPU tests everywhere;
# GPU tests run where a GPU exists and report SKIP elsewhere), then the CPU suite again built
# with AddressSanitizer + UndefinedBehaviorSanitizer (PW_NO_SANITIZERS=1 skips that pass).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
scripts/setup.sh build
(cd build && ctest --output-on-failure -j "$jobs")
if [ "${PW_NO_SANITIZERS:-0}" != 1 ]; then
  echo "test: the CPU suite under ASan + UBSan (build-asan/)"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPEERWAVE_SANITIZE=ON -DPEERWAVE_CUDA=OFF > /dev/null
  cmake --build build-asan -j "$jobs" > /dev/null
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure -j "$jobs")
fi
