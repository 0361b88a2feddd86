#!/usr/bin/env bash
# tests/gpu/session.sh - one device call for a whole session: the GPU test run, the trace
# pictures and width measurements, and the benchmark suite; the logs packed into one archive
# (the device tool brings back at most 8 files).  Call as:
#   PW_COMMIT=$(git rev-parse --short HEAD) bash tests/gpu/session.sh [tests] [trace] [bench] [bench-small]
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/pw-session}
mkdir -p "$out/logs"
steps=${*:-tests trace bench}
for s in $steps; do
  case $s in
    tests) OUT="$out/logs" bash tests/gpu/run.sh > "$out/logs/tests_stdout.txt" 2>&1 ;;
    trace) OUT="$out/logs" bash bench/trace.sh > "$out/logs/trace_stdout.txt" 2>&1 ;;
    bench) OUT="$out/logs" bash bench/run.sh > "$out/logs/bench_stdout.txt" 2>&1 ;;
    bench-small) OUT="$out/logs" bash bench/run.sh --small > "$out/logs/bench_stdout.txt" 2>&1 ;;
  esac
done
for f in summary.txt trace_summary.txt bench_summary.txt suite.csv suite.svg trace_gs_ht.svg trace_pw_fht.svg; do
  [ -f "$out/logs/$f" ] && mv "$out/logs/$f" "$out/$f"
done
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$out/logs"
for f in summary.txt trace_summary.txt bench_summary.txt; do [ -f "$out/$f" ] && { echo "==== $f"; cat "$out/$f"; }; done
