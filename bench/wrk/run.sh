#!/usr/bin/env bash
# tallyd's write path driven by wrk (Debian's package) instead of tally-loadgen, so that the load
# generator's figure is checked by a client nobody here wrote: sets up a Carcassonne tournament
# with a two-player table per connection and a judge (over HTTP, as tally-loadgen does), then runs
# bench/wrk/results.lua with one thread per connection, and writes the accepted writes per second
# and latencies as JSON.
#   bench/wrk/run.sh HOST:PORT ORGANIZER-TOKEN-FILE OUT.json [connections=64] [seconds=10]
set -euo pipefail
addr=$1 token_file=$2 out=$3 connections=${4:-64} seconds=${5:-10}
here=$(dirname "$0")
read -r tournament judge < <("${PYTHON:-python3}" - "$addr" "$token_file" "$connections" <<'PY'
import json, random, sys, urllib.request
addr, token_file, tables = sys.argv[1], sys.argv[2], int(sys.argv[3])
token = open(token_file).read().strip()
def post(path, body):
    req = urllib.request.Request(f"http://{addr}{path}", data=json.dumps(body).encode(),
                                 method="POST", headers={"Authorization": f"Bearer {token}",
                                                         "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
t = f"wrk-{random.randrange(10**6)}"
post("/v1/tournaments", {"id": t, "name": "wrk", "game": "carcassonne"})
for p in range(1, 2 * tables + 1):
    post(f"/v1/tournaments/{t}/players", {"id": f"p{p}", "name": f"Player p{p}"})
seating = [[f"p{2 * i - 1}", f"p{2 * i}"] for i in range(1, tables + 1)]
post(f"/v1/tournaments/{t}/rounds", {"method": "manual", "tables": seating, "reason": "wrk"})
print(t, post("/v1/judges", {"name": "wrk judge"})["token"])
PY
)
wrk -t "$connections" -c "$connections" -d "${seconds}s" -s "$here/results.lua" \
  "http://$addr" -- "$tournament" "$judge" | tee "$out.log" | grep -v '^WRK_JSON'
grep '^WRK_JSON' "$out.log" | sed 's/^WRK_JSON //' >"$out"
rm -f "$out.log"
