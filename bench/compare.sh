#!/usr/bin/env bash
# bench/compare.sh - the same benchmarks on two trees in one device call: a baseline (another
# commit's source, e.g. `git archive BASE | tar -x -C .baseline`, carried to the device) and this
# one, app by app, alternating, so that a refactoring's "every speed unchanged" is one table.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/compare.sh BASE_TREE [bench_suite args...]
# e.g. bash bench/compare.sh .baseline --size 16384 --only SAT,INTHIST,HEAT,SOR
# Prints, per measured line, both medians and new / base; logs to $OUT (or /tmp/pw-compare).
set -u
out=${OUT:-/tmp/pw-compare}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
base=$1
shift
log() { echo "$*" | tee -a "$out/compare_summary.txt"; }
: > "$out/compare_summary.txt"
log "$(pw_device_header) against $base, $(date -u +%Y-%m-%d)"
(cd "$base" && pw_build_gpu "$out/build_base.log") || { log "baseline build FAILED"; tail -20 "$out/build_base.log"; exit 1; }
pw_build_gpu "$out/build_new.log" || { log "build FAILED"; tail -20 "$out/build_new.log"; exit 1; }
only=SAT,INTHIST,HEAT,SOR,SW,DTW
args=()
prev=
for a in "$@"; do
  [ "$prev" = --only ] && { only=$a; prev=; continue; }
  [ "$a" = --only ] && { prev=$a; continue; }
  args+=("$a")
  prev=$a
done
for app in ${only//,/ }; do
  for side in base new; do
    bin=./build-gpu/bench_suite
    [ $side = base ] && bin=$base/build-gpu/bench_suite
    timeout 300 $bin --runs 5 --only "$app" "${args[@]}" 2>&1 | grep -E "^(SAT|INTHIST|HEAT|SOR|SW|DTW) " > "$out/$side.$app.txt"
  done
  # app type size method ... median "ms" ... : join on the first four fields
  awk 'FNR == NR { k = $1 " " $2 " " $3 " " $4; for (i = 5; i <= NF; i++) if ($i == "ms") { t[k] = $(i - 1); break }; next }
       { k = $1 " " $2 " " $3 " " $4; for (i = 5; i <= NF; i++) if ($i == "ms") { n = $(i - 1); break }
         check = $NF; if (k in t) printf "%-44s base %9.3f ms  new %9.3f ms  new/base %.3f  %s\n", k, t[k], n, n / t[k], check }' \
    "$out/base.$app.txt" "$out/new.$app.txt" | tee -a "$out/compare_summary.txt"
done
echo "================ compare summary"
cat "$out/compare_summary.txt"
