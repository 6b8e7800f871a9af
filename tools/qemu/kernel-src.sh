#!/bin/sh
# Print the path of an unpacked, unconfigured kernel source tree from
# Debian's linux-source package (unpacked once, ~10-20 s, then cached).
# Use it for scripts/checkpatch.pl, scripts/kernel-doc and
# tools/testing/kunit/kunit.py, none of which need a built kernel:
#
#   SRC=$(tools/qemu/kernel-src.sh)
#   $SRC/scripts/checkpatch.pl --no-tree --strict -f common/*.c
#   python3 $SRC/tools/testing/kunit/kunit.py parse ktap.txt
#
# The tree is ${LFHT_CACHE:-/var/cache/lfht}/src-<hash of package+version>.
# Options: --print-dir  print the path without unpacking.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

tarball=$(lfht_src_tarball)
pkgver=$(lfht_src_pkgver "$tarball")
key=$(echo "$pkgver" | lfht_sha)
tree=$LFHT_CACHE/src-$key
stamp=$tree/.lfht-unpacked

if [ "${1:-}" = --print-dir ] || [ -f "$stamp" ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$LFHT_CACHE"
if command -v flock >/dev/null 2>&1; then
	exec 9>"$LFHT_CACHE/src-$key.lock"
	flock -x 9
	if [ -f "$stamp" ]; then
		echo "$tree"
		exit 0
	fi
fi
rm -rf "$LFHT_CACHE/src-$key.tmp."* "$tree"
tmp=$LFHT_CACHE/src-$key.tmp.$$
lfht_log "unpacking $tarball ($pkgver) into $tree"
lfht_unpack "$tarball" "$tmp"
echo "source=$pkgver" >"$tmp/.lfht-unpacked"
mv "$tmp" "$tree"
echo "$tree"
