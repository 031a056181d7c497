#!/usr/bin/env bash
# options-test.sh BIN_DIR — the benchmarks' command lines (bench/options.hpp): each program's
# --help names every flag that bench/run-all.sh, bench/peers/servers.sh and bench/replication.sh
# pass it, an unknown flag or a bad value stops it with exit code 2, and bench-replay takes its
# number of events as the one word without a flag.
set -euo pipefail
bin=$1
work=$(mktemp -d /tmp/tally-bench-options-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

declare -A flags=(
  [tally-loadgen]="server screens-server writers-cpu screens-cpu token-file token writers screens writes rate tables-per-writer pid json"
  [tally-http-floor]="listen threads durable ready-file"
  [tally-big-event]="server token-file token players judges rounds pid json"
  [bench-replay]="events json keep"
)
for program in "${!flags[@]}"; do
  help=$("$bin/$program" --help) || fail "$program --help"
  for flag in ${flags[$program]}; do
    grep -qE "^  --$flag " <<<"$help" || fail "$program --help does not name --$flag"
  done
  status=0
  "$bin/$program" --no-such-flag 1 >/dev/null 2>"$work/err" || status=$?
  [[ $status == 2 ]] || fail "$program --no-such-flag exited $status, not 2"
  grep -q "no-such-flag" "$work/err" || fail "$program does not name the unknown flag"
done
status=0
"$bin/tally-loadgen" --writers many >/dev/null 2>"$work/err" || status=$?
[[ $status == 2 ]] && grep -q "writers" "$work/err" || fail "a bad --writers: exit $status"
status=0
"$bin/tally-big-event" --server 127.0.0.1:1 >/dev/null 2>"$work/err" || status=$?
[[ $status == 2 ]] && grep -q "token" "$work/err" || fail "tally-big-event without a token: exit $status"

# A tiny replay: the positional number of events, --json and --keep.
TMPDIR=$work "$bin/bench-replay" 300 --json "$work/replay.json" --keep "$work/store" >"$work/replay.log" 2>&1 ||
  { cat "$work/replay.log"; fail "bench-replay 300"; }
events=$(grep -oE '"events":[0-9]+' "$work/replay.json" | cut -d: -f2)
[[ ${events:-0} -ge 300 ]] || fail "bench-replay did not replay 300 events: $(cat "$work/replay.json")"
echo "bench options: 4 programs, every flag the scripts pass"
