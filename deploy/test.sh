#!/usr/bin/env bash
# Installs what is missing, builds everything with AddressSanitizer + UndefinedBehaviorSanitizer
# and warnings on, and runs every test (ctest). This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/deps.sh
jobs=$(nproc)
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTALLY_SANITIZE=ON -DTALLY_BENCH=OFF
cmake --build build/test -j "$jobs"
cd build/test
ctest --output-on-failure -j "$jobs"
