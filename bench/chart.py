"""chart.py - the benchmark CSV (bench_suite --csv) as an SVG bar chart: one group per app, type
and size, one bar per method, bar length = time relative to the group's slowest method (shorter
is faster), labelled with the rate.  Standard library only.
    python3 bench/chart.py suite.csv suite.svg
"""
import csv
import sys
from xml.sax.saxutils import escape

COLOURS = {"GS": "#9e9e9e", "GS+HT": "#616161", "PW": "#90caf9", "PW+HT": "#1e88e5",
           "PW+FHT": "#0d47a1", "LAUNCH": "#ef6c00"}


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    groups = []
    for r in rows:
        key = (r["app"], r["type"], f'{r["rows"]}x{r["cols"]}')
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(r)
    bar_h, gap, left, width = 14, 18, 260, 560
    height = 60 + sum(len(g[1]) * bar_h + gap for g in groups)
    out = [f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 160}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           '<title>PeerWave benchmark suite</title>',
           f'<text x="10" y="20" font-size="14">Kernel time per method (bar: time relative to the slowest; '
           f'label: rate). Colours: {escape(", ".join(COLOURS))}</text>']
    y = 40
    for (app, typ, size), items in groups:
        slowest = max(float(r["ms"]) for r in items)
        out.append(f'<text x="10" y="{y + bar_h}" font-weight="bold">{escape(app)} {escape(typ)} {size}</text>')
        for r in items:
            w = width * float(r["ms"]) / slowest
            colour = COLOURS.get(r["method"], "#444")
            out.append(f'<text x="{left - 60}" y="{y + bar_h - 3}">{escape(r["method"])}</text>'
                       f'<rect class="bar" x="{left}" y="{y}" width="{w:.1f}" height="{bar_h - 2}" fill="{colour}" '
                       f'data-ms="{r["ms"]}" data-method="{escape(r["method"])}"/>'
                       f'<text x="{left + w + 4:.1f}" y="{y + bar_h - 3}">{float(r["ms"]):.2f} ms, {float(r["rate"]):.1f} '
                       f'{escape(r["unit"])}{"" if r["check"] == "ok" else " WRONG"}</text>')
            y += bar_h
        y += gap
    out.append('</svg>')
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
