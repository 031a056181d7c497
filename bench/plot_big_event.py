#!/usr/bin/env python3
"""The big event's costs against the field size as an SVG, with nothing but Python's standard
library (Debian's python3-matplotlib cannot be installed beside libboost1.81-dev here).

    python3 bench/plot_big_event.py OUT.svg PARTS_DIR [PARTS_DIR …]

Each PARTS_DIR holds one run's big-event-N.json (tally-big-event, bench/run-all.sh); each run is
one line per panel. The x axis is the number of players, logarithmic.
"""
import json
import math
import sys
from pathlib import Path

PANELS = [
    ("seating by standings (s)", lambda d: max(r["seating_seconds"] for r in d["rounds"][1:])),
    ("writes p99 (ms)", lambda d: max(r["writes"]["p99_ms"] for r in d["rounds"])),
    ("GET standings p50 (ms)", lambda d: max(r["standings_render_ms_p50"] for r in d["rounds"])),
    ("others during seating p99 (ms)",
     lambda d: max(r["other_during_seating"]["p99_ms"] for r in d["rounds"][1:])),
    ("standings bytes per result, plain",
     lambda d: d["rounds"][-1]["screens"]["one_at_a_time"]["plain"]["delta_wire_bytes_mean"]),
    ("standings bytes per result, deflate",
     lambda d: d["rounds"][-1]["screens"]["one_at_a_time"]["deflate"]["delta_wire_bytes_mean"]),
    ("RSS after round 3 (MiB)", lambda d: d["rounds"][-1]["server_rss_mib"]),
]
COLOURS = ["#1f5fa8", "#c2410c", "#15803d", "#7e22ce"]
W, H, PAD = 330, 220, 46


def runs(dirs):
    out = []
    for d in dirs:
        points = {}
        for path in sorted(Path(d).glob("big-event-*.json")):
            if path.name.endswith(".cpu.json"):
                continue
            data = json.loads(path.read_text())
            points[data["players"]] = data
        out.append(points)
    return out


def panel(x0, y0, title, series):
    xs = sorted({x for s in series for x in s})
    ys = [y for s in series for y in s.values()]
    if not xs or not ys:
        return ""
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    ytop = max(ys) * 1.15 or 1
    sx = lambda x: x0 + PAD + (math.log10(x) - lx0) / ((lx1 - lx0) or 1) * (W - PAD - 12)
    sy = lambda y: y0 + H - 30 - y / ytop * (H - 60)
    svg = [f'<text x="{x0 + W / 2}" y="{y0 + 16}" text-anchor="middle" font-weight="bold">{title}</text>',
           f'<line x1="{x0 + PAD}" y1="{sy(0)}" x2="{x0 + W - 12}" y2="{sy(0)}" stroke="#444"/>',
           f'<line x1="{x0 + PAD}" y1="{sy(0)}" x2="{x0 + PAD}" y2="{sy(ytop)}" stroke="#444"/>']
    for x in xs:
        svg.append(f'<text x="{sx(x)}" y="{sy(0) + 16}" text-anchor="middle">{x}</text>')
    for frac in (0.0, 0.5, 1.0):
        v = ytop / 1.15 * frac
        label = f"{v:.3g}"
        svg.append(f'<text x="{x0 + PAD - 4}" y="{sy(v) + 4}" text-anchor="end">{label}</text>')
        svg.append(f'<line x1="{x0 + PAD}" y1="{sy(v)}" x2="{x0 + W - 12}" y2="{sy(v)}" stroke="#ddd"/>')
    for i, s in enumerate(series):
        pts = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in sorted(s.items()))
        colour = COLOURS[i % len(COLOURS)]
        svg.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in s.items():
            svg.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{colour}"/>')
    return "\n".join(svg)


def main(out, dirs):
    data = runs(dirs)
    cols = 4
    rows = math.ceil(len(PANELS) / cols)
    width, height = cols * W, rows * H + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>']
    for k, (title, value) in enumerate(PANELS):
        series = [{p: value(d) for p, d in run.items()} for run in data]
        parts.append(panel((k % cols) * W, (k // cols) * H, title, series))
    legend = "   ".join(f'<tspan fill="{COLOURS[i % len(COLOURS)]}">● run {i + 1}</tspan>'
                       for i in range(len(data)))
    parts.append(f'<text x="12" y="{height - 10}">{legend}   players (log scale) on every x axis</text>')
    parts.append("</svg>")
    Path(out).write_text("\n".join(parts))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
