#!/usr/bin/env bash
# The whole benchmark in one command (not part of the test command; ~5 minutes):
# installs what is missing (the build's packages, and Redis, PostgreSQL, hiredis, libpq and
# matplotlib for the peers and the plots, wrk as a second client of the HTTP figure), builds in
# Release and runs bench/run-all.sh, which compares tallyd with Redis Streams and PostgreSQL on
# this machine in one run.
#   deploy/bench.sh [--quick] [--repeat N] [--out DIR]      (see bench/run-all.sh)
# Results: build/bench-results/DATE-TIME/{results.md,results.json,*.png}; docs/performance.md
# holds the figures of the last run made on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/deps.sh
TALLY_EXTRA_PACKAGES="redis-server postgresql libhiredis-dev libpq-dev python3-matplotlib wrk" deploy/deps.sh
exec bench/run-all.sh "$@"
