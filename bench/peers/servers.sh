# Starts and stops the servers bench/run-all.sh compares — tallyd, Redis and PostgreSQL — on
# loopback, each in a directory of its own under $BENCH_TMP, on a free port. Sourced, not run.
# Nothing here touches a system service: Redis and PostgreSQL run from Debian's binaries with
# their own data directories and stop with the benchmark.
#
# Each start_X sets X_PID and X_PORT (tallyd: TALLYD_PID, TALLYD_ADDR, TALLYD_DATA; the HTTP
# floor: FLOOR_PID, FLOOR_ADDR, FLOOR_DIR).

# A TCP port nobody listens on now.
free_port() {
  "${PYTHON:-python3}" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Waits up to $2 seconds for command $1 to succeed.
wait_for() {
  local deadline=$((SECONDS + $2))
  until eval "$1" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then echo "timed out waiting for: $1" >&2; return 1; fi
    sleep 0.1
  done
}

# Sleeps 5 ms without starting a process (sleep(1) would fork 200 times a second while tallyd
# replays): a read that times out on a FIFO nobody writes to.
nap() {
  [[ -p $BENCH_TMP/nap ]] || mkfifo "$BENCH_TMP/nap"
  read -rt 0.005 <>"$BENCH_TMP/nap" || true
}

# Waits until server $1 (its name) with pid $2, started with --ready-file, has written its
# address to file $3; fails, with the end of its log ($4, optional), if it exits first.
wait_for_ready_file() {
  local name=$1 pid=$2 ready=$3 log=${4:-}
  until [[ -s $ready ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$name exited before it listened${log:+; its log:}" >&2
      [[ -n $log ]] && tail "$log" >&2
      return 1
    fi
    nap
  done
}

# Stops process $1 with SIGTERM and waits for it (up to 30 s, then SIGKILL).
stop_pid() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || true
}

# CPU seconds (user + system) used so far by process $1 and its descendants, including those
# that have exited and been waited for (PostgreSQL's backend of a closed connection). The
# difference across a point is what the server spent on it.
tree_cpu_seconds() {
  "${PYTHON:-python3}" - "$1" <<'PY'
import os, sys
hz = os.sysconf("SC_CLK_TCK")
stats = {}
for name in os.listdir("/proc"):
    if name.isdigit():
        try:
            text = open(f"/proc/{name}/stat").read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        # after ')': state ppid … utime(12) stime(13) cutime(14) cstime(15), 0-based from state
        stats[int(name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
tree, i = [int(sys.argv[1])], 0
while i < len(tree):
    tree += [p for p, (parent, _) in stats.items() if parent == tree[i]]
    i += 1
print(sum(stats[p][1] for p in tree if p in stats) / hz)
PY
}

# Sets CHILDREN_CPU_MS to the CPU (user + system, ms) used so far by the children this shell has
# waited for: the difference across a client's run is the client's CPU. Nothing here forks (call
# it as a plain command, not in $(…)), so measuring adds nothing to what is measured.
children_cpu_ms() {
  local file="$BENCH_TMP/times" user system total=0 part
  times >"$file"  # a builtin, in this shell: $(times) would report a subshell's children
  { read -r _ _; read -r user system; } <"$file"
  for part in "$user" "$system"; do  # "1m2.345s"
    [[ $part =~ ^([0-9]+)m([0-9]+)\.([0-9]+)s$ ]] || return 1
    total=$((total + BASH_REMATCH[1] * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
  done
  CHILDREN_CPU_MS=$total
}

# --- tallyd: a fresh data directory per start, or the store given as $2 (a data directory with
# a store/ that tallyd replays at start); the per-token rate limit lifted (the load generator's
# judges write as fast as they are answered). Sets TALLYD_START_SECONDS: from exec to listening.
start_tallyd() {
  local name=$1 started
  TALLYD_DATA=${2:-"$BENCH_TMP/tallyd-$name"}
  [[ -n ${2:-} ]] || rm -rf "$TALLYD_DATA"
  rm -f "$TALLYD_DATA.ready"
  started=$EPOCHREALTIME
  "$TALLYD_BIN" --data "$TALLYD_DATA" --listen 127.0.0.1:0 --ready-file "$TALLYD_DATA.ready" \
    --rate-limit 1000000000 --rate-burst 1000000000 2>"$TALLYD_DATA.log" &
  TALLYD_PID=$!
  wait_for_ready_file tallyd "$TALLYD_PID" "$TALLYD_DATA.ready" "$TALLYD_DATA.log" || return 1
  TALLYD_START_SECONDS=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
  TALLYD_ADDR=$(<"$TALLYD_DATA.ready")
}

stop_tallyd() {
  stop_pid "$TALLYD_PID"
  rm -rf "$TALLYD_DATA" "$TALLYD_DATA.ready"
}

# --- tally-http-floor (bench/http_floor.cpp): tallyd's HTTP stack answering at once, with
# `durable` as $2 its answers waiting for a group-committed fdatasync of the bodies. Run like
# tallyd by tally-loadgen (any token is accepted: FLOOR_DIR/organizer.token).
start_floor() {
  local name=$1 mode=${2:-}
  FLOOR_DIR="$BENCH_TMP/floor-$name"
  rm -rf "$FLOOR_DIR" && mkdir -p "$FLOOR_DIR"
  echo floor >"$FLOOR_DIR/organizer.token"
  local durable=()
  [[ $mode == durable ]] && durable=(--durable "$FLOOR_DIR/log")
  "$FLOOR_BIN" --listen 127.0.0.1:0 --ready-file "$FLOOR_DIR/ready" "${durable[@]}" >/dev/null &
  FLOOR_PID=$!
  wait_for_ready_file tally-http-floor "$FLOOR_PID" "$FLOOR_DIR/ready" || return 1
  FLOOR_ADDR=$(<"$FLOOR_DIR/ready")
}

stop_floor() {
  stop_pid "$FLOOR_PID"
  rm -rf "$FLOOR_DIR"
}

# --- Redis: the append-only file synced before every reply (appendfsync always), no snapshots.
start_redis() {
  local dir="$BENCH_TMP/redis"
  mkdir -p "$dir"
  REDIS_PORT=$(free_port)
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$dir" --save "" \
    --appendonly yes --appendfsync always --daemonize no --logfile "$dir/redis.log" &
  REDIS_PID=$!
  wait_for "redis-cli -p $REDIS_PORT ping | grep -q PONG" 30
}

stop_redis() {
  stop_pid "$REDIS_PID"
}

# --- PostgreSQL: its own cluster (initdb) with synchronous_commit = on and fsync = on, the
# defaults, written out so that the log of the run shows them. PostgreSQL refuses to run as
# root: as root it runs as the `postgres` user that Debian's package creates.
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)

as_pg_user() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local dir="$BENCH_TMP/postgres"
  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]]; then chown postgres: "$dir"; chmod 755 "$BENCH_TMP"; fi
  PG_PORT=$(free_port)
  PG_USER=$(as_pg_user id -un)
  as_pg_user "$PG_BIN/initdb" -D "$dir/data" -U "$PG_USER" --auth=trust -E UTF8 --locale=C \
    >"$dir/initdb.log" 2>&1
  as_pg_user "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $dir -c synchronous_commit=on -c fsync=on -c max_connections=200" \
    >/dev/null
  PG_PID=$(head -1 "$dir/data/postmaster.pid")
  PG_CONNINFO="host=127.0.0.1 port=$PG_PORT dbname=postgres user=$PG_USER"
}

stop_postgres() {
  as_pg_user "$PG_BIN/pg_ctl" -D "$BENCH_TMP/postgres/data" -m fast -w stop >/dev/null || true
}
