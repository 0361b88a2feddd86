"""bench/related_pairs.py OUT [--unrelated] [N ...] - related DNA pairs for the alignment benchmarks: OUT/aN.fa,
a random sequence of N letters, and OUT/bN.fa, a copy with 5% substitutions, 0.5% deletions and
0.5% insertions (seed 25: the same files on every machine); with --unrelated also OUT/uaN.fa,
OUT/ubN.fa, two unrelated random sequences of N letters (seed 7), the pair that gives pruning nothing to skip."""
import sys

import numpy as np

out = sys.argv[1]
unrelated = "--unrelated" in sys.argv[2:]
sizes = [int(x) for x in sys.argv[2:] if x != "--unrelated"]
rng = np.random.default_rng(25)
unrelated_rng = np.random.default_rng(7)


def write(name, s):
    with open(f"{out}/{name}.fa", "w") as f:
        f.write(f">{name}\n")
        for k in range(0, len(s), 80): f.write(s[k:k + 80] + "\n")


def mutate(s):
    r = []
    for ch in s:
        x = rng.random()
        if x < 0.05: r.append("ACGT"[rng.integers(4)])
        elif x < 0.055: pass
        elif x < 0.06: r.append(ch); r.append("ACGT"[rng.integers(4)])
        else: r.append(ch)
    return "".join(r)


for n in sizes or [100_000, 1_000_000]:
    a = "".join(np.array(list("ACGT"))[rng.integers(0, 4, n)])
    b = mutate(a)
    write(f"a{n}", a)
    write(f"b{n}", b)
    for name in ("ua", "ub") if unrelated else ():
        write(f"{name}{n}", "".join(np.array(list("ACGT"))[unrelated_rng.integers(0, 4, n)]))
