#!/usr/bin/env bash
# test_cli.sh PEERWAVE EXAMPLES_DIR - run the peerwave binary as a user would: results agree
# across strategies and with the library's sequential reference, and every bad input gives a
# one-line error and the documented exit code (2 usage, 1 data), never a crash.
set -u
pw=$1
ex=$2
src=$(cd "$(dirname "$0")/.." && pwd) # the source tree (scripts/)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Model fits are remembered between runs (src/core/wisdom.h): keep this script's to itself.
export PEERWAVE_WISDOM="$tmp/wisdom.tsv"
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

field() { sed -n "s/^$1: //p"; }

# Same score and end cell on every strategy and tile shape.
ref=$("$pw" sw --strategy sequential --quiet "$ex/query.fa" "$ex/target.fa")
for args in "--strategy peer" "--strategy barrier" "--strategy peer --tile-shape square --tile-h 7 --tile-w 7" \
            "--strategy barrier --tile-h 33 --tile-w 5 --threads 3" "--threads 1" "--prune"; do
  got=$("$pw" sw $args --quiet "$ex/query.fa" "$ex/target.fa")
  [ "$got" = "$ref" ] && ok || bad "sw $args: '$got' vs '$ref'"
done
out=$("$pw" sw "$ex/query.fa" "$ex/target.fa")
for key in score end_a end_b cells gcups backend strategy seconds; do
  echo "$out" | grep -q "^$key: " && ok || bad "sw output lacks '$key:'"
done
[ "$(echo "$out" | field cells)" = $((6000 * 5419)) ] && ok || bad "cells"

# Hand-checkable case: ACGTACG matches at a[1..7] and b[3..9]: 7 x 2 = 14.
printf '>a\nACGTACGTTTGA\n' > "$tmp/a.fa"
printf '>b some description\ntta\ncgtacgaa\n' > "$tmp/b.fa"
got=$("$pw" sw --quiet "$tmp/a.fa" "$tmp/b.fa" | tr '\n' ' ')
[ "$got" = "score: 14 end_a: 7 end_b: 9 " ] && ok || bad "hand case: $got"
# Protein with BLOSUM62: W-W scores 11.
printf '>p\nW\n' > "$tmp/p.fa"
got=$("$pw" sw --matrix blosum62 --gap-open 11 --gap-extend 1 --quiet "$tmp/p.fa" "$tmp/p.fa" | head -1)
[ "$got" = "score: 11" ] && ok || bad "protein W/W: $got"
# Protein scored as DNA (no --matrix): a warning naming the file and the letter, the run goes on;
# none with --matrix, none for DNA with IUPAC codes.
printf '>p\nMKWVTFISLL\n' > "$tmp/prot.fa"
"$pw" sw --quiet "$tmp/prot.fa" "$tmp/prot.fa" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q "warning: .*prot.fa: letter 'F' at 6 .*--matrix" "$tmp/err" && ok || bad "protein as DNA: $(cat "$tmp/err")"
"$pw" sw --quiet --matrix BLOSUM62 "$tmp/prot.fa" "$tmp/prot.fa" > "$tmp/out" 2> "$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "protein with --matrix warned: $(cat "$tmp/err")"
printf '>d\nACGTNRYKMSWBDHVuacgt\n' > "$tmp/iupac.fa"
"$pw" sw --quiet "$tmp/iupac.fa" "$tmp/a.fa" > "$tmp/out" 2> "$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "DNA with IUPAC codes warned: $(cat "$tmp/err")"
"$pw" sw --query "$tmp/iupac.fa" --db "$tmp/prot.fa" > "$tmp/out" 2> "$tmp/err"
grep -q "warning: .*prot.fa, record p: letter 'F' at 6" "$tmp/err" && ok || bad "protein db as DNA: $(cat "$tmp/err")"
# record names that repeat: the hits table names records by name, so a warning says which
printf '>r1\nACGT\n>r2\nACGA\n>r1 again\nACGG\n' > "$tmp/dupdb.fa"
"$pw" sw --query "$tmp/iupac.fa" --db "$tmp/dupdb.fa" > "$tmp/out" 2> "$tmp/err" &&
  grep -q "warning: .*dupdb.fa: 1 record repeats an earlier one's name (first 'r1', records 1 and 3 of those read)" "$tmp/err" && ok ||
  bad "repeated record names: $(cat "$tmp/err")"
# Compressed input: the same score as the plain file.
gzip -c "$tmp/b.fa" > "$tmp/b.fa.gz"
got=$("$pw" sw --quiet "$tmp/a.fa" "$tmp/b.fa.gz" | tr '\n' ' ')
[ "$got" = "score: 14 end_a: 7 end_b: 9 " ] && ok || bad "gzip FASTA: $got"
# bytes after the last member: zeros quietly (padding), other bytes with gzip -d's warning
{ cat "$tmp/b.fa.gz"; head -c 100 /dev/zero; } > "$tmp/b_pad.fa.gz"
{ cat "$tmp/b.fa.gz"; printf 'garbage!!'; } > "$tmp/b_junk.fa.gz"
got=$("$pw" sw --quiet "$tmp/a.fa" "$tmp/b_pad.fa.gz" 2> "$tmp/err" | tr '\n' ' ')
[ "$got" = "score: 14 end_a: 7 end_b: 9 " ] && [ ! -s "$tmp/err" ] && ok || bad "gzip with zero padding: $got $(cat "$tmp/err")"
got=$("$pw" sw --quiet "$tmp/a.fa" "$tmp/b_junk.fa.gz" 2> "$tmp/err" | tr '\n' ' ')
[ "$got" = "score: 14 end_a: 7 end_b: 9 " ] && grep -q "warning: .*b_junk.fa.gz: bytes after the last gzip member" "$tmp/err" && ok ||
  bad "gzip with trailing garbage: $got $(cat "$tmp/err")"

# expect CODE ARGS...: exit code CODE and exactly one line on stderr starting "peerwave: ".
expect() {
  local code=$1; shift
  "$pw" "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  local first
  first=$(head -1 "$tmp/err")
  if [ "$rc" = "$code" ] && [[ "$first" == peerwave:* ]]; then ok; else bad "'$*': exit $rc (want $code), stderr '$first'"; fi
}
: > "$tmp/empty.fa"
printf 'ACGT\n' > "$tmp/noheader.fa"
printf '>only header\n' > "$tmp/nosequence.fa"
printf '>x\nAC1GT\n' > "$tmp/digits.fa"
printf '\x89PNG\r\n\x1a\n\0\0' > "$tmp/binary.fa"
expect 1 sw "$tmp/empty.fa" "$tmp/a.fa"
expect 1 sw "$tmp/noheader.fa" "$tmp/a.fa"
expect 1 sw "$tmp/a.fa" "$tmp/nosequence.fa"
expect 1 sw "$tmp/digits.fa" "$tmp/a.fa"
expect 1 sw "$tmp/binary.fa" "$tmp/a.fa"
expect 1 sw "$tmp/does-not-exist.fa" "$tmp/a.fa"
expect 2 sw "$tmp/a.fa"
# a third file (or a batch line's trailing "# note") and an empty argument: named as such
expect 2 sw "$tmp/a.fa" "$tmp/b.fa" "$tmp/a.fa"
grep -q "not 3 arguments (the first extra one: '$tmp/a.fa'" "$tmp/err" && ok || bad "sw with 3 files: $(cat "$tmp/err")"
expect 2 sw "$tmp/a.fa" ""
grep -q "argument 2 is empty" "$tmp/err" && ok || bad "sw with an empty argument: $(cat "$tmp/err")"
expect 2 heat --size 0x5
grep -q "at least 3 (a grid's boundary plus interior)" "$tmp/err" && ok || bad "heat --size 0x5: $(cat "$tmp/err")"
expect 2 sw --match x "$tmp/a.fa" "$tmp/b.fa"
# blanks around a number: refused on either side (a leading one passed, strtoll skipping it)
expect 2 sw --match " 2" "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --match "2 " "$tmp/a.fa" "$tmp/b.fa"
expect 2 sor --size 8x8 --omega " 1.5"
expect 2 sw --mismatch 3 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --gap-open -1 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --matrix NOPE "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --threads 0 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --tile-w 0 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --strategy fastest "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --backend cpu --strategy launch "$tmp/a.fa" "$tmp/b.fa"
grep -q "GPU only" "$tmp/err" && ok || bad "launch on the CPU: the message does not say it is GPU-only: $(cat "$tmp/err")"
expect 2 sw --no-such-option "$tmp/a.fa" "$tmp/b.fa"
expect 2 frobnicate
"$pw" --version | grep -q '^peerwave [0-9]' && ok || bad "--version"
"$pw" --version | grep -qE '^build: (CUDA [0-9]+\.[0-9]+ \(.+\)|no CUDA).*(NVRTC|no NVRTC), (NCCL|no NCCL), (MPI|no MPI)$' && ok ||
  bad "--version lacks the build line: $("$pw" --version | tail -1)"
for c in sw dtw sat inthist heat sor; do
  "$pw" $c --help | grep -q "usage: peerwave $c" && ok || bad "$c --help"
done

# ---- every subcommand: strategies agree with the sequential reference, and --check passes ----
printf '>r1\nACGT\n>target\nTTACGTACGTTT\n' > "$tmp/multi.fa"
got=$("$pw" sw --quiet --name-a target "$tmp/multi.fa" "$tmp/a.fa" | head -1)
want=$("$pw" sw --quiet "$tmp/a.fa" "$tmp/a.fa" | head -1)
[ "$got" = "score: 20" ] && [ "$want" = "score: 24" ] && ok || bad "--name-a: '$got', self '$want'"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%.6f\n", sin(i / 37.0) }' > "$tmp/s1.txt"
awk 'BEGIN { print "t,v"; for (i = 0; i < 2500; i++) printf "%d,%.6f\n", i, cos(i / 23.0) }' > "$tmp/s2.csv"
{ printf 'P5\n1500 1100\n255\n'; head -c $((1500 * 1100)) /dev/urandom; } > "$tmp/big.pgm"
{ printf 'P5\n301 199\n65535\n'; head -c $((301 * 199 * 2)) /dev/urandom; } > "$tmp/wide.pgm"
cases=(
  "dtw $tmp/s1.txt $tmp/s2.csv --column-b v"
  "dtw $tmp/s1.txt $tmp/s2.csv --column-b 2 --cost squared --type f32"
  "sat $tmp/big.pgm"
  "sat $tmp/wide.pgm --type f64"
  "inthist $tmp/big.pgm --bins 13"
  "heat --size 700x900 --sweeps 3"
  "sor --size 301x257 --sweeps 2 --omega 1.8 --type f64"
)
for c in "${cases[@]}"; do
  ref=$("$pw" $c --strategy sequential --quiet) || bad "$c sequential failed"
  for args in "--strategy peer" "--strategy barrier --tile-shape square --tile-h 17 --tile-w 17" \
              "--strategy peer --tile-h 5 --tile-w 3 --threads 3"; do
    got=$("$pw" $c $args --quiet --check)
    [ "$got" = "$ref"$'\n'"check: ok" ] && ok || bad "$c $args: '$got' vs '$ref'"
  done
done
# Large generated inputs with --check (sequential reference inside the same run).
head -c 9000 /dev/urandom | tr -dc 'ACGT' | head -c 8000 | fold -w 70 | sed '1i>big_a' > "$tmp/big_a.fa"
awk 'BEGIN { srand(7); print ">big_b"; for (i = 0; i < 8000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$tmp/big_b.fa"
"$pw" sw "$tmp/big_a.fa" "$tmp/big_b.fa" --gap-open 5 --gap-extend 2 --check | grep -q '^check: ok' && ok || bad "large sw --check"
{ printf 'P5\n4000 3000\n255\n'; head -c 12000000 /dev/urandom; } > "$tmp/huge.pgm"
"$pw" sat "$tmp/huge.pgm" --check -o "$tmp/huge_sat.npy" > "$tmp/out"
grep -q '^check: ok' "$tmp/out" && ok || bad "large sat --check"
# Random bytes sum to about 1.5e9 < 2^31: automatic i32; 128 bytes of .npy header.
[ "$(field output_type < "$tmp/out")" = i32 ] && [ "$(stat -c %s "$tmp/huge_sat.npy")" = $((4000 * 3000 * 4 + 128)) ] \
  && ok || bad "large sat output type/size"
"$pw" heat --size 1500x1500 --sweeps 2 --check | grep -q '^check: ok' && ok || bad "large heat --check"

# The bundled examples of the README: the PNG and the PGM hold the same picture.
[ "$("$pw" sat --quiet "$ex/rings.png")" = "$("$pw" sat --quiet "$ex/rings.pgm")" ] && ok || bad "rings.png vs rings.pgm"
# The table to standard output (`-o -`, /dev/stdout redirected to a file, a pipe): the .npy whole,
# byte for byte the file's, and the report on stderr.
"$pw" sat --quiet "$ex/rings.pgm" -o "$tmp/rings_sat.npy" > /dev/null
for target in - /dev/stdout; do
  "$pw" sat --quiet "$ex/rings.pgm" -o $target > "$tmp/stdout.npy" 2> "$tmp/err"
  cmp -s "$tmp/stdout.npy" "$tmp/rings_sat.npy" && grep -q '^total: ' "$tmp/err" && ok || bad "sat -o $target: not the table alone on stdout"
done
"$pw" sat --quiet "$ex/rings.pgm" -o - 2> /dev/null | cmp -s - "$tmp/rings_sat.npy" && ok || bad "sat -o - into a pipe"
"$pw" inthist "$ex/rings.png" --bins 8 --check -o "$tmp/rings_ih.npy" | grep -q '^counted: 49152' && ok || bad "example inthist"
# an output is written beside its path and renamed into place (never left truncated): the same
# command again replaces it whole, keeping its inode's name, and no partial file stays
size_ih=$(stat -c %s "$tmp/rings_ih.npy") inode_ih=$(stat -c %i "$tmp/rings_ih.npy")
"$pw" inthist "$ex/rings.png" --bins 8 -o "$tmp/rings_ih.npy" --quiet > /dev/null && [ "$(stat -c %s "$tmp/rings_ih.npy")" = "$size_ih" ] &&
  [ "$(stat -c %i "$tmp/rings_ih.npy")" != "$inode_ih" ] && ! ls "$tmp" | grep -q partial && ok || bad "an output replaced whole, no partial file"
"$pw" dtw "$ex/walk_a.txt" "$ex/walk_b.csv" --column-b value --check | grep -q '^check: ok' && ok || bad "example dtw"
# a UTF-8 byte order mark before a series' first line (as some editors save CSV) is skipped
printf '\357\273\277time,value\n0,1.5\n1,2.5\n' > "$tmp/bom.csv"
[ "$("$pw" dtw --quiet "$tmp/bom.csv" "$tmp/bom.csv" --column-a time --column-b value)" = "distance: 3" ] && ok || bad "dtw CSV with a byte order mark"
# columns apart by blanks (no tab or comma in the first line): by number and by header name
printf 't  v\n 0 1.5\n1\t2.5\n' > "$tmp/blanks.txt"
[ "$("$pw" dtw --quiet "$tmp/blanks.txt" "$tmp/bom.csv" --column-a 2 --column-b value)" = "distance: 0" ] &&
  [ "$("$pw" dtw --quiet "$tmp/blanks.txt" "$tmp/bom.csv" --column-a t --column-b value)" = "distance: 3" ] && ok ||
  bad "dtw blank-separated columns"
"$pw" dtw --quiet "$tmp/blanks.txt" "$tmp/bom.csv" --column-a 0 > /dev/null 2> "$tmp/err"; [ $? = 1 ] &&
  grep -q "no column named '0' in the header line (column numbers start at 1)" "$tmp/err" && ok || bad "dtw --column-a 0: $(cat "$tmp/err")"
# a header naming two columns alike: the name is refused (the first was taken silently)
printf 'a,a\n1,5\n2,6\n' > "$tmp/twice.csv"
"$pw" dtw --quiet "$tmp/twice.csv" "$tmp/bom.csv" --column-a a --column-b value > /dev/null 2> "$tmp/err"; [ $? = 1 ] &&
  grep -q "names columns 1 and 2 'a': name it by number" "$tmp/err" && ok || bad "dtw, a name twice in the header: $(cat "$tmp/err")"
[ "$("$pw" dtw --quiet "$tmp/twice.csv" "$tmp/bom.csv" --column-a 2 --column-b value)" = "distance: 7" ] && ok ||
  bad "dtw, the second of two columns alike by number"

# Hand-checkable values.
printf '0\n0\n1\n' > "$tmp/d1.txt"; printf '0\n1\n' > "$tmp/d2.txt"
[ "$("$pw" dtw --quiet "$tmp/d1.txt" "$tmp/d2.txt")" = "distance: 0" ] && ok || bad "dtw 0 0 1 vs 0 1"
printf '5\n' > "$tmp/d3.txt"; printf '1\n2\n' > "$tmp/d4.txt"
[ "$("$pw" dtw --quiet --cost squared "$tmp/d3.txt" "$tmp/d4.txt")" = "distance: 25" ] && ok || bad "dtw squared 16+9"
printf 'P2\n3 2\n9\n1 2 3\n4 5 6\n' > "$tmp/tiny.pgm"
[ "$("$pw" sat --quiet "$tmp/tiny.pgm")" = "total: 21" ] && ok || bad "sat total of 1..6"
# a P5 file with a second image after the first: the first is read, with a warning (Netpbm's way)
{ printf 'P5\n3 2\n255\n\001\002\003\004\005\006'; printf 'P5\n1 1\n255\n\377'; } > "$tmp/two.pgm"
got=$("$pw" sat --quiet "$tmp/two.pgm" 2> "$tmp/err")
[ $? = 0 ] && [ "$got" = "total: 21" ] && grep -q "warning: .*two.pgm: 12 more bytes after the 3x2 image.*only the first" "$tmp/err" &&
  ok || bad "P5 with two images: '$got', $(cat "$tmp/err")"
[ "$("$pw" inthist --quiet --bins 2 --range 1,7 "$tmp/tiny.pgm")" = "counted: 6" ] && ok || bad "inthist counted"
# (numpy.histogram's last bin is closed: 5 counts too; 1 and 6 are outside)
[ "$("$pw" inthist --quiet --bins 2 --range 2,5 "$tmp/tiny.pgm")" = "counted: 4" ] && ok || bad "inthist [2,5] counts 2,3,4,5"

