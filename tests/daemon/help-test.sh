#!/usr/bin/env bash
# help-test.sh TALLYD CONFIGURATION_MD — `tallyd --help` names every setting of
# docs/configuration.md's table, each with its default, and no setting the document lacks.
set -euo pipefail
tallyd=$1
doc=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

help=$("$tallyd" --help) || fail "tallyd --help failed"
# The document's table rows: | `key` | default | meaning |
documented=$(sed -n 's/^| `\([a-z_]*\)` |.*/\1/p' "$doc" | sort)
# The help's setting lines: `  --key KIND  description (default: …)`; --config is the file itself.
helped=$(sed -n 's/^  --\([a-z_]*\) .*(default: .*)$/\1/p' <<<"$help" | sort)
[[ $(wc -w <<<"$documented") -ge 25 ]] || fail "could not read the settings of $doc"
grep -q '^  --config FILE ' <<<"$help" || fail "--help does not name --config"

missing=$(comm -23 <(echo "$documented") <(echo "$helped"))
extra=$(comm -13 <(echo "$documented") <(echo "$helped"))
[[ -z $missing ]] || fail "in $doc but not in tallyd --help (with a default): $missing"
[[ -z $extra ]] || fail "in tallyd --help but not in $doc: $extra"
echo "tallyd --help names the $(wc -w <<<"$documented") settings of $(basename "$doc")"
