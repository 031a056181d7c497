#!/usr/bin/env python3
"""Gathers the parts of one bench/run-all.sh run into results.json and writes results.md.

    python3 bench/peers/report.py OUT_DIR

OUT_DIR/parts/ holds what each program of the run wrote (file names below); OUT_DIR/results.json
gets all of it plus a summary (medians over the repeats, tallyd's ratios to each peer, the goals
of issue 9), and OUT_DIR/results.md the same as markdown tables.

Part files: meta.json; http-w{W}-r{R}.json, floor-{http,durable}-r{R}.json,
delivery-s{S}-r{R}.json and venue-s{S}-r{R}.json (tally-loadgen);
{redis,postgres,postgres-insert}-r{R}.json (tally-peer-bench); store-r{R}.json (bench-store,
Google Benchmark's JSON); replay-{N}.json (bench-replay); beside a client's JSON, NAME.cpu.json:
the CPU seconds the server (process tree) and the client spent on that point.
"""
import json
import re
import statistics
import sys
from pathlib import Path

PEERS = ("redis", "postgres")  # the peers of issue 9; postgres-insert is a reference only
GOALS = {
    # Issue 26 replaced "HTTP appends ≥ 1.0x the faster peer": the durable floor (tallyd's own
    # stack, group-committed fdatasync, no work) is itself below Redis on this machine.
    "http_vs_floor_durable": 0.70,
    "store_vs_faster_peer": 1.5,
    "delivery_p99_ms_at_1000": 50.0,
    "rss_mib_at_5000": 200.0,
}


