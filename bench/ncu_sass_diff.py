#!/usr/bin/env python3
"""bench/ncu_sass_diff.py - two kernels' SASS with ncu's per-instruction counts (bench/ncu_compare.sh
PW_NCU_SOURCE=1 writes them) side by side: executed warp instructions and stall samples by opcode,
base against new, the opcodes that differ most first; --hot N also lists each side's N
instructions with the most stall samples (where the time goes).
  python3 bench/ncu_sass_diff.py BASE_sass.csv NEW_sass.csv [--hot 25]"""
import csv, sys
from collections import defaultdict


def load(path):
    rows = list(csv.reader(open(path)))
    head = next(k for k, r in enumerate(rows) if r and r[0] == "Address")
    ix = {n: k for k, n in enumerate(rows[head])}
    out = []
    for r in rows[head + 1:]:
        if len(r) < len(rows[head]):
            continue
        src = r[ix["Source"]].strip()
        op = src.split()[0] if src else "?"
        if op.startswith("@"):
            op = src.split()[1]
        num = lambda n: int(float(r[ix[n]].replace(",", "") or 0))
        out.append((src, op.split(".")[0], num("Instructions Executed"), num("Warp Stall Sampling (All Samples)")))
    return out


def by_op(insts):
    acc = defaultdict(lambda: [0, 0])
    for _, op, n, s in insts:
        acc[op][0] += n
        acc[op][1] += s
    return acc


def main():
    args = sys.argv[1:]
    hot = 0
    if "--hot" in args:
        k = args.index("--hot")
        hot = int(args[k + 1])
        del args[k:k + 2]
    base, new = load(args[0]), load(args[1])
    b, n = by_op(base), by_op(new)
    tb, tn = sum(v[0] for v in b.values()), sum(v[0] for v in n.values())
    sb, sn = sum(v[1] for v in b.values()), sum(v[1] for v in n.values())
    print("static instructions %d -> %d; executed %d -> %d (%.3fx); stall samples %d -> %d (%.3fx)" %
          (len(base), len(new), tb, tn, tn / max(tb, 1), sb, sn, sn / max(sb, 1)))
    print("%-10s %14s %14s %12s   %9s %9s" % ("opcode", "exec base", "exec new", "new-base", "stall b", "stall n"))
    ops = sorted(set(b) | set(n), key=lambda o: -abs(n[o][0] - b[o][0]))
    for o in ops[:30]:
        print("%-10s %14d %14d %+12d   %9d %9d" % (o, b[o][0], n[o][0], n[o][0] - b[o][0], b[o][1], n[o][1]))
    for name, insts in (("base", base), ("new", new)):
        if not hot:
            break
        print("\n%s: the %d instructions with the most stall samples (samples, executed, source)" % (name, hot))
        for src, op, ex, st in sorted(insts, key=lambda t: -t[3])[:hot]:
            print("  %7d %12d  %s" % (st, ex, src))


main()
