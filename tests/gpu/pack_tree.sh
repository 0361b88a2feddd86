#!/usr/bin/env bash
# tests/gpu/pack_tree.sh - pack a whole GPU build tree built HERE (no GPU needed: nvcc compiles for
# sm_90) for the device, so that tests/gpu/run.sh's stages run there without the 6-7 minute build
# (which, with the machine handed back after 30 s idle between two calls, can eat a session's
# device time twice).  Build first, e.g. in a worktree at the commit to test:
#   cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=ON -DPEERWAVE_CUDA_ARCHITECTURES=90-real
#   cmake --build build-gpu -j2          (about 25 minutes on 2 cores)
#   bash tests/gpu/pack_tree.sh [BUILD_DIR] [ARCHIVE]   (default build-gpu, build-gpu/carry/tree.tar.xz)
# then copy the archive under the device checkout's build-gpu/carry/ and
#   run(command="PW_COMMIT=... PW_CARRIED_TREE=build-gpu/carry/tree.tar.xz bash tests/gpu/run.sh",
#       carry=["build-gpu/carry/tree.tar.xz"])
# The archive holds the tree without object files (CTest needs its test files, the programs and
# libraries, not the objects), the libraries the device lacks (libparasail), and BUILT_AT: the
# source folder the build's absolute paths name, which run.sh links to the device's checkout.
set -eu
build=$(cd "${1:-build-gpu}" && pwd)
archive=${2:-$build/carry/tree.tar.xz}
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
mkdir -p "$(dirname "$archive")" "$build/carry/libs"
echo "$src" > "$build/BUILT_AT"
for lib in $(find "$build" -maxdepth 2 -type f -perm -u+x -exec ldd {} + 2>/dev/null | awk '/libparasail/ {print $3}' | sort -u); do
  cp -L "$lib" "$build/carry/libs/"
done
tar cJf "$archive" -C "$(dirname "$build")" --exclude='*.o' --exclude='*.tar.xz' \
  "$(basename "$build")"
ls -la "$archive"