# TSV: a header line and a value line with the same number of fields.
"$pw" sat --tsv "$tmp/tiny.pgm" > "$tmp/tsv"
[ "$(wc -l < "$tmp/tsv")" = 2 ] && [ "$(head -1 "$tmp/tsv" | awk -F'\t' '{print NF}')" = "$(tail -1 "$tmp/tsv" | awk -F'\t' '{print NF}')" ] \
  && [ "$(head -1 "$tmp/tsv" | cut -f1)" = total ] && [ "$(tail -1 "$tmp/tsv" | cut -f1)" = 21 ] && ok || bad "tsv layout"
# One column set a command, whatever the options (issue 26: --check, -o, a trained width, --trace
# added columns): a run without them has the same header, "-" where it has nothing.
tsv_header() { "$pw" "$@" --tsv | head -1; }
h0=$(tsv_header sat "$tmp/tiny.pgm")
for opts in "--check" "-o $tmp/tsv_sat.npy" "--check --tile-w model --trace $tmp/tsv.svg" "--quiet"; do
  h=$(tsv_header sat "$tmp/tiny.pgm" $opts)
  if [ "$opts" = --quiet ]; then [ "$h" = "total	check" ] && ok || bad "sat --tsv --quiet columns: $h"
  else [ "$h" = "$h0" ] && ok || bad "sat --tsv columns change with $opts: $h"; fi
done
h0=$(tsv_header sw "$tmp/a.fa" "$tmp/b.fa")
[ "$(tsv_header sw "$tmp/a.fa" "$tmp/b.fa" --check --tile-w model)" = "$h0" ] && ok || bad "sw --tsv columns change"
# ... --align, its view and plot, --prune (they added 15 columns until 2026-11-29), --path for dtw
for opts in "--align" "--align --view $tmp/tsv_view.txt --plot $tmp/tsv_plot.svg" "--prune"; do
  [ "$(tsv_header sw "$tmp/a.fa" "$tmp/b.fa" $opts)" = "$h0" ] && ok || bad "sw --tsv columns change with $opts"
done
printf '1\n2\n3\n' > "$tmp/tsv_s.txt"
h0=$(tsv_header dtw "$tmp/tsv_s.txt" "$tmp/tsv_s.txt")
for opts in "--path $tmp/tsv_path.txt" "--plot $tmp/tsv_path.svg"; do
  [ "$(tsv_header dtw "$tmp/tsv_s.txt" "$tmp/tsv_s.txt" $opts)" = "$h0" ] && ok || bad "dtw --tsv columns change with $opts"
done
h0=$(tsv_header heat --size 20x20)
[ "$(tsv_header heat --size 20x20 --check -o "$tmp/tsv_heat.npy")" = "$h0" ] && ok || bad "heat --tsv columns change"

# The default thread count is the processors the process may run on (its affinity mask), not
# every one online: taskset to one processor gives one thread.
if command -v taskset > /dev/null && taskset -c 0 true 2> /dev/null; then
  t1=$(taskset -c 0 "$pw" heat --size 300x300 --backend cpu 2> /dev/null | sed -n 's/^threads: //p')
  [ "$t1" = 1 ] && ok || bad "taskset -c 0: threads '$t1', expected 1"
fi

# Progress indicator: forced with --progress (the delay shortened for the test); never with --quiet.
# Lines every 20 ms here: the library's hook gives the percentage, rate and time left.
PEERWAVE_PROGRESS_AFTER_MS=0 PEERWAVE_PROGRESS_EVERY_MS=20 "$pw" heat --size 2400x2400 --sweeps 60 --backend cpu --progress > /dev/null 2> "$tmp/progress"
grep -Eq '^peerwave: heat: +[0-9.]+% [0-9.]+ [kMGT]?cells/s ETA [0-9hms?]+ \([0-9]+ s\)$' "$tmp/progress" &&
  grep -q '^peerwave: heat: done after' "$tmp/progress" && ok || bad "progress lines: $(cat "$tmp/progress")"
# sw adds its best score so far
awk 'BEGIN { srand(5); print ">p"; for (i = 0; i < 4000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' > "$tmp/p.fa"
PEERWAVE_PROGRESS_AFTER_MS=0 PEERWAVE_PROGRESS_EVERY_MS=10 "$pw" sw "$tmp/p.fa" "$tmp/p.fa" --backend cpu --strategy sequential --progress > "$tmp/sw_out" 2> "$tmp/progress"
best=$(sed -n 's/.* best \([0-9]*\) .*/\1/p' "$tmp/progress" | tail -1); score=$(sed -n 's/^score: //p' "$tmp/sw_out")
[ -n "$best" ] && [ "$best" -le "$score" ] && ok || bad "sw progress without a best score <= $score: $(cat "$tmp/progress")"
# the database search reports over the whole search (every query against every record)
awk 'BEGIN { srand(7); for (r = 0; r < 4000; r++) { printf ">r%d\n", r; for (i = 0; i < 200; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" } }' > "$tmp/pdb.fa"
awk 'BEGIN { srand(8); for (r = 0; r < 2; r++) { printf ">q%d\n", r; for (i = 0; i < 500; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" } }' > "$tmp/pq.fa"
PEERWAVE_PROGRESS_AFTER_MS=0 PEERWAVE_PROGRESS_EVERY_MS=5 "$pw" sw --query "$tmp/pq.fa" --db "$tmp/pdb.fa" --threads 1 --backend cpu --progress > /dev/null 2> "$tmp/progress"
grep -Eq '^peerwave: sw: +[0-9.]+% [0-9.]+ [kMGT]?cells/s ETA' "$tmp/progress" && grep -q '^peerwave: sw: done after' "$tmp/progress" &&
  ok || bad "search progress lines: $(cat "$tmp/progress")"
# Ctrl-C stops a run cleanly: the library's cancel flag, exit 130, no result lines
# (--foreground: timeout signals the command only; else it signals the whole group as well, a
# second Ctrl-C, which ends the program at once)
PEERWAVE_PROGRESS_AFTER_MS=0 timeout --foreground --preserve-status -s INT 1 "$pw" heat --size 2000x2000 --sweeps 100000 --backend cpu --progress > "$tmp/int_out" 2> "$tmp/progress"
rc=$?
[ "$rc" = 130 ] && grep -q 'stopped after' "$tmp/progress" && grep -q 'cancelled' "$tmp/progress" && [ ! -s "$tmp/int_out" ] && ok ||
  bad "Ctrl-C: rc $rc, $(cat "$tmp/progress")"
# ... and during the output's write (after the computation's own handler): the partial file is
# removed (OUT.npy.partial-PID stayed).  strace holds each write a second, so the signal lands
# mid-file; where strace is missing (or not permitted) the check is left out.
if command -v strace > /dev/null && strace -o /dev/null true 2> /dev/null; then
  mkdir -p "$tmp/sigint"
  { strace -o /dev/null -e trace=write -e inject=write:delay_exit=1000000 "$pw" sat "$ex/rings.pgm" -o "$tmp/sigint/out.npy" \
      --type i64 --backend cpu --quiet > /dev/null 2>&1; echo $? > "$tmp/sigint_rc"; } &
  for k in $(seq 300); do ls "$tmp/sigint" | grep -q partial && break; sleep 0.02; done
  pkill -INT -f "^$pw sat $ex/rings.pgm -o $tmp/sigint/out.npy"
  wait
  [ "$(cat "$tmp/sigint_rc")" = 130 ] && [ -z "$(ls "$tmp/sigint")" ] && ok ||
    bad "Ctrl-C while writing: rc $(cat "$tmp/sigint_rc"), left: $(ls "$tmp/sigint")"
  # a text output too (--path, --trace, --plot, --view, tune's --csv/--svg): the old file stays
  echo old > "$tmp/sigint/path.txt"
  { strace -o /dev/null -e trace=write -e inject=write:delay_exit=1000000 "$pw" dtw "$ex/walk_a.txt" "$ex/walk_b.csv" \
      --column-b value --path "$tmp/sigint/path.txt" --backend cpu --quiet > /dev/null 2>&1; echo $? > "$tmp/sigint_rc"; } &
  for k in $(seq 300); do ls "$tmp/sigint" | grep -q partial && break; sleep 0.02; done
  sleep 0.2 # (into the held write: the file's creation is not the last step before it)
  pkill -INT -f "^$pw dtw $ex/walk_a.txt $ex/walk_b.csv --column-b value --path $tmp/sigint/path.txt"
  wait
  [ "$(cat "$tmp/sigint_rc")" = 130 ] && [ "$(ls "$tmp/sigint")" = path.txt ] && [ "$(cat "$tmp/sigint/path.txt")" = old ] && ok ||
    bad "Ctrl-C while writing a text output: rc $(cat "$tmp/sigint_rc"), left: $(ls "$tmp/sigint")"
fi
# text outputs are replaced whole too (a new inode, no partial file), and a replaced output keeps
# its permission bits
"$pw" dtw "$ex/walk_a.txt" "$ex/walk_b.csv" --column-b value --path "$tmp/path1.txt" --quiet > /dev/null
chmod 640 "$tmp/path1.txt"
inode_path=$(stat -c %i "$tmp/path1.txt")
"$pw" dtw "$ex/walk_a.txt" "$ex/walk_b.csv" --column-b value --path "$tmp/path1.txt" --quiet > /dev/null &&
  [ "$(stat -c %i "$tmp/path1.txt")" != "$inode_path" ] && [ "$(stat -c %a "$tmp/path1.txt")" = 640 ] &&
  grep -q '^# i j' "$tmp/path1.txt" && ! ls "$tmp" | grep -q partial && ok || bad "a text output replaced whole, mode kept"
"$pw" inthist "$ex/rings.png" --bins 8 -o "$tmp/rings_ih.npy" --quiet > /dev/null && chmod 600 "$tmp/rings_ih.npy" &&
  "$pw" inthist "$ex/rings.png" --bins 8 -o "$tmp/rings_ih.npy" --quiet > /dev/null &&
  [ "$(stat -c %a "$tmp/rings_ih.npy")" = 600 ] && ok || bad "a replaced .npy keeps its mode"
# a file that may not be written is refused, as writing it in place would be (the rename replaced
# it: the folder was writable).  Root may write anything, so as root the check runs as nobody,
# where nobody can reach the program and the examples (else it is left out).
as_user=
[ "$(id -u)" = 0 ] && command -v runuser > /dev/null && runuser -u nobody -- test -x "$pw" -a -r "$ex/rings.png" 2> /dev/null &&
  as_user="runuser -u nobody --"
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
  ro=$(mktemp -d) && chmod 777 "$ro"
  for out in "$ro/readonly.npy" "$ro/readonly.txt"; do
    echo keep > "$out" && chmod 444 "$out"
    case $out in
      *.npy) $as_user "$pw" inthist "$ex/rings.png" --bins 8 -o "$out" > /dev/null 2> "$ro/err"; rc=$? ;;
      *) $as_user "$pw" dtw "$ex/walk_a.txt" "$ex/walk_b.csv" --column-b value --path "$out" > /dev/null 2> "$ro/err"; rc=$? ;;
    esac
    [ $rc != 0 ] && [ "$(cat "$out")" = keep ] && grep -qi 'permission' "$ro/err" && ok || bad "a read-only $out: rc $rc $(cat "$ro/err")"
  done
  rm -rf "$ro"
fi
# switches read strictly: a value that is not one of theirs is refused by name (abc was 0, a
# misspelt queue kind the default, an empty stuck row row 0: every peer run hung)
for v in PEERWAVE_PROGRESS_AFTER_MS=abc PEERWAVE_PROGRESS_AFTER_MS=-500 PEERWAVE_PROGRESS_EVERY_MS=0 PEERWAVE_PROGRESS_EVERY_MS=5x; do
  env "$v" "$pw" sat "$ex/rings.pgm" --backend cpu --progress > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc = 2 ] && grep -q "^peerwave: ${v%%=*}=" "$tmp/err" && ok || bad "$v: rc $rc $(cat "$tmp/err")"
done
for v in PEERWAVE_TASK_QUEUES=bogus PEERWAVE_DEBUG_STUCK_ROW= PEERWAVE_DEBUG_STUCK_ROW=abc PEERWAVE_DEBUG_FAIL_ALLOC=abc \
         PEERWAVE_DEBUG_FAIL_ALLOC_ALL=yes PEERWAVE_DEBUG_CPU_LACKS=avx512x PEERWAVE_STENCIL_PROCESSOR=windw; do
  env "$v" "$pw" sat "$ex/rings.pgm" --backend cpu --strategy tasks > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc != 0 ] && grep -q "${v%%=*}=" "$tmp/err" && ok || bad "$v: rc $rc $(cat "$tmp/err")"
done
PEERWAVE_TASK_QUEUES=local "$pw" sat "$ex/rings.pgm" --backend cpu --strategy tasks --quiet > /dev/null && ok || bad "PEERWAVE_TASK_QUEUES=local"
# ... also on the paths that make no plan (SW pairs, BFS: checked with every run's options)
printf '>q\nACGT\n' > "$tmp/q1.fa"; printf '0 1\n1 2\n' > "$tmp/e3.txt"
PEERWAVE_PAIRS_LANES=64 "$pw" sw --query "$tmp/q1.fa" --db "$tmp/q1.fa" --pairs --backend cpu > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "PEERWAVE_PAIRS_LANES='64'" "$tmp/err" && ok || bad "PEERWAVE_PAIRS_LANES=64 on sw --pairs: $(cat "$tmp/err")"
PEERWAVE_DEBUG_FAIL_ALLOC=abc "$pw" bfs "$tmp/e3.txt" --source 0 > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "PEERWAVE_DEBUG_FAIL_ALLOC='abc'" "$tmp/err" && ok || bad "PEERWAVE_DEBUG_FAIL_ALLOC=abc on bfs: $(cat "$tmp/err")"
PEERWAVE_PROGRESS_AFTER_MS=0 "$pw" heat --size 1200x1200 --sweeps 4 --progress --quiet > /dev/null 2> "$tmp/progress"
[ ! -s "$tmp/progress" ] && ok || bad "progress printed with --quiet"

# --trace: an SVG a real XML parser accepts; per lane busy + idle = span, and the tiles drawn
# are the tiles counted (checked with python3's xml.etree when python3 exists).
"$pw" sw "$ex/query.fa" "$ex/target.fa" --backend cpu --threads 3 --tile-h 16 --trace "$tmp/trace.svg" > "$tmp/out"
tiles=$(field trace_tiles < "$tmp/out")
[ -s "$tmp/trace.svg" ] && [ "${tiles:-0}" -gt 0 ] && ok || bad "--trace wrote nothing"
# a name that is neither .svg nor .csv: the SVG still, with a warning that says so
"$pw" sat "$ex/rings.pgm" --quiet --trace "$tmp/trace.png" > /dev/null 2> "$tmp/err" && grep -q "warning: --trace .*the picture is SVG" "$tmp/err" &&
  head -c 100 "$tmp/trace.png" | grep -q "<svg" && ok || bad "--trace x.png: $(cat "$tmp/err")"
if command -v python3 > /dev/null; then
  python3 - "$tmp/trace.svg" "$tiles" <<'PY' && ok || bad "trace SVG check"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
lanes = root.findall("s:g", ns)
assert len(lanes) == 3, len(lanes)
total = 0
for g in lanes:
    span, busy, idle = (int(g.get(k)) for k in ("data-span-ns", "data-busy-ns", "data-idle-ns"))
    # (a worker may get no tile at all when the others take every tile-row first: 3 threads on
    # a loaded 2-core machine; then it is idle for the whole span)
    lane_tiles = int(g.get("data-tiles"))
    assert busy + idle == span and (busy > 0) == (lane_tiles > 0), (busy, idle, span, lane_tiles)
    runs = g.findall("s:rect[@class='tile']", ns)
    assert (len(runs) > 0) == (lane_tiles > 0) and sum(int(r.get("data-busy-ns")) for r in runs) == busy
    assert sum(int(r.get("data-tiles")) for r in runs) == int(g.get("data-tiles"))
    assert int(g.get("data-corner-idle-ns")) <= idle
    total += int(g.get("data-tiles"))
assert total == int(sys.argv[2]) and total > 0, (total, sys.argv[2])
PY
fi
# --trace FILE.csv: the raw records, one line a tile: as many as the SVG run counted (same
# input, same tiling), each tile of each tile-row once, times in order.
"$pw" sw "$ex/query.fa" "$ex/target.fa" --backend cpu --threads 3 --tile-h 16 --trace "$tmp/trace.csv" > "$tmp/out"
[ "$(field trace_tiles < "$tmp/out")" = "$tiles" ] && [ "$(head -1 "$tmp/trace.csv")" = "worker,tile_row,tile_col,wait_ns,start_ns,end_ns" ] &&
  [ "$(tail -n +2 "$tmp/trace.csv" | wc -l)" -eq "$tiles" ] &&
  [ "$(tail -n +2 "$tmp/trace.csv" | cut -d, -f2,3 | sort -u | wc -l)" -eq "$tiles" ] &&
  awk -F, 'NR > 1 && !($1 >= 0 && $1 < 3 && $4 <= $5 && $5 <= $6) { bad = 1 } END { exit bad }' "$tmp/trace.csv" && ok || bad "--trace CSV"
# scripts/thin_trace_svg.py (for pictures in docs/) keeps every lane's tile count and busy time.
if command -v python3 > /dev/null; then
  python3 "$src/scripts/thin_trace_svg.py" "$tmp/trace.svg" "$tmp/thin.svg" 3 && python3 - "$tmp/thin.svg" "$tiles" <<'PY' && ok || bad "thinned trace SVG"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
total = 0
for g in ET.parse(sys.argv[1]).getroot().findall("s:g", ns):
    runs = g.findall("s:rect[@class='tile']", ns)
    assert sum(int(r.get("data-busy-ns")) for r in runs) == int(g.get("data-busy-ns"))
    total += sum(int(r.get("data-tiles")) for r in runs)
assert total == int(sys.argv[2]) and total > 0, (total, sys.argv[2])
PY
fi
expect 2 sw "$ex/query.fa" "$ex/target.fa" --strategy sequential --trace "$tmp/none.svg"
# (refused before the run: it ran the whole job and wrote -o first)
expect 2 sat "$ex/rings.pgm" --strategy sequential --trace "$tmp/none.svg" -o "$tmp/never_seq.npy"
[ ! -e "$tmp/never_seq.npy" ] && grep -q "sequential strategy has none" "$tmp/err" && ok || bad "--trace with --strategy sequential wrote -o: $(cat "$tmp/err")"

