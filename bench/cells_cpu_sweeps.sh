#!/usr/bin/env bash
# bench/cells_cpu_sweeps.sh - user cells' in-place sweeps, pipelined (each sweep's tiles wait for
# what they read of the sweep before: core/tiling_geometry.h) against a sweep a run of the engine
# (PEERWAVE_PIPELINE_SWEEPS=0), the same binary and grid; seconds of the computation (`seconds:`:
# wall on the CPU, kernel on the GPU), median of 3, and the two results compared byte for byte.
#   bash bench/cells_cpu_sweeps.sh [BUILD_DIR]      (default build-cpu; logs under $OUT or /tmp)
#   PW_BACKEND=cuda: on the GPU (the 2-D cells on FullProc, and the demonstrator on the flattened
#   space, PEERWAVE_3D=flat; grid3 on the 3-D processor: bench stage sweeps3d)
# Cells: seed 004's demonstrator and the LU-like sweep (grid3, flattened on the CPU), HEAT as a
# grid cell (reads its four neighbours), a two-wide Gauss-Seidel cross (halo 2: reads two rows
# down, which HEAT's rule does not cover) and a nine-point one (reads (i-1, j+1) new and
# (i+1, j-1) old: skew 1, which no pipelining took before).
set -u
cd "$(dirname "$0")/.."
build=${1:-build-cpu}
out=${OUT:-/tmp/pw-cells-cpu}
mkdir -p "$out"
pw=${PW_BIN:-$build/peerwave} # (PW_BIN: a peerwave binary elsewhere, e.g. carried to the device)
t=$(mktemp -d)
: > "$out/cells_cpu_sweeps.txt"
say() { echo "$*" | tee -a "$out/cells_cpu_sweeps.txt"; }
secs() { sed -n 's/^seconds: //p'; }
median3() { sort -g | sed -n 2p; }

# A .npy of float32 or int64 random values (numpy where there is one): npy_random FILE DTYPE DIM...
npy_random() {
  python3 - "$@" <<'EOF'
import random, struct, sys
path, dtype, dims = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:]]
try:
    import numpy as np
    rng = np.random.default_rng(7)
    a = rng.random(dims, dtype=np.float32) * 10 if dtype == "<f4" else rng.integers(0, 1000000, dims, dtype=np.int64)
    np.save(path, a)
    sys.exit(0)
except ImportError:
    pass
n = 1
for d in dims: n *= d
header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (dtype, "".join("%d, " % d for d in dims))
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
rnd = random.Random(7)
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    fmt = "<f" if dtype == "<f4" else "<q"
    chunk = 1 << 16
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        vals = [rnd.random() * 10 for _ in range(m)] if dtype == "<f4" else [rnd.randrange(1000000) for _ in range(m)]
        f.write(struct.pack("<%d%s" % (m, fmt[1]), *vals))
EOF
}

cat > "$t/nine.c" <<'EOF'
/* A nine-point Gauss-Seidel sweep: (i, j) from its eight neighbours, the upwind ones (row above,
 * and the left one) new, the others old; (i-1, j+1) new and (i+1, j-1) old make the skew 1. */
PW_FORM(grid)
PW_VALUE(int64_t)
PW_DEP(1, -1)
PW_DEP(1, 0)
PW_DEP(1, 1)
PW_DEP(0, 1)
PW_HALO(1)
PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)
{
    return (pw_at(c, i - 1, j - 1) * 3 + pw_at(c, i - 1, j) * 5 + pw_at(c, i - 1, j + 1) * 7 + pw_at(c, i, j - 1) * 11 +
            pw_at(c, i, j) + pw_at(c, i, j + 1) * 13 + pw_at(c, i + 1, j - 1) * 17 + pw_at(c, i + 1, j) * 19 +
            pw_at(c, i + 1, j + 1) * 23) % 1000000007;
}
EOF
cat > "$t/cross2.c" <<'EOF'
/* A two-wide Gauss-Seidel cross: (i, j) from its neighbours one and two away on each axis,
 * the upwind ones new, the downwind ones old; integers, so every engine gives the same bits. */
