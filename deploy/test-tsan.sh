#!/usr/bin/env bash
# The ThreadSanitizer stage (deploy/test.sh runs it after the tests, before the fuzz targets): in
# build/tsan (-DTALLY_TSAN=ON), only the concurrency tests, those labelled `tsan`, and what they
# run: the event store's threads (events-store), the live feed through a real tallyd built with
# TSan (daemon-live-limits), the standby acks (daemon-standby-acks), the catalogs rendered from
# many threads (i18n-catalog). A race reported anywhere — in a test or in a tallyd it started —
# fails the stage: the reports go to build/tsan/reports/ and are printed. tests/tsan.supp holds
# the suppressions, each with why. Says its wall time at the end (CI's budget is 90 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
jobs=$(nproc)
targets=(events-store-test daemon-standby-acks-test i18n-catalog-test tallyd-test daemon-live-limits-test)
cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTALLY_TSAN=ON -DTALLY_BENCH=OFF
cmake --build build/tsan -j "$jobs" --target "${targets[@]}"
built=$SECONDS

reports=$PWD/build/tsan/reports
rm -rf "$reports"
mkdir -p "$reports"
# log_path: a report of a tallyd child lands in a file too (its stderr is the test's to read).
export TSAN_OPTIONS="log_path=$reports/tsan second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp"
status=0
(cd build/tsan && ctest -L tsan --output-on-failure -j "$jobs") || status=$?
if compgen -G "$reports/tsan.*" >/dev/null; then
  echo "ThreadSanitizer reported races:" >&2
  cat "$reports"/tsan.* >&2
  status=1
fi
echo "ThreadSanitizer stage: $((SECONDS - started)) s (build $((built - started)) s, tests $((SECONDS - built)) s)"
exit "$status"