# --tile-w model: trained on the corner, the answer unchanged; auto on a small problem and a
# given width say so; the model is used for peer + hyper only.
"$pw" sw "$ex/query.fa" "$ex/target.fa" --tile-w model --backend cpu --threads 3 > "$tmp/out"
[ "$(field tile_w_source < "$tmp/out")" = model ] && [ -n "$(field training_s < "$tmp/out")" ] \
  && [ "$(field score < "$tmp/out")" = "$("$pw" sw "$ex/query.fa" "$ex/target.fa" --quiet --strategy sequential | sed -n 's/^score: //p')" ] \
  && ok || bad "--tile-w model: $(cat "$tmp/out")"
[ "$("$pw" sw "$ex/query.fa" "$ex/target.fa" --backend cpu | sed -n 's/^tile_w_source: //p')" = default ] && ok || bad "auto on a small problem"
[ "$("$pw" sw "$ex/query.fa" "$ex/target.fa" --tile-w 33 | sed -n 's/^tile_w_source: //p')" = given ] && ok || bad "given width"
[ "$("$pw" sw "$ex/query.fa" "$ex/target.fa" --tile-w model --strategy barrier | sed -n 's/^tile_w_source: //p')" = default ] && ok || bad "model on barrier"
for app in "sat $ex/rings.png" "inthist $ex/rings.png --bins 4" "heat --size 300x200 --sweeps 2" "sor --size 200x300" "dtw $ex/walk_a.txt $ex/walk_b.csv --column-b value"; do
  "$pw" $app --tile-w model --backend cpu --check > "$tmp/out" && grep -q '^check: ok' "$tmp/out" \
    && [ "$(field tile_w_source < "$tmp/out")" = model ] && ok || bad "--tile-w model on $app: $(cat "$tmp/out")"
done
expect 2 sw --tile-w wide "$ex/query.fa" "$ex/target.fa"

# Wisdom: the first run trains and saves, the second finds the fit (no training, same width);
# other keys, malformed lines and an unwritable file never break a run.
w="$tmp/wis/w.tsv"
run_w() { "$pw" sw "$ex/query.fa" "$ex/target.fa" --tile-w model --backend cpu --threads 3 "$@"; }
run_w --wisdom "$w" > "$tmp/w1" && run_w --wisdom "$w" > "$tmp/w2" \
  && [ "$(field wisdom < "$tmp/w1")" = saved ] && [ "$(field wisdom < "$tmp/w2")" = hit ] \
  && [ "$(field training_s < "$tmp/w2")" = 0.000000 ] && [ "$(field tile_w < "$tmp/w1")" = "$(field tile_w < "$tmp/w2")" ] \
  && [ "$(field score < "$tmp/w1")" = "$(field score < "$tmp/w2")" ] && [ "$(grep -c '^sw|cpu:3 threads:[a-z0-9]*|' "$w")" = 1 ] \
  && ok || bad "wisdom saved then hit: $(cat "$tmp/w1" "$tmp/w2" "$w")"
run_w --wisdom "$w" --threads 2 | grep -q '^wisdom: saved' && [ "$(grep -c '^sw|cpu:' "$w")" = 2 ] \
  && ok || bad "a second key: $(cat "$w")"
# a fit is for one vector set: the scalar cells train their own
run_w --wisdom "$w" --simd scalar | grep -q '^wisdom: saved' && [ "$(grep -c '^sw|cpu:3 threads:scalar|' "$w")" = 1 ] \
  && ok || bad "a key per vector set: $(cat "$w")"
# (a wisdom file, our header first, with lines broken by hand: they go, the file stays ours)
{ head -1 "$w"; printf 'garbage\nsw|x\t1\t2\n\t\t\n%s\tnan\t1e-6\t3\n' "$(sed -n 's/\t.*//p' "$w" | head -1)"; } > "$tmp/bad.tsv"
run_w --wisdom "$tmp/bad.tsv" | grep -q '^wisdom: saved' && [ "$(grep -c . "$tmp/bad.tsv")" = 2 ] \
  && ok || bad "malformed wisdom lines: $(cat "$tmp/bad.tsv")"
[ "$(run_w --wisdom none | field wisdom)" = off ] && ok || bad "--wisdom none"
[ "$(PEERWAVE_WISDOM=none run_w | field wisdom)" = off ] && ok || bad "PEERWAVE_WISDOM=none"
run_w --wisdom "$tmp/no/such/dir/w.tsv" > "$tmp/w3" && [ "$(field wisdom < "$tmp/w3")" = unsaved ] \
  && [ "$(field score < "$tmp/w3")" = "$(field score < "$tmp/w1")" ] && ok || bad "unwritable wisdom: $(cat "$tmp/w3")"
# the default file: in $XDG_CACHE_HOME/peerwave/, made on the first save
(unset PEERWAVE_WISDOM; XDG_CACHE_HOME="$tmp/xdg" run_w) > "$tmp/w5" && [ "$(field wisdom < "$tmp/w5")" = saved ] \
  && [ -s "$tmp/xdg/peerwave/wisdom.tsv" ] && ok || bad "the default wisdom file's directory: $(cat "$tmp/w5")"
expect 2 sw --wisdom "" "$ex/query.fa" "$ex/target.fa"
expect 2 sw --train-ratio 0 "$ex/query.fa" "$ex/target.fa"
expect 2 sw --train-ratio 1.5 "$ex/query.fa" "$ex/target.fa"

# tune: table, CSV and SVG, both models' picks with their measured distance from the best.
"$pw" tune sw --random 700 --widths 8,64,512 --runs 1 --csv "$tmp/tune.csv" --svg "$tmp/tune.svg" > "$tmp/out" \
  && [ "$(wc -l < "$tmp/tune.csv")" = 4 ] && grep -q '^consistent_pick: [0-9]' "$tmp/out" && grep -q '^paper_pick_vs_best_pct: ' "$tmp/out" \
  && grep -q '^tiled_pick: [0-9]' "$tmp/out" && grep -q '^chunked_pick: [0-9]' "$tmp/out" \
  && [ "$(head -1 "$tmp/tune.csv")" = "width,measured_s,paper_s,consistent_s,tiled_s,chunked_s" ] \
  && ok || bad "tune sw: $(cat "$tmp/out")"
if command -v python3 > /dev/null; then
  python3 -c "import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); assert len(r.findall('{http://www.w3.org/2000/svg}polyline')) == 4" \
    "$tmp/tune.svg" && ok || bad "tune SVG"
fi
"$pw" tune sat "$tmp/tiny.pgm" --widths 1,2 --runs 1 --quiet | grep -q '^measured_best_width: ' && ok || bad "tune sat"
# --tsv: a header line and a value line on stdout (the table on stderr); --wisdom and --trace refused
[ "$("$pw" tune sat "$tmp/tiny.pgm" --widths 1,2 --runs 1 --tsv 2> /dev/null | wc -l)" = 2 ] && ok || bad "tune --tsv: not two lines"
expect 2 tune sat "$tmp/tiny.pgm" --widths 1,2 --wisdom "$tmp/tw.tsv"
# options tune took and ignored; an output over its input, or --csv and --svg in one file (the
# input became an SVG); the same --tsv columns with or without --svg/--csv
for o in --check --progress "--tile-w 32"; do expect 2 tune sat "$tmp/tiny.pgm" --widths 1,2 $o; done
cp "$tmp/tiny.pgm" "$tmp/tune_in.pgm"
expect 2 tune sat "$tmp/tune_in.pgm" --widths 1,2 --runs 1 --svg "$tmp/./tune_in.pgm"
cmp -s "$tmp/tiny.pgm" "$tmp/tune_in.pgm" && ok || bad "tune wrote over its input"
expect 2 tune sat "$tmp/tiny.pgm" --widths 1,2 --runs 1 --csv "$tmp/tt.x" --svg "$tmp/tt.x"
h1=$("$pw" tune sat "$tmp/tiny.pgm" --widths 1,2 --runs 1 --tsv 2> /dev/null | head -1)
h2=$("$pw" tune sat "$tmp/tiny.pgm" --widths 1,2 --runs 1 --tsv --svg "$tmp/t2.svg" --csv "$tmp/t2.csv" 2> /dev/null | head -1)
[ "$h1" = "$h2" ] && ok || bad "tune --tsv columns differ with --svg/--csv: '$h1' vs '$h2'"
expect 2 sw --rows-per-thread 3 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --layout diagonal "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --watchdog-ms 0 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --max-blocks -2 "$tmp/a.fa" "$tmp/b.fa"
got=$("$pw" sw --quiet --rows-per-thread 2 --layout hybrid --watchdog-ms 5000 --max-blocks 3 "$tmp/a.fa" "$tmp/b.fa" | head -1)
[ "$got" = "score: 14" ] && ok || bad "engine knobs accepted: $got"
expect 2 tune
expect 2 tune fft --random 10
expect 2 tune sw --random 10 "$tmp/a.fa"
expect 2 tune sw --random 10 --widths 0
# an empty element is an error, not skipped (strtok merged ",," and dropped a trailing comma)
for w in 8,,16 8, ,8 "" 8,x; do expect 2 tune sat "$tmp/tiny.pgm" --widths "$w"; done
"$pw" tune sat "$tmp/tiny.pgm" --widths 8,,16 2>&1 | grep -q "an empty element" && ok || bad "tune --widths 8,,16: the message"
# --random below the narrowest default width (8) would time no width (an empty table): refused,
# naming the minimum; at the minimum the table has a row; a file with shorter rows needs --widths
expect 2 tune sw --random 1
grep -q "at least 8" "$tmp/err" && ok || bad "tune --random 1: $(cat "$tmp/err")"
# (--quiet: the table on stderr)
"$pw" tune sw --random 8 --runs 1 --quiet > "$tmp/out" 2> "$tmp/err"
grep -qE '^ +8 +[0-9.]+ ' "$tmp/err" && ok || bad "tune sw --random 8: no row for width 8: $(cat "$tmp/out" "$tmp/err")"
expect 1 tune sat "$tmp/tiny.pgm"
grep -q "give --widths" "$tmp/err" && ok || bad "tune on 3-wide rows: $(cat "$tmp/err")"
expect 1 tune sat "$tmp/missing.pgm"

# ---- errors of the new subcommands: one line, exit 1 (data) or 2 (usage) ----
printf '1\nnan\n' > "$tmp/nan.txt"; printf '1\nabc\n' > "$tmp/word.txt"; : > "$tmp/empty.txt"
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDRjunkjunkjunk' > "$tmp/corrupt.png"
printf '\x93NUMPY\x01\x00\x46\x00{'"'"'descr'"'"': '"'"'<i8'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1, 1), }        \n01234567' > "$tmp/i64.npy"
printf '\x93NUMPY\x01\x00\x46\x00{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (9, 9), }        \n0123' > "$tmp/short.npy"
printf 'hello' > "$tmp/text.img"
{ printf 'P5\n3000 3000\n255\n'; head -c 9000000 /dev/zero | tr '\0' '\377'; } > "$tmp/bright.pgm"
expect 1 dtw "$tmp/nan.txt" "$tmp/d1.txt"
expect 1 dtw "$tmp/word.txt" "$tmp/d1.txt"
expect 1 dtw "$tmp/empty.txt" "$tmp/d1.txt"
expect 1 dtw "$tmp/s2.csv" "$tmp/d1.txt"
expect 1 dtw --column-a nope "$tmp/s2.csv" "$tmp/d1.txt"
expect 1 dtw "$tmp/i64.npy" "$tmp/d1.txt"
expect 1 dtw "$tmp/missing.txt" "$tmp/d1.txt"
expect 2 dtw --cost cubic "$tmp/d1.txt" "$tmp/d2.txt"
expect 2 dtw --type i32 "$tmp/d1.txt" "$tmp/d2.txt"
expect 2 dtw "$tmp/d1.txt"
expect 1 sat "$tmp/corrupt.png"
expect 1 sat "$tmp/text.img"
expect 1 sat "$tmp/empty.txt"
expect 1 sat "$tmp/i64.npy"
expect 1 sat "$tmp/short.npy"
expect 1 sat "$tmp/missing.pgm"
expect 1 sat "$tmp/tiny.pgm" -o /nonexistent-dir/out.npy
# found by a black-box pass on 2026-11-29: hex numbers (strtod read 0x10 as 16), --match beside
# --matrix (silently ignored), a type list naming what the command takes, a cell's missing function
printf '1\n0x10\n4\n' > "$tmp/hex.txt"
expect 1 dtw "$tmp/hex.txt" "$tmp/hex.txt"
printf '1 2 0x3\n' > "$tmp/hexset.txt"
expect 1 dtw --query "$tmp/hexset.txt" --db "$tmp/hexset.txt"
expect 2 sw "$tmp/a.fa" "$tmp/b.fa" --matrix BLOSUM62 --match 3
expect 2 heat --size 10x10 --type f16
grep -q '(f32, f64)' "$tmp/err" && ok || bad "heat --type f16 names the grid types: $(cat "$tmp/err")"
printf 'PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value u, pw_value l, pw_value d) { return u + 1; }\n' > "$tmp/noboundary.c"
expect 1 run "$tmp/noboundary.c" --size 10x10
grep -q 'noboundary.c: the cell uses pw_boundary but does not define it' "$tmp/err" && ok || bad "missing pw_boundary: $(cat "$tmp/err")"
# an overflow says why, with --progress too (the job's thread holds the detail)
{ echo '>long'; printf 'ACGT%.0s' $(seq 80); echo; } > "$tmp/long.fa"
expect 1 sw "$tmp/long.fa" "$tmp/a.fa" --align --gap-open 1000000 --gap-extend 1000000 --progress
grep -q 'below 2^29' "$tmp/err" && ok || bad "--align overflow detail: $(cat "$tmp/err")"
expect 2 sat "$tmp/tiny.pgm" --type u8
expect 2 sat "$tmp/wide.pgm" "$tmp/wide.pgm"
expect 1 sat --type i32 "$tmp/bright.pgm"
grep -q 'use --type i64' "$tmp/err" && ok || bad "overflow message names i64: $(cat "$tmp/err")"
expect 2 inthist --bins 0 "$tmp/tiny.pgm"
# an option whose value was forgotten takes the next option as it: refused, no file named --quiet
expect 2 sat "$tmp/tiny.pgm" -o --quiet
grep -q "option '-o' needs a value, not the option '--quiet'" "$tmp/err" && [ ! -e ./--quiet ] && ok || bad "-o --quiet: $(cat "$tmp/err")"
expect 2 inthist --bins 5000 "$tmp/tiny.pgm"
expect 2 inthist --range 5,1 "$tmp/tiny.pgm"
expect 2 inthist --range x "$tmp/tiny.pgm"
expect 1 inthist "$tmp/i64.npy"
expect 2 heat
expect 2 heat --size 10x10 --init "$tmp/x.npy"
expect 2 heat --size 2x2
expect 2 heat --size 10
expect 2 heat --size 10x10 --sweeps 0
expect 2 heat --size 10x10 --omega 1.2
expect 2 sor --size 10x10 --omega 2
# the width model's training on a grid whose training corner is the whole grid (3 x 3: one interior
# cell, at any --train-ratio): on copies, so the grid sweeps exactly --sweeps times (it swept six)
# (the .npy written by perl, part of every Debian system: its header, then 9 float32)
perl -e '$h = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (3, 3), }";
  $h .= " " x (64 - 10 - length($h) - 1) . "\n";
  print "\x93NUMPY\x01\x00" . pack("v", length($h)) . $h . pack("f<9", 121, 131, 193, 243, 8, 36, 210, 242, 63)' > "$tmp/g33.npy"
# --type converts an --init grid (it was ignored): f32 in, f64 out; a failure names the file
"$pw" heat --init "$tmp/g33.npy" --type f64 -o "$tmp/g33_f64.npy" --quiet > /dev/null &&
  head -c 64 "$tmp/g33_f64.npy" | grep -aq "<f8" && ok || bad "heat --init f32 --type f64: not an f64 grid"
for extra in "--tile-w model" "--tile-w model --train-ratio 0.9"; do
  "$pw" sor --init "$tmp/g33.npy" --sweeps 2 --wisdom none -o "$tmp/g33_default.npy" --quiet > /dev/null &&
    "$pw" sor --init "$tmp/g33.npy" --sweeps 2 --wisdom none $extra -o "$tmp/g33_model.npy" --quiet > /dev/null &&
    cmp -s "$tmp/g33_default.npy" "$tmp/g33_model.npy" && ok || bad "sor 3x3 $extra differs from the default width's grid"
done
expect 2 sor --size 10x10 --omega nan
expect 2 heat --size 10x10 stray-argument
expect 1 heat --size 1000000x1000000
grep -q 'more than this machine' "$tmp/err" && ok || bad "memory refusal message: $(cat "$tmp/err")"
expect 1 heat --init "$tmp/i64.npy"
expect 1 heat --init "$tmp/tiny.pgm"
expect 1 sw --name-a nobody "$tmp/multi.fa" "$tmp/a.fa"

