#!/usr/bin/env bash
# What replication costs the judges, on this machine (docs/performance.md, "A synchronous
# standby" and "A public mirror"). Not part of the test command; ~10 minutes.
#
#   bench/replication.sh [--bin DIR] [--repeat N] [--out DIR]
#
#   --bin DIR    where tallyd and tally-loadgen are (default build/bench-release, as run-all.sh
#                builds them; build them first: cmake --build DIR --target tallyd tally-loadgen)
#   --repeat N   each point N times, the scenarios interleaved (default 2)
#   --out DIR    where the loadgen's JSON and results.md go (default build/bench-results/replication-DATE)
#
# 1. replicas_ack: the judges' writes against a primary alone, and against a primary whose
#    synchronous standby (replicas_ack = 1) follows it on loopback — 64 writers as fast as they go
#    (throughput) and 8 writers at a venue's pace of 50 writes/s (latency).
# 2. a public mirror: 4 judges at 50 writes/s while 1,000 screens watch the live feed of (a)
#    nobody, (b) the primary, (c) a mirror following the primary.
# The venue's side runs on CPU 0 (the primary, and the judges' threads of the load generator), the
# other side on CPU 1 (the standby or the mirror, and the screens' threads), and the followers keep
# their data in FOLLOWER_DATA (default /dev/shm): on a 2-core machine with one disk, the nearest
# thing to "another machine" with a disk of its own (they still share the memory bus;
# FOLLOWER_DATA=/tmp puts their fsyncs on the primary's disk, as on one machine).
# PARTS="ack mirror" (the default) chooses which of the two parts run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/bench-release
REPEAT=2
OUT="build/bench-results/replication-$(date +%Y%m%d-%H%M%S)"
while (($#)); do
  case $1 in
    --bin) BIN=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
TALLYD=$BIN/daemon/tallyd
LOADGEN=$BIN/bench/tally-loadgen
for b in "$TALLYD" "$LOADGEN"; do [[ -x $b ]] || { echo "replication.sh: no $b (build it first)" >&2; exit 1; }; done
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/tally-replication-bench.XXXXXX)
FOLLOWERS=$(mktemp -d "${FOLLOWER_DATA:-/dev/shm}/tally-replication-followers.XXXXXX")
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK" "$FOLLOWERS"; }
trap cleanup EXIT

