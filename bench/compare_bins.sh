#!/usr/bin/env bash
# bench/compare_bins.sh - several bench_suite binaries (another commit's, this tree's, a variant's)
# on the same lines in one device call, in alternating rounds, so that a change is judged against
# two baselines at once (compare.sh takes two binaries; this takes any number).
#   PW_BINS="base=/path/a now=/path/b new=/path/c" bash bench/compare_bins.sh ROUNDS bench_suite-args...
# e.g. PW_BINS=... bash bench/compare_bins.sh 3 --runs 5 --only SOR,HEAT --size 16384 --method PW+HT,GS+HT
# Each round runs every binary once (its own median of --runs); the table gives, per line, the
# median over rounds for each binary and each one's ratio to the first binary of PW_BINS (the
# baseline); a line a binary lacks shows "-", a failed check "CHECK FAILED".  Logs to $OUT (or
# /tmp/pw-compare-bins): lines.txt (every binary's lines, by round), NAME.err (its stderr),
# compare_bins.txt (the table).
#   bash bench/compare_bins.sh --table LINES[.gz]   the table again from a call's lines.txt (one
#   cut short by its time limit, say: whatever rounds it finished; baseline: the first binary in it)
set -u
usage() { sed -n '5,6p;12,13p' "$0" | sed 's/^# *//' >&2; exit 2; }
out=${OUT:-/tmp/pw-compare-bins}
mkdir -p "$out"
baseline=
if [ "${1:-}" = --table ]; then
  [ -n "${2:-}" ] && [ -f "$2" ] || usage
  lines=$out/table_lines.txt
  case $2 in *.gz) zcat "$2" > "$lines" ;; *) cp "$2" "$lines" ;; esac
else
  [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || usage
  [ -n "${PW_BINS:-}" ] || { echo "compare_bins.sh: PW_BINS=\"name=binary ...\" is not set" >&2; exit 2; }
  for nb in $PW_BINS; do
    [ -x "${nb#*=}" ] || { echo "compare_bins.sh: ${nb%%=*}: ${nb#*=} is not an executable" >&2; exit 2; }
  done
  baseline=${PW_BINS%%=*}
  lines=$out/lines.txt
  : > "$lines"
  rounds=$1
  shift
  for ((round = 1; round <= rounds; round++)); do
    for nb in $PW_BINS; do
      timeout 300 "${nb#*=}" "$@" 2>> "$out/${nb%%=*}.err" | grep -E "^(SAT|INTHIST|HEAT|SOR|SW|DTW) " | sed "s/^/${nb%%=*} $round /" >> "$lines"
      rc=${PIPESTATUS[0]}
      [ "$rc" = 0 ] || echo "compare_bins.sh: ${nb%%=*} round $round: rc=$rc (its stderr: $out/${nb%%=*}.err)" >&2
    done
  done
fi
# name round app type size method ... median "ms": the key runs from the app to the method;
# binaries in the order they first appear, the baseline first
awk -v baseline="$baseline" '
  function key(   i, k) { k = $3; for (i = 4; i <= NF; i++) { k = k " " $i; if ($i ~ /^(GS|GS\+HT|PW|PW\+HT|PW\+FHT|LAUNCH)$/) break }; return k }
  function ms(   i) { for (i = 6; i <= NF; i++) if ($i == "ms") return $(i - 1) }
  function median(s,   v, n, i, j, x) { n = split(s, v, " "); for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] + 0 > x + 0; j--) v[j + 1] = v[j]; v[j + 1] = x }
                                       return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  BEGIN { if (baseline != "") { named[baseline] = 1; nm[++nn] = baseline } }
  { if (!($1 in named)) { named[$1] = 1; nm[++nn] = $1 }
    k = key(); if (!(k in seen)) { seen[k] = 1; order[++nk] = k };
    if ($NF == "ok") t[k, $1] = t[k, $1] " " ms(); else bad[k] = bad[k] " " $1 ":" $NF }
  END { for (o = 1; o <= nk; o++) { k = order[o]; line = sprintf("%-40s", k); b = (k, nm[1]) in t ? median(t[k, nm[1]]) : 0
          for (i = 1; i <= nn; i++) {
            if (!((k, nm[i]) in t)) { line = line sprintf("  %s %8s", nm[i], "-"); continue }
            m = median(t[k, nm[i]]); line = line sprintf("  %s %8.3f", nm[i], m); if (i > 1 && b > 0) line = line sprintf(" (%.3f)", m / b) }
          print line (k in bad ? "  CHECK FAILED:" bad[k] : "") } }' "$lines" | tee "$out/compare_bins.txt"