# User cells (peerwave run): the textbook answers, every strategy against the reference, the
# bad inputs.  Compiled cells are cached in this script's folder.
export PEERWAVE_CACHE="$tmp/cells"
cells="$src/examples/cells"
printf 'kitten' > "$tmp/k.txt"
printf 'sitting\n' > "$tmp/s.txt"
got=$("$pw" run "$cells/levenshtein.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --backend cpu --quiet)
[ "$got" = "last: 3" ] && ok || bad "run levenshtein kitten/sitting: '$got'"
# CC split into words as make does ("env cc" and "cc -O0": a wrapper and a flag; both were refused
# as "cannot run the C compiler"); a C++ compiler is named as the likely cause
for c in "env cc" "cc -O0"; do
  got=$(CC="$c" PEERWAVE_CACHE=none "$pw" run "$cells/levenshtein.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --backend cpu --quiet 2>&1)
  [ "$got" = "last: 3" ] && ok || bad "run with CC='$c': '$got'"
done
if command -v c++ > /dev/null; then
  CC=c++ PEERWAVE_CACHE=none "$pw" run "$cells/levenshtein.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --backend cpu > /dev/null 2> "$tmp/err"
  [ $? = 1 ] && grep -q "a C++ compiler" "$tmp/err" && ok || bad "CC=c++: $(cat "$tmp/err")"
fi
# a cell on GPU bands (--gpus) where no GPU is usable (CI) or the build has no CUDA: one clear
# error, no hang (on a GPU machine tests/gpu/cell_bands.sh runs it for real)
if ! nvidia-smi -L > /dev/null 2>&1; then
  timeout 60 "$pw" run "$cells/heat.c" --size 20x30 --gpus 2 > /dev/null 2> "$tmp/err"
  rc=$?
  { [ $rc = 1 ] || [ $rc = 2 ]; } && grep -qE "no CUDA|no usable CUDA device" "$tmp/err" && ok ||
    bad "run --gpus 2 without a GPU: rc=$rc $(head -2 "$tmp/err")"
fi
# int16_t and int8_t inputs and a uint32_t value through .npy (<i2, |i1, <u4): worked by hand,
# v(i, j) = v(i-1, j-1) + (a_i + 10)(b_j + 10) from 0: the last row 9*14, 15*14 + 9*8, 12*14 + 15*8 + 9*17
cat > "$tmp/narrow.c" <<'CELL'
PW_FORM(linear)
PW_VALUE(uint32_t)
PW_INPUT(int16_t, a, i)
PW_INPUT(int8_t, b, j)
PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { (void)c, (void)i, (void)j; return 0; }
PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
{
    (void)up, (void)left;
    return diag + (uint32_t)(c->a[i] + 10) * (uint32_t)(c->b[j] + 10);
}
CELL
npy_1d() { perl -e '$h = "{\x27descr\x27: \x27$ARGV[0]\x27, \x27fortran_order\x27: False, \x27shape\x27: ($ARGV[1],), }";
  $h .= " " x (117 - length $h) . "\n"; print "\x93NUMPY\x01\x00" . pack("v", length $h) . $h . pack($ARGV[2], @ARGV[3..$#ARGV])' "$@"; }
npy_1d '<i2' 4 's<4' -3 2 5 -1 > "$tmp/a16.npy"
npy_1d '|i1' 3 'c3' 4 -2 7 > "$tmp/b8.npy"
"$pw" run "$tmp/narrow.c" --input a="$tmp/a16.npy" --input b="$tmp/b8.npy" --backend cpu --check -o "$tmp/n32.npy" > "$tmp/out" &&
  grep -q "^last: 441$" "$tmp/out" && grep -q "^check: ok$" "$tmp/out" && head -c 128 "$tmp/n32.npy" | grep -q "'<u4'" &&
  [ "$(od -An -tu4 -j128 "$tmp/n32.npy" | tr -s ' ' | sed 's/^ //')" = "126 282 441" ] && ok ||
  bad "run: int16_t and int8_t inputs, a uint32_t row: $(tr '\n' ' ' < "$tmp/out") $(od -An -tu4 -j128 "$tmp/n32.npy")"
# a column (4, 1) for a 1-D input: its values, as dtw takes a series
perl -e '$h = "{\x27descr\x27: \x27<i2\x27, \x27fortran_order\x27: False, \x27shape\x27: (4, 1), }";
  $h .= " " x (117 - length $h) . "\n"; print "\x93NUMPY\x01\x00" . pack("v", length $h) . $h . pack("s<4", -3, 2, 5, -1)' > "$tmp/a16col.npy"
[ "$("$pw" run "$tmp/narrow.c" --input a="$tmp/a16col.npy" --input b="$tmp/b8.npy" --backend cpu --quiet)" = "last: 441" ] && ok ||
  bad "run: a (4, 1) column for a 1-D input"
expect 1 run "$tmp/narrow.c" --input a="$tmp/b8.npy" --input b="$tmp/b8.npy" --backend cpu
grep -q "holds int8_t, input a is int16_t" "$tmp/err" && ok || bad "run: an int8 .npy for an int16_t input: $(cat "$tmp/err")"
printf '>x\nACGTACGTTTGA\n' > "$tmp/x.fa"
printf '>y\nTTA\nCGTACGAA\n' > "$tmp/y.fa" # (a cell compares bytes: letters keep their case)
# A cache directory others can write is not used, and the report says so (note:)
mkdir -p "$tmp/open-cache" && chmod 0777 "$tmp/open-cache"
PEERWAVE_CACHE="$tmp/open-cache" "$pw" run "$cells/levenshtein.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --backend cpu > "$tmp/out" 2>&1
grep -q '^note: compiled code not cached: the cache directory, or one above it, is another user.s or writable by others' "$tmp/out" &&
  [ -z "$(ls -A "$tmp/open-cache")" ] && ok || bad "open cache: $(cat "$tmp/out")"
# A grid cell whose dependence reaches past its halo is told that its edge reads are its own to guard
# (a guarded one here: it runs and checks; an unguarded one read another row's bytes, --check ok)
printf '%s\n' 'PW_FORM(grid)' 'PW_VALUE(int32_t)' 'PW_DEP(2, 0)' 'PW_HALO(1)' \
  'PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j) { return (i >= 1 ? pw_at(c, i - 2, j) : 0) + 1; }' > "$tmp/far.c"
"$pw" run "$tmp/far.c" --size 5x3 --backend cpu --check > "$tmp/out" 2>&1 && grep -q '^check: ok' "$tmp/out" &&
  grep -q '^note: PW_DEP(2, 0) reaches past PW_HALO(1): edge cells read outside the grid unless the cell guards' "$tmp/out" &&
  "$pw" run "$cells/heat_grid.c" --size 5x3 --backend cpu > "$tmp/out2" 2>&1 && ! grep -q '^note: PW_DEP' "$tmp/out2" &&
  ok || bad "a dependence past the halo: $(cat "$tmp/out" "$tmp/out2")"
# unguarded, it reads outside the grid: the sequential reference checks every read, so --check fails
# with the point (it said "ok": the reference read the same bytes)
sed 's/(i >= 1 ? pw_at(c, i - 2, j) : 0)/pw_at(c, i - 2, j)/' "$tmp/far.c" > "$tmp/far_unguarded.c"
expect 1 run "$tmp/far_unguarded.c" --size 5x3 --backend cpu --check
grep -q "the cell read pw_at(c, -2, 0), outside the grid and its halo of 1" "$tmp/err" && ok ||
  bad "--check of a read outside the grid: $(cat "$tmp/err")"
# a pw_cell with the wrong parameters: the error is in the generated caller, and the message
# also names the line of the user's file (the compiler's note)
printf '%s\n' 'PW_FORM(linear)' 'PW_VALUE(int32_t)' \
  'PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag, int extra)' \
  '{ return up + left + extra; }' 'PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }' > "$tmp/wrongsig.c"
expect 1 run "$tmp/wrongsig.c" --size 3x3 --backend cpu
grep -q "wrongsig.c:3:[0-9]*: note" "$tmp/err" && ok || bad "a wrong pw_cell signature: $(cat "$tmp/err")"
# the reasons a file cannot be read, and the parameter a bad number was given for
expect 2 run "$cells/lcs.c" --input a="$tmp/x.fa" --input b="$tmp/y.fa" --tile-w model
printf '%s\n' 'PW_FORM(linear)' 'PW_VALUE(int32_t)' 'PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }' \
  'PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag) { return up + 1; }' > "$tmp/lin.c"
expect 1 run "$tmp/lin.c" --size 6x99999999999999999 --backend cpu
grep -q "6 x 99999999999999999 cells: a row and a column of 4-byte values need 400000000.0 GB, more than this machine's" "$tmp/err" && ok ||
  bad "run: a linear cell past memory: $(cat "$tmp/err")"
expect 2 run "$cells/demonstrator3d.c" --size 4x4x4 --param modulus=1e-50 --backend cpu
grep -q "modulus = 1e-50 does not fit float (below its smallest: it would be 0)" "$tmp/err" && ok ||
  bad "run: a float parameter that would be 0: $(cat "$tmp/err")"
"$pw" run "$cells/lcs.c" --input a="$tmp/x.fa" --input b="$tmp/y.fa" --backend cpu --simd sse41 | grep -q '^note: a cell has no vector form yet: simd=sse41 ran scalar' &&
  ok || bad "run --simd: no note that cells run scalar"
expect 1 run "$tmp/no-such-cell.c"
grep -q "no-such-cell.c: No such file or directory" "$tmp/err" && ok || bad "run: a missing cell file: $(cat "$tmp/err")"
expect 1 run "$cells/lcs.c" --input a="$tmp" --input b="$tmp/y.fa" --backend cpu
grep -q "is a directory" "$tmp/err" && ok || bad "run: a directory as an input: $(cat "$tmp/err")"
expect 2 run "$cells/sw_gotoh.c" --input a="$tmp/x.fa" --input b="$tmp/y.fa" --param match=abc --param mismatch=-1 --param open=1 --param extend=1
grep -q -- "--param match: 'abc' is not a number" "$tmp/err" && ok || bad "run: a bad --param: $(cat "$tmp/err")"
got=$("$pw" run "$cells/lcs.c" --input a="$tmp/x.fa" --input b="$tmp/y.fa" --backend cpu --quiet)
[ "$got" = "last: 8" ] && ok || bad "run lcs: '$got'"
for strat in peer barrier sequential; do
  out=$("$pw" run "$cells/sw_gotoh.c" --input a="$ex/query.fa" --input b="$ex/target.fa" --param match=1 --param mismatch=-3 \
        --param open=5 --param extend=2 --backend cpu --strategy $strat --check)
  echo "$out" | grep -q '^check: ok' && ok || bad "run sw_gotoh --strategy $strat --check"
done
# the user SW agrees with the built-in one (best H and its cell; end_a / end_b are 1-based)
sw=$("$pw" sw --backend cpu --quiet --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$ex/query.fa" "$ex/target.fa")
[ "$(echo "$out" | field best_h)" = "$(echo "$sw" | field score)" ] &&
  [ $(( $(echo "$out" | field best_i) + 1 )) = "$(echo "$sw" | field end_a)" ] &&
  [ $(( $(echo "$out" | field best_j) + 1 )) = "$(echo "$sw" | field end_b)" ] && ok || bad "user SW vs built-in: $(echo $out) / $(echo $sw)"
"$pw" run "$cells/heat.c" --size 40x30 --sweeps 3 --backend cpu --check -o "$tmp/heat.npy" --quiet > "$tmp/out" &&
  grep -q '^check: ok' "$tmp/out" && [ -s "$tmp/heat.npy" ] && ok || bad "run heat.c: $(cat "$tmp/out")"
# 3-D: the LU-like sweep from a zero grid (its cell makes values from nothing), then its grid
# through seed 004's demonstrator; both against the sequential reference
lu="--param iterations=3 --param modulus=50 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2 --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
"$pw" run "$cells/lu_like.c" --size 12x9x7 $lu --backend cpu --check -o "$tmp/lu.npy" > "$tmp/out" &&
  grep -q '^check: ok' "$tmp/out" && grep -q '^planes: 7' "$tmp/out" && ok || bad "run lu_like.c: $(cat "$tmp/out")"
"$pw" run "$cells/demonstrator3d.c" --grid "$tmp/lu.npy" --param modulus=7 --sweeps 2 --backend cpu --check --quiet > "$tmp/out" &&
  grep -q '^check: ok' "$tmp/out" && ok || bad "run demonstrator3d.c --grid: $(cat "$tmp/out")"
expect 2 run "$cells/demonstrator3d.c" --size 4x4 --param modulus=7
for z in 0x5x5 5x5x0 5xx5 5x5x5x5 5x5x; do # a 3-D size: the message names all three
  expect 2 run "$cells/demonstrator3d.c" --size $z --param modulus=7
  grep -q "ROWSxCOLSxPLANES" "$tmp/err" && ok || bad "--size $z: $(cat "$tmp/err")"
done
"$pw" run "$cells/lu_like.c" --size 3X4X5 $lu --backend cpu --quiet > "$tmp/out" && ok || bad "--size 3X4X5: $(cat "$tmp/out")"
expect 2 run "$cells/heat.c" --size 4x4x4
# a file that says no size (/proc): read whole, not past its buffer
"$pw" run "$cells/levenshtein.c" --input a=/proc/self/cmdline --input b="$tmp/s.txt" --backend cpu --quiet > "$tmp/out" &&
  grep -q '^last: ' "$tmp/out" && ok || bad "run with a /proc input: $(cat "$tmp/out")"
expect 2 run "$cells/levenshtein.c" --input a="$tmp/k.txt"
expect 2 run "$cells/levenshtein.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --input nope="$tmp/s.txt"
expect 2 run "$cells/needleman_wunsch.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --param match=1
expect 2 run "$cells/lcs.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --param x=1
expect 2 run "$cells/needleman_wunsch.c" --input a="$tmp/k.txt" --input b="$tmp/s.txt" --param match=1 --param mismatch=-1 --param gap=0.5
# parameters: an int64 one exact to 2^53 (it travels as a double), refused past it; a float one past
# float's range refused (it became inf); --sweeps on a linear cell and RxC for a grid3 cell refused
cat > "$tmp/echo64.c" <<'CELL'
PW_FORM(linear)
PW_VALUE(int64_t)
PW_PARAM(int64_t, p)
PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { (void)i; (void)j; return c->p; }
PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag) { (void)up; (void)left; (void)diag; return c->p; }
CELL
got=$("$pw" run "$tmp/echo64.c" --size 1x2 --param p=-9007199254740992 --backend cpu --quiet 2>&1)
[ "$got" = "last: -9007199254740992" ] && ok || bad "int64 parameter at -2^53: $got"
for v in 9007199254740993 -9223372036854775808 99999999999999999999; do
  expect 2 run "$tmp/echo64.c" --size 1x2 --param p=$v --backend cpu
  grep -q "exact only within" "$tmp/err" && ok || bad "int64 parameter $v: $(cat "$tmp/err")"
done
sed 's/PW_VALUE(int64_t)/PW_VALUE(float)/; s/int64_t, p/float, p/' "$tmp/echo64.c" > "$tmp/echof.c"
expect 2 run "$tmp/echof.c" --size 1x2 --param p=1e39 --backend cpu
grep -q "past its largest finite value" "$tmp/err" && ok || bad "float parameter 1e39: $(cat "$tmp/err")"
"$pw" run "$tmp/echof.c" --size 1x2 --param p=3e38 --backend cpu --quiet > /dev/null && ok || bad "float parameter 3e38 refused"
expect 2 run "$tmp/echo64.c" --size 1x2 --param p=1 --sweeps 2 --backend cpu
# a cell that divides by zero: one line naming the signal, exit 1 (not the shell's bare crash)
sed 's/return c->p; }$/return 10 \/ c->p; }/' "$tmp/echo64.c" > "$tmp/div0.c"
grep -q '10 / c->p' "$tmp/div0.c" && expect 1 run "$tmp/div0.c" --size 1x2 --param p=0 --backend cpu &&
  grep -q "SIGFPE" "$tmp/err" && ok || bad "a cell dividing by zero: $(cat "$tmp/err")"
expect 2 run "$cells/demonstrator3d.c" --size 3x3 --param modulus=7
grep -q "needs three sizes" "$tmp/err" && ok || bad "grid3 cell with RxC: $(cat "$tmp/err")"
printf 'PW_FORM(linear)\nPW_FIELD(int32_t, x)\nPW_FIELD(int32_t, y)\nPW_REDUCE(max)\n' > "$tmp/reduce_nofield.c"
expect 1 run "$tmp/reduce_nofield.c" --size 3x3 --backend cpu
grep -q "name the field it compares" "$tmp/err" && ok || bad "PW_REDUCE(max) on fields: $(cat "$tmp/err")"
expect 1 run "$tmp/does-not-exist.c"
printf 'PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(0, -1)\n' > "$tmp/illegal.c"
expect 1 run "$tmp/illegal.c" --size 3x3
grep -q 'illegal.c:3: PW_DEP(0, -1) is not lexicographically positive' "$tmp/err" && ok || bad "illegal dependence message: $(cat "$tmp/err")"
printf 'PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }\nPW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value u, pw_value l, pw_value d) { return u + oops; }\n' > "$tmp/broken.c"
expect 1 run "$tmp/broken.c" --size 4x4 --backend cpu
grep -q 'broken.c:4:.*oops' "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "compile error message: $(cat "$tmp/err")"

# Asking for a GPU that is not there: one line, with the CUDA runtime's reason when it has one.
"$pw" sw --backend cuda --device 1000 --quiet "$tmp/a.fa" "$tmp/b.fa" > /dev/null 2> "$tmp/err"
rc=$?
{ [ $rc = 1 ] || [ $rc = 2 ]; } && [ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "missing GPU: exit $rc, '$(cat "$tmp/err")'"
# --align with --backend cuda where no GPU runs it: the same line as the score alone (the reason
# was dropped before a fix)
"$pw" sw --backend cuda --quiet "$tmp/a.fa" "$tmp/b.fa" > /dev/null 2> "$tmp/err_score"; rc_score=$?
"$pw" sw --align --backend cuda --quiet "$tmp/a.fa" "$tmp/b.fa" > /dev/null 2> "$tmp/err"; rc=$?
if [ $rc_score != 0 ]; then
  [ $rc = $rc_score ] && cmp -s "$tmp/err" "$tmp/err_score" && ok ||
    bad "sw --align --backend cuda without a GPU: exit $rc '$(cat "$tmp/err")' vs '$(cat "$tmp/err_score")'"
fi

# numpy's default integers (int64) as sat input: read as int32 when every value fits, else a
# one-line refusal (the .npy files written here byte by byte, numpy or not)
if command -v python3 > /dev/null; then
  python3 - "$tmp" <<'PY'
import struct, sys
def npy(path, rows, cols, vals):
    hdr = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    hdr += ' ' * ((64 - (10 + len(hdr) + 1) % 64) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + struct.pack('<%dq' % len(vals), *vals))
npy(sys.argv[1] + '/i64.npy', 3, 4, list(range(-5, 7)))
npy(sys.argv[1] + '/i64big.npy', 1, 2, [1, 1 << 40])
def npyf(path, code, fmt, rows, cols, vals):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (code, rows, cols)
    hdr += ' ' * ((64 - (10 + len(hdr) + 1) % 64) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + struct.pack('<%d%s' % (len(vals), fmt), *vals))
npyf(sys.argv[1] + '/f32big.npy', '<f4', 'f', 10, 10, [3e37] * 100)     # the sums pass f32's 3.4e38
npyf(sys.argv[1] + '/f64big.npy', '<f8', 'd', 20, 20, [1e308] * 400)    # ... and f64's 1.8e308
npyf(sys.argv[1] + '/f32nan.npy', '<f4', 'f', 2, 2, [1, float('nan'), 2, 3])
npyf(sys.argv[1] + '/f32inf.npy', '<f4', 'f', 2, 2, [1, 2, float('-inf'), 3])
npyf(sys.argv[1] + '/f32row.npy', '<f4', 'f', 1, 5, [-8, -4, 0, 4, 8])
PY
  # -5 + -4 + ... + 6 = 6
  "$pw" sat "$tmp/i64.npy" --check > "$tmp/out" && [ "$(field total < "$tmp/out")" = 6 ] && [ "$(field input_type < "$tmp/out")" = i64 ] \
    && ok || bad "sat of int64 .npy: $(tr '\n' ' ' < "$tmp/out")"
  expect 1 sat "$tmp/i64big.npy"
  # float sums past the type's range: refused, naming f64 for f32 (they came out as -nan, exit 0,
  # until 2026-11-29); with --type f64 the f32 image's sums fit: 100 x 3e37
  "$pw" sat "$tmp/f32big.npy" > /dev/null 2> "$tmp/err"; [ $? = 1 ] && grep -q 'use --type f64' "$tmp/err" && ok || bad "sat f32 overflow: $(cat "$tmp/err")"
  "$pw" sat "$tmp/f64big.npy" > /dev/null 2> "$tmp/err"; [ $? = 1 ] && grep -q 'range of f64' "$tmp/err" && ok || bad "sat f64 overflow: $(cat "$tmp/err")"
  "$pw" sat "$tmp/f32big.npy" --type f64 > "$tmp/out" && awk '$1 == "total:" { exit !($2 > 2.99e39 && $2 < 3.01e39) }' "$tmp/out" \
    && ok || bad "sat f32 image into f64: $(tr '\n' ' ' < "$tmp/out")"
  "$pw" sat "$tmp/f32nan.npy" > /dev/null 2> "$tmp/err"; [ $? = 1 ] && grep -q 'row 0, column 1 is NaN or infinite' "$tmp/err" && ok || bad "sat NaN: $(cat "$tmp/err")"
  "$pw" sat "$tmp/f32inf.npy" > /dev/null 2> "$tmp/err"; [ $? = 1 ] && grep -q 'row 1, column 0 is NaN or infinite' "$tmp/err" && ok || bad "sat inf: $(cat "$tmp/err")"
  # inthist's default f32 range is numpy.histogram's: 4 equal bins of [-8, 8], 8 in the last one
  # (bins 0 1 2 3 3: the last column of each plane counts 1 1 1 2); an explicit --range -8,8 too,
  # as numpy.histogram(x, 4, range=(-8, 8)) counts (it was half-open, 8 in no bin, until 2026-11-30)
  hist_counts() { python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read(); n = struct.unpack('<H', b[8:10])[0]; v = struct.unpack('<20i', b[10 + n:])
print(' '.join(str(v[5 * k + 4]) for k in range(4)))" "$1"; }
  "$pw" inthist "$tmp/f32row.npy" --bins 4 -o "$tmp/h.npy" --check > "$tmp/out" && [ "$(hist_counts "$tmp/h.npy")" = "1 1 1 2" ] &&
    [ "$(field counted < "$tmp/out")" = 5 ] && ok || bad "inthist default f32 range: $(hist_counts "$tmp/h.npy")"
  "$pw" inthist "$tmp/f32row.npy" --bins 4 --range -8,8 -o "$tmp/h.npy" --check > "$tmp/out" && [ "$(hist_counts "$tmp/h.npy")" = "1 1 1 2" ] &&
    [ "$(field counted < "$tmp/out")" = 5 ] && ok || bad "inthist --range -8,8: $(hist_counts "$tmp/h.npy")"
fi

# Alignments (--align, --format sam, --plot, --view) and warping paths (--path), on cases whose
# answers are worked out by hand in the comments.
# ACGTACG = a[1..7] = b[3..9], nothing else scores as much: 7=, identity 1.
got=$("$pw" sw --align --quiet "$tmp/a.fa" "$tmp/b.fa" | grep -E '^(start_a|start_b|columns|identity|cigar):' | tr '\n' ' ')
[ "$got" = "start_a: 1 start_b: 3 columns: 7 identity: 1.0000 cigar: 7= " ] && ok || bad "sw --align hand case: $got"
# b is a without its GGGG: 20 matches x 2 - (5 + 3 x 2) = 29 with one gap of 4 letters of a (I);
# no other place of the gap leaves b.
printf '>g\nACGTACGTACGGGGTTGCATGCAA\n' > "$tmp/g.fa"
printf '>h\nACGTACGTACTTGCATGCAA\n' > "$tmp/h.fa"
"$pw" sw --align --match 2 --mismatch -3 --gap-open 5 --gap-extend 2 "$tmp/g.fa" "$tmp/h.fa" > "$tmp/out"
got=$(grep -E '^(score|start_a|start_b|end_a|end_b|gaps|gap_columns|cigar):' "$tmp/out" | tr '\n' ' ')
[ "$got" = "score: 29 end_a: 24 end_b: 20 start_a: 1 start_b: 1 gap_columns: 4 gaps: 1 cigar: 10=4I10= " ] && ok \
  || bad "sw --align with a gap: $got"
grep -q '^g   *1 ACGTACGTACGGGGTTGCATGCAA 24$' "$tmp/out" && grep -q '^h   *1 ACGTACGTAC----TTGCATGCAA 20$' "$tmp/out" \
  && ok || bad "the three-line view: $(tail -4 "$tmp/out" | tr '\n' '|')"
# SAM: a is the read, soft-clipped outside the alignment (7= then 5S), placed at b's position 3.
"$pw" sw --align --format sam "$tmp/a.fa" "$tmp/b.fa" > "$tmp/out.sam"
got=$(grep -v '^@' "$tmp/out.sam" | cut -f 2-6,10,12- | tr '\t' ' ')
[ "$got" = "0 b 3 255 7=5S ACGTACGTTTGA AS:i:14 NM:i:0" ] && ok || bad "SAM record: $got"
grep -q '^@SQ	SN:b	LN:11$' "$tmp/out.sam" && ok || bad "SAM @SQ line"
if command -v samtools > /dev/null; then
  samtools view "$tmp/out.sam" > /dev/null 2>&1 && ok || bad "samtools cannot read our SAM"
fi
# a tab in an argument (a file's name) stays inside @PG's CL: field (it split the header line)
cp "$tmp/b.fa" "$tmp/tab	b.fa"
"$pw" sw --align --format sam "$tmp/a.fa" "$tmp/tab	b.fa" > "$tmp/tab.sam" &&
  [ "$(grep '^@PG' "$tmp/tab.sam" | awk -F'\t' '{print NF}')" = 4 ] && grep -q '^@PG.*CL:sw .*tab b.fa$' "$tmp/tab.sam" && ok ||
  bad "SAM @PG with a tab in an argument: $(grep '^@PG' "$tmp/tab.sam" | cat -A)"
"$pw" sw --align --quiet --plot "$tmp/al.svg" --view "$tmp/view.txt" "$ex/query.fa" "$ex/target.fa" > /dev/null &&
  head -c 4 "$tmp/al.svg" | grep -q '<svg' && grep -q '^query ' "$tmp/view.txt" && ok || bad "--plot / --view files"
# --trace with --align: the score pass's tiles (above 2^24 cells the CPU keeps rows on the tile
# engines, whose options dropped the trace: "this run recorded no tiles")
"$pw" sw --align --backend cpu --trace "$tmp/al_trace.svg" "$ex/query.fa" "$ex/target.fa" > "$tmp/out" 2> "$tmp/err" &&
  grep -q "^trace_tiles: [1-9]" "$tmp/out" && grep -q "<svg" "$tmp/al_trace.svg" && ok || bad "sw --align --trace: $(cat "$tmp/err")"
# names and letters SAM and XML cannot take: an empty header (QNAME '*'), control and non-UTF-8
# bytes ('_' in SAM, '?' in the SVG), a protein's stop '*' in SEQ (X)
printf '>\001x\377 y\nMKVLAAGIV*GLLL\n' > "$tmp/odd.fa"; printf '>\nMKVLAAGIVGLLL\n' > "$tmp/noname.fa"
"$pw" sw --matrix blosum62 --align --format sam "$tmp/odd.fa" "$tmp/noname.fa" > "$tmp/odd.sam" 2> "$tmp/err" &&
  [ "$(grep -v '^@' "$tmp/odd.sam" | cut -f 1,3,10)" = "$(printf '_x_\tunnamed\tMKVLAAGIVXGLLL')" ] && ok ||
  bad "SAM of odd names: $(grep -v '^@' "$tmp/odd.sam" | cut -f 1,3,10 | od -c | head -2) $(cat "$tmp/err")"
"$pw" sw --matrix blosum62 --align --format sam "$tmp/noname.fa" "$tmp/odd.fa" 2> /dev/null | grep -v '^@' | cut -f 1 | grep -qx '\*' &&
  ok || bad "SAM of an empty query name: not '*'"
"$pw" sw --matrix blosum62 --align --quiet --plot "$tmp/odd.svg" "$tmp/odd.fa" "$tmp/noname.fa" > /dev/null 2>&1 &&
  ! LC_ALL=C grep -q "$(printf '[\001\377]')" "$tmp/odd.svg" && ok || bad "--plot with control and non-UTF-8 bytes in a name"
# a reference name SAM 1.6 cannot take: '*' first (it means "none"), and ( ) among its letters
printf '>*ref(1)\nACGTACGT\n' > "$tmp/starref.fa"
[ "$("$pw" sw --align --format sam "$tmp/a.fa" "$tmp/starref.fa" | grep -v '^@' | cut -f 3)" = "_ref_1_" ] && ok ||
  bad "SAM reference name '*ref(1)'"
# two outputs of one command in one file, and a report that cannot be written: refused / exit 1
printf '1\n2\n3\n' > "$tmp/three.txt"
expect 2 dtw "$tmp/three.txt" "$tmp/three.txt" --path "$tmp/pp.npy" --plot "$tmp/pp.npy"
grep -q "name one file" "$tmp/err" && [ ! -e "$tmp/pp.npy" ] && ok || bad "--path and --plot in one file: $(cat "$tmp/err")"
if [ -w /dev/full ]; then
  "$pw" dtw "$tmp/three.txt" "$tmp/three.txt" > /dev/full 2> "$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "writing the results to stdout failed" "$tmp/err" && ok || bad "a report to /dev/full: rc $rc $(cat "$tmp/err")"
  # an output to stdout (-o -) that fails: one line, the write's (a second blamed the report)
  "$pw" sat "$ex/rings.pgm" -o - --quiet > /dev/full 2> "$tmp/err"; rc=$?
  [ $rc = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "write failed" "$tmp/err" && ok || bad "-o - to /dev/full: rc $rc $(cat "$tmp/err")"
fi
expect 2 sw --align --gap-open 1 --gap-extend 3 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --format bam "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --format sam --tsv "$tmp/a.fa" "$tmp/b.fa"
# (the last --format counts: report after sam, with --tsv, runs)
"$pw" sw --format sam --format report --tsv --quiet "$tmp/a.fa" "$tmp/b.fa" > /dev/null && ok || bad "--format sam --format report --tsv"
# 0 0 1 against 0 1: the only path of cost 0 is (0,0) (1,0) (2,1).
"$pw" dtw --quiet --path "$tmp/path.txt" "$tmp/d1.txt" "$tmp/d2.txt" > "$tmp/out"
[ "$(grep -v '^#' "$tmp/path.txt" | tr '\n' ' ')" = "0 0 1 0 2 1 " ] && [ "$(field path_length < "$tmp/out")" = 3 ] \
  && [ "$(field path_cost < "$tmp/out")" = 0 ] && ok || bad "dtw --path hand case: $(tr '\n' ' ' < "$tmp/path.txt")"
"$pw" dtw --quiet --path "$tmp/path.npy" --plot "$tmp/path.svg" "$ex/walk_a.txt" "$ex/walk_b.csv" --column-b value > /dev/null &&
  head -c 80 "$tmp/path.npy" | grep -q "'<i8'" && head -c 80 "$tmp/path.npy" | grep -q "(.*, 2)" && head -c 4 "$tmp/path.svg" | grep -q '<svg' \
  && ok || bad "dtw --path .npy / --plot"
expect 1 dtw --path "$tmp/no/such/dir/p.txt" "$tmp/d1.txt" "$tmp/d2.txt"
# an output that is one of the inputs (another spelling too): refused before anything is written
mkdir -p "$tmp/sub"
cp "$tmp/d1.txt" "$tmp/d1copy.txt"
expect 2 dtw --path "$tmp/sub/../d1copy.txt" "$tmp/d1copy.txt" "$tmp/d2.txt"
grep -q "is also an input" "$tmp/err" && cmp -s "$tmp/d1.txt" "$tmp/d1copy.txt" && ok || bad "dtw --path over an input: $(cat "$tmp/err")"
cp "$ex/rings.pgm" "$tmp/rings_copy.pgm"
expect 2 sat "$tmp/rings_copy.pgm" -o "$tmp/rings_copy.pgm"
cmp -s "$ex/rings.pgm" "$tmp/rings_copy.pgm" && ok || bad "sat -o over its input changed it"
# a misspelt engine switch is an error, not the default engine
PEERWAVE_SW_CPU_ENGINE=tile expect 2 sw --backend cpu "$tmp/a.fa" "$tmp/b.fa"
grep -q "PEERWAVE_SW_CPU_ENGINE=tile" "$tmp/err" && ok || bad "bad PEERWAVE_SW_CPU_ENGINE: $(cat "$tmp/err")"
expect 1 dtw --path "$tmp/no/such/dir/p.npy" "$tmp/d1.txt" "$tmp/d2.txt"
[ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "dtw --path to a missing folder: $(wc -l < "$tmp/err") lines on stderr"
expect 1 sw --align --plot "$tmp/no/such/dir/a.svg" "$tmp/a.fa" "$tmp/b.fa"

# A table input (PW_INPUT(int32_t, w, 1024)) from .npy: the alignment pass cell with every pair
# costing 0 (an all-zero table) over 300 x 200 letters: 200 pairs and one run of 100 letters of a
# against gaps, 3 + 2 x 100 = 203.
if command -v python3 > /dev/null; then
  python3 -c "
import struct
h = \"{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }\"
for name, n in (('table', 1024), ('short', 10)):
    hdr = h % n
    hdr += ' ' * ((64 - (10 + len(hdr) + 1) % 64) % 64) + '\\n'
    open('$tmp/' + name + '.npy', 'wb').write(b'\\x93NUMPY\\x01\\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + bytes(4 * n))
"
  head -c 300 /dev/zero | tr '\0' A > "$tmp/ta.txt"; head -c 200 /dev/zero | tr '\0' C > "$tmp/tb.txt"
  got=$("$pw" run "$src/src/align/cells/mm_pass.c" --backend cpu --input a="$tmp/ta.txt" --input b="$tmp/tb.txt" \
    --input w="$tmp/table.npy" --param alphabet=5 --param g=3 --param h=2 --param tb=3 2>&1 | field last_cc)
  [ "$got" = 203 ] && ok || bad "run with a table input: last_cc '$got'"
  expect 1 run "$src/src/align/cells/mm_pass.c" --backend cpu --input a="$tmp/ta.txt" --input b="$tmp/tb.txt" \
    --input w="$tmp/short.npy" --param alphabet=5 --param g=3 --param h=2 --param tb=3
fi

# --wisdom naming a file that is not a wisdom file: neither read nor overwritten; a device: not
# read for ever (/dev/zero's endless bytes were)
printf 'my notes\n' > "$tmp/notes.txt"
timeout 60 "$pw" sw --tile-w model --wisdom "$tmp/notes.txt" "$ex/query.fa" "$ex/target.fa" > "$tmp/out" 2> "$tmp/err" &&
  grep -q '^wisdom: unsaved' "$tmp/out" && [ "$(cat "$tmp/notes.txt")" = "my notes" ] && [ ! -e "$tmp/notes.txt.lock" ] && ok ||
  bad "--wisdom of a notes file: $(grep wisdom "$tmp/out") $(cat "$tmp/notes.txt" | head -2) $(ls "$tmp"/notes.txt*)"
timeout 60 "$pw" sw --tile-w model --wisdom /dev/zero --quiet "$ex/query.fa" "$ex/target.fa" > /dev/null 2>&1 && ok ||
  bad "--wisdom /dev/zero: rc $?"
# ---- batches: sw --query/--db and dtw --query/--db (docs/BATCH.md) ----
printf '>q1\nACGTACGTTTGA\n>q2 second\nGATTACA\n' > "$tmp/q.fa"
printf '>r1\nTTTTTTT\n>r2\ntta\ncgtacgaa\n>r3\nGATTACAGATTACA\n' > "$tmp/db.fa"
"$pw" sw --query "$tmp/q.fa" --db "$tmp/db.fa" --top 2 > "$tmp/hits.tsv" 2> "$tmp/err"
[ "$(head -1 "$tmp/hits.tsv")" = "$(printf 'query\trank\trecord\tscore\tend_query\tend_record\tquery_length\trecord_length')" ] && ok ||
  bad "batch header: $(head -1 "$tmp/hits.tsv")"
[ "$(wc -l < "$tmp/hits.tsv")" = 5 ] && ok || bad "batch rows: $(wc -l < "$tmp/hits.tsv")"
# each hit as the single-pair command reports it (q1 against r2 is the hand case above: 14 at 7, 9)
grep -q "^q1	1	r2	14	7	9	12	11$" "$tmp/hits.tsv" && ok || bad "batch hit q1/r2: $(sed -n 2p "$tmp/hits.tsv")"
printf '>q2\nGATTACA\n' > "$tmp/q2.fa"; printf '>r3\nGATTACAGATTACA\n' > "$tmp/r3.fa"
single=$("$pw" sw --quiet "$tmp/q2.fa" "$tmp/r3.fa" | tr '\n' ' ')
row=$(awk -F'\t' '$1 == "q2" && $2 == 1 {print "score: " $4 " end_a: " $5 " end_b: " $6 " "}' "$tmp/hits.tsv")
[ "$row" = "$single" ] && ok || bad "batch q2 best '$row' vs single '$single'"
"$pw" sw --query "$tmp/q.fa" --db "$tmp/db.fa" --schedule hdss --quiet > "$tmp/hdss.tsv" 2>/dev/null
"$pw" sw --query "$tmp/q.fa" --db "$tmp/db.fa" --quiet > "$tmp/one.tsv" 2>/dev/null
cmp -s "$tmp/hdss.tsv" "$tmp/one.tsv" && ok || bad "--schedule hdss gives other hits"
# series files as any text reader takes them: old-Mac lines (a lone CR: the file was read as its
# first sample), a byte order mark, gzip, a .npy told by its bytes; an empty field is an error
printf '7\r8\r9\r' > "$tmp/cr.txt"; printf '1\n2\n' > "$tmp/one2.txt"
got=$("$pw" dtw "$tmp/cr.txt" "$tmp/one2.txt" 2>&1 | grep -E '^(distance|length_a):' | tr '\n' ' ')
[ "$got" = "distance: 19 length_a: 3 " ] && ok || bad "dtw of a CR-only series: $got"
printf '\xef\xbb\xbf1 2\r\n3 4 5\r\n' > "$tmp/bom_set.txt"; printf '1 2\n3 4 5\n' > "$tmp/plain_set.txt"
"$pw" dtw --query "$tmp/plain_set.txt" --db "$tmp/plain_set.txt" --quiet > "$tmp/set_a.tsv" 2> /dev/null
"$pw" dtw --query "$tmp/bom_set.txt" --db "$tmp/plain_set.txt" --quiet > "$tmp/set_b.tsv" 2> /dev/null
cmp -s "$tmp/set_a.tsv" "$tmp/set_b.tsv" && [ -s "$tmp/set_a.tsv" ] && ok || bad "dtw --query with a byte order mark and CR LF"
if command -v gzip > /dev/null; then
  gzip -c "$tmp/plain_set.txt" > "$tmp/plain_set.txt.gz"
  "$pw" dtw --query "$tmp/plain_set.txt.gz" --db "$tmp/plain_set.txt" --quiet > "$tmp/set_c.tsv" 2> /dev/null
  cmp -s "$tmp/set_a.tsv" "$tmp/set_c.tsv" && ok || bad "dtw --query of a gzip file"
fi
printf '1 2\n' > "$tmp/one_set.txt"
expect 2 dtw --query "$tmp/one_set.txt" --db "$tmp/plain_set.txt" --pairs
grep -q "has 1 series and" "$tmp/err" && ok || bad "dtw --pairs of unequal counts: $(cat "$tmp/err")"
for o in "--top 3" "--pairs"; do # a search's option with two files: named, as sw names it
  expect 2 dtw $o "$tmp/one_set.txt" "$tmp/plain_set.txt"
  grep -q "dtw: ${o%% *} is for --query/--db searches, not one pair" "$tmp/err" && ok || bad "dtw $o A B: $(cat "$tmp/err")"
done
printf '>p\nACGT\n>q\nACGA\n' > "$tmp/two.fa"; printf '>p\nACGT\n' > "$tmp/one.fa"
expect 2 sw --query "$tmp/two.fa" --db "$tmp/one.fa" --pairs
grep -q "has 2 sequences and .* 1: --pairs runs sequence k against" "$tmp/err" && ok || bad "sw --pairs of unequal counts: $(cat "$tmp/err")"
printf '1,,2\n5,6\n' > "$tmp/empty_field.txt"
expect 1 dtw --query "$tmp/empty_field.txt" --db "$tmp/plain_set.txt"
grep -q "line 1: an empty field" "$tmp/err" && ok || bad "dtw --query with an empty field: $(cat "$tmp/err")"
# over several GPUs: HDSS or STATIC only; where the build has CUDA the GPUs that are there take part
# (none here: the CPU groups do the work) and the hits stay the same; without CUDA, --gpus is refused
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" --gpus 2
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" --gpus 2 --schedule hdss --pairs
expect 2 sw --query "$tmp/q.fa" --db "$tmp/q.fa" --schedule hdss --pairs
# --pairs over several GPUs: the pairs split between them (none here: the CPU does them, the same hits)
"$pw" sw --query "$tmp/q.fa" --db "$tmp/q.fa" --pairs --quiet > "$tmp/pairs1.tsv" 2> "$tmp/err" || bad "--pairs: $(head -2 "$tmp/err")"
if "$pw" sw --query "$tmp/q.fa" --db "$tmp/q.fa" --pairs --gpus 2 --quiet > "$tmp/pairs2.tsv" 2> "$tmp/err"; then
  cmp -s "$tmp/pairs1.tsv" "$tmp/pairs2.tsv" && [ -s "$tmp/pairs1.tsv" ] && ok || bad "--pairs --gpus 2 gives other hits"
else
  grep -qE "no CUDA|no usable CUDA device" "$tmp/err" && ok || bad "--pairs --gpus 2: $(head -2 "$tmp/err")" # (a machine of one GPU: the second is not there)
fi
expect 2 dtw --query "$ex/walk_a.txt" --db "$ex/walk_a.txt" --gpus 2
if "$pw" sw --query "$tmp/q.fa" --db "$tmp/db.fa" --schedule hdss --gpus 2 --quiet > "$tmp/hdss2.tsv" 2> "$tmp/err"; then
  cmp -s "$tmp/hdss2.tsv" "$tmp/one.tsv" && ok || bad "--schedule hdss --gpus 2 gives other hits"
else
  grep -q "no CUDA" "$tmp/err" && ok || bad "--schedule hdss --gpus 2: $(head -2 "$tmp/err")"
fi
printf '>a\nACGT\n>b\nAC#GT\n>c\nGG\n' > "$tmp/baddb.fa"
expect 1 sw --query "$tmp/q.fa" --db "$tmp/baddb.fa"
grep -q "record 2 ('b')" "$tmp/err" && ok || bad "bad record not named: $(cat "$tmp/err")"
"$pw" sw --query "$tmp/q.fa" --db "$tmp/baddb.fa" --skip-bad > "$tmp/out" 2> "$tmp/err" && grep -q "record 2 skipped" "$tmp/err" &&
  ! grep -q "	b	" "$tmp/out" && ok || bad "--skip-bad: $(cat "$tmp/err")"
expect 2 sw --query "$tmp/q.fa"
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" "$tmp/a.fa"
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" --pairs --top 3
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" --schedule static
# options that would be ignored are refused: --weights without a static split
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" --weights 3,1
grep -q "weights G,C goes with --schedule static" "$tmp/err" && ok || bad "--weights without --schedule static: $(cat "$tmp/err")"
expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" --schedule hdss --weights 3,1
expect 1 sw --query "$tmp/empty.fa" --db "$tmp/db.fa"
# options of the one-pair run that a search would ignore are refused by name (and the search's own
# options on one pair); those a search takes still give the same hits
for o in "--name-a q1" "--name-b r2" "--strategy sequential" "--tile-w 8" "--align" "--view $tmp/v.txt" "--wisdom none" \
         "--check"; do
  expect 2 sw --query "$tmp/q.fa" --db "$tmp/db.fa" $o
  grep -q "sw: ${o%% *} does not apply to --query/--db searches" "$tmp/err" && ok || bad "sw --query/--db $o: $(cat "$tmp/err")"
done
for o in "--schedule hdss" "--weights 1,1" "--top 2"; do
  expect 2 sw $o "$tmp/a.fa" "$tmp/b.fa"
  grep -q "sw: ${o%% *} is for --query/--db searches" "$tmp/err" && ok || bad "sw $o on one pair: $(cat "$tmp/err")"
done
"$pw" sw --query "$tmp/q.fa" --db "$tmp/db.fa" --threads 2 --simd scalar --tsv --quiet > "$tmp/out" 2>/dev/null
cmp -s "$tmp/out" "$tmp/one.tsv" && ok || bad "sw --query/--db with --threads --simd --tsv: other hits"
printf '1 2 3\n4 5 6 7\n' > "$tmp/sq.txt"
printf '1 2 3 4\n# skipped\n\n2,3,4\n9 9 9\n' > "$tmp/sdb.txt"
for o in "--strategy sequential" "--tile-w 8" "--path $tmp/p.txt" "--column 0" "--wisdom none" "--check"; do
  expect 2 dtw --query "$tmp/sq.txt" --db "$tmp/sdb.txt" $o
  grep -q "dtw: ${o%% *} does not apply to --query/--db searches" "$tmp/err" && ok || bad "dtw --query/--db $o: $(cat "$tmp/err")"
done
"$pw" dtw --query "$tmp/sq.txt" --db "$tmp/sdb.txt" --top 1 > "$tmp/d.tsv" 2>/dev/null
# series 0 (1 2 3) nearest to db series 0 (1 2 3 4): |4 - 3| = 1, by hand
[ "$(sed -n 2p "$tmp/d.tsv")" = "$(printf '0\t1\t0\t1\t3\t4')" ] && ok || bad "dtw batch: $(sed -n 2p "$tmp/d.tsv")"
printf '1\n2\n3\n' > "$tmp/s1.txt"; printf '2\n3\n4\n' > "$tmp/s2.txt"
single=$("$pw" dtw --quiet "$tmp/s1.txt" "$tmp/s2.txt" | sed -n 's/^distance: //p')
printf '2 3 4\n' > "$tmp/s2line.txt"; printf '1 2 3\n' > "$tmp/s1line.txt"
pair=$("$pw" dtw --query "$tmp/s1line.txt" --db "$tmp/s2line.txt" --pairs 2>/dev/null | awk -F'\t' 'NR == 2 {print $4}')
[ "$pair" = "$single" ] && ok || bad "dtw --pairs '$pair' vs single '$single'"
printf '1 x 3\n' > "$tmp/sbad.txt"
expect 1 dtw --query "$tmp/sbad.txt" --db "$tmp/sdb.txt"
expect 2 dtw --query "$tmp/sq.txt"
expect 2 dtw --query "$tmp/sq.txt" --db "$tmp/sdb.txt" --path "$tmp/p.npy"

# options a command would take and ignore: refused (bfs --strategy/--tile-w/--mpi, tune --mpi)
printf '1 2\n2 3\n' > "$tmp/g3.txt"
for o in "--strategy peer" "--tile-w 8" --mpi; do
  expect 2 bfs "$tmp/g3.txt" $o
  # (a build without MPI refuses --mpi itself, first)
  grep -Eq "bfs: ${o%% *} does not apply|this build has no MPI" "$tmp/err" && ok || bad "bfs $o: $(cat "$tmp/err")"
done
expect 2 tune sw --random 64 --mpi

# sizes whose products wrap 64 bits: refused before any allocation (heat allocated a 4-byte grid
# and overran it; run's halo addition overflowed)
expect 1 heat --size 9223372036854775807x9223372036854775807
grep -q "overflows 64 bits" "$tmp/err" && ok || bad "heat --size that wraps: $(cat "$tmp/err")"
expect 1 run "$ex/cells/heat.c" --size 9223372036854775807x3 --sweeps 1
grep -q "overflows 64 bits" "$tmp/err" && ok || bad "run --size that wraps: $(cat "$tmp/err")"

# tune's --svg and --csv report a failed write (a full disk: /dev/full), as every other output does
if [ -w /dev/full ]; then
  for o in --svg --csv; do
    expect 1 tune sw --random 64 $o /dev/full
    grep -q -- "$o /dev/full: write failed" "$tmp/err" && ok || bad "tune $o on a full disk: $(cat "$tmp/err")"
  done
fi

# ---- peerwave batch JOBS.tsv: the job queue (docs/BATCH.md) ----
# Every job's report equals the same command run alone (minus the run details), in file order.
"$pw" sat --quiet "$ex/rings.pgm" -o "$tmp/sat1.npy" > "$tmp/alone" 2>/dev/null
"$pw" sw --quiet "$tmp/a.fa" "$tmp/b.fa" >> "$tmp/alone" 2>/dev/null
"$pw" heat --quiet --size 40x30 --sweeps 4 -o "$tmp/heat1.npy" >> "$tmp/alone" 2>/dev/null
"$pw" inthist --quiet "$ex/rings.png" --bins 5 -o "$tmp/ih1.npy" >> "$tmp/alone" 2>/dev/null
printf 'kitten\n' > "$tmp/kitten.txt"; printf 'sitting\n' > "$tmp/sitting.txt"
"$pw" run --quiet "$ex/cells/levenshtein.c" --input a="$tmp/kitten.txt" --input b="$tmp/sitting.txt" >> "$tmp/alone" 2>/dev/null
sed "s|-o $tmp/\([a-z]*\)1.npy|-o $tmp/\12.npy|" "$tmp/alone" > "$tmp/alone2" # (the output paths differ)
cat > "$tmp/jobs.tsv" <<JOBS
# comments and blank lines are skipped

sat --quiet '$ex/rings.pgm' -o $tmp/sat2.npy
sw --quiet "$tmp/a.fa" $tmp/b.fa
  heat --quiet --size 40x30 --sweeps 4 -o $tmp/heat2.npy
inthist --quiet $ex/rings.png --bins 5 -o $tmp/ih2.npy
run --quiet $ex/cells/levenshtein.c --input a=$tmp/kitten.txt --input b=$tmp/sitting.txt
JOBS
for order in reorder fifo serial; do
  "$pw" batch --quiet --order $order "$tmp/jobs.tsv" > "$tmp/got" 2> "$tmp/err"
  cmp -s "$tmp/got" "$tmp/alone2" && ok || bad "batch --order $order: $(diff "$tmp/got" "$tmp/alone2" | head -5)"
  for f in sat heat ih; do cmp -s "$tmp/${f}1.npy" "$tmp/${f}2.npy" && ok || bad "batch --order $order: $f output differs"; done
  rm -f "$tmp"/sat2.npy "$tmp"/heat2.npy "$tmp"/ih2.npy
done
# over several GPUs (a queue each; with auto, GPUs that are not there are left out: here the CPU)
"$pw" batch --quiet --gpus 2 "$tmp/jobs.tsv" > "$tmp/got" 2> "$tmp/err"
cmp -s "$tmp/got" "$tmp/alone2" && ok || bad "batch --gpus 2: $(diff "$tmp/got" "$tmp/alone2" | head -5) $(head -2 "$tmp/err")"
rm -f "$tmp"/sat2.npy "$tmp"/heat2.npy "$tmp"/ih2.npy
expect 2 batch --devices 1,1 "$tmp/jobs.tsv"
expect 2 batch --gpus 0 "$tmp/jobs.tsv"
"$pw" batch --window 2 "$tmp/jobs.tsv" > "$tmp/got" 2>/dev/null
[ "$(grep -c '^# job ' "$tmp/got")" = 5 ] && ok || bad "batch job headers: $(grep -c '^# job ' "$tmp/got")"
grep -q "^# job 2 ($tmp/jobs.tsv:4): sw --quiet" "$tmp/got" && ok || bad "batch header names file and line"
grep -q "^# batch: 5 jobs, 0 failed" "$tmp/got" && ok || bad "batch summary: $(tail -1 "$tmp/got")"
grep -q "^last: 3$" "$tmp/got" && ok || bad "batch: the user cell's job (edit distance 3): $(grep '^last' "$tmp/got")"
# (lines start "peerwave: batch:", and a run that showed any ends with "done after"; a quick one shows none)
"$pw" batch --progress "$tmp/jobs.tsv" > /dev/null 2> "$tmp/err"; [ $? = 0 ] &&
  { ! grep -q 'jobs done' "$tmp/err" || grep -q '^peerwave: batch: done after' "$tmp/err"; } &&
  ! grep -v '^peerwave: ' "$tmp/err" | grep -q 'jobs done' && ok || bad "batch --progress: $(cat "$tmp/err")"
# a byte order mark before the first line (as some editors write it) is not part of the command
printf '\357\273\277sat %s --quiet\n' "$ex/rings.pgm" > "$tmp/bomjobs.tsv"
"$pw" batch --quiet "$tmp/bomjobs.tsv" > "$tmp/got" 2> "$tmp/err" && grep -q "^total: " "$tmp/got" && ok ||
  bad "batch file with a byte order mark: $(cat "$tmp/err")"
# two lines writing one file through a link to a file not there yet: refused, nothing written
mkdir -p "$tmp/linkdir" && rm -f "$tmp/dangle.npy" && ln -sf ../dangle.npy "$tmp/linkdir/l.npy"
printf 'sat %s -o %s\nsat %s -o %s\n' "$ex/rings.pgm" "$tmp/dangle.npy" "$ex/rings.pgm" "$tmp/linkdir/l.npy" > "$tmp/linkjobs.tsv"
expect 2 batch "$tmp/linkjobs.tsv"
grep -q "line 1 writes that file too" "$tmp/err" && [ ! -e "$tmp/dangle.npy" ] && ok || bad "batch: a dangling link to another line's output: $(cat "$tmp/err")"
# A bad line: named with its line number, and nothing runs (no output file appears).
printf 'sat %s -o %s\nsat %s/missing.pgm -o %s\n' "$ex/rings.pgm" "$tmp/never.npy" "$tmp" "$tmp/never2.npy" > "$tmp/badjobs.tsv"
"$pw" batch "$tmp/badjobs.tsv" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "badjobs.tsv:2: this job did not pass its checks" "$tmp/err" && [ ! -e "$tmp/never.npy" ] &&
  [ ! -s "$tmp/out" ] && ok || bad "batch bad line: rc=$rc $(cat "$tmp/err") $(ls "$tmp"/never* 2>&1)"
printf 'sat %s\nsw --align %s %s\n' "$ex/rings.pgm" "$tmp/a.fa" "$tmp/b.fa" > "$tmp/badjobs.tsv"
expect 2 batch "$tmp/badjobs.tsv"
grep -q "badjobs.tsv:2: 'sw --align' is not a job a batch can queue" "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ] && ok ||
  bad "batch --align, one line: $(cat "$tmp/err")"
printf 'tune sw\n' > "$tmp/badjobs.tsv"; expect 2 batch "$tmp/badjobs.tsv"
printf "sat 'unclosed\n" > "$tmp/badjobs.tsv"; expect 2 batch "$tmp/badjobs.tsv"
grep -q "badjobs.tsv:1: a ' quote is not closed" "$tmp/err" && ok || bad "batch quote: $(cat "$tmp/err")"
printf '# nothing\n' > "$tmp/badjobs.tsv"; expect 1 batch "$tmp/badjobs.tsv"
expect 1 batch "$tmp/no-such-file.tsv"
expect 2 batch
expect 2 batch --order sideways "$tmp/jobs.tsv"
expect 2 batch --window 0 "$tmp/jobs.tsv"
# A job that fails when it runs (scores that could overflow 32 bits: the library refuses) fails
# alone: the job after it reports, the exit status is the failed job's.
printf 'sw --quiet --match 1000000 %s %s\nsw --quiet %s %s\n' "$ex/query.fa" "$ex/target.fa" "$tmp/a.fa" "$tmp/b.fa" > "$tmp/runfail.tsv"
"$pw" batch --quiet "$tmp/runfail.tsv" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "^score: 14" "$tmp/out" && grep -q "overflow" "$tmp/err" && ok ||
  bad "batch with a failing job: rc=$rc $(cat "$tmp/out" "$tmp/err")"
# A line that asks for the CUDA backend fails in a batch as it does alone (before a fix a build
# without CUDA ran it on the CPU and exited 0); where a GPU runs it, the batch prints what alone does.
"$pw" sw --quiet --backend cuda "$tmp/a.fa" "$tmp/b.fa" > "$tmp/alone_cuda" 2> "$tmp/alone_err"; rc_alone=$?
printf 'sw --quiet --backend cuda %s %s\nsw --quiet %s %s\n' "$tmp/a.fa" "$tmp/b.fa" "$tmp/a.fa" "$tmp/b.fa" > "$tmp/cudajobs.tsv"
"$pw" batch --quiet "$tmp/cudajobs.tsv" > "$tmp/out" 2> "$tmp/err"; rc=$?
if [ $rc_alone = 0 ]; then
  [ $rc = 0 ] && [ "$(head -n "$(wc -l < "$tmp/alone_cuda")" "$tmp/out")" = "$(cat "$tmp/alone_cuda")" ] && ok ||
    bad "batch line with --backend cuda on a GPU: rc=$rc $(head -3 "$tmp/out" "$tmp/err")"
else
  [ $rc = $rc_alone ] && grep -qxF "$(cat "$tmp/alone_err")" "$tmp/err" && grep -q "^score: 14$" "$tmp/out" && ok ||
    bad "batch line with --backend cuda and no GPU: rc=$rc (alone $rc_alone) '$(cat "$tmp/err")' vs '$(cat "$tmp/alone_err")'"
fi
# Arrays to stdout from several lines (`-o -`): stdout holds those arrays alone, back to back in the
# file's order (each as `sat -o` writes it), and every job header, report and the summary go to
# stderr, the first line's header too (before a fix it went to stdout ahead of the first array)
"$pw" sat --quiet "$ex/rings.pgm" -o "$tmp/rings_sat.npy" > /dev/null
"$pw" heat --quiet --size 5x7 --sweeps 2 -o "$tmp/heat57.npy" > /dev/null
printf 'sat %s -o -\nheat --size 5x7 --sweeps 2 -o %s\nheat --size 5x7 --sweeps 2 -o -\n' "$ex/rings.pgm" "$tmp/heatfile.npy" > "$tmp/streamjobs.tsv"
"$pw" batch "$tmp/streamjobs.tsv" > "$tmp/stream.bin" 2> "$tmp/err"; rc=$?
cat "$tmp/rings_sat.npy" "$tmp/heat57.npy" > "$tmp/stream_want.bin"
[ $rc = 0 ] && cmp -s "$tmp/stream.bin" "$tmp/stream_want.bin" && [ "$(grep -c '^# job ' "$tmp/err")" = 3 ] &&
  grep -q '^# batch: 3 jobs, 0 failed' "$tmp/err" && cmp -s "$tmp/heatfile.npy" "$tmp/heat57.npy" && ok ||
  bad "batch with -o - lines: rc=$rc, stdout not the two arrays alone ($(head -c 60 "$tmp/stream.bin" | tr -c '[:print:]' .)) or stderr: $(head -3 "$tmp/err")"
# A job that cannot write its output (no such folder) is counted as failed in the summary
printf 'sat %s -o %s\nsat --quiet %s\n' "$ex/rings.pgm" "$tmp/no-such-dir/x.npy" "$ex/rings.pgm" > "$tmp/writefail.tsv"
"$pw" batch "$tmp/writefail.tsv" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q '^# batch: 2 jobs, 1 failed' "$tmp/out" && grep -q "no-such-dir/x.npy" "$tmp/err" && ok ||
  bad "batch with an output it cannot write: rc=$rc $(grep '^# batch' "$tmp/out") $(cat "$tmp/err")"
# --mpi (or --gpus) on a line: the queue would ignore it; refused, the line named, nothing runs
for o in --mpi "--gpus 1"; do
  printf 'sat %s -o %s\nsw %s --quiet %s %s\n' "$ex/rings.pgm" "$tmp/never.npy" "$o" "$tmp/a.fa" "$tmp/b.fa" > "$tmp/badjobs.tsv"
  expect 2 batch "$tmp/badjobs.tsv"
  grep -q "sw: ${o%% *} does not apply to a line of peerwave batch" "$tmp/err" &&
    grep -q "badjobs.tsv:2: this job did not pass its checks" "$tmp/err" && [ ! -e "$tmp/never.npy" ] && [ ! -s "$tmp/out" ] &&
    ok || bad "batch line with $o: $(cat "$tmp/out" "$tmp/err")"
done
# two lines writing one file (-o and --output=, other commands): refused naming both lines, nothing runs
printf 'sat %s -o %s\nsw --quiet %s %s\ninthist %s --bins 3 --output=%s\n' "$ex/rings.pgm" "$tmp/same.npy" \
  "$tmp/a.fa" "$tmp/b.fa" "$ex/rings.pgm" "$tmp/same.npy" > "$tmp/badjobs.tsv"
expect 2 batch "$tmp/badjobs.tsv"
grep -q "badjobs.tsv:3: --output $tmp/same.npy: line 1 writes that file too" "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ] &&
  [ ! -e "$tmp/same.npy" ] && [ ! -s "$tmp/out" ] && ok || bad "batch, one output file twice: $(cat "$tmp/out" "$tmp/err")"
# ... spelled differently (./, an absolute path): one file all the same
mkdir -p "$tmp/sub"
printf 'sat %s -o %s\nsat %s -o %s\n' "$ex/rings.pgm" "$tmp/sub/../same2.npy" "$ex/rings.pgm" "$tmp/./same2.npy" > "$tmp/badjobs.tsv"
expect 2 batch "$tmp/badjobs.tsv"
grep -q "line 1 writes that file too" "$tmp/err" && [ ! -e "$tmp/same2.npy" ] && ok || bad "batch, one file in two spellings: $(cat "$tmp/err")"
# a line ending in a backslash (no continuation lines): refused, not read as a word '\'
printf 'sat %s -o %s \\\n' "$ex/rings.pgm" "$tmp/never.npy" > "$tmp/badjobs.tsv"
expect 2 batch "$tmp/badjobs.tsv"
grep -q "ends with" "$tmp/err" && ok || bad "batch line ending in a backslash: $(cat "$tmp/err")"
# (a repeated option's last value is the file: no clash here)
printf 'sat --quiet %s -o %s -o %s\nsat --quiet %s -o %s\n' "$ex/rings.pgm" "$tmp/x1.npy" "$tmp/x2.npy" "$ex/rings.pgm" \
  "$tmp/x1.npy" > "$tmp/okjobs.tsv"
"$pw" batch --quiet "$tmp/okjobs.tsv" > /dev/null 2> "$tmp/err" && [ -e "$tmp/x1.npy" ] && [ -e "$tmp/x2.npy" ] && ok ||
  bad "batch, -o given twice on a line: $(cat "$tmp/err")"

# ---- peerwave bfs: breadth-first levels on the task engine (issue 31) ----
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n%% a path 1-2-3-4, vertex 5 alone\n5 5 3\n2 1\n3 2\n4 3\n' > "$tmp/g.mtx"
for engine in tasks central sequential; do
  out=$("$pw" bfs "$tmp/g.mtx" --source 1 --engine $engine --check -o "$tmp/lv.npy" 2>&1)
  [ "$(echo "$out" | field reached)" = 4 ] && [ "$(echo "$out" | field depth)" = 3 ] && [ "$(echo "$out" | field check)" = ok ] &&
    ok || bad "bfs --engine $engine: $out"
done
# the levels file: int32, -1 for the vertex no path reaches (checked by hand: 0 1 2 3 -1)
od -An -t d4 -j 128 "$tmp/lv.npy" | tr -s ' \n' ' ' | grep -q '^ *0 1 2 3 -1 *$' && ok || bad "bfs levels: $(od -An -t d4 -j 128 "$tmp/lv.npy")"
# a .mtx file without its banner: refused (read as an edge list, its size line was an edge)
printf '%% no banner\n3 3 2\n1 2\n2 3\n' > "$tmp/nb.mtx"
expect 1 bfs "$tmp/nb.mtx"
grep -q "a .mtx file starts with its banner" "$tmp/err" && ok || bad "bfs .mtx without a banner: $(cat "$tmp/err")"
printf '0 1\n1 2\n2 0\n3 3\n' > "$tmp/g.txt"
out=$("$pw" bfs "$tmp/g.txt" --source 2 --threads 3 --quiet)
[ "$out" = "$(printf 'reached: 3\ndepth: 2\nedges: 3')" ] && ok || bad "bfs edge list: $out"
if command -v gzip > /dev/null; then # (a gzip-compressed graph, as every reader takes: it was "not text")
  gzip -c "$tmp/g.txt" > "$tmp/g.txt.gz"
  out=$("$pw" bfs "$tmp/g.txt.gz" --source 2 --quiet 2>&1)
  [ "$out" = "$(printf 'reached: 3\ndepth: 2\nedges: 3')" ] && ok || bad "bfs of a gzip edge list: $out"
fi
printf 'c x\np sp 3 2\na 1 2 5\na 2 3 5\n' > "$tmp/g.gr"
out=$("$pw" bfs "$tmp/g.gr" --source 3 --undirected --quiet | head -2 | tr '\n' ' ')
[ "$out" = "reached: 3 depth: 2 " ] && ok || bad "bfs dimacs undirected: $out"
# a colouring file's edges (p edge, e u v) are undirected: both ways without --undirected; a
# shortest-path file's arcs one way
printf 'c x\np edge 3 2\ne 1 2\ne 2 3\n' > "$tmp/col.gr"
out=$("$pw" bfs "$tmp/col.gr" --source 3 --quiet | head -2 | tr '\n' ' ')
[ "$out" = "reached: 3 depth: 2 " ] && ok || bad "bfs of a colouring file from its last vertex: $out"
out=$("$pw" bfs "$tmp/g.gr" --source 3 --quiet | head -1)
[ "$out" = "reached: 1" ] && ok || bad "bfs of arcs, directed: $out"
expect 2 bfs "$tmp/g.mtx" --source 6
expect 2 bfs "$tmp/g.mtx" --source 0
expect 2 bfs "$tmp/g.mtx" --engine fast
expect 2 bfs
printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 3\n' > "$tmp/bad.mtx"
expect 1 bfs "$tmp/bad.mtx"
grep -q "bad.mtx: line 3" "$tmp/err" && ok || bad "bfs bad line: $(cat "$tmp/err")"
# a matrix that is not square is no graph's adjacency matrix: refused with its sizes
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 4\n' > "$tmp/rect.mtx"
expect 1 bfs "$tmp/rect.mtx"
grep -q "rect.mtx: line 2: a 3 x 4 matrix" "$tmp/err" && ok || bad "bfs non-square .mtx: $(cat "$tmp/err")"
# an edge list's further fields (weights) are ignored, as documented: levels count edges (0 -> 2 is
# one edge, whatever its weight against 0 -> 1 -> 2)
printf '0 1 1\n1 2 1\n0 2 9\n' > "$tmp/gw.txt"
out=$("$pw" bfs "$tmp/gw.txt" --source 0 --quiet | head -2 | tr '\n' ' ')
[ "$out" = "reached: 3 depth: 1 " ] && ok || bad "bfs weighted edge list: $out"
expect 1 bfs "$tmp/missing.mtx"
# the GPU's engines: on a GPU the same levels; without one (or without CUDA) a one-line error
for engine in tasks central levels; do
  "$pw" bfs "$tmp/g.mtx" --source 1 --engine $engine --backend cuda --check > "$tmp/out" 2> "$tmp/err"; rc=$?
  if [ $rc = 0 ]; then
    [ "$(field reached < "$tmp/out")" = 4 ] && [ "$(field check < "$tmp/out")" = ok ] && ok || bad "bfs --engine $engine on the GPU: $(cat "$tmp/out")"
  else
    { [ $rc = 1 ] || [ $rc = 2 ]; } && [ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "bfs --backend cuda without a GPU: exit $rc, '$(cat "$tmp/err")'"
  fi
done
expect 2 bfs "$tmp/g.mtx" --engine levels --backend cpu
grep -q "GPU baseline" "$tmp/err" && ok || bad "bfs --engine levels on the CPU: $(cat "$tmp/err")"
# --strategy tasks: every app's wavefront as a tile graph, the same results
ref=$("$pw" sw --strategy sequential --quiet "$ex/query.fa" "$ex/target.fa")
got=$("$pw" sw --strategy tasks --tile-h 9 --tile-w 17 --quiet "$ex/query.fa" "$ex/target.fa")
[ "$got" = "$ref" ] && ok || bad "sw --strategy tasks: '$got' vs '$ref'"
PEERWAVE_TASK_QUEUES=central "$pw" heat --size 100x90 --sweeps 3 --strategy tasks --check --quiet > /dev/null 2>&1 && ok ||
  bad "heat --strategy tasks (central queue) --check"

# --gpus / --devices: more GPUs than any machine here has (or a build without CUDA) is a clear
# error, never a hang; a device twice is a usage error
"$pw" sw --gpus 16 --quiet "$ex/query.fa" "$ex/target.fa" > /dev/null 2> "$tmp/err"
[ $? -ne 0 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "sw --gpus 16: $(head -2 "$tmp/err")"
expect 2 sw --devices 0,0 "$ex/query.fa" "$ex/target.fa"
expect 2 sw --devices 0,x "$ex/query.fa" "$ex/target.fa"
# --bands-per-gpu: only with --gpus/--devices, at most 64 bands in all
expect 2 sw --bands-per-gpu 2 "$ex/query.fa" "$ex/target.fa"
expect 2 sw --gpus 8 --bands-per-gpu 9 "$ex/query.fa" "$ex/target.fa"
expect 2 sw --gpus 2 --bands-per-gpu 0 "$ex/query.fa" "$ex/target.fa"
# --balance: only where there are bands to size (--mpi, --gpus, --devices)
expect 2 sw --balance "$ex/query.fa" "$ex/target.fa"
grep -q "balance goes with --mpi, --gpus or --devices" "$tmp/err" && ok || bad "--balance alone: $(cat "$tmp/err")"

# --mpi: the same run as bands of columns over mpirun's ranks, every result equal to one process's
# (when this build has MPI and mpirun is there; else --mpi is a clear error)
if "$pw" --version 2>/dev/null | grep -q "no MPI" || ! command -v mpirun > /dev/null; then
  expect 2 sw --mpi "$ex/query.fa" "$ex/target.fa"
else
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  ref=$("$pw" sw --quiet "$ex/query.fa" "$ex/target.fa")
  got=$(mpirun -np 2 "$pw" sw --mpi --quiet "$ex/query.fa" "$ex/target.fa" 2> "$tmp/err")
  [ "$got" = "$ref" ] && ok || bad "sw --mpi -np 2: '$got' vs '$ref' ($(cat "$tmp/err"))"
  got=$(mpirun -np 3 "$pw" sw --mpi --balance --quiet "$ex/query.fa" "$ex/target.fa" 2> "$tmp/err")
  [ "$got" = "$ref" ] && ok || bad "sw --mpi --balance -np 3: '$got' vs '$ref' ($(cat "$tmp/err"))"
  { printf 'P5\n97 61\n255\n'; head -c $((97 * 61)) /dev/urandom; } > "$tmp/mpi.pgm"
  "$pw" sat "$tmp/mpi.pgm" -o "$tmp/sat1.npy" --quiet > /dev/null
  # a warning about the inputs (every rank reads them) comes once, from rank 0 (once a rank before)
  printf '>p\nMKVLAAGIQRSTNDEFHWYKVLAAGIQRSTNDEFHWY\n' > "$tmp/prot.fa"
  mpirun -np 3 "$pw" sw --mpi --quiet "$tmp/prot.fa" "$tmp/prot.fa" > /dev/null 2> "$tmp/err"
  [ "$(grep -c 'warning: .*no nucleotide code' "$tmp/err")" = 1 ] && ok || bad "sw --mpi protein warning: $(cat "$tmp/err")"
  # B shorter than the ranks: refused with what to do (one process would transpose the pair)
  printf '>l\nACGTACGTAC\n' > "$tmp/long.fa"; printf '>s\nAC\n' > "$tmp/short.fa"
  mpirun -np 3 "$pw" sw --mpi --quiet "$tmp/long.fa" "$tmp/short.fa" > /dev/null 2> "$tmp/err"
  grep -q "^peerwave: .*2 columns cannot be split into 3 bands.*longer sequence second" "$tmp/err" && ok ||
    bad "sw --mpi with B shorter than the ranks: $(cat "$tmp/err")"
  # ... once: the failure the ranks agreed on is told by rank 0 (and the rank it came from), not by each
  [ "$(grep -c "cannot be split into" "$tmp/err")" = 1 ] && ok || bad "sw --mpi, one failure told $(grep -c "cannot be split into" "$tmp/err") times"
  # an image narrower than the ranks: the split's reason (the empty band's check said "an image of 3 x 0")
  { printf 'P5\n2 3\n255\n'; printf 'abcdef'; } > "$tmp/narrow.pgm"
  for c in sat inthist; do
    timeout 60 mpirun -np 3 "$pw" $c "$tmp/narrow.pgm" --mpi --quiet > /dev/null 2> "$tmp/err"
    grep -q "^peerwave: .*2 columns cannot be split into 3 bands" "$tmp/err" && ok || bad "$c --mpi, 2 columns on 3 ranks: $(cat "$tmp/err")"
  done
  # --trace: each rank draws its band, rank 1 into FILE.rank1.svg (all ranks wrote FILE before)
  mpirun -np 2 "$pw" sw --mpi --quiet --trace "$tmp/mt.svg" "$ex/query.fa" "$ex/target.fa" > /dev/null 2> "$tmp/err"
  grep -q '<svg' "$tmp/mt.svg" && grep -q '<svg' "$tmp/mt.rank1.svg" && ok || bad "sw --mpi --trace: $(ls "$tmp"/mt*) $(cat "$tmp/err")"
  cat "$tmp/mpi.pgm" "$tmp/mpi.pgm" > "$tmp/mpi_two.pgm"
  mpirun -np 2 "$pw" sat "$tmp/mpi_two.pgm" -o "$tmp/sat_two.npy" --mpi --quiet > /dev/null 2> "$tmp/err"
  [ "$(grep -c 'warning' "$tmp/err")" = 1 ] && cmp -s "$tmp/sat1.npy" "$tmp/sat_two.npy" && ok ||
    bad "sat --mpi of a two-image PGM: one warning, the first image's table: $(cat "$tmp/err")"
  mpirun -np 3 "$pw" sat "$tmp/mpi.pgm" -o "$tmp/sat3.npy" --mpi --quiet > /dev/null 2>&1 && cmp -s "$tmp/sat1.npy" "$tmp/sat3.npy" &&
    ok || bad "sat --mpi -np 3 -o: not the single-process table"
  mpirun -np 3 "$pw" heat --size 40x53 --sweeps 4 --mpi --check --quiet > /dev/null 2>&1 && ok || bad "heat --mpi --check"
  # a user cell (linear form) as bands over the ranks (pw_dist_cell_run)
  cell_ref=$("$pw" run --quiet "$ex/cells/levenshtein.c" --input a="$ex/query.fa" --input b="$ex/target.fa" 2>&1)
  cell_got=$(mpirun -np 3 "$pw" run --mpi --quiet --check "$ex/cells/levenshtein.c" --input a="$ex/query.fa" --input b="$ex/target.fa" 2> "$tmp/err")
  [ "$cell_got" = "$(printf '%s\ncheck: ok' "$cell_ref")" ] && ok || bad "run --mpi -np 3: '$cell_got' vs '$cell_ref' ($(cat "$tmp/err"))"
  # a stencil cell and its twin in the grid form (dependences (1, 0) and (0, 1), halo 1: the
  # halo columns carry what it reads) over 3 ranks, from a grid the sweeps change
  "$pw" heat --size 40x53 --sweeps 1 -o "$tmp/cg0.npy" --quiet > /dev/null
  for cell in heat heat_grid; do
    "$pw" run --quiet "$ex/cells/$cell.c" --grid "$tmp/cg0.npy" --sweeps 3 -o "$tmp/$cell.1.npy" > /dev/null 2>&1
    mpirun -np 3 "$pw" run --mpi --quiet "$ex/cells/$cell.c" --grid "$tmp/cg0.npy" --sweeps 3 -o "$tmp/$cell.3.npy" > /dev/null 2> "$tmp/err" &&
      ! cmp -s "$tmp/cg0.npy" "$tmp/$cell.1.npy" && cmp -s "$tmp/$cell.1.npy" "$tmp/$cell.3.npy" && ok ||
      bad "run --mpi of $cell.c: not the single-process grid ($(head -2 "$tmp/err"))"
  done
  cmp -s "$tmp/heat.3.npy" "$tmp/heat_grid.3.npy" && ok || bad "run --mpi: heat_grid.c's bands differ from heat.c's"
  # a grid cell with a dependence (1, -1) (a band would read its right neighbour's values of the
  # same sweep): refused on every rank, with the reason (told by rank 0 alone, the ranks agreeing)
  sed 's/^PW_DEP(0, 1).*/PW_DEP(0, 1)\nPW_DEP(1, -1)/' "$ex/cells/heat_grid.c" > "$tmp/diag_grid.c"
  timeout 60 mpirun -np 2 "$pw" run --mpi "$tmp/diag_grid.c" --size 20x30 --sweeps 2 > /dev/null 2> "$tmp/err"
  rc=$?; [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(grep -c "^peerwave: .*PW_DEP(1, -1) reads" "$tmp/err")" -eq 1 ] &&
    [ "$(grep -c "PW_DEP(1, -1) reads" "$tmp/err")" -eq 1 ] && ok ||
    bad "run --mpi of a (1, -1) grid cell: rc=$rc $(head -2 "$tmp/err")"
  # ... which one rank runs (one band: the whole grid, no neighbour), as one process does
  "$pw" run "$tmp/diag_grid.c" --size 20x30 --sweeps 2 -o "$tmp/diag1.npy" --quiet > /dev/null 2>&1
  timeout 60 mpirun -np 1 "$pw" run --mpi "$tmp/diag_grid.c" --size 20x30 --sweeps 2 -o "$tmp/diag1m.npy" --quiet > /dev/null 2> "$tmp/err" &&
    cmp -s "$tmp/diag1.npy" "$tmp/diag1m.npy" && ok || bad "run --mpi -np 1 of a (1, -1) grid cell: $(head -2 "$tmp/err")"
  # a cell that reads (i, j-2) without declaring it: its bands hand over one column, and --check
  # says the result differs (not "(success)": the reference's own status)
  printf 'PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(0, 1)\nPW_DEP(1, 0)\nPW_HALO(2)\nPW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n{ return (pw_at(c, i, j - 2) * 3 + pw_at(c, i, j - 1) + pw_at(c, i - 1, j) + i + j + 1) %% 1000003; }\n' > "$tmp/undeclared.c"
  timeout 60 mpirun -np 2 "$pw" run --mpi "$tmp/undeclared.c" --size 6x10 --sweeps 2 --check --quiet > /dev/null 2> "$tmp/err"
  rc=$?; [ $rc = 1 ] && grep -q "check FAILED: the sequential reference differs$" "$tmp/err" && ok ||
    bad "run --mpi --check of an undeclared read: rc=$rc $(head -2 "$tmp/err")"
  # ... and one with (1, 1) (it reads (i-1, j-1) of this sweep and (i+1, j+1) of the last): its
  # bands hand that on, sweeps one after another, equal to one process's grid
  sed -e 's/^PW_DEP(0, 1).*/PW_DEP(0, 1)\nPW_DEP(1, 1)/' \
      -e 's|return (((down + right) + left) + up) / 4.0f;|return ((((down + right) + left) + up) + 0.5f * (pw_at(c, i - 1, j - 1) - pw_at(c, i + 1, j + 1))) / 4.0f;|' \
      "$ex/cells/heat_grid.c" > "$tmp/diag11_grid.c"
  "$pw" run --quiet "$tmp/diag11_grid.c" --grid "$tmp/cg0.npy" --sweeps 3 -o "$tmp/d11.1.npy" > /dev/null 2>&1
  mpirun -np 3 "$pw" run --mpi --quiet "$tmp/diag11_grid.c" --grid "$tmp/cg0.npy" --sweeps 3 -o "$tmp/d11.3.npy" > /dev/null 2> "$tmp/err" &&
    ! cmp -s "$tmp/heat_grid.1.npy" "$tmp/d11.1.npy" && cmp -s "$tmp/d11.1.npy" "$tmp/d11.3.npy" && ok ||
    bad "run --mpi of a (1, 1) grid cell: not the single-process grid ($(head -2 "$tmp/err"))"
  # grid3 cells in bands of j slabs: seed 004's LU-like sweep from a zero grid, then its
  # demonstrator from that grid, over 2 and 3 ranks, equal to one process's
  lu="--param iterations=3 --param modulus=100 --param tc=0.5 --param td=1 --param nc=0.25 --param nd=2"
  lu="$lu --param wc=0.75 --param wd=3 --param rc=0.5 --param rd=1"
  "$pw" run --quiet "$ex/cells/lu_like.c" --size 14x13x6 $lu --sweeps 2 -o "$tmp/lu.1.npy" > /dev/null 2>&1
  mpirun -np 2 "$pw" run --mpi --quiet "$ex/cells/lu_like.c" --size 14x13x6 $lu --sweeps 2 -o "$tmp/lu.2.npy" > /dev/null 2> "$tmp/err" &&
    cmp -s "$tmp/lu.1.npy" "$tmp/lu.2.npy" && ok || bad "run --mpi -np 2 of lu_like.c: not the single-process grid ($(head -2 "$tmp/err"))"
  "$pw" run --quiet "$ex/cells/demonstrator3d.c" --grid "$tmp/lu.1.npy" --param modulus=100 --sweeps 3 -o "$tmp/d3.1.npy" > /dev/null 2>&1
  mpirun -np 3 "$pw" run --mpi --quiet "$ex/cells/demonstrator3d.c" --grid "$tmp/lu.1.npy" --param modulus=100 --sweeps 3 \
    -o "$tmp/d3.3.npy" > /dev/null 2> "$tmp/err" && ! cmp -s "$tmp/lu.1.npy" "$tmp/d3.1.npy" && cmp -s "$tmp/d3.1.npy" "$tmp/d3.3.npy" &&
    ok || bad "run --mpi -np 3 of demonstrator3d.c: not the single-process grid ($(head -2 "$tmp/err"))"
  # .npy in and out: each rank reads and writes only its band of columns (cli/cli_bands.c)
  "$pw" heat --size 40x53 --sweeps 1 -o "$tmp/g0.npy" --quiet > /dev/null
  "$pw" heat --init "$tmp/g0.npy" --sweeps 4 -o "$tmp/g1.npy" --quiet > /dev/null
  mpirun -np 3 "$pw" heat --init "$tmp/g0.npy" --sweeps 4 -o "$tmp/g3.npy" --mpi --quiet > /dev/null 2>&1 &&
    cmp -s "$tmp/g1.npy" "$tmp/g3.npy" && ok || bad "heat --mpi with band files: not the single-process grid"
  # --init G -o G: one process advances the state in place (written whole, then renamed); under
  # --mpi the ranks would read their bands of a file being rewritten: refused
  cp "$tmp/g0.npy" "$tmp/g_inplace.npy"
  "$pw" heat --init "$tmp/g_inplace.npy" --sweeps 4 -o "$tmp/g_inplace.npy" --quiet > /dev/null &&
    cmp -s "$tmp/g1.npy" "$tmp/g_inplace.npy" && ok || bad "heat --init G -o G in one process"
  timeout 60 mpirun -np 2 "$pw" heat --init "$tmp/g0.npy" --sweeps 4 -o "$tmp/../$(basename "$tmp")/g0.npy" --mpi --quiet > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "under --mpi it would be rewritten" "$tmp/err" && ok ||
    bad "heat --mpi --init G -o G: rc $rc $(head -2 "$tmp/err")"
  "$pw" sat "$tmp/sat1.npy" -o "$tmp/ss1.npy" --quiet > /dev/null
  mpirun -np 2 "$pw" sat "$tmp/sat1.npy" -o "$tmp/ss2.npy" --mpi --quiet > /dev/null 2>&1 &&
    cmp -s "$tmp/ss1.npy" "$tmp/ss2.npy" && ok || bad "sat --mpi with band files: not the single-process table"
  # float values the bands cannot sum are refused as one process refuses them (a band run wrote
  # tables of NaN and infinities and exited 0): an infinity (row 2, column 3: the second rank's
  # band), then sums past f32 (3e38 twice)
  for v in '$v[13] = 9**9**9' '$v[13] = $v[6] = 3e38'; do
    perl -e '$h = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (4, 5), }";
      $h .= " " x (64 - 10 - length($h) - 1) . "\n"; my @v = (1) x 20; '"$v"';
      print "\x93NUMPY\x01\x00" . pack("v", length($h)) . $h . pack("f<20", @v)' > "$tmp/bad_f32.npy"
    timeout 60 mpirun -np 2 "$pw" sat "$tmp/bad_f32.npy" -o "$tmp/bad_sat.npy" --mpi --quiet > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -Eq "row 2, column 3 is NaN or infinite|could pass f32.s range" "$tmp/err" &&
      ok || bad "sat --mpi with band files, $v: rc $rc, $(head -2 "$tmp/err")"
  done
  # numpy's default int64 within int32 through band files (refused before), as one process takes it
  perl -e '$h = "{\x27descr\x27: \x27<i8\x27, \x27fortran_order\x27: False, \x27shape\x27: (4, 5), }";
    $h .= " " x (64 - 10 - length($h) - 1) . "\n"; print "\x93NUMPY\x01\x00" . pack("v", length($h)) . $h . pack("q<20", 0 .. 19)' > "$tmp/i64.npy"
  "$pw" sat "$tmp/i64.npy" -o "$tmp/i64_1.npy" --quiet > /dev/null &&
    mpirun -np 2 "$pw" sat "$tmp/i64.npy" -o "$tmp/i64_2.npy" --mpi --quiet > /dev/null 2> "$tmp/err" &&
    cmp -s "$tmp/i64_1.npy" "$tmp/i64_2.npy" && ok || bad "sat --mpi of int64 with band files: $(head -2 "$tmp/err")"
  # a NaN in a grid is named by its cell in the whole grid, not in a rank's band
  perl -e '$h = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (6, 9), }";
    $h .= " " x (64 - 10 - length($h) - 1) . "\n"; my @v = (1) x 54; $v[4 * 9 + 7] = 9**9**9 / 9**9**9;
    print "\x93NUMPY\x01\x00" . pack("v", length($h)) . $h . pack("f<54", @v)' > "$tmp/nan_grid.npy"
  timeout 60 mpirun -np 3 "$pw" heat --init "$tmp/nan_grid.npy" --mpi --quiet > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "NaN or infinite value at (4, 7)" "$tmp/err" && ! grep -q "value at (4, [0-6])" "$tmp/err" &&
    ok || bad "heat --mpi, a NaN's cell: rc $rc, $(grep -m2 NaN "$tmp/err")"
  mpirun -np 2 "$pw" sat "$tmp/missing.npy" -o "$tmp/x.npy" --mpi --quiet > /dev/null 2>&1
  [ $? -ne 0 ] && ok || bad "sat --mpi of a missing file succeeded"
  # ranks started with different arguments: every rank says so, none hangs
  timeout 60 mpirun -np 1 "$pw" sw --mpi --quiet "$ex/query.fa" "$ex/target.fa" : \
    -np 1 "$pw" sw --mpi --quiet "$ex/target.fa" "$ex/query.fa" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "other arguments" "$tmp/err" && ok || bad "--mpi with other arguments: $(head -3 "$tmp/err")"
  # different commands, with band-written outputs (their first collectives differ): refused at once
  timeout 60 mpirun -np 1 "$pw" sat "$tmp/sat1.npy" -o "$tmp/d1.npy" --mpi --quiet : \
    -np 1 "$pw" heat --init "$tmp/g0.npy" -o "$tmp/d2.npy" --mpi --quiet > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "other arguments" "$tmp/err" && ok || bad "--mpi, two commands: rc $rc, $(head -3 "$tmp/err")"
  # the same command, but one rank cannot read its input (a file on one host only): every rank
  # ends with the reason, none waits in the run's first collective
  mkdir -p "$tmp/r0" "$tmp/r1" && cp "$ex/query.fa" "$tmp/r0/q.fa" && cp "$ex/target.fa" "$tmp/t.fa"
  pw_abs=$(cd "$(dirname "$pw")" && pwd)/$(basename "$pw")
  timeout 60 mpirun -np 1 sh -c "cd '$tmp/r0' && '$pw_abs' sw --mpi --quiet q.fa '$tmp/t.fa'" : \
    -np 1 sh -c "cd '$tmp/r1' && '$pw_abs' sw --mpi --quiet q.fa '$tmp/t.fa'" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "q.fa: No such file" "$tmp/err" && grep -q "rank 1 failed" "$tmp/err" && ok ||
    bad "--mpi, an input missing on one rank: rc $rc, $(head -3 "$tmp/err")"
  # a rank started without --mpi (it runs alone and ends): the --mpi rank ends after its watchdog
  # with the reason, instead of waiting in MPI's start for ever (or mpirun ends the job first,
  # seeing a process end that never started MPI: either way, no hang)
  timeout 60 mpirun -np 1 "$pw" sw --mpi --watchdog-ms 2000 --quiet "$ex/query.fa" "$ex/target.fa" : \
    -np 1 "$pw" sw --quiet "$ex/query.fa" "$ex/target.fa" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -Eq "did not all start within 2 s|exiting improperly" "$tmp/err" && ok ||
    bad "--mpi beside a rank without it: rc $rc, $(head -3 "$tmp/err")"
  # one file name with other contents on each rank (a file on each host): every rank refuses, none
  # mixes its band with the others' (the table was rank 0's left half and rank 1's right half)
  printf 'P2\n4 2\n255\n1 2 3 4\n5 6 7 8\n' > "$tmp/r0/x.pgm" && printf 'P2\n4 2\n255\n1 2 3 4\n5 6 7 9\n' > "$tmp/r1/x.pgm"
  timeout 60 mpirun -np 1 sh -c "cd '$tmp/r0' && '$pw_abs' sat --mpi --quiet x.pgm" : \
    -np 1 sh -c "cd '$tmp/r1' && '$pw_abs' sat --mpi --quiet x.pgm" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "other input values" "$tmp/err" && ! grep -q "^total" "$tmp/out" && ok ||
    bad "--mpi, one input name with other contents: rc $rc, $(head -3 "$tmp/out" "$tmp/err")"
  # --progress under mpirun: rank 0 alone shows it (every rank printed its own unlabelled lines)
  PEERWAVE_PROGRESS_AFTER_MS=0 PEERWAVE_PROGRESS_EVERY_MS=50 timeout 60 mpirun -np 2 "$pw" heat --size 1200x1200 --sweeps 40 \
    --mpi --progress > /dev/null 2> "$tmp/err"
  [ "$(grep -c 'heat: done after' "$tmp/err")" = 1 ] && ok || bad "--mpi --progress: $(grep -c 'done after' "$tmp/err") final lines"
  # .npy bands: one file name with another width on each rank (each rank reads only its band's
  # columns): refused on every rank, nothing written (a mixed table was written, exit 0)
  "$pw" sat --quiet "$tmp/r0/x.pgm" -o "$tmp/r0/w.npy" > /dev/null 2>&1
  printf 'P2\n5 2\n255\n1 2 3 4 5\n5 6 7 8 9\n' > "$tmp/r1/x5.pgm" && "$pw" sat --quiet "$tmp/r1/x5.pgm" -o "$tmp/r1/w.npy" > /dev/null 2>&1
  timeout 60 mpirun -np 1 sh -c "cd '$tmp/r0' && '$pw_abs' sat --mpi --quiet w.npy -o '$tmp/wout.npy'" : \
    -np 1 sh -c "cd '$tmp/r1' && '$pw_abs' sat --mpi --quiet w.npy -o '$tmp/wout.npy'" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "rank 1's file is a 2x5 i32 array, rank 0's a 2x4 i32" "$tmp/err" &&
    [ ! -e "$tmp/wout.npy" ] && ok || bad "--mpi, .npy bands of other widths: rc $rc, $(head -3 "$tmp/err")"
  # ranks on devices of two models (PEERWAVE_DEBUG_DEVICE_MODEL stands in for the GPUs): with equal
  # bands every rank fails (rank 0 says so: every rank finds the mismatch alike) and none hangs;
  # bands cut by measured speed (--balance) run
  timeout 60 mpirun -np 1 env PEERWAVE_DEBUG_DEVICE_MODEL=gpu-a "$pw" sw --mpi --quiet "$ex/query.fa" "$ex/target.fa" : \
    -np 1 env PEERWAVE_DEBUG_DEVICE_MODEL=gpu-b "$pw" sw --mpi --quiet "$ex/query.fa" "$ex/target.fa" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(grep -c "rank 1 runs on gpu-b, rank 0 on gpu-a" "$tmp/err")" = 1 ] && ok ||
    bad "--mpi on mixed device models: rc $rc, $(head -3 "$tmp/err")"
  got=$(timeout 60 mpirun -np 1 env PEERWAVE_DEBUG_DEVICE_MODEL=gpu-a "$pw" sw --mpi --balance --quiet "$ex/query.fa" "$ex/target.fa" : \
    -np 1 env PEERWAVE_DEBUG_DEVICE_MODEL=gpu-b "$pw" sw --mpi --balance --quiet "$ex/query.fa" "$ex/target.fa" 2> "$tmp/err")
  [ "$got" = "$ref" ] && ok || bad "--mpi --balance on mixed device models: '$got' vs '$ref' ($(head -3 "$tmp/err"))"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