# start NAME CPU DIR FLAGS…: a tallyd with its data in DIR/NAME, on a free loopback port; sets ADDR
# and PID.
start() {
  local name=$1 cpu=$2 dir=$3; shift 3
  rm -f "$WORK/$name.ready"
  taskset -c "$cpu" "$TALLYD" --data "$dir/$name" --listen 127.0.0.1:0 --ready-file "$WORK/$name.ready" \
    --rate-limit 100000 --rate-burst 100000 --max-screens 5000 --max-connections 5000 "$@" 2>>"$WORK/$name.log" &
  PID=$!
  PIDS+=("$PID")
  for _ in $(seq 300); do [[ -s $WORK/$name.ready ]] && break; sleep 0.05; done
  ADDR=$(cat "$WORK/$name.ready")
}
stop_all() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  PIDS=()
  rm -rf "${WORK:?}"/* "${FOLLOWERS:?}"/*
}

# follower NAME PRIMARY_ADDR STANDBY(true|false): a follower of the primary on CPU 1; sets ADDR.
follower() {
  local name=$1 primary=$2 standby=$3
  curl -sf -X POST -H "Authorization: Bearer $(cat "$WORK/primary/organizer.token")" \
    -d "{\"name\":\"$name\",\"standby\":$standby}" "http://$primary/v1/replicas" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])' >"$WORK/$name.token"
  start "$name" 1 "$FOLLOWERS" --follow "http://$primary" --follow-token-file "$WORK/$name.token"
}

# load NAME ARGS…: the load generator against the primary, its judges on CPU 0 and its screens on
# CPU 1; its JSON in OUT/NAME.json.
load() {
  local name=$1; shift
  "$LOADGEN" --writers-cpu 0 --screens-cpu 1 --server "$PRIMARY" --token-file "$WORK/primary/organizer.token" --json "$OUT/$name.json" "$@" \
    >"$OUT/$name.txt"
}

PARTS=${PARTS:-ack mirror}
for run in $(seq "$REPEAT"); do
  [[ $PARTS == *ack* ]] && for mode in alone standby; do
    for shape in throughput pace; do
      start primary 0 "$WORK" $([[ $mode == standby ]] && echo --replicas-ack 1)
      PRIMARY=$ADDR
      [[ $mode == standby ]] && follower standby "$PRIMARY" true
      if [[ $shape == throughput ]]; then
        load "ack-$mode-$shape-$run" --writers 64 --screens 0 --writes 12800 --rate 0 --tables-per-writer 4
      else
        load "ack-$mode-$shape-$run" --writers 8 --screens 0 --writes 2000 --rate 50
      fi
      stop_all
    done
  done
  [[ $PARTS == *mirror* ]] && for screens in none primary mirror; do
    start primary 0 "$WORK"
    PRIMARY=$ADDR
    case $screens in
      none) load "mirror-$screens-$run" --writers 4 --screens 0 --writes 3000 --rate 50 ;;
      primary) load "mirror-$screens-$run" --writers 4 --screens 1000 --writes 3000 --rate 50 ;;
      mirror)
        follower mirror "$PRIMARY" false
        load "mirror-$screens-$run" --writers 4 --screens 1000 --writes 3000 --rate 50 --screens-server "$ADDR" ;;
    esac
    stop_all
  done
done

python3 - "$OUT" "$REPEAT" <<'PY'
import json, os, sys
out, repeat = sys.argv[1], int(sys.argv[2])
def runs(name): return [json.load(open(f"{out}/{name}-{r}.json")) for r in range(1, repeat + 1)]
def spread(values, fmt="{:.0f}"): return " / ".join(fmt.format(v) for v in values)
lines = ["# Replication's cost (bench/replication.sh)", "", "Each cell: the runs in order, separated by /."]
if os.path.exists(f"{out}/ack-alone-throughput-1.json"):
    lines += ["", "## replicas_ack", "",
              "| primary | 64 writers: writes/s | 64 writers: write p99 ms | 8 writers at 50/s: write p50 ms | p99 ms |",
              "|---|---|---|---|---|"]
    for mode, label in (("alone", "alone (replicas_ack = 0)"), ("standby", "with a standby (replicas_ack = 1)")):
        t, p = runs(f"ack-{mode}-throughput"), runs(f"ack-{mode}-pace")
        lines.append(f"| {label} | {spread([x['writes_per_second'] for x in t])} | "
                     f"{spread([x['write_ms']['p99'] for x in t], '{:.1f}')} | "
                     f"{spread([x['write_ms']['p50'] for x in p], '{:.2f}')} | "
                     f"{spread([x['write_ms']['p99'] for x in p], '{:.2f}')} |")
    a, s = runs("ack-alone-throughput"), runs("ack-standby-throughput")
    lines += ["", "Throughput with a standby ÷ alone: " + spread([y["writes_per_second"] / x["writes_per_second"] for x, y in zip(a, s)], "{:.2f}")]
if os.path.exists(f"{out}/mirror-none-1.json"):
    lines += ["", "## A public mirror: 4 judges at 50 writes/s, 1,000 screens", "",
              "| screens watch | write p50 ms | write p99 ms | write p99.9 ms | event delivery p99 ms | failed screens |", "|---|---|---|---|---|---|"]
    for screens in ("none", "primary", "mirror"):
        r = runs(f"mirror-{screens}")
        lines.append(f"| {screens} | {spread([x['write_ms']['p50'] for x in r], '{:.2f}')} | {spread([x['write_ms']['p99'] for x in r], '{:.2f}')} | "
                     f"{spread([x['write_ms']['p999'] for x in r], '{:.2f}')} | "
                     f"{spread([x['event_delivery_ms']['p99'] for x in r], '{:.1f}') if screens != 'none' else '—'} | {spread([x['failed_screens'] for x in r])} |")
open(f"{out}/results.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
