#!/usr/bin/env bash
# setup.sh - install the Debian packages PeerWave needs (only the missing ones) and build it.
#   scripts/setup.sh [BUILD_DIR]      (default build/)
# The CUDA part is built too when nvcc is found (on PATH or at /usr/local/cuda/bin/nvcc).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

packages=(cmake make gcc libc6-dev libparasail-dev libpng-dev python3-numpy valgrind pkg-config)
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
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null
echo "setup: built $build/peerwave"
