#!/usr/bin/env bash
# The whole benchmark of issue 9 in one run, on this machine: tallyd side by side with Redis
# Streams and PostgreSQL, same durability (every acknowledged write synced), same payloads.
#
#   bench/run-all.sh [--out DIR] [--repeat N] [--quick] [--no-build]
#
#   --out DIR    where the results go (default build/bench-results/DATE-TIME)
#   --repeat N   run the throughput and delivery points N times, interleaved (default 3); the
#                report gives the median and the spread
#   --quick      small counts, one repeat, replay of 10^4 only: checks that everything runs
#   --no-build   use the binaries already built
#
# Runs, each against a fresh server on loopback:
#   tallyd HTTP appends (tally-loadgen, no screens) at 1, 8, 64, 256 writers;
#   the floor under that figure at 64 writers (tally-http-floor: the same HTTP stack answering at
#   once, and answering after a group-committed fdatasync of the bodies);
#   the same 64 judges' writes driven by wrk and a Lua script (bench/wrk), to check tally-loadgen;
#   Redis XADD (appendfsync always) and PostgreSQL INSERT+NOTIFY (synchronous_commit on) at 64
#   clients with one subscriber (tally-peer-bench), and PostgreSQL's INSERT alone as a reference;
#   the store's own append API (bench-store): append() from 1, 8, 64 threads, and append_async()
#   with 8 and 64 appends in flight (the ratio of the goals uses the latter, as tallyd appends);
#   replay of 10^4, 10^5, 10^6 events (bench-replay);
#   write → WebSocket delivery at 10, 100, 1000, 5000 screens (tally-loadgen, 4 judges at 50/s),
#   and at 1000 screens at a venue's pace (5 writes/s);
#   the big event (tally-big-event): a Catan tournament of 100, 300, 1000, 3000 players (--quick:
#   100, 300), three rounds, then tallyd restarted on its data directory for the replay time;
# with the servers' memory at each point. Writes DIR/parts/*.json (each program's own output),
# DIR/results.json (everything, with the ratios and goals), DIR/results.md (the tables),
# DIR/*.png (bench/plot.py) and DIR/run.log. Not part of the test command; takes ~5 minutes with --repeat 2
# on the dev machine once built.
#
# Needs, besides the build dependencies (deploy/deps.sh): redis-server, postgresql,
# libhiredis-dev, libpq-dev, python3-matplotlib. Environment: BENCH_JOBS (build parallelism),
# PYTHON (default /usr/bin/python3: Debian's, which has Debian's matplotlib).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-/usr/bin/python3}

OUT="build/bench-results/$(date +%Y%m%d-%H%M%S)"
REPEAT=3
QUICK=0
BUILD=1
while (($#)); do
  case $1 in
    --out) OUT=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --quick) QUICK=1; REPEAT=1; shift ;;
    --no-build) BUILD=0; shift ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done