def load(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def by_repeat(parts, pattern):
    """{key: [part of repeat 1, 2, …]} for files named by `pattern` with (key, repeat) groups."""
    out = {}
    for path in sorted(parts.iterdir()):
        m = re.fullmatch(pattern, path.name)
        if m:
            data = load(path)
            if data is not None:
                cpu = load(path.with_name(path.name[:-len(".json")] + ".cpu.json")) or {}
                writes = data.get("writes") or 0
                for who in ("server", "client"):
                    seconds = cpu.get(f"{who}_cpu_seconds")
                    data[f"{who}_cpu_seconds"] = seconds
                    data[f"{who}_cpu_us_per_write"] = (seconds * 1e6 / writes
                                                       if seconds is not None and writes else None)
                out.setdefault(m.group(1), []).append((int(m.group(2)), data))
    return {k: [d for _, d in sorted(v, key=lambda x: x[0])] for k, v in out.items()}


def store_runs(parts, benchmark="BM_StoreAppendSynced"):
    """{writers: [items/s of repeat 1, 2, …]} from bench-store's Google Benchmark JSON: writers
    are threads for BM_StoreAppendSynced, appends in flight for BM_StoreAppendAsync (its Arg)."""
    out = {}
    for path in sorted(parts.glob("store-r*.json"), key=lambda p: int(p.stem[7:])):
        data = load(path) or {}
        for b in data.get("benchmarks", []):
            if not b["name"].startswith(benchmark + "/") or b.get("run_type") == "aggregate":
                continue
            m = re.match(re.escape(benchmark) + r"/(\d+)/", b["name"])
            writers = m.group(1) if m else str(b.get("threads", 1))
            out.setdefault(writers, []).append(b["items_per_second"])
    return out


def stats(values):
    """Median, min and max of the values that exist, or None."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": len(values)}


def field(runs, *path):
    out = []
    for run in runs:
        for key in path:
            run = None if run is None else run.get(key)
        out.append(run)
    return out


def ratio(a, b):
    return a / b if a is not None and b else None


def summarize(http, store, store_async, peers, delivery, floor, wrk):
    s = {}
    peer_rates = {p: stats(field(peers.get(p, []), "writes_per_second")) for p in PEERS}
    present = {p: r for p, r in peer_rates.items() if r}
    faster = max(present, key=lambda p: present[p]["median"]) if present else None
    s["faster_peer"] = faster
    # The store's ratio is taken where tallyd itself appends from: append_async with 64 appends
    # in flight. append() from 64 blocking threads is reported beside it ("store_threads"). The
    # floors are the HTTP figure's (bench/http_floor.cpp: the same stack with none of tallyd's work).
    ours_by_name = {"http": field(http.get("64", []), "writes_per_second"),
                    "store": store_async.get("64", []), "store_threads": store.get("64", []),
                    "floor_http": field(floor.get("http", []), "writes_per_second"),
                    "floor_durable": field(floor.get("durable", []), "writes_per_second")}
    for name, ours_runs in ours_by_name.items():
        ours = stats(ours_runs)
        for p in PEERS:
            s[f"{name}_vs_{p}"] = ratio(ours and ours["median"],
                                         peer_rates[p] and peer_rates[p]["median"])
        s[f"{name}_vs_faster_peer"] = s.get(f"{name}_vs_{faster}") if faster else None
        # The same ratio within each repeat (tallyd and the peers ran back to back): its spread
        # says how much the machine's noise moves the median ratio.
        per_repeat = []
        for i, value in enumerate(ours_runs):
            best = [field(peers.get(p, []), "writes_per_second")[i] for p in PEERS
                    if i < len(peers.get(p, []))]
            best = [b for b in best if b]
            if value and best:
                per_repeat.append(value / max(best))
        s[f"{name}_vs_faster_peer_per_repeat"] = per_repeat
    medians = {name: (stats(runs) or {}).get("median") for name, runs in ours_by_name.items()}
    for mode in ("http", "durable"):
        s[f"http_vs_floor_{mode}"] = ratio(medians["http"], medians[f"floor_{mode}"])
    # tallyd ÷ the durable floor within each repeat (back to back), and wrk's figure beside
    # tally-loadgen's for the same writes (bench/wrk): a check of the load generator.
    s["http_vs_floor_durable_per_repeat"] = [
        a / b for a, b in zip(ours_by_name["http"], ours_by_name["floor_durable"]) if a and b]
    wrk_rate = stats(field(wrk, "writes_per_second"))
    s["wrk_vs_loadgen"] = ratio(wrk_rate and wrk_rate["median"], medians["http"])
    p99 = stats(field(delivery.get("1000", []), "event_delivery_ms", "p99"))
    s["delivery_p99_ms_at_1000"] = p99 and p99["median"]
    rss = stats(field(delivery.get("5000", []), "server_rss_mib_loaded"))
    s["rss_mib_at_5000"] = rss and rss["max"]  # the worst repeat: a limit is about the peak
    s["goals"] = {}
    for key, target in GOALS.items():
        value = s.get(key)
        lower_is_better = key.startswith(("delivery", "rss"))
        reached = None if value is None else (value < target if lower_is_better else value >= target)
        s["goals"][key] = {"value": value, "target": target, "reached": reached}
    return s


# --- markdown


def num(v, digits=0):
    if v is None:
        return "—"
    return f"{v:,.{digits}f}"


def spread(st, digits=0):
    """"median (min–max)" of a stats dict; the median alone for one run."""
    if not st:
        return "—"
    if st["runs"] == 1:
        return num(st["median"], digits)
    return f"{num(st['median'], digits)} ({num(st['min'], digits)}–{num(st['max'], digits)})"


def x(v):
    return "—" if v is None else f"{v:.1f}x"


def markdown(r):
    s, meta = r["summary"], r["meta"]
    lines = []
    add = lines.append
    repeats = meta.get("repeat", 1)
    add(f"Run {meta.get('date', '?')} on {meta.get('cpu', '?')} ({meta.get('cores', '?')} cores), "
        f"{meta.get('filesystem', '?')}, commit `{meta.get('commit', '?')}`; {repeats} repeat(s): "
        "each figure is the median, (min–max) over the repeats.")
    add("")
    add(f"HTTP vs faster peer: {x(s['http_vs_faster_peer'])}")
    if s.get("http_vs_floor_durable") is not None:
        add(f"HTTP vs durable floor: {s['http_vs_floor_durable']:.2f}")
    add(f"store vs faster peer: {x(s['store_vs_faster_peer'])}")
    add("")
    threads = s["store_threads_vs_faster_peer"]
    add("(store: append_async with 64 appends in flight, as tallyd's HTTP layer appends; "
        "append() from 64 blocking threads: "
        + ("—" if threads is None else f"{threads:.2f}x") + ")")
    add("")
    if s.get("floor_durable_vs_faster_peer") is not None:
        add("The floor under the HTTP figure (tally-http-floor: tallyd's HTTP stack with none of "
            "tallyd's work): answering at once, "
            f"{x(s['floor_http_vs_faster_peer'])} of the faster peer; answering after a "
            f"group-committed fdatasync, {x(s['floor_durable_vs_faster_peer'])}. tallyd's HTTP "
            f"appends are {s['http_vs_floor_durable']:.2f} of the durable floor (per repeat: "
            + ", ".join(f"{v:.2f}" for v in s["http_vs_floor_durable_per_repeat"]) + ").")
        add("")
    if s.get("wrk_vs_loadgen") is not None:
        add("The same writes driven by wrk (bench/wrk/results.lua, one thread per connection, 64) "
            f"instead of tally-loadgen: {s['wrk_vs_loadgen']:.2f} of tally-loadgen's figure.")
        add("")
    if s.get("faster_peer"):
        per = lambda k: ", ".join(f"{v:.2f}" for v in s[k]) or "—"
        add(f"The faster peer was **{s['faster_peer']}**. The same ratios within each repeat: "
            f"HTTP {per('http_vs_faster_peer_per_repeat')}; store "
            f"{per('store_vs_faster_peer_per_repeat')}; store from 64 threads "
            f"{per('store_threads_vs_faster_peer_per_repeat')}.")
        add("")

    add("### Durable appends per second")
    add("")
    add("| who | clients | appends/s | ack p50 ms | ack p99 ms | server CPU µs/append | "
        "client CPU µs/append | server memory MiB | vs Redis | vs PostgreSQL |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    peer_median = {p: (r["peers"][p]["writes_per_second"] or {}).get("median")
                   for p in r["peers"]}
    def ratios(st):
        m = st and st["median"]
        return [x(ratio(m, peer_median.get(p))) for p in PEERS]
    def client_row(label, clients, row, ratio_cells):
        # A point measured by a client (tally-loadgen or tally-peer-bench): one table row.
        add(f"| {label} | {clients} | {spread(row['writes_per_second'])} | "
            f"{spread(row['write_ms_p50'], 2)} | {spread(row['write_ms_p99'], 2)} | "
            f"{spread(row['server_cpu_us_per_write'])} | {spread(row['client_cpu_us_per_write'])} | "
            f"{spread(row['server_rss_mib'], 1)} | " + " | ".join(ratio_cells) + " |")
    for w, row in sorted(r["http_appends"].items(), key=lambda kv: int(kv[0])):
        client_row("tallyd HTTP", w, row, ratios(row["writes_per_second"]))
    for t, st in sorted(r["store_appends"].items(), key=lambda kv: int(kv[0])):
        add(f"| tallyd store API, append() | {t} threads | {spread(st)} | — | — | — | — | — | "
            + " | ".join(ratios(st)) + " |")
    for n, st in sorted(r.get("store_async_appends", {}).items(), key=lambda kv: int(kv[0])):
        add(f"| tallyd store API, append_async() | {n} in flight | {spread(st)} | — | — | — | — | "
            "— | " + " | ".join(ratios(st)) + " |")
    floor_names = {"http": "HTTP floor: same stack, answers at once",
                   "durable": "durable HTTP floor: + group-committed fdatasync"}
    for mode, row in r.get("floor", {}).items():
        client_row(floor_names[mode], row["clients"], row, ratios(row["writes_per_second"]))
    if r.get("wrk"):
        row = r["wrk"]
        client_row("tallyd HTTP, driven by wrk (bench/wrk)", row["clients"], row,
                   ratios(row["writes_per_second"]))
    names = {"redis": "Redis XADD", "postgres": "PostgreSQL INSERT+NOTIFY",
             "postgres-insert": "PostgreSQL INSERT alone (reference)"}
    for p, row in r["peers"].items():
        client_row(names.get(p, p), row["clients"], row, ["—"] * len(PEERS))
    add("")
    add("Write → subscriber delivery at 64 writers and one subscriber, p99 ms: "
        + "; ".join(f"{names.get(p, p)} {spread(row['delivery_ms_p99'], 2)}"
                    for p, row in r["peers"].items() if row["delivery_ms_p99"]) + ".")
    add("")

    add("### Replay at start")
    add("")
    add("| events | replay s | events/s | raw RocksDB scan s | replay/scan speed | RSS after MiB |")
    add("|---:|---:|---:|---:|---:|---:|")
    for n, rep in sorted(r["replay"].items(), key=lambda kv: int(kv[0])):
        add(f"| {num(int(n))} | {num(rep.get('replay_seconds'), 3)} | "
            f"{num(rep.get('replay_events_per_second'))} | {num(rep.get('scan_seconds'), 3)} | "
            f"{num(rep.get('replay_to_scan'), 2)} | {num(rep.get('rss_mib_after_replay'))} |")
    add("")

    for key, title in (("delivery", "Write → WebSocket delivery (4 judges, 50 writes/s)"),
                       ("delivery_at_venue_pace",
                        "Write → WebSocket delivery at a venue's pace (4 judges, 5 writes/s)")):
        if not r.get(key):
            continue
        add(f"### {title}")
        add("")
        add("| screens | event p50 ms | event p99 ms | event p99.9 ms | standings p99 ms | missing | "
            "server CPU ms/write | server RSS MiB |")
        add("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n, row in sorted(r[key].items(), key=lambda kv: int(kv[0])):
            add(f"| {num(int(n))} | {spread(row['event_p50'], 2)} | {spread(row['event_p99'], 2)} | "
                f"{spread(row['event_p999'], 2)} | {spread(row['standings_p99'], 2)} | "
                f"{row['missing']} | {spread(row['server_cpu_ms_per_write'], 2)} | "
                f"{spread(row['server_rss_mib'], 1)} |")
        add("")

    add("### Goals (issue 9)")
    add("")
    add("| goal | target | measured | reached |")
    add("|---|---:|---:|---|")
    labels = {
        "http_vs_floor_durable": ("HTTP appends at 64 connections / durable HTTP floor", "≥ 0.70",
                                  lambda v: "—" if v is None else f"{v:.2f}"),
        "store_vs_faster_peer": ("store append API (append_async, 64 in flight) / faster peer",
                                 "≥ 1.5x", x),
        "delivery_p99_ms_at_1000": ("write → delivery p99 at 1,000 screens", "< 50 ms",
                                    lambda v: "—" if v is None else f"{v:.1f} ms"),
        "rss_mib_at_5000": ("server RSS at 5,000 screens (worst repeat)", "< 200 MB",
                            lambda v: "—" if v is None else f"{v:.0f} MiB"),
    }
    for key, goal in s["goals"].items():
        label, target, fmt = labels[key]
        reached = {True: "yes", False: "**no**", None: "not measured"}[goal["reached"]]
        add(f"| {label} | {target} | {fmt(goal['value'])} | {reached} |")
    add("")
    return "\n".join(lines)


# --- gathering


def loadgen_row(runs):
    return {
        "writes_per_second": stats(field(runs, "writes_per_second")),
        "write_ms_p50": stats(field(runs, "write_ms", "p50")),
        "write_ms_p99": stats(field(runs, "write_ms", "p99")),
        "server_rss_mib": stats(field(runs, "server_rss_mib_loaded")),
        "delivery_ms_p99": stats(field(runs, "event_delivery_ms", "p99")),
        "server_cpu_us_per_write": stats(field(runs, "server_cpu_us_per_write")),
        "client_cpu_us_per_write": stats(field(runs, "client_cpu_us_per_write")),
        "clients": runs[0].get("writers") if runs else None,
        "runs": runs,
    }


def delivery_row(runs):
    return {
        "event_p50": stats(field(runs, "event_delivery_ms", "p50")),
        "event_p99": stats(field(runs, "event_delivery_ms", "p99")),
        "event_p999": stats(field(runs, "event_delivery_ms", "p999")),
        "standings_p99": stats(field(runs, "standings_delivery_ms", "p99")),
        "server_rss_mib_idle": stats(field(runs, "server_rss_mib_idle")),
        "server_rss_mib": stats(field(runs, "server_rss_mib_loaded")),
        "server_cpu_ms_per_write": stats(
            [v and v / 1000 for v in field(runs, "server_cpu_us_per_write")]),
        "missing": sum(r.get("missing_events", 0) for r in runs),
        "failed_screens": sum(r.get("failed_screens", 0) for r in runs),
        "runs": runs,
    }


def main(out_dir):
    out = Path(out_dir)
    parts = out / "parts"
    http = by_repeat(parts, r"http-w(\d+)-r(\d+)\.json")
    delivery = by_repeat(parts, r"delivery-s(\d+)-r(\d+)\.json")
    venue = by_repeat(parts, r"venue-s(\d+)-r(\d+)\.json")
    peers = by_repeat(parts, r"(redis|postgres|postgres-insert)-r(\d+)\.json")
    floor = by_repeat(parts, r"floor-(http|durable)-r(\d+)\.json")
    wrk = by_repeat(parts, r"wrk-w(64)-r(\d+)\.json").get("64", [])
    store = store_runs(parts)
    store_async = store_runs(parts, "BM_StoreAppendAsync")
    replay = {m.group(1): load(p) for p in parts.glob("replay-*.json")
              if (m := re.fullmatch(r"replay-(\d+)\.json", p.name)) and load(p)}

    results = {
        "meta": load(parts / "meta.json") or {},
        "http_appends": {w: loadgen_row(runs) for w, runs in http.items()},
        "floor": {mode: loadgen_row(floor[mode]) for mode in ("http", "durable") if mode in floor},
        "wrk": loadgen_row(wrk) if wrk else None,
        "store_appends": {t: stats(v) for t, v in store.items()},
        "store_runs": store,
        "store_async_appends": {n: stats(v) for n, v in store_async.items()},
        "store_async_runs": store_async,
        "peers": {p: loadgen_row(peers[p]) for p in ("redis", "postgres", "postgres-insert")
                  if p in peers},
        "replay": replay,
        "delivery": {s: delivery_row(runs) for s, runs in delivery.items()},
        "delivery_at_venue_pace": {s: delivery_row(runs) for s, runs in venue.items()},
    }
    results["summary"] = summarize(http, store, store_async, peers, delivery, floor, wrk)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    (out / "results.md").write_text(markdown(results))
    print(markdown(results))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
