#!/usr/bin/env bash
# package-test.sh BUILD_DIR SOURCE_DIR HAS_CLI — builds the .deb with CPack, checks what it holds, unpacks
# it with `dpkg-deb -x` and runs the packaged binaries from there: tallyd with the packaged
# config must serve the API and the packaged pages (found next to its bin/, not in the source tree).
set -euo pipefail
build=$1
source=$2
has_cli=$3  # 1 when the build has the tally CLI, which the package must then hold
work=$(mktemp -d /tmp/tally-package-XXXXXX)
pid=""
cleanup() {
  if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack -G DEB -B "$work/out" --config "$build/CPackConfig.cmake" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack could not build the package"; }
deb=$(ls "$work"/out/tallyd_*.deb)
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

# The control data: name, the dependencies dpkg-shlibdeps found, the maintainer scripts.
info=$(dpkg-deb -I "$deb")
grep -q '^ Package: tallyd$' <<<"$info" || fail "package name is not tallyd"
grep -q '^ Depends:.*librocksdb' <<<"$info" || fail "Depends lacks librocksdb: $info"
grep -q '^ Depends:.*adduser' <<<"$info" || fail "Depends lacks adduser"
dpkg-deb -e "$deb" "$work/control"
[[ $(cat "$work/control/conffiles") == /etc/tallyd/tallyd.conf ]] || fail "tallyd.conf is not a conffile"
for script in postinst prerm postrm; do
  [[ -x $work/control/$script ]] || fail "$script missing or not executable"
done
grep -q 'adduser --system' "$work/control/postinst" || fail "postinst does not create the tallyd user"

# The files.
contents=$(dpkg-deb -c "$deb")
expected=(./usr/bin/tallyd ./etc/tallyd/tallyd.conf ./usr/lib/systemd/system/tallyd.service \
  ./usr/share/tallyd/web/index.html ./usr/share/doc/tallyd/operations.md)
if [[ $has_cli == 1 ]]; then expected+=(./usr/bin/tally); fi
for f in "${expected[@]}"; do
  grep -q " $f\$" <<<"$contents" || fail "$f is not in the package"
done

dpkg-deb -x "$deb" "$work/root"
root=$work/root

# Every key tallyd knows (the settings its --help lists, one line each) is in the example config,
# set or commented out.
conf=$root/etc/tallyd/tallyd.conf
keys=$("$root/usr/bin/tallyd" --help | sed -n 's/^  --\([a-z_]*\) .*(default: .*)$/\1/p')
[[ $(wc -w <<<"$keys") -ge 25 ]] || fail "could not read the settings from the packaged tallyd --help"
for key in $keys; do
  grep -qE "^#?$key = " "$conf" || fail "tallyd.conf does not show the key $key"
done

# The unit names the packaged binary and config, with its hardening.
unit=$root/usr/lib/systemd/system/tallyd.service
for line in 'User=tallyd' 'StateDirectory=tallyd' 'ProtectSystem=strict' 'NoNewPrivileges=yes' 'PrivateTmp=yes' \
  'ExecStart=/usr/bin/tallyd --config /etc/tallyd/tallyd.conf --data /var/lib/tallyd'; do
  grep -qxF "$line" "$unit" || fail "the unit lacks $line"
done
if command -v systemd-analyze >/dev/null; then
  # Checked with the unpacked binary in place of /usr/bin/tallyd (not installed here).
  sed "s|/usr/bin/tallyd|$root/usr/bin/tallyd|; s|/etc/tallyd/|$root/etc/tallyd/|" "$unit" >"$work/tallyd.service"
  systemd-analyze verify "$work/tallyd.service" 2>&1 | tee "$work/verify.log"
  if grep -v 'network-online\|multi-user' "$work/verify.log" | grep -q .; then fail "systemd-analyze verify complained"; fi
fi

# The packaged tally answers.
if [[ $has_cli == 1 ]]; then
  "$root/usr/bin/tally" --help >"$work/tally-help.txt" || fail "packaged tally --help failed"
  grep -qi usage "$work/tally-help.txt" || fail "tally --help printed no usage"
fi

# The packaged tallyd with the packaged config (data and listen overridden: flags win), serving
# the packaged pages: a marker added to the unpacked index.html must come back.
echo "<!-- packaged-copy-marker -->" >>"$root/usr/share/tallyd/web/index.html"
"$root/usr/bin/tallyd" --config "$root/etc/tallyd/tallyd.conf" --data "$work/data" --listen 127.0.0.1:0 \
  --ready_file "$work/ready" 2>"$work/tallyd.log" &
pid=$!
for _ in $(seq 1 100); do [[ -s $work/ready ]] && break; sleep 0.1; done
[[ -s $work/ready ]] || { cat "$work/tallyd.log"; fail "packaged tallyd did not start"; }
address=$(cat "$work/ready")
curl -fsS "http://$address/healthz" | grep -q '"ok":true' || fail "/healthz"
curl -fsS "http://$address/" | grep -q 'packaged-copy-marker' || fail "the pages are not served from share/tallyd/web"
[[ $(stat -c %a "$work/data/organizer.token") == 600 ]] || fail "organizer.token is not 0600"
token=$(cat "$work/data/organizer.token")
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"id":"pkg","name":"Package test","game":"catan"}' "http://$address/v1/tournaments")
[[ $status == 201 ]] || fail "creating a tournament answered $status"
kill -TERM "$pid"
wait "$pid" || fail "packaged tallyd did not exit 0 on SIGTERM"
pid=""
echo "package test passed"
