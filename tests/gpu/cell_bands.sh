#!/usr/bin/env bash
# tests/gpu/cell_bands.sh - users' cells on GPU bands (issue 29 item 2, src/jit/cell_bands.c), on
# the device, with binaries built here and carried (tests/gpu/pack_bins.sh test_dist peerwave_cli):
#   1. test_dist --gpu: every app's GPU bands and the two cell forms' (linear, stencil) against
#      one CPU process, ranks as threads sharing GPU 0, then (2+ GPUs) a rank a GPU;
#   2. the CLI: `peerwave run CELL --gpus G` (sw_gotoh.c, heat.c, heat_grid.c) against the same run on one GPU, outputs compared
#      byte for byte, and `mpirun -np G ... --mpi --backend cuda` likewise; with the times of both
#      (the run's span: the `seconds` line).
#   run(command="mkdir -p /tmp/v && tar xJf build-gpu/carry/bins.tar.xz -C /tmp/v && bash tests/gpu/cell_bands.sh",
#       carry=["build-gpu/carry/bins.tar.xz"], kind="nvidia-h200-x2")
# Environment: BIN (/tmp/v/new), OUT (the device tool's), PW_CLI_ONLY, PW_CELL_N (SW cell side, 200000),
# PW_HEAT_SIDE (heat cell side, 16384).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-/tmp/v/new}
out=${OUT:-/tmp/cell_bands}/cell_bands   # logs (they come back)
work=/tmp/cell_bands_work                # sequences and grids (they stay)
mkdir -p "$out" "$work"
export LD_LIBRARY_PATH=$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
. tests/gpu/device_lib.sh
pw_summary_start
G=$(nvidia-smi -L | wc -l)
pw=$BIN/peerwave
fail=0

# 1. the library's tests (PW_CLI_ONLY=1: skipped)
[ -n "${PW_CLI_ONLY:-}" ] || {
PW_TEST_GPUS=1 "$BIN/test_dist" --gpu > "$out/test_dist_1gpu.log" 2>&1
rc=$?; [ $rc = 0 ] || fail=1
summary "test_dist --gpu, ranks sharing one GPU: rc $rc, $(grep -E 'passed|failed' "$out/test_dist_1gpu.log" | tail -1)"
if [ "$G" -ge 2 ]; then
  PW_TEST_GPUS=$G "$BIN/test_dist" --gpu > "$out/test_dist_${G}gpu.log" 2>&1
  rc=$?; [ $rc = 0 ] || fail=1
  summary "test_dist --gpu, a rank a GPU ($G): rc $rc, $(grep -E 'passed|failed' "$out/test_dist_${G}gpu.log" | tail -1)"
fi
}

# 2. the CLI on G GPUs against one
n=${PW_CELL_N:-200000}
side=${PW_HEAT_SIDE:-16384}
python3 - "$work" "$n" <<'EOF'
import random, sys
out, n = sys.argv[1], int(sys.argv[2])
random.seed(29)
a = ''.join(random.choice('ACGT') for _ in range(n))
b = list(a[::-1][: n])  # a related pair: b is a's reverse with 10% of its letters changed
for k in range(0, n, 10): b[k] = random.choice('ACGT')
for name, s in (('A', a), ('B', ''.join(b))):
    with open(f'{out}/{name}.fa', 'w') as f:
        f.write(f'>{name}\n')
        for k in range(0, len(s), 80): f.write(s[k:k + 80] + '\n')
EOF
sw=(examples/cells/sw_gotoh.c --input a="$work/A.fa" --input b="$work/B.fa" --param match=1 --param mismatch=-3
    --param open=5 --param extend=2)
