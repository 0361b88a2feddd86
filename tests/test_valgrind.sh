#!/usr/bin/env bash
# test_valgrind.sh PEERWAVE EXAMPLES - small jobs of every subcommand under valgrind memcheck:
# no invalid access, no uninitialised use, no definite or indirect leak.  SKIP (77) without
# valgrind.
set -u
command -v valgrind > /dev/null || { echo "SKIP: valgrind is not installed"; exit 77; }
pw=$1 ex=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
vg() {
  if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
       "$pw" "$@" --backend cpu > /dev/null 2> "$tmp/vg.log"; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL: valgrind peerwave $*"; head -30 "$tmp/vg.log"; fi
}
vg sw "$ex/query.fa" "$ex/target.fa" --threads 2 --gap-open 5 --gap-extend 2
vg dtw "$ex/walk_a.txt" "$ex/walk_b.csv" --column-b value --check
vg sat "$ex/rings.png" -o "$tmp/sat.npy" --check
vg inthist "$ex/rings.pgm" --bins 4 -o "$tmp/ih.npy"
vg heat --size 64x80 --sweeps 2 -o "$tmp/g.npy"
vg sor --init "$tmp/g.npy" --omega 1.5 --check
# error paths must not leak either (exit 1 from the tool itself is fine; 99 is valgrind's)
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  "$pw" sat "$ex/query.fa" > /dev/null 2> "$tmp/vg.log"
[ $? = 1 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: valgrind on an error path"; cat "$tmp/vg.log"; }
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
