#!/usr/bin/env bash
# fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...] - build the libFuzzer targets with clang (ASan +
# UBSan) and run each for SECONDS (default 600), two at a time.  New coverage is merged
# (minimised, inputs up to 4 KB) into fuzz/corpus/TARGET, which CTest replays on every build;
# crashes land in build-fuzz/crashes/.  Prints per target: seconds, executions, corpus, crashes.
set -u
cd "$(dirname "$0")/.."
secs=${1:-600}
shift || true
targets=${*:-"npy image series fasta options graph"}
b=${FUZZ_BUILD:-build-fuzz}
mkdir -p "$b/crashes"
cc=${CC_FUZZ:-clang}
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GNU_SOURCE -std=c11"
lib_src="src/core/*.c src/cpu/*.c src/cpu/simd/*.c src/tasks/*.c apps/*.c formats/*.c"
png_flags=""
if pkg-config --exists libpng 2>/dev/null; then png_flags="-DPEERWAVE_HAVE_PNG $(pkg-config --cflags --libs libpng)"; fi
# the library's objects once, each vector-set file with its own instruction set (as CMake does)
mkdir -p "$b/obj"
objs=""
for f in $lib_src; do
  extra=""
  case $f in
    *_sse41.c) extra=-msse4.1 ;;
    *_avx2.c) extra=-mavx2 ;;
    *_avx512.c) extra="-mavx512bw -mavx512vl" ;;
  esac
  o="$b/obj/$(echo "$f" | tr / _).o"
  $cc ${flags/fuzzer,/fuzzer-no-link,} $extra -Iinclude -Iformats $png_flags -c "$f" -o "$o" 2>> "$b/build_lib.log" ||
    { echo "build of $f failed: see $b/build_lib.log"; exit 1; }
  objs="$objs $o"
done
for t in $targets; do
  $cc $flags -Iinclude -Iformats -Ifuzz fuzz/fuzz_$t.c $objs $png_flags -lpthread -lm -o "$b/fuzz_$t" \
    2> "$b/build_$t.log" || { echo "build of fuzz_$t failed: see $b/build_$t.log"; exit 1; }
done
run_one() {
  local t=$1 work=$b/work_$1
  mkdir -p "$work" "fuzz/corpus/$t"
  "$b/fuzz_$t" "$work" "fuzz/corpus/$t" "fuzz/seeds/$t" -max_total_time="$secs" -max_len=65536 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$b/crashes/${t}_" -print_final_stats=1 > "$b/log_$t.txt" 2>&1
  echo "exit $?" >> "$b/log_$t.txt"
  # keep the repo corpus small: minimised, inputs up to 4 KB
  mkdir -p "$b/merged_$t"
  "$b/fuzz_$t" -merge=1 -max_len=4096 "$b/merged_$t" "fuzz/corpus/$t" "$work" > /dev/null 2>&1
  rm -rf "fuzz/corpus/$t" && mv "$b/merged_$t" "fuzz/corpus/$t"
}
set -- $targets
while [ $# -gt 0 ]; do
  run_one "$1" & p1=$!
  if [ $# -gt 1 ]; then run_one "$2" & p2=$!; wait $p2; shift; fi
  wait $p1; shift
done
for t in $targets; do
  execs=$(grep -h "stat::number_of_executed_units" "$b/log_$t.txt" | awk '{print $2}')
  crashes=$(ls "$b/crashes" 2>/dev/null | grep -c "^${t}_")
  echo "fuzz_$t: ${secs} s, ${execs:-?} executions, corpus $(ls "fuzz/corpus/$t" | wc -l) files, crashes $crashes ($(tail -1 "$b/log_$t.txt"))"
done
