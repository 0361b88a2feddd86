#!/usr/bin/env bash
# tests/gpu/pack_bins.sh - build GPU binaries HERE (no GPU needed: nvcc compiles for sm_90) and pack
# them for the device, so that a device call spends none of its time building (a test_gpu build
# there took over 425 s; here, on 2 cores, the targets below take about 5 minutes from scratch).
#   bash tests/gpu/pack_bins.sh [TARGET...]      (default: test_gpu test_batch test_progress
#                                                  peerwave_cli bench_batch_sw bench_batch_pairs)
# then: run(command="PW_STAGES=... bash tests/gpu/dev_adhoc.sh", carry=["build-gpu/carry/bins.tar.xz"])
# The archive holds new/ (what dev_adhoc.sh's stages run, stripped) and the shared libraries the
# device lacks (libparasail, for the benchmarks that compare with it).
set -eu
cd "$(dirname "$0")/../.."
targets=${*:-test_gpu test_batch test_progress peerwave_cli bench_batch_sw bench_batch_pairs}
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=ON -DPEERWAVE_CUDA_ARCHITECTURES=90-real > /dev/null
cmake --build build-gpu -j "$(nproc)" --target $targets
rm -rf build-gpu/carry && mkdir -p build-gpu/carry/new
for t in $targets; do
  b=$t; [ "$t" = peerwave_cli ] && b=peerwave
  for f in build-gpu/$b build-gpu/tests/$b; do [ -x "$f" ] && cp "$f" build-gpu/carry/new/; done
done
strip build-gpu/carry/new/*
for lib in $(ldd build-gpu/carry/new/* 2>/dev/null | awk '/libparasail/ {print $3}' | sort -u); do cp -L "$lib" build-gpu/carry/new/; done
tar cJf build-gpu/carry/bins.tar.xz -C build-gpu/carry new
ls -la build-gpu/carry/bins.tar.xz
