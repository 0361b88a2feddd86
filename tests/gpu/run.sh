#!/usr/bin/env bash
# tests/gpu/run.sh - everything GPU in one device call: build, the full CTest suite (CPU + GPU),
# large shapes, compute-sanitizer on small shapes, and the first strategy timing table.
# Logs go to $OUT (or /tmp/pw-gpu); a short summary is printed last.  The tree travels without
# .git, so call it as: PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/run.sh
# PW_STAGES (default all: "ctest gpu cli bench") picks stages; the build always comes first and is
# incremental.  On a fresh one-GPU machine the whole list passes one call's 600 s (the build alone
# took over 6 min on 16 cores at a84433b): run "ctest" first, then "gpu cli bench" in a second call
# within the 30 s the warm machine waits (build-gpu is still there).  A second call that comes
# later finds a fresh machine and builds again.  (A tree built on the CPU machine cannot travel
# instead: every program links the static library with its sm_90 code, 33 MB each, 482 MB packed
# with xz against the 64 MiB a call carries; tried 2026-12-03.)
set -u
out=${OUT:-/tmp/pw-gpu}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
. tests/gpu/device_lib.sh
stage() { [[ " ${PW_STAGES:-ctest gpu cli bench} " == *" $1 "* ]]; }
pw_begin

if stage ctest; then
# test_gpu runs on its own below, with more shapes; in ctest it only took time (a fresh
# machine's NVRTC-compiling tests filled the 180 s this once had)
# (PW_CTEST_REGEX: only the tests it matches, e.g. those a cut-off run did not reach)
(cd build-gpu && timeout ${PW_CTEST_LIMIT:-240} ctest --output-on-failure -j 8 -E '^test_gpu$' ${PW_CTEST_REGEX:+-R "$PW_CTEST_REGEX"} \
   > "$out/ctest.log" 2>&1)
summary "ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
grep -E "^[0-9]+ passed" -h "$out/ctest.log" | tail -3 >> "$out/summary.txt"
fi

if stage gpu; then
PW_TEST_SHAPES=${PW_TEST_SHAPES:-150} PW_GPU_LARGE=1 timeout 200 ./build-gpu/tests/test_gpu > "$out/gpu_large.log" 2>&1
summary "test_gpu (150 shapes + large): rc=$? $(tail -1 "$out/gpu_large.log")"
grep -E "^large|^concurrent|^fault|^memory|^device-pointer|FAIL" "$out/gpu_large.log" | head -24 >> "$out/summary.txt"

pw_sanitize "$out" memcheck racecheck synccheck initcheck | tee -a "$out/summary.txt"
fi

if stage cli; then
# The CLI on the CUDA backend, each subcommand on generated inputs with --check (bit-exact
# against the sequential CPU reference inside the same run).
pw=./build-gpu/peerwave
t=$(mktemp -d)
awk 'BEGIN { srand(3); print ">a"; for (i = 0; i < 30000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$t/a.fa"
awk 'BEGIN { srand(4); print ">b"; for (i = 0; i < 20000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$t/b.fa"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "%.6f\n", sin(i / 37.0) }' > "$t/s1.txt"
awk 'BEGIN { for (i = 0; i < 15000; i++) printf "%.6f\n", cos(i / 23.0) }' > "$t/s2.txt"
{ printf 'P5\n4096 4096\n255\n'; head -c $((4096 * 4096)) /dev/urandom; } > "$t/img.pgm"
cli_ok=0; cli_bad=0
for c in "sw $t/a.fa $t/b.fa --gap-open 5 --gap-extend 2" "dtw $t/s1.txt $t/s2.txt" "sat $t/img.pgm -o $t/sat.npy" \
         "sat $t/img.pgm --type f32" "heat --size 3000x2000 --sweeps 7 --tile-h 32" \
         "inthist $t/img.pgm --bins 16 -o $t/ih.npy" "heat --size 4096x4096 --sweeps 3" "sor --size 2048x2048 --sweeps 2 --omega 1.7"; do
  if $pw $c --backend cuda --check > "$t/out" 2> "$t/err" && grep -q '^check: ok' "$t/out"; then
    cli_ok=$((cli_ok + 1)); echo "$c: $(grep -E '^(score|distance|total|counted|residual|seconds|gcups|gpix_per_s):' "$t/out" | tr '\n' ' ')" >> "$out/cli_gpu.log"
  else cli_bad=$((cli_bad + 1)); echo "FAIL $c: $(cat "$t/err")" >> "$out/cli_gpu.log"; fi
done
# Wisdom on the GPU: the first model run trains and saves, the second finds the fit.
for k in 1 2; do
  $pw sat $t/img.pgm --backend cuda --tile-w model --wisdom "$t/wisdom.tsv" > "$t/w$k" 2>&1
done
summary "wisdom: first $(sed -n 's/^wisdom: //p' "$t/w1") training_s $(sed -n 's/^training_s: //p' "$t/w1"), second $(sed -n 's/^wisdom: //p' "$t/w2") training_s $(sed -n 's/^training_s: //p' "$t/w2"); key $(cut -f1 "$t/wisdom.tsv" | tail -1)"
rm -rf "$t"
summary "cli --backend cuda --check: $cli_ok passed, $cli_bad failed"
cat "$out/cli_gpu.log" >> "$out/summary.txt"
fi

if stage bench; then
timeout 120 ./build-gpu/bench_gpu_strategies 3 > "$out/strategies.txt" 2>&1
summary "strategies: rc=$?"
cat "$out/strategies.txt" >> "$out/summary.txt"
fi
echo "================ summary"
cat "$out/summary.txt"
