#!/usr/bin/env bash
# tests/gpu/grid_bands.sh - users' grid and grid3 cells of any reach in bands (issue 29; docs/DISTRIBUTED.md,
# "Grid and grid3 cells of any reach"), measured on the device with binaries built here and carried
# (tests/gpu/pack_bins.sh peerwave_cli):
#   1. grid3 on CPU bands: seed 004's LU-like sweep (examples/cells/lu_like.c) from a zero grid, then its
#      demonstrator (demonstrator3d.c) from that grid, one process on every core against
#      `mpirun -np 2` and `-np 4` (the cores split between the ranks), files compared byte for byte;
#   2. a (1, 1) grid cell (heat_grid.c with a diagonal term) on GPU bands: `--gpus G` against one GPU.
# Every figure is the run's `seconds` line (the run's span for bands), one run each.
#   run(command="mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v && bash tests/gpu/grid_bands.sh",
#       carry=["build-gpu/carry/bins.tar.xz"], kind="nvidia-h200-x2")
# Environment: BIN (/tmp/v/new), PW_SIDE3 (grid3 side, 192), PW_SIDE2 (grid side, 32768).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-/tmp/v/new}
out=${OUT:-/tmp/grid_bands}/grid_bands
work=/tmp/grid_bands_work
mkdir -p "$out" "$work"
export LD_LIBRARY_PATH=$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
. tests/gpu/device_lib.sh
pw_summary_start
pw=$BIN/peerwave
cores=$(nproc)
G=$(nvidia-smi -L 2>/dev/null | wc -l)
fail=0
field() { awk -v k="$1" '$1 == k":" {print $2}' "$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2fx", a / b}'; }

# 1. grid3 cells on CPU bands
n3=${PW_SIDE3:-192}
lu=(examples/cells/lu_like.c --size "${n3}x${n3}x${n3}" --sweeps 2 --param iterations=10 --param modulus=100
    --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1)
demo=(examples/cells/demonstrator3d.c --grid "$work/lu.1.npy" --param modulus=100 --sweeps 4)
for cell in lu demo; do
  eval "args=(\"\${$cell[@]}\")"
  "$pw" run "${args[@]}" --backend cpu --threads "$cores" -o "$work/$cell.1.npy" > "$out/$cell.1.txt" 2>&1 || fail=1
  for np in 2 4; do
    timeout 300 mpirun -np "$np" --bind-to none "$pw" run "${args[@]}" --mpi --threads $((cores / np > 0 ? cores / np : 1)) -o "$work/$cell.$np.npy" \
      > "$out/$cell.$np.txt" 2>&1 || fail=1
    same=no; cmp -s "$work/$cell.1.npy" "$work/$cell.$np.npy" && same=yes || fail=1
    s1=$(field seconds "$out/$cell.1.txt"); sn=$(field seconds "$out/$cell.$np.txt")
    summary "$cell ${n3}^3 on $cores cores: one process $s1 s, $np ranks $sn s ($(ratio "$s1" "$sn")), equal: $same"
  done
done

# 2. a (1, 1) grid cell on GPU bands
n2=${PW_SIDE2:-32768}
if [ "$G" -ge 2 ]; then
  "$pw" heat --size "${n2}x${n2}" --sweeps 1 --backend cuda -o "$work/init.npy" > /dev/null 2>&1 || fail=1
  sed -e 's/^PW_DEP(0, 1).*/PW_DEP(0, 1)\nPW_DEP(1, 1)/' \
      -e 's|return (((down + right) + left) + up) / 4.0f;|return ((((down + right) + left) + up) + 0.5f * (pw_at(c, i - 1, j - 1) - pw_at(c, i + 1, j + 1))) / 4.0f;|' \
      examples/cells/heat_grid.c > "$work/diag11.c"
  d11=("$work/diag11.c" --grid "$work/init.npy" --sweeps 4)
  "$pw" run "${d11[@]}" --backend cuda > /dev/null 2>&1 # (compiles into the cache)
  "$pw" run "${d11[@]}" --backend cuda -o "$work/d11.1.npy" > "$out/d11.1.txt" 2>&1 || fail=1
  "$pw" run "${d11[@]}" --gpus "$G" -o "$work/d11.g.npy" > "$out/d11.g.txt" 2>&1 || fail=1
  same=no; cmp -s "$work/d11.1.npy" "$work/d11.g.npy" && same=yes || fail=1
  s1=$(field seconds "$out/d11.1.txt"); sg=$(field seconds "$out/d11.g.txt")
  summary "(1, 1) grid cell ${n2}^2 x 4 sweeps: 1 GPU $s1 s, $G GPUs $sg s ($(ratio "$s1" "$sg")), equal: $same"
fi
summary "grid bands: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
exit $fail