PW_FORM(grid)
PW_VALUE(int64_t)
PW_DEP(1, 0)
PW_DEP(0, 1)
PW_DEP(2, 0)
PW_DEP(0, 2)
PW_HALO(2)
PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)
{
    return (pw_at(c, i - 1, j) * 3 + pw_at(c, i, j - 1) * 5 + pw_at(c, i - 2, j) * 7 + pw_at(c, i, j - 2) * 11 +
            pw_at(c, i, j) + pw_at(c, i + 1, j) * 13 + pw_at(c, i, j + 1) * 17 + pw_at(c, i + 2, j) * 19 +
            pw_at(c, i, j + 2) * 23) % 1000000007;
}
EOF

# case NAME CELL GRID SIZE SWEEPS EXTRA...: pipelined and a sweep a run, median of 3 each
case_run() {
  local name=$1 cell=$2 grid=$3 size=$4 sweeps=$5; shift 5
  local piped one
  for mode in piped one; do
    local env=""; [ $mode = one ] && env="PEERWAVE_PIPELINE_SWEEPS=0"
    for r in 1 2 3; do
      env $env $pw run "$cell" --grid "$grid" --size "$size" --sweeps "$sweeps" --backend $backend "$@" -o "$t/$mode.npy" \
        > "$t/$mode.$r.log" 2>&1 || { say "$name: $mode run failed: $(tail -2 "$t/$mode.$r.log" | tr '\n' ' ')"; return; }
    done
    eval "$mode=\$(for r in 1 2 3; do secs < \"\$t/$mode.\$r.log\"; done | median3)"
  done
  local same=differ; cmp -s "$t/piped.npy" "$t/one.npy" && same=same
  say "$(printf '%-28s %-12s x%-3s pipelined %8.4f s  a sweep a run %8.4f s  %5.2fx  (%s, threads %s, tile %sx%s)' \
    "$name" "$size" "$sweeps" "$piped" "$one" "$(awk -v a="$one" -v b="$piped" 'BEGIN { print a / b }')" "$same" \
    "$(sed -n 's/^threads: //p' "$t/piped.1.log")" "$(sed -n 's/^tile_h: //p' "$t/piped.1.log")" \
    "$(sed -n 's/^tile_w: //p' "$t/piped.1.log")")"
}

backend=${PW_BACKEND:-cpu}
if [ $backend = cpu ]; then
  say "CPU: $(nproc) processors, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
else
  say "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
  PW_CPU_3D_SIZES=none
fi
for n in ${PW_CPU_3D_SIZES:-64 128 192}; do
  [ $n = none ] && break
  npy_random "$t/g3_$n.npy" '<f4' $((n + 2)) $((n + 2)) $((n + 2))
  case_run "demonstrator3d" examples/cells/demonstrator3d.c "$t/g3_$n.npy" ${n}x${n}x${n} 8 --param modulus=11.5
done
# (on the GPU: grid3 on the flattened space, as a cell the 3-D processor cannot take runs: FullProc's
# sweeps pipelined by the flattened reads, a read past the reach flagged)
[ $backend = cpu ] || for n in ${PW_GPU_FLAT3_SIZES:-128 256}; do
  npy_random "$t/f3_$n.npy" '<f4' $((n + 2)) $((n + 2)) $((n + 2))
  export PEERWAVE_3D=flat
  case_run "demonstrator3d (flattened)" examples/cells/demonstrator3d.c "$t/f3_$n.npy" ${n}x${n}x${n} 8 --param modulus=11.5
  unset PEERWAVE_3D
done
[ $backend = cpu ] && npy_random "$t/g3_96.npy" '<f4' 98 98 98 &&
case_run "lu_like" examples/cells/lu_like.c "$t/g3_96.npy" 96x96x96 8 --param iterations=2 --param modulus=50 \
  --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1
for n in ${PW_CPU_2D_SIZES:-1024 4096}; do
  npy_random "$t/h_$n.npy" '<f4' $((n + 2)) $((n + 2))
  case_run "heat_grid" examples/cells/heat_grid.c "$t/h_$n.npy" ${n}x${n} 8
  npy_random "$t/c_$n.npy" '<i8' $((n + 4)) $((n + 4))
  case_run "cross2 (halo 2)" "$t/cross2.c" "$t/c_$n.npy" ${n}x${n} 8
  npy_random "$t/n_$n.npy" '<i8' $((n + 2)) $((n + 2))
  case_run "nine (skew 1)" "$t/nine.c" "$t/n_$n.npy" ${n}x${n} 8
done
rm -rf "$t"