# (a grid the sweeps change: --size alone would start from zeros, which every run leaves alone)
"$pw" heat --size "${side}x${side}" --sweeps 1 --backend cuda -o "$work/init.npy" > /dev/null 2>&1 || fail=1
heat=(examples/cells/heat.c --grid "$work/init.npy" --sweeps 8)
heat_grid=(examples/cells/heat_grid.c --grid "$work/init.npy" --sweeps 8)
field() { awk -v k="$1" '$1 == k":" {print $2}' "$2"; }
compare() { # label, then the one-GPU and the several-GPU runs' reports and outputs (-: none)
  local label=$1 r1=$2 r2=$3 o1=$4 o2=$5
  local same=no
  if { [ "$o1" = - ] || cmp -s "$o1" "$o2"; } && [ "$(grep -E '^(last|best)' "$r1")" = "$(grep -E '^(last|best)' "$r2")" ]; then same=yes; else fail=1; fi
  local s1 s2
  s1=$(field seconds "$r1"); s2=$(field seconds "$r2")
  summary "$label: results equal: $same; seconds $s1 (1 GPU) -> $s2 ($G GPUs): $(awk -v a="$s1" -v b="$s2" 'BEGIN {if (b > 0) printf "%.2fx", a / b}')"
}
if [ "$G" -ge 2 ]; then
  for cell in sw heat heat_grid; do
    eval "args=(\"\${$cell[@]}\")"
    # (sw_gotoh's value is a struct: no -o, its report's last and best lines are compared)
    o() { [ $cell != sw ] && echo "-o $work/$cell.$1.npy"; }
    f() { [ $cell != sw ] && echo "$work/$cell.$1.npy" || echo -; }
    # (the first run compiles the cell into the disk cache: the measured runs load it)
    "$pw" run "${args[@]}" --backend cuda > /dev/null 2>&1
    "$pw" run "${args[@]}" --backend cuda $(o 1) > "$out/$cell.1.txt" 2>&1 || fail=1
    "$pw" run "${args[@]}" --gpus "$G" $(o g) > "$out/$cell.g.txt" 2>&1 || fail=1
    compare "run $cell --gpus $G" "$out/$cell.1.txt" "$out/$cell.g.txt" "$(f 1)" "$(f g)"
    mpirun --allow-run-as-root -np "$G" "$pw" run "${args[@]}" --mpi --backend cuda $(o m) > "$out/$cell.m.txt" 2>&1 || fail=1
    compare "mpirun -np $G run $cell --mpi --backend cuda" "$out/$cell.1.txt" "$out/$cell.m.txt" "$(f 1)" "$(f m)"
  done
  # heat_grid.c is heat.c in the grid form: the same bits on its bands; a grid cell with a
  # diagonal dependence: a clear refusal, no hang
  if cmp -s "$work/heat.g.npy" "$work/heat_grid.g.npy" && ! cmp -s "$work/heat.1.npy" "$work/init.npy"; then same=yes; else same=no; fail=1; fi
  summary "heat_grid.c --gpus $G equal to heat.c --gpus $G (and the sweeps changed the grid): $same"
  sed 's/^PW_DEP(0, 1).*/PW_DEP(0, 1)\nPW_DEP(1, -1)/' examples/cells/heat_grid.c > "$work/diag_grid.c"
  "$pw" run "$work/diag_grid.c" --size 64x64 --sweeps 2 --gpus "$G" > "$out/grid.txt" 2>&1
  rc=$?
  summary "run diag_grid.c --gpus $G (not built): rc $rc, $(head -c 200 "$out/grid.txt" | tr '\n' ' ')"
  [ $rc != 0 ] || fail=1
  # a grid cell with (1, 1) (edges of a column, a row below): its GPU bands equal one GPU's grid
  sed -e 's/^PW_DEP(0, 1).*/PW_DEP(0, 1)\nPW_DEP(1, 1)/' \
      -e 's|return (((down + right) + left) + up) / 4.0f;|return ((((down + right) + left) + up) + 0.5f * (pw_at(c, i - 1, j - 1) - pw_at(c, i + 1, j + 1))) / 4.0f;|' \
      examples/cells/heat_grid.c > "$work/diag11.c"
  d11=("$work/diag11.c" --grid "$work/init.npy" --sweeps 3)
  "$pw" run "${d11[@]}" --backend cuda -o "$work/d11.1.npy" > "$out/d11.1.txt" 2>&1 || fail=1
  "$pw" run "${d11[@]}" --gpus "$G" -o "$work/d11.g.npy" > "$out/d11.g.txt" 2>&1 || fail=1
  compare "run diag11 (1, 1) grid cell --gpus $G" "$out/d11.1.txt" "$out/d11.g.txt" "$work/d11.1.npy" "$work/d11.g.npy"
  # grid3 cells: CPU bands under mpirun (equal to one process's file), and GPU bands (slabs of j on
  # the 3-D processor, since session 28) equal to one GPU's file
  lu=(examples/cells/lu_like.c --size 24x40x16 --sweeps 2 --param iterations=3 --param modulus=100 --param tc=0.5
      --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1)
  "$pw" run "${lu[@]}" --backend cpu -o "$work/lu.1.npy" > /dev/null 2>&1 || fail=1
  mpirun --allow-run-as-root -np "$G" "$pw" run "${lu[@]}" --mpi -o "$work/lu.m.npy" > "$out/lu.m.txt" 2>&1 || fail=1
  if cmp -s "$work/lu.1.npy" "$work/lu.m.npy"; then same=yes; else same=no; fail=1; fi
  summary "mpirun -np $G run lu_like.c --mpi (CPU bands of j slabs) equal to one process: $same"
  "$pw" run "${lu[@]}" --backend cuda -o "$work/lu.c1.npy" > "$out/lu.c1.txt" 2>&1 || fail=1
  "$pw" run "${lu[@]}" --gpus "$G" -o "$work/lu.g.npy" > "$out/lu.g.txt" 2>&1 || fail=1
  compare "run lu_like.c --gpus $G (GPU bands of j slabs)" "$out/lu.c1.txt" "$out/lu.g.txt" "$work/lu.c1.npy" "$work/lu.g.npy"
fi
summary "cell bands: $([ $fail = 0 ] && echo PASSED || echo FAILED)"
exit $fail
