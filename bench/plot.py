#!/usr/bin/env python3
"""Draws the plots of one bench/run-all.sh run from its results.json (bench/peers/report.py).

    python3 bench/plot.py RESULTS_JSON OUT_DIR

Writes OUT_DIR/appends.png (appends/s by writers: tallyd HTTP, the store API, the HTTP floor and
the peers at 64),
OUT_DIR/delivery.png (write → WebSocket delivery by screens), OUT_DIR/memory-writers.png and
OUT_DIR/memory-screens.png (server memory by writers and by screens), OUT_DIR/replay.png
(replay time by events) and OUT_DIR/big-event.png (the big event's costs by players, read from
the parts/big-event-N.json beside RESULTS_JSON). Medians, with the
spread over the repeats as error bars. Needs Debian's python3-matplotlib.
"""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


def series(rows, key):
    """(xs, medians, [below, above]) of rows {x: {key: stats}} sorted by x, where present."""
    xs, ys, lo, hi = [], [], [], []
    for x_value, row in sorted(rows.items(), key=lambda kv: int(kv[0])):
        st = row.get(key) if key else row
        if not st:
            continue
        xs.append(int(x_value))
        ys.append(st["median"])
        lo.append(st["median"] - st["min"])
        hi.append(st["max"] - st["median"])
    return xs, ys, [lo, hi]


def finish(fig, ax, path, title, xlabel, ylabel):
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_appends(r, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs, ys, err = series(r["http_appends"], "writes_per_second")
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label="tallyd HTTP (full validation)")
    xs, ys, err = series(r["store_appends"], None)
    ax.errorbar(xs, ys, yerr=err, marker="s", capsize=3, label="tallyd store API, append() threads")
    if r.get("store_async_appends"):
        xs, ys, err = series(r["store_async_appends"], None)
        ax.errorbar(xs, ys, yerr=err, marker="P", capsize=3,
                    label="tallyd store API, append_async() in flight")
    styles = {"redis": ("D", "Redis XADD, appendfsync always"),
              "postgres": ("^", "PostgreSQL INSERT+NOTIFY"),
              "postgres-insert": ("v", "PostgreSQL INSERT alone (reference)")}
    styles.update({"floor-http": ("*", "HTTP floor: same stack, no work (tally-http-floor)"),
                   "floor-durable": ("X", "durable HTTP floor: + group-committed fdatasync")})
    points = list(r["peers"].items())
    points += [(f"floor-{mode}", row) for mode, row in r.get("floor", {}).items()]
    for name, row in points:
        st = row["writes_per_second"]
        if not st:
            continue
        marker, label = styles.get(name, ("x", name))
        ax.errorbar([row["clients"]], [st["median"]],
                    yerr=[[st["median"] - st["min"]], [st["max"] - st["median"]]],
                    marker=marker, markersize=9, linestyle="none", capsize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks([1, 8, 64, 256], ["1", "8", "64", "256"])
    finish(fig, ax, out / "appends.png", "Durable appends per second", "concurrent writers",
           "acknowledged appends/s (log)")


def plot_delivery(r, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (("event_p50", "p50"), ("event_p99", "p99"), ("event_p999", "p99.9")):
        xs, ys, err = series(r["delivery"], key)
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"event {label}")
    ax.axhline(50, color="red", linestyle="--", linewidth=1, label="goal: p99 < 50 ms at 1,000")
    ax.set_xscale("log")
    ax.set_yscale("log")
    finish(fig, ax, out / "delivery.png", "Write → WebSocket delivery (4 judges, 50 writes/s)",
           "WebSocket screens (log)", "ms after the write's acknowledgement (log)")


def plot_memory(r, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs, ys, err = series(r["http_appends"], "server_rss_mib")
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label="tallyd RSS after the writes")
    for name, row in r["peers"].items():
        st = row["server_rss_mib"]
        if st:
            label = f"{name} (PSS summed over processes)" if "postgres" in name else f"{name} RSS"
            ax.plot([row["clients"]], [st["median"]], marker="D", linestyle="none", label=label)
    ax.set_xscale("log", base=2)
    ax.set_xticks([1, 8, 64, 256], ["1", "8", "64", "256"])
    ax.set_ylim(bottom=0)
    finish(fig, ax, out / "memory-writers.png", "Server memory, appends", "concurrent writers",
           "MiB")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs, ys, err = series(r["delivery"], "server_rss_mib")
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label="tallyd RSS")
    ax.axhline(200, color="red", linestyle="--", linewidth=1, label="goal: < 200 MB at 5,000")
    ax.set_xscale("log")
    ax.set_ylim(bottom=0)
    finish(fig, ax, out / "memory-screens.png", "Server memory, live screens",
           "WebSocket screens (log)", "MiB")


