#!/usr/bin/env bash
# bench/widths.sh - one app through bench_suite at several tile widths (PW+HT unless METHOD is
# set; CUDA events, median of 5, every result checked), to see what a processor wants.  Assumes
# build-gpu (or $PW_BUILD) is built (or builds build-gpu).  Lines to stdout and $OUT/widths_APP.txt.
#   bash bench/widths.sh APP "SIZES" "WIDTHS" [more bench_suite args]
#   e.g. bash bench/widths.sh SW "65536" "43 128 1024"
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pw-widths}
mkdir -p "$out"
[ $# -ge 3 ] || { echo 'usage: bash bench/widths.sh APP "SIZES" "WIDTHS" [bench_suite args]' >&2; exit 2; }
. tests/gpu/device_lib.sh
app=$1 sizes=$2 widths=$3
shift 3
build=${PW_BUILD:-build-gpu} # another build folder, e.g. one configured with other flags
[ -x $build/bench_suite ] || pw_build_gpu "$out/build.log"
for n in $sizes; do
  for w in $widths; do
    ./$build/bench_suite --runs 5 --only "$app" --method "${METHOD:-PW+HT}" --tile-w "$w" --size "$n" "$@" 2>&1 |
      grep -E "^$app" | sed "s/^/w=$w /" | tee -a "$out/widths_$app.txt"
  done
done
