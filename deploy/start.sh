#!/usr/bin/env bash
# Installs what is missing, builds tallyd (Release) and starts it on a local data directory.
#   deploy/start.sh [extra tallyd flags]
# Environment: TALLY_DATA (default ./data), TALLY_LISTEN (default 127.0.0.1:8080).
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DTALLY_TESTS=OFF -DTALLY_BENCH=OFF
cmake --build build/release --target tallyd tally-cli  # the server and the tally CLI
exec build/release/daemon/tallyd --data "${TALLY_DATA:-./data}" --listen "${TALLY_LISTEN:-127.0.0.1:8080}" "$@"
