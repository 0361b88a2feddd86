#!/usr/bin/env bash
# bench/ncu_compare.sh - where two bench_suite binaries' kernels differ, by Nsight Compute: for each
# case (APP:SIZE:METHOD:KERNEL-REGEX) both binaries run once under ncu (the first COUNT matching
# launches: warm-up and timed run of each type), and the summary lists per launch the kernel's
# duration, instructions executed, registers, grid, achieved occupancy and the top warp stall
# reasons, base beside new.  For "every speed unchanged" lines that stay a few percent apart
# (issue 32), this says whether the new kernel does more work, waits longer, or runs fewer warps.
#   PW_BASE_BIN=... PW_NEW_BIN=... bash bench/ncu_compare.sh ["SW:65536:PW+HT:pw_peer" ...]
# PW_NCU_SOURCE=1: also each binary's first matching launch with ncu's SourceCounters, its SASS
# with the executed count of every instruction written to *_sass.csv (bench/ncu_sass_diff.py
# compares two such files by opcode and by region).
# Logs under $OUT (or /tmp/pw-ncu); a summary last.
set -u
out=${OUT:-/tmp/pw-ncu}
mkdir -p "$out"
base=${PW_BASE_BIN:?PW_BASE_BIN: the baseline bench_suite}
new=${PW_NEW_BIN:?PW_NEW_BIN: the bench_suite to compare}
count=${PW_NCU_COUNT:-4}
skip=${PW_NCU_SKIP:-0} # matching launches to pass over first (e.g. 2: SW affine's two, to reach its linear-gap kernel)
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=("SW:65536:PW+HT:pw_peer" "DTW:65536:GS+HT:pw_barrier" "SOR:16384:PW+HT:pw_peer")
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size
metrics+=,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__cycles_active.avg
metrics+=,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_wait.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_barrier.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_membar.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_sleeping.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_not_selected.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_selected.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_no_instruction.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_drain.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_imc_miss.ratio
: > "$out/summary.txt"
for c in "${cases[@]}"; do
  IFS=: read -r app size method kernel <<< "$c"
  for side in base new; do
    bin=$base
    [ $side = new ] && bin=$new
    log="$out/${app}_${size}_${method//+/p}_$side.csv"
    timeout 500 "$ncu" --csv --metrics "$metrics" --kernel-name "regex:$kernel" --launch-skip "$skip" -c "$count" \
      "$bin" --runs 1 --only "$app" --size "$size" --method "$method" > "$log" 2> "$log.err"
    echo "== $c $side (rc $?)" >> "$out/summary.txt"
    if [ "${PW_NCU_SOURCE:-0}" = 1 ]; then
      rep="$out/${app}_${size}_${method//+/p}_$side"
      timeout 500 "$ncu" --section SourceCounters --kernel-name "regex:$kernel" --launch-skip "$skip" -c 1 -f -o "$rep" \
        "$bin" --runs 1 --only "$app" --size "$size" --method "$method" > "$rep.log" 2>&1
      "$ncu" --import "$rep.ncu-rep" --page source --print-source sass --csv > "${rep}_sass.csv" 2>> "$rep.log"
      rm -f "$rep.ncu-rep"
    fi
    # "ID","Process ID",...,"Kernel Name",...,"Metric Name","Metric Unit","Metric Value": one line per launch and metric
    python3 - "$log" >> "$out/summary.txt" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
if not rows:
    print("  (no ncu rows)"); sys.exit(0)
head = rows[0]; ix = {n: k for k, n in enumerate(head)}
launches = {}
for r in rows[1:]:
    lid = r[ix["ID"]]
    launches.setdefault(lid, {"kernel": r[ix["Kernel Name"]][:60]})[r[ix["Metric Name"]]] = r[ix["Metric Value"]]
short = lambda m: m.replace("smsp__average_warp_latency_issue_stalled_", "stall_").replace(".ratio", "")
for lid, m in launches.items():
    stalls = sorted(((float(v.replace(",", "")), short(k)) for k, v in m.items() if "stalled" in k), reverse=True)[:6]
    print("  launch %s %s" % (lid, m["kernel"]))
    print("    ns %s  inst %s  regs %s  grid %s x %s  warps_active%% %s  cycles_active %s" % (
        m.get("gpu__time_duration.sum"), m.get("smsp__inst_executed.sum"), m.get("launch__registers_per_thread"),
        m.get("launch__grid_size"), m.get("launch__block_size"),
        m.get("sm__warps_active.avg.pct_of_peak_sustained_active"), m.get("smsp__cycles_active.avg")))
    print("    " + "  ".join("%s %.1f" % (n, v) for v, n in stalls))
EOF
  done
done
cat "$out/summary.txt"
