#!/usr/bin/env bash
# tests/register_spills.sh NVCC SOURCE_ROOT - the default runs' plain peer kernels
# (tests/spill_kernels.cu) compiled for sm_90 as the library compiles them; fails when ptxas
# reports spill stores in any of them (no GPU needed).
set -u
nvcc=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$nvcc" -I"$root" -I"$root/include" -I"$root/src" -I"$root/apps" -O3 -DNDEBUG -fmad=false -std=c++17 \
     --generate-code=arch=compute_90,code=sm_90 -Xptxas -v -c "$root/tests/spill_kernels.cu" -o "$tmp/k.o" > "$tmp/log" 2>&1; then
  cat "$tmp/log"
  echo "FAIL: tests/spill_kernels.cu did not compile"
  exit 1
fi
# one line a function ptxas reports (the kernels, and any device function not inlined into them):
# its name, then its spill stores
awk '/Compiling entry function|Function properties for/ { name = $0; sub(/.*(entry function|properties for) /, "", name); sub(/ for .*/, "", name); gsub(/\047/, "", name) }
     /spill stores/ && name != "" { print name, $5; name = "" }' "$tmp/log" > "$tmp/spills"
kernels=$(grep -c "Compiling entry function" "$tmp/log")
spilling=$(awk '$2 > 0' "$tmp/spills")
if [ "$kernels" -lt 8 ]; then
  cat "$tmp/log"
  echo "FAIL: ptxas reported on $kernels kernels, 8 expected"
  exit 1
fi
if [ -n "$spilling" ]; then
  echo "FAIL: these kernels spill (bytes of spill stores):"
  echo "$spilling"
  echo "(a kernel at its register bound runs slower for every spill: see tests/spill_kernels.cu)"
  exit 1
fi
echo "ok: $kernels plain peer kernels, no spills"
