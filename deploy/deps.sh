#!/usr/bin/env bash
# Installs exactly the Debian packages tallyd needs to build, test and run that are missing.
# Idempotent: when everything is present it installs nothing. Needs root (or sudo) only when
# something is missing. Both README commands call this first.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache git ca-certificates
  # libraries (Debian 12 "bookworm" names)
  libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev librocksdb-dev capnproto libcapnp-dev
  libgtest-dev libgmock-dev libbenchmark-dev libssl-dev libicu-dev
  # the server's allocator (tcmalloc, CMakeLists.txt: TALLY_TCMALLOC)
  libgoogle-perftools-dev
  # the README's tour uses curl; the TLS tests make a certificate with openssl
  curl openssl
  # the page tests: Chromium headless, driven from node (playwright-core comes from npm ci)
  nodejs npm chromium
  # the fuzz targets (tests/fuzz): clang and its runtime libraries (libFuzzer, ASan, UBSan)
  clang libclang-rt-14-dev
)
# Callers may ask for more (deploy/bench.sh: the benchmark's peers), installed the same way.
read -ra extra <<<"${TALLY_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")

# Installed, or provided by an installed package (a nodejs build that bundles npm provides it).
provided=$(dpkg-query -W -f='${Status}|${Provides}\n' 2>/dev/null | sed -n 's/^install ok installed|//p')
present() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" && return 0
  grep -Eq "(^|, )$1( |,|\$)" <<<"$provided"
}

missing=()
for p in "${packages[@]}"; do
  if ! present "$p"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi

# apt's resolver would satisfy python3-matplotlib (deploy/bench.sh's plots) through scipy's
# python3-pythran and with it libboost1.74-dev, which conflicts with the build's libboost1.81-dev
# (seen on a fresh Debian 12 on 2026-12-02): say that it is not wanted.
for p in "${missing[@]}"; do
  [[ $p == python3-matplotlib ]] && missing+=(python3-pythran-)
done

echo "deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
