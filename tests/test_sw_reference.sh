#!/usr/bin/env bash
# test_sw_reference.sh - bench/sw_reference.cu (SW by one launch per anti-diagonal, the independent
# check of the GPU's largest runs) gives `peerwave sw --backend cpu`'s score and end cells, through
# its host path (--cpu: the same per-diagonal function, no GPU needed): random DNA pairs (N and
# lower-case letters among them, identical pairs), random scores and gaps, and the bundled example.
#   test_sw_reference.sh PEERWAVE SW_REFERENCE EXAMPLES_DIR
set -u
pw=$1 ref=$2 ex=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 cases=0
compare() { # ARGS... A.fa B.fa
  local want got
  want=$("$pw" sw --backend cpu "$@" 2>&1 | grep -E '^(score|end_a|end_b):' | tr '\n' ' ')
  got=$("$ref" --cpu "$@" 2>&1 | grep -E '^(score|end_a|end_b):' | tr '\n' ' ')
  cases=$((cases + 1))
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    fails=$((fails + 1))
    echo "FAIL: $*: peerwave '$want', reference '$got'"
  fi
}
for t in $(seq 1 30); do
  awk -v s=$t 'BEGIN { srand(s); n = int(rand() * 700) + 1; print ">a"; for (i = 0; i < n; i++) printf "%s", substr("ACGTNacgtu", int(rand() * 10) + 1, 1); print "" }' > "$tmp/a.fa"
  if [ $((t % 4)) = 0 ]; then cp "$tmp/a.fa" "$tmp/b.fa"; else
    awk -v s=$((t + 500)) 'BEGIN { srand(s); n = int(rand() * 700) + 1; print ">b"; for (i = 0; i < n; i++) printf "%s", substr("ACGTNacgt", int(rand() * 9) + 1, 1); print "" }' > "$tmp/b.fa"
  fi
  set -- $(awk -v s=$((t + 900)) 'BEGIN { srand(s); go = int(rand() * 7); printf "%d %d %d %d", int(rand() * 4) + 1, -int(rand() * 5), go, int(rand() * (go + 1)) }')
  compare --match $1 --mismatch $2 --gap-open $3 --gap-extend $4 "$tmp/a.fa" "$tmp/b.fa"
done
compare "$ex/query.fa" "$ex/target.fa"
compare --match 1 --mismatch -3 --gap-open 5 --gap-extend 2 "$ex/query.fa" "$ex/target.fa"
echo "$((cases - fails)) passed, $fails failed"
[ $fails = 0 ]