# --- what the run needs
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
pkg-config --exists hiredis || missing+=(libhiredis-dev)
pkg-config --exists libpq || missing+=(libpq-dev)
"$PYTHON" -c 'import matplotlib' 2>/dev/null || missing+=(python3-matplotlib)
command -v wrk >/dev/null || missing+=(wrk)
if ((${#missing[@]})); then
  echo "run-all: missing Debian packages: ${missing[*]}" >&2
  echo "         apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

# --- build: tallyd and its benchmarks (Release), and the peers' client (a project of its own)
RELEASE=build/bench-release
PEERS_BUILD=build/bench-peers
if ((BUILD)); then
  jobs=${BENCH_JOBS:-$(nproc)}
  cmake -S . -B "$RELEASE" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTALLY_TESTS=OFF -DTALLY_BENCH=ON >/dev/null
  cmake --build "$RELEASE" -j "$jobs" --target tallyd tally-loadgen tally-http-floor bench-store \
    bench-replay tally-big-event
  cmake -S bench/peers -B "$PEERS_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$PEERS_BUILD" -j "$jobs"
fi
TALLYD_BIN=$ROOT/$RELEASE/daemon/tallyd
LOADGEN=$ROOT/$RELEASE/bench/tally-loadgen
FLOOR_BIN=$ROOT/$RELEASE/bench/tally-http-floor
BENCH_STORE=$ROOT/$RELEASE/bench/bench-store
BENCH_REPLAY=$ROOT/$RELEASE/bench/bench-replay
PEER_BENCH=$ROOT/$PEERS_BUILD/tally-peer-bench
BIG_EVENT=$ROOT/$RELEASE/bench/tally-big-event

# --- where it runs: servers' data on the same disk as the build, removed at the end
PARTS=$OUT/parts
mkdir -p "$PARTS"
BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tally-bench.XXXXXX")
source bench/peers/servers.sh
TALLYD_PID="" FLOOR_PID="" REDIS_PID="" PG_PID=""
cleanup() {
  [[ -n $TALLYD_PID ]] && stop_pid "$TALLYD_PID"
  [[ -n $FLOOR_PID ]] && stop_pid "$FLOOR_PID"
  [[ -n $REDIS_PID ]] && stop_pid "$REDIS_PID"
  [[ -n $PG_PID ]] && stop_postgres
  rm -rf "$BENCH_TMP"
}
trap cleanup EXIT
exec > >(tee "$OUT/run.log") 2>&1

# --- the counts (per point, over all clients)
if ((QUICK)); then
  declare -A HTTP_WRITES=([1]=200 [8]=1000 [64]=3000 [256]=3000)
  PEER_WRITES=3000 PG_WRITES=500 WRK_SECONDS=2 REPLAY_SIZES=(10000) SCREENS=(10 100) DELIVERY_WRITES=100 VENUE_WRITES=10
else
  declare -A HTTP_WRITES=([1]=2000 [8]=10000 [64]=40000 [256]=40000)
  PEER_WRITES=40000 PG_WRITES=4000 WRK_SECONDS=5 REPLAY_SIZES=(10000 100000 1000000)
  SCREENS=(10 100 1000 5000) DELIVERY_WRITES=400 VENUE_WRITES=100
fi

"$PYTHON" - "$PARTS/meta.json" "$REPEAT" <<'EOF'
import json, os, platform, subprocess, sys, datetime
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
json.dump({
    "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
    "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
    "filesystem": sh("df -T " + os.environ.get("TMPDIR", "/tmp") + " | awk 'NR==2{print $2}'"),
    "commit": sh("git rev-parse --short HEAD") + ("+changes" if sh("git status --porcelain") else ""),
    "repeat": int(sys.argv[2]),
    "redis": sh("redis-server --version"),
    "postgres": sh("ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1 | xargs -I{} {}/postgres --version"),
}, open(sys.argv[1], "w"), indent=1)
EOF

# Runs client command `$@` as point $1 against the server process tree $2, and writes beside its
# JSON the CPU seconds the server and the client spent on it and the machine's load average
# before it (PARTS/NAME.cpu.json: on a shared machine, a load above the core count means others
# were taking CPU). A failed point (exit code ≠ 0, e.g. missing deliveries) is kept: its JSON
# says what went wrong.
measured() {
  local name=$1 server=$2 server_before server_after client_before load
  shift 2
  echo "== $name"
  read -r load _ </proc/loadavg
  server_before=$(tree_cpu_seconds "$server")
  children_cpu_ms
  client_before=$CHILDREN_CPU_MS
  "$@" || echo "   ($name: ${1##*/} exited $?)"
  children_cpu_ms
  server_after=$(tree_cpu_seconds "$server")
  awk -v after="$server_after" -v before="$server_before" -v client="$((CHILDREN_CPU_MS - client_before))" \
    -v load="$load" 'BEGIN { printf "{\"server_cpu_seconds\": %.3f, \"client_cpu_seconds\": %.3f, \"load_before\": %s}\n", after - before, client / 1000, load }' \
    >"$PARTS/$name.cpu.json"
}

# tally-loadgen against a fresh tallyd: `loadgen_point NAME LOADGEN-ARGS…`.
loadgen_point() {
  local name=$1
  shift
  start_tallyd "$name"
  measured "$name" "$TALLYD_PID" "$LOADGEN" --server "$TALLYD_ADDR" \
    --token-file "$TALLYD_DATA/organizer.token" --pid "$TALLYD_PID" --json "$PARTS/$name.json" "$@"
  stop_tallyd
  TALLYD_PID=""
}

# tally-loadgen against a fresh tally-http-floor: `floor_point NAME MODE LOADGEN-ARGS…`.
floor_point() {
  local name=$1 mode=$2
  shift 2
  start_floor "$name" "$mode"
  measured "$name" "$FLOOR_PID" "$LOADGEN" --server "$FLOOR_ADDR" \
    --token-file "$FLOOR_DIR/organizer.token" --pid "$FLOOR_PID" --json "$PARTS/$name.json" "$@"
  stop_floor
  FLOOR_PID=""
}

# tally-peer-bench: `peer_point NAME SERVER-PID PEER-BENCH-ARGS…`; NAME is PEER-rREPEAT.
peer_point() {
  local name=$1 server=$2
  shift 2
  measured "$name" "$server" "$PEER_BENCH" --peer "${name%-r*}" --pid "$server" \
    --json "$PARTS/$name.json" "$@"
}

echo "run-all: results in $OUT, $REPEAT repeat(s)"
for r in $(seq "$REPEAT"); do
  # tallyd at 64 and the peers back to back: their ratio is the one the goals are about.
  loadgen_point "http-w64-r$r" --writers 64 --screens 0 --rate 0 --writes "${HTTP_WRITES[64]}"
  for mode in http durable; do
    floor_point "floor-$mode-r$r" "$mode" --writers 64 --screens 0 --rate 0 --writes "${HTTP_WRITES[64]}"
  done
  # The same writes driven by wrk with a Lua script (bench/wrk): a client nobody here wrote
  # checks tally-loadgen's figure.
  start_tallyd "wrk-w64-r$r"
  measured "wrk-w64-r$r" "$TALLYD_PID" bench/wrk/run.sh "$TALLYD_ADDR" \
    "$TALLYD_DATA/organizer.token" "$PARTS/wrk-w64-r$r.json" 64 "$WRK_SECONDS"
  stop_tallyd
  TALLYD_PID=""
  start_redis
  peer_point "redis-r$r" "$REDIS_PID" --server "127.0.0.1:$REDIS_PORT" --clients 64 --writes "$PEER_WRITES"
  stop_redis
  REDIS_PID=""
  start_postgres
  peer_point "postgres-r$r" "$PG_PID" --conninfo "$PG_CONNINFO" --clients 64 --writes "$PG_WRITES"
  peer_point "postgres-insert-r$r" "$PG_PID" --conninfo "$PG_CONNINFO" --clients 64 --writes "$PEER_WRITES"
  stop_postgres
  PG_PID=""
  rm -rf "$BENCH_TMP/redis" "$BENCH_TMP/postgres"
  echo "== store-r$r"
  TMPDIR=$BENCH_TMP "$BENCH_STORE" --benchmark_filter='BM_StoreAppendSynced|BM_StoreAppendAsync' \
    --benchmark_out="$PARTS/store-r$r.json" --benchmark_out_format=json
  for w in 1 8 256; do
    loadgen_point "http-w$w-r$r" --writers "$w" --screens 0 --rate 0 --writes "${HTTP_WRITES[$w]}"
  done
  for s in "${SCREENS[@]}"; do
    loadgen_point "delivery-s$s-r$r" --writers 4 --screens "$s" --rate 50 --writes "$DELIVERY_WRITES"
  done
  # 50 writes/s is a stress rate; a venue's judges enter a few results a second at the busiest.
  loadgen_point "venue-s1000-r$r" --writers 4 --screens 1000 --rate 5 --writes "$VENUE_WRITES"
done

for n in "${REPLAY_SIZES[@]}"; do
  echo "== replay-$n"
  TMPDIR=$BENCH_TMP "$BENCH_REPLAY" "$n" --json "$PARTS/replay-$n.json"
done

# The big event (docs/performance.md, "The big event"): N players, three rounds, against a fresh
# tallyd; then tallyd restarted on the same data directory, and the replay time its log gives
# ("projections rebuilt") and its RSS after it added to PARTS/big-event-N.json.
if ((QUICK)); then BIG_SIZES=(100 300); else BIG_SIZES=(100 300 1000 3000); fi
for n in "${BIG_SIZES[@]}"; do
  start_tallyd "big-event-$n"
  measured "big-event-$n" "$TALLYD_PID" "$BIG_EVENT" --server "$TALLYD_ADDR" \
    --token-file "$TALLYD_DATA/organizer.token" --pid "$TALLYD_PID" --players "$n" \
    --json "$PARTS/big-event-$n.json"
  stop_pid "$TALLYD_PID"
  start_tallyd "big-event-$n" "$TALLYD_DATA"
  wait_for "grep -q 'projections rebuilt' '$TALLYD_DATA.log'" 30 || true
  "$PYTHON" - "$PARTS/big-event-$n.json" "$TALLYD_DATA.log" "$TALLYD_PID" "$TALLYD_START_SECONDS" <<'PY'
import json, sys
path, log, pid, start = sys.argv[1:]
try:
    part = json.load(open(path))
except (OSError, ValueError):
    sys.exit(0)  # the point failed; its lines in run.log say why
for line in open(log):
    if "projections rebuilt" in line:
        rebuilt = json.loads(line)
        part["replay"] = {"events": rebuilt["events"], "seconds": rebuilt["seconds"],
                          "start_seconds": float(start)}
rss = next((int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:")), 0)
part["server_rss_mib_after_replay"] = rss / 1024
json.dump(part, open(path, "w"), indent=1)
print(f"   replay: {part.get('replay')}, RSS after it {rss / 1024:.1f} MiB")
PY
  stop_tallyd
  TALLYD_PID=""
done

echo "== report"
"$PYTHON" bench/peers/report.py "$OUT" >/dev/null
"$PYTHON" bench/plot.py "$OUT/results.json" "$OUT"
cat "$OUT/results.md"
echo "run-all: done; $OUT/results.md, $OUT/results.json, $OUT/*.png"
