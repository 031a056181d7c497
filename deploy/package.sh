#!/usr/bin/env bash
# Builds the release Debian package: build/package/tallyd_VERSION_ARCH.deb
# (tallyd, tally, the pages, the systemd unit, /etc/tallyd/tallyd.conf). Install it with
#   apt-get install ./build/package/tallyd_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DTALLY_TESTS=OFF -DTALLY_BENCH=OFF
cmake --build build/release
cpack -G DEB -B build/package --config build/release/CPackConfig.cmake
ls -l build/package/*.deb
