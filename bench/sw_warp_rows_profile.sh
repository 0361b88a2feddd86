#!/usr/bin/env bash
# bench/sw_warp_rows_profile.sh - where the warp-rows pairs kernel spends its issue slots on the
# genome pair itself (issue 28: 6.51 s against the 6.0 s goal; session 5's profile was of a random
# pair that overflowed early, which is not the genomes' mix of work and waits).  One device call,
# carry .bench-data:
#   PW_COMMIT=$(git rev-parse --short HEAD) bash bench/sw_warp_rows_profile.sh
# Builds bench/sw_warp_rows.cu with -lineinfo, runs it once without ncu (the kernel time), then
# under ncu for the pairs kernel only (one launch: each of ncu's passes replays the whole 6.5 s
# kernel, so only the sections named here), and writes to $OUT: the report (.ncu-rep), the
# sections' text, and the SASS lines with the most stall samples (source_top.txt: a line, its
# samples, its share, its stall reasons), the thing to read before writing the next variant for
# bench/sw_warp_rows_ab.sh.
set -u
out=${OUT:-/tmp/pw-warp-rows-profile}
mkdir -p "$out"
cd "$(dirname "$0")/.."
. tests/gpu/device_lib.sh
pw_summary_start
bin=$(mktemp -d)
nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -DPW_R=12 -Ibench -o "$bin/swr" bench/sw_warp_rows.cu > "$out/build.log" 2>&1
summary "build: rc=$? $(grep -A2 pairs_kernel "$out/build.log" | grep -oE 'Used [0-9]+ registers' | head -1)"
pw_genomes "$bin" || { summary "no .bench-data/kmer_test_data.tar.gz (carry .bench-data)"; exit 1; }
# A prefix of each genome (PW_PROFILE_ROWS x PW_PROFILE_COLS letters): ncu replays the kernel once
# a pass and its source counters instrument it, so the whole 6.5 s pair would not finish in a call.
# 2.4 M rows still fill the GPU (2880 warps of 12 row pairs = 2.2 M rows a round) and the columns
# stay long next to the fill, as in the whole pair.
prefix() { python3 -c 'import sys
n = int(sys.argv[2]); seq = "".join(l.strip() for l in open(sys.argv[1]) if not l.startswith(">"))[:n]
print(">prefix"); print("\n".join(seq[i:i + 80] for i in range(0, len(seq), 80)))' "$1" "$2"; }
prefix "$g2" "${PW_PROFILE_ROWS:-2400000}" > "$bin/rows.fa"
prefix "$g1" "${PW_PROFILE_COLS:-1200000}" > "$bin/cols.fa"
args="--match 1 --mismatch -3 --gap-open 5 --gap-extend 2 --balance --pairs $bin/rows.fa $bin/cols.fa"
timeout 60 "$bin/swr" $args > "$out/plain.log" 2>&1
summary "without ncu: $(tail -1 "$out/plain.log")"
export PW_SWR_WATCHDOG_S=100000  # instrumented replays are slow; a stall there is not a hang
# PW_PROFILE=pipes: the same prefix without instrumentation: which pipes the instructions load
# (ComputeWorkloadAnalysis' pipe utilisation, InstructionStats' mix): is the kernel bound by
# one pipe (the integer ALU issues a warp instruction every 2 cycles) rather than by issue?  (Not
# on the whole pair: under ncu its first pass had not ended after 300 s on 2026-11-29.)
if [ "${PW_PROFILE:-}" = pipes ]; then
  sections="--section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats"
else
  sections="--section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section SourceCounters --import-source yes"
fi
timeout "${PW_NCU_TIMEOUT:-480}" ncu --kernel-name regex:pw_swr_pairs_kernel --launch-count 1 \
  $sections -f -o "$out/pairs" "$bin/swr" $args > "$out/ncu_run.log" 2>&1
summary "ncu: rc=$? $(tail -1 "$out/ncu_run.log")"
if [ -f "$out/pairs.ncu-rep" ]; then
  ncu -i "$out/pairs.ncu-rep" --print-details all > "$out/sections.txt" 2>&1
  summary "$(grep -E 'Executed Instructions  |Issued Warp Per Scheduler|No Eligible|Warp Cycles Per Issued Instruction|Achieved Occupancy|Registers Per Thread' "$out/sections.txt" | tr -s ' ' | tr '\n' ';')"
  [ "${PW_PROFILE:-}" = pipes ] && { grep -iE -A30 "pipe" "$out/sections.txt" | head -80 > "$out/pipes.txt"; rm -rf "$bin"; echo "---- summary"; cat "$out/summary.txt"; exit 0; }
  ncu -i "$out/pairs.ncu-rep" --page source --csv --print-source sass > "$out/source.csv" 2>&1
  python3 - "$out/source.csv" > "$out/source_top.txt" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head = next((i for i, r in enumerate(rows) if "Source" in r), None)
if head is None:
    print("no source table in", sys.argv[1]); sys.exit(0)
cols = rows[head]
def col(name):
    return next((i for i, c in enumerate(cols) if c.startswith(name)), None)
src, samp = col("Source"), col("Warp Stall Sampling (All Samples)")
if samp is None: samp = col("Warp Stall Sampling")
body = [r for r in rows[head + 1:] if len(r) == len(cols)]
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[samp]) for r in body) or 1.0
stall_cols = [i for i, c in enumerate(cols) if ("stall" in c.lower()) and "Sampling" not in c]
print(f"{len(body)} SASS lines, {total:.0f} stall samples")
for r in sorted(body, key=lambda r: -num(r[samp]))[:60]:
    why = sorted(((num(r[i]), cols[i]) for i in stall_cols), reverse=True)[:3]
    print(f"{num(r[samp]):10.0f} {100 * num(r[samp]) / total:5.1f}%  {r[src][:90]:90s}  " +
          ", ".join(f"{n}={v:.0f}" for v, n in why if v > 0))
EOF
  summary "source_top.txt: $(head -1 "$out/source_top.txt")"
fi
rm -rf "$bin"
echo "---- summary"
cat "$out/summary.txt"
