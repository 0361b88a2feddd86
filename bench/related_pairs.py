"""bench/related_pairs.py OUT [N ...] - related DNA pairs for the alignment benchmarks: OUT/aN.fa,
a random sequence of N letters, and OUT/bN.fa, a copy with 5% substitutions, 0.5% deletions and
0.5% insertions (seed 25: the same files on every machine)."""
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(25)


def mutate(s):
    r = []
    for ch in s:
        x = rng.random()
        if x < 0.05: r.append("ACGT"[rng.integers(4)])
        elif x < 0.055: pass
        elif x < 0.06: r.append(ch); r.append("ACGT"[rng.integers(4)])
        else: r.append(ch)
    return "".join(r)


for n in [int(x) for x in sys.argv[2:]] or [100_000, 1_000_000]:
    a = "".join(np.array(list("ACGT"))[rng.integers(0, 4, n)])
    b = mutate(a)
    for name, s in (("a", a), ("b", b)):
        with open(f"{out}/{name}{n}.fa", "w") as f:
            f.write(f">{name}{n}\n")
            for k in range(0, len(s), 80): f.write(s[k:k + 80] + "\n")