def plot_replay(r, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    rows = sorted(r["replay"].items(), key=lambda kv: int(kv[0]))
    xs = [int(n) for n, _ in rows]
    ax.plot(xs, [rep["replay_seconds"] for _, rep in rows], marker="o", label="replay into projections")
    ax.plot(xs, [rep["scan_seconds"] for _, rep in rows], marker="s", label="raw RocksDB scan")
    ax.set_xscale("log")
    ax.set_yscale("log")
    finish(fig, ax, out / "replay.png", "Replay at start", "events in the log", "seconds (log)")


def plot_big_event(parts, out):
    """OUT/big-event.png: the big event's costs against the field size, from
    PARTS/big-event-N.json (tally-big-event, with the replay run-all.sh adds)."""
    rows = []
    for path in parts.glob("big-event-*.json"):
        if path.name.endswith(".cpu.json"):
            continue
        try:
            rows.append(json.loads(path.read_text()))
        except ValueError:
            continue
    rows = sorted((r for r in rows if "summary" in r), key=lambda r: r["players"])
    if not rows:
        return
    xs = [r["players"] for r in rows]
    s = [r["summary"] for r in rows]
    panels = [
        ("seating by standings, s (worst round)", [("seating", [v["seating_seconds"] for v in s])]),
        ("write p99, ms (worst round)", [("write p99", [v["write_p99_ms"] for v in s])]),
        ("GET standings, ms (p50)", [("standings", [v["standings_render_ms"] for v in s])]),
        ("standings bytes per result per screen", [
            ("with deflate", [v["standings_bytes_per_result_deflate"] for v in s]),
            ("without", [v["standings_bytes_per_result_plain"] for v in s])]),
        ("tallyd RSS, MiB", [("after the rounds", [v["server_rss_mib"] for v in s]),
                             ("after replay", [r.get("server_rss_mib_after_replay") for r in rows])]),
        ("replay at start, s", [("replay", [r.get("replay", {}).get("seconds") for r in rows])]),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(12, 7))
    for ax, (title, lines) in zip(axes.flat, panels):
        for label, ys in lines:
            pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
            if pts:
                ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=label)
        ax.set_xscale("log")
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.set_ylim(bottom=0)
        ax.set_title(title, fontsize="medium")
        ax.set_xlabel("players")
        ax.grid(True, which="both", alpha=0.3)
        if len(lines) > 1:
            ax.legend(fontsize="small")
    fig.suptitle("The big event: cost against field size (Catan, 3 rounds, tables of 4)")
    fig.tight_layout()
    fig.savefig(out / "big-event.png", dpi=110)
    plt.close(fig)


def main(results_path, out_dir):
    r = json.loads(Path(results_path).read_text())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if r["http_appends"] or r["peers"]:
        plot_appends(r, out)
    plot_memory(r, out)
    if r["delivery"]:
        plot_delivery(r, out)
    if r["replay"]:
        plot_replay(r, out)
    plot_big_event(Path(results_path).parent / "parts", out)
    print("plots in", out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
