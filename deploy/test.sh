#!/usr/bin/env bash
# Installs what is missing, builds everything with AddressSanitizer + UndefinedBehaviorSanitizer
# and warnings on, and runs every test (ctest), then the concurrency tests under ThreadSanitizer
# (deploy/test-tsan.sh), then each fuzz target for a bounded time
# (tests/fuzz/run.sh, TALLY_FUZZ_SECONDS each, default 60; 0 skips them). This is what CI runs
# (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/deps.sh
jobs=$(nproc)
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTALLY_SANITIZE=ON -DTALLY_BENCH=OFF
cmake --build build/test -j "$jobs"
cd build/test
ctest --output-on-failure -j "$jobs"
cd ../..
# The concurrency tests again under ThreadSanitizer, in build/tsan (only their targets).
deploy/test-tsan.sh
seconds=${TALLY_FUZZ_SECONDS:-60}
if ((seconds > 0)); then
  tests/fuzz/run.sh "$seconds"
fi
