#!/usr/bin/env bash
# bench/compare.sh - the same benchmarks on two trees in one device call: a baseline (another
# commit's source, e.g. `git archive BASE | tar -x -C .baseline`, carried to the device) and this
# one, app by app, alternating, so that a refactoring's "every speed unchanged" is one table.
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/compare.sh BASE_TREE [bench_suite args...]
# e.g. bash bench/compare.sh .baseline --size 16384 --only SAT,INTHIST,HEAT,SOR
# or, with binaries built elsewhere: PW_BASE_BIN=... PW_NEW_BIN=... bash bench/compare.sh dcad950 --size 16384
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
# (PW_BASE_BIN and PW_NEW_BIN: bench_suite binaries built elsewhere, e.g. here on a machine
# without a GPU and carried; BASE_TREE is then only a name)
if [ -z "${PW_BASE_BIN:-}" ]; then
  (cd "$base" && pw_build_gpu "$out/build_base.log") || { log "baseline build FAILED"; tail -20 "$out/build_base.log"; exit 1; }
  pw_build_gpu "$out/build_new.log" || { log "build FAILED"; tail -20 "$out/build_new.log"; exit 1; }
fi
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
    bin=${PW_NEW_BIN:-./build-gpu/bench_suite}
    [ $side = base ] && bin=${PW_BASE_BIN:-$base/build-gpu/bench_suite}
    timeout 300 $bin --runs 5 --only "$app" "${args[@]}" 2>&1 | grep -E "^(SAT|INTHIST|HEAT|SOR|SW|DTW) " > "$out/$side.$app.txt"
  done
  # app type size method ... median "ms" ...: the key runs up to the method (types may hold spaces)
  awk 'function key(   i, k) { k = $1; for (i = 2; i <= NF; i++) { k = k " " $i; if ($i ~ /^(GS|GS\+HT|PW|PW\+HT|PW\+FHT|LAUNCH)$/) break }; return k }
       function ms(   i) { for (i = 5; i <= NF; i++) if ($i == "ms") return $(i - 1) }
       FNR == NR { t[key()] = ms(); next }
       { k = key(); if (k in t) printf "%-44s base %9.3f ms  new %9.3f ms  new/base %.3f  %s\n", k, t[k], ms(), ms() / t[k], $NF }' \
    "$out/base.$app.txt" "$out/new.$app.txt" | tee -a "$out/compare_summary.txt"
done
rm -f "$out"/base.*.txt "$out"/new.*.txt # the joined table is the result (the device returns few files)
echo "================ compare summary"
cat "$out/compare_summary.txt"
