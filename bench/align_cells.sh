#!/usr/bin/env bash
# bench/align_cells.sh - the alignment passes' cells alone (src/align/cells/) on the device at
# several tile widths, against the built-in DTW/SW at the same sizes: what the
# GPU passes of pw_sw_align / pw_dtw_path (src/align/gpu_passes.c) should use.  Logs to $OUT.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/align_cells.sh
set -u
out=${OUT:-/tmp/pw-align-cells}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_begin
export PEERWAVE_CACHE=$out/cache
P=./build-gpu/peerwave
python3 - "$out" <<'PY'
import sys, numpy as np
out = sys.argv[1]
rng = np.random.default_rng(7)
for n in (65536, 262144):
    for c in "ab":
        np.save(f"{out}/w_{c}{n}.npy", np.cumsum(rng.standard_normal(n)))
        with open(f"{out}/s_{c}{n}.fa", "w") as f:
            f.write(f">{c}\n" + "".join(rng.choice(list("ACGT"), n)) + "\n")
    codes = {k: v for v, k in enumerate("ACGT")}
    for c in "ab":
        s = open(f"{out}/s_{c}{n}.fa").read().split("\n")[1]
        np.save(f"{out}/e_{c}{n}.npy", np.array([codes[x] for x in s], np.uint8))
w = np.zeros(1024, np.int32)
for x in range(5):
    for y in range(5):
        w[x * 5 + y] = -1 if x == y and x < 4 else 3
np.save(f"{out}/table.npy", w)
PY
for n in 65536 262144; do
  for w in 128 256 512 1024; do
    timeout 100 $P run src/align/cells/dtw_pass.c --backend cuda --tile-w $w \
      --input a="$out/w_a$n.npy" --input b="$out/w_b$n.npy" --param squared=0 --param f32=0 > "$out/dtw_${n}_$w.txt" 2>&1
    summary "dtw_pass $n w=$w: rc=$? $(grep -E '^(seconds|gcups|tile_h|tile_w|rows_per_thread):' "$out/dtw_${n}_$w.txt" | tr '\n' ' ')"
    timeout 100 $P run src/align/cells/mm_pass.c --backend cuda --tile-w $w \
      --input a="$out/e_a$n.npy" --input b="$out/e_b$n.npy" --input w="$out/table.npy" \
      --param alphabet=5 --param g=3 --param h=2 --param tb=3 > "$out/mm_${n}_$w.txt" 2>&1
    summary "mm_pass  $n w=$w: rc=$? $(grep -E '^(seconds|gcups):' "$out/mm_${n}_$w.txt" | tr '\n' ' ')"
  done
  timeout 100 $P run examples/cells/sw_gotoh.c --backend cuda --input a="$out/e_a$n.npy" --input b="$out/e_b$n.npy" \
    --param match=1 --param mismatch=-3 --param open=5 --param extend=2 > "$out/swcell_$n.txt" 2>&1
  summary "sw_gotoh.c $n: rc=$? $(grep -E '^(seconds|gcups|tile_h|tile_w):' "$out/swcell_$n.txt" | tr '\n' ' ')"
  timeout 100 $P dtw --backend cuda --type f64 "$out/w_a$n.npy" "$out/w_b$n.npy" > "$out/dtw_builtin$n.txt" 2>&1
  summary "built-in dtw f64 $n: $(grep -E '^(seconds|gcups|tile_h):' "$out/dtw_builtin$n.txt" | tr '\n' ' ')"
  timeout 100 $P sw --backend cuda --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --tile-w 512 "$out/s_a$n.fa" "$out/s_b$n.fa" > "$out/sw_builtin$n.txt" 2>&1
  summary "built-in sw affine $n: $(grep -E '^(seconds|gcups|tile_h):' "$out/sw_builtin$n.txt" | tr '\n' ' ')"
done
rm -rf "$out/cache" "$out"/*.npy "$out"/*.fa
