#!/usr/bin/env bash
# tests/gpu/cli_pairs.sh BIN_DIR OUT - `peerwave sw --pairs` through the CLI on the GPU against the
# CPU: 3000 DNA and 2000 protein pairs (BLOSUM62 11/1) of mixed lengths written as FASTA here, the
# TSVs compared byte for byte.  On the device: unpack build-gpu/carry/bins.tar.xz (pack_bins.sh
# peerwave_cli) and run it with LD_LIBRARY_PATH at the unpacked new/.  Ran on an H200 in session
# 19 (2026-11-30): both TSVs equal.
set -u
n=$1; out=$2
python3 - "$out" <<'PY'
import random, sys
out = sys.argv[1]
random.seed(5)
for name, letters, count, lo, hi in (("dna", "ACGT", 3000, 20, 900), ("prot", "ARNDCQEGHILKMFPSTWYV", 2000, 30, 1500)):
    with open(f"{out}/{name}_a.fa", "w") as fa, open(f"{out}/{name}_b.fa", "w") as fb:
        for k in range(count):
            a = "".join(random.choice(letters) for _ in range(random.randint(lo, hi)))
            b = "".join(c if random.random() < 0.7 else random.choice(letters) for c in a[: random.randint(lo, len(a))])
            fa.write(f">a{k}\n{a}\n"); fb.write(f">b{k}\n{b}\n")
PY
for kind in dna prot; do
  extra=""; [ $kind = prot ] && extra="--matrix BLOSUM62 --gap-open 11 --gap-extend 1"
  for be in cuda cpu; do
    $n/peerwave sw --query $out/${kind}_a.fa --db $out/${kind}_b.fa --pairs --backend $be $extra > $out/${kind}_$be.tsv 2> $out/${kind}_$be.err
    echo "$kind $be: rc=$? $(tail -1 $out/${kind}_$be.err)"
  done
  cmp -s $out/${kind}_cuda.tsv $out/${kind}_cpu.tsv && echo "$kind: TSV equal ($(wc -l < $out/${kind}_cpu.tsv) lines)" || echo "$kind: TSV DIFFER"
done
