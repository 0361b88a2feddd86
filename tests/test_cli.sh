#!/usr/bin/env bash
# test_cli.sh PEERWAVE EXAMPLES_DIR - run the peerwave binary as a user would: results agree
# across strategies and with the library's sequential reference, and every bad input gives a
# one-line error and the documented exit code (2 usage, 1 data), never a crash.
set -u
pw=$1
ex=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

field() { sed -n "s/^$1: //p"; }

# Same score and end cell on every strategy and tile shape.
ref=$("$pw" sw --strategy sequential --quiet "$ex/query.fa" "$ex/target.fa")
for args in "--strategy peer" "--strategy barrier" "--strategy peer --tile-shape square --tile-h 7 --tile-w 7" \
            "--strategy barrier --tile-h 33 --tile-w 5 --threads 3" "--threads 1"; do
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
expect 2 sw --match x "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --mismatch 3 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --gap-open -1 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --matrix NOPE "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --threads 0 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --tile-w 0 "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --strategy fastest "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --backend cpu --strategy launch "$tmp/a.fa" "$tmp/b.fa"
expect 2 sw --no-such-option "$tmp/a.fa" "$tmp/b.fa"
expect 2 frobnicate
"$pw" --version | grep -q '^peerwave [0-9]' && ok || bad "--version"
"$pw" sw --help | grep -q 'usage: peerwave sw' && ok || bad "sw --help"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
