#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build/fuzz and runs each for SECONDS (default 60)
# over a copy of its seed corpus, with its dictionary. Fails on any crash, leak, sanitizer report,
# timeout or broken invariant; the input that found it is left in build/fuzz/findings/<target>/.
#   tests/fuzz/run.sh            # what CI runs (deploy/test.sh): about a minute per target
#   tests/fuzz/run.sh 3600       # a long run on demand
#   tests/fuzz/run.sh 20 http    # some targets only
#   tests/fuzz/run.sh 0          # build only
# The committed corpus (tests/fuzz/corpus) is never written; new inputs stay in build/fuzz/corpus.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(http event-json catan agot carcassonne-validation carcassonne-engine)
fi

# ccache keys on paths relative to the checkout, and (with -g) not on the build directory's
# absolute path, so that any clone shares the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
build=build/fuzz
# -O1 without NDEBUG: the libraries' asserts stay on.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
  -DTALLY_FUZZ=ON -DTALLY_TESTS=OFF -DTALLY_BENCH=OFF >/dev/null
cmake --build "$build" -j "${FUZZ_JOBS:-2}" --target fuzzers
((seconds > 0)) || exit 0  # (libFuzzer takes 0 as "no limit")

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for target in "${targets[@]}"; do
  corpus=$build/corpus/$target
  findings=$build/findings/$target
  rm -rf "$corpus" "$findings"
  mkdir -p "$corpus" "$findings"
  cp tests/fuzz/corpus/"$target"/* "$corpus"/
  dict=()
  [[ -f tests/fuzz/$target.dict ]] && dict=(-dict=tests/fuzz/$target.dict)
  [[ $target == carcassonne-* ]] && dict=(-dict=tests/fuzz/carcassonne.dict)
  # Room past the 8 KiB header limit for http; bodies past 64 KiB are told by Content-Length.
  max_len=8192
  [[ $target == http ]] && max_len=20000
  echo "fuzz: $target for ${seconds}s"
  if "$build/tests/fuzz/fuzz-$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=4096 -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="$findings/" >"$build/fuzz-$target.log" 2>&1; then
    done_line=$(grep -E "^#[0-9]+[[:space:]]+DONE" "$build/fuzz-$target.log" | tail -n 1)
    echo "fuzz: $target: ${done_line#*DONE } — corpus $(ls "$corpus" | wc -l) files from" \
      "$(ls tests/fuzz/corpus/"$target" | wc -l) seeds, no finding"
  else
    echo "fuzz: $target FAILED — the input is in $findings/, the log in $build/fuzz-$target.log"
    tail -n 40 "$build/fuzz-$target.log"
    failed+=("$target")
  fi
done
if ((${#failed[@]} > 0)); then
  echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}"
  exit 1
fi
# (Not "N passed, N failed": the closing line CI counts tests by stays ctest's.)
echo "fuzz: all ${#targets[@]} targets ran ${seconds}s each without a finding"
