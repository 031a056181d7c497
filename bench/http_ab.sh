#!/usr/bin/env bash
# Interleaved A/B runs of tallyd's HTTP write path, for one change at a time (issue 26): two
# tallyd binaries, and the durable HTTP floor beside them, each run R times in turn (A B floor A B
# floor …) against a fresh data directory, with the load generator's 64 judges. Interleaving
# spreads the shared machine's slow minutes over all three; the medians and each run are printed.
#
#   bench/http_ab.sh --a OLD/tallyd --b NEW/tallyd [--rounds 5] [--writes 40000] [--writers 64]
#                    [--bin build/bench] [--no-floor]
#
# Per run: appends/s, server CPU µs per append (user + system of the server's process tree over
# the run, from /proc), and tallyd ÷ the floor of the same round. Needs a Release build of
# tally-loadgen and tally-http-floor under --bin (cmake --build build/bench --target …).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
A="" B="" ROUNDS=5 WRITES=40000 WRITERS=64 BIN=build/bench FLOOR=1
while (($#)); do
  case $1 in
    --a) A=$(realpath "$2"); shift 2 ;;
    --b) B=$(realpath "$2"); shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --writes) WRITES=$2; shift 2 ;;
    --writers) WRITERS=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --no-floor) FLOOR=0; shift ;;
    *) echo "http_ab: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -x $A ]] || { echo "http_ab: --a must name a tallyd binary" >&2; exit 2; }
LOADGEN=$ROOT/$BIN/bench/tally-loadgen
FLOOR_BIN=$ROOT/$BIN/bench/tally-http-floor
BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tally-ab.XXXXXX")
source bench/peers/servers.sh
TALLYD_PID="" FLOOR_PID=""
cleanup() {
  [[ -n $TALLYD_PID ]] && stop_pid "$TALLYD_PID"
  [[ -n $FLOOR_PID ]] && stop_pid "$FLOOR_PID"
  rm -rf "$BENCH_TMP"
}
trap cleanup EXIT

# `point NAME PID ADDR TOKEN-FILE`: one load generator run; prints "NAME appends/s µs/append".
point() {
  local name=$1 pid=$2 addr=$3 token=$4 before after
  before=$(tree_cpu_seconds "$pid")
  "$LOADGEN" --server "$addr" --token-file "$token" --writers "$WRITERS" --screens 0 --rate 0 \
    --writes "$WRITES" --json "$BENCH_TMP/$name.json" >/dev/null
  after=$(tree_cpu_seconds "$pid")
  python3 - "$BENCH_TMP/$name.json" "$before" "$after" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cpu = float(sys.argv[3]) - float(sys.argv[2])
print(f"{sys.argv[4]} {r['writes_per_second']:.0f} {cpu / r['writes'] * 1e6:.1f}")
PY
}

results=$BENCH_TMP/results
: >"$results"
for r in $(seq "$ROUNDS"); do
  for side in a b; do
    bin=$A
    [[ $side == b ]] && bin=$B
    [[ -n $bin ]] || continue
    TALLYD_BIN=$bin start_tallyd "$side-$r"
    point "$side" "$TALLYD_PID" "$TALLYD_ADDR" "$TALLYD_DATA/organizer.token" | tee -a "$results"
    stop_tallyd
    TALLYD_PID=""
  done
  if ((FLOOR)); then
    start_floor "floor-$r" durable
    point floor "$FLOOR_PID" "$FLOOR_ADDR" "$FLOOR_DIR/organizer.token" | tee -a "$results"
    stop_floor
    FLOOR_PID=""
  fi
done

python3 - "$results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, rate, cpu = line.split()
    runs.setdefault(name, []).append((float(rate), float(cpu)))
floor = runs.get("floor")
for name, xs in runs.items():
    rates = [x[0] for x in xs]
    line = (f"{name:6} median {statistics.median(rates):8.0f}/s  "
            f"{statistics.median(x[1] for x in xs):5.1f} µs/append  runs {' '.join(f'{x:.0f}' for x in rates)}")
    if floor and name != "floor":
        ratios = [a / f[0] for a, f in zip(rates, floor)]
        line += f"  ÷ floor {statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"
    print(line)
if "a" in runs and "b" in runs:
    pairs = [b[0] / a[0] for a, b in zip(runs["a"], runs["b"])]
    print(f"b ÷ a per round: {' '.join(f'{p:.2f}' for p in pairs)} (median {statistics.median(pairs):.2f})")
PY
