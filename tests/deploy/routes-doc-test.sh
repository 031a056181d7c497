#!/usr/bin/env bash
# docs/api.md's "Routes" table is what `tallyd routes --markdown` prints: the route table the
# daemon routes and authorizes with. A route added, removed or given other access without the
# docs (or the other way round) fails here, with the difference.
set -euo pipefail
tallyd=$1
api_md=$2
expected=$(mktemp)
documented=$(mktemp)
trap 'rm -f "$expected" "$documented"' EXIT
"$tallyd" routes --markdown >"$expected"
sed -n '/<!-- routes:begin -->/,/<!-- routes:end -->/p' "$api_md" | sed '1d;$d' >"$documented"
if [[ ! -s $documented ]]; then
  echo "docs/api.md has no table between <!-- routes:begin --> and <!-- routes:end -->" >&2
  exit 1
fi
if ! diff -u "$documented" "$expected"; then
  echo "docs/api.md's routes differ from 'tallyd routes --markdown' (above: - docs, + tallyd)" >&2
  exit 1
fi
echo "docs/api.md lists the $(($(wc -l <"$expected") - 2)) routes tallyd serves, with their access"
