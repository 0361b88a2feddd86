#!/usr/bin/env bash
# setup.sh - install the Debian packages PeerWave needs (only the missing ones) and build it,
# showing the build's progress.
#   scripts/setup.sh [BUILD_DIR [tests|run]]      (default build/, tests)
# tests: the CUDA part is built whenever nvcc is found (on PATH or at /usr/local/cuda/bin/nvcc),
#        so that GPU code that does not compile fails the tests, GPU or not;
# run:   the CUDA part only where a GPU is present (nvidia-smi lists one): a machine without a GPU
#        could not run it, and it takes minutes to compile.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mode=${2:-tests}

packages=(cmake make gcc libc6-dev libparasail-dev libpng-dev zlib1g-dev python3-numpy python3-pytest python3-venv valgrind pkg-config
          libopenmpi-dev openmpi-bin)
# the tests also read our SAM output with samtools (tests/test_cli.sh)
[ "$mode" = tests ] && packages+=(samtools)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo=sudo; else
    echo "setup: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
cuda=AUTO
if [ "$mode" = run ]; then
  if command -v nvidia-smi > /dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "setup: a GPU is present: building the CUDA part too (a few minutes)"
  else
    cuda=OFF
    echo "setup: no GPU found: building the CPU part only (with a GPU and nvcc, the same command builds the CUDA part;"
    echo "       by hand: cmake -S . -B build -DPEERWAVE_CUDA=ON && cmake --build build -j)"
  fi
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPEERWAVE_CUDA=$cuda >/dev/null
# progress: the build's "[ NN%] ..." lines, and any error in full
: > "$build/build.log"
cmake --build "$build" -j "$jobs" > "$build/build.log" 2>&1 < /dev/null &
pid=$!
trap 'kill $pid 2>/dev/null' INT TERM # Ctrl-C stops the build too
# (an up-to-date tree prints no such line: grep then finds nothing, which is no failure)
{ tail -n +1 -f "$build/build.log" --pid=$pid 2>/dev/null | grep --line-buffered -E '^\[ *[0-9]+%\] (Building|Linking)' |
  sed -u -E 's#^\[ *([0-9]+)%\] (Building [A-Za-z]+ object|Linking [A-Za-z ]+) (.*/)?([^/ ]+)$#setup: [\1%] \2 \4#'; } || true
if ! wait $pid; then
  { grep -E -B2 -A8 'error|Error' "$build/build.log" || tail -30 "$build/build.log"; } | head -60 >&2
  echo "setup: the build failed (the whole log: $build/build.log)" >&2
  exit 1
fi
echo "setup: built $build/peerwave"
