#!/bin/sh
# Installs the ratings test's npm packages (package-lock.json: openskill and what it needs) into
# DIR with `npm ci`, unless DIR already holds exactly that lock file's packages. Run by the CTest
# fixture ratings-deps; the packages go to the build directory, never into the source tree.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
dir=$1
mkdir -p "$dir"
if cmp -s "$src/package-lock.json" "$dir/node_modules/.installed-package-lock.json" 2>/dev/null; then
  echo "ratings deps: up to date in $dir"
  exit 0
fi
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "ratings deps: $tool is missing (deploy/deps.sh installs it)" >&2; exit 1; }
done
cp "$src/package.json" "$src/package-lock.json" "$dir/"
npm ci --prefix "$dir" --no-audit --no-fund
cp "$src/package-lock.json" "$dir/node_modules/.installed-package-lock.json"
echo "ratings deps: installed in $dir"
