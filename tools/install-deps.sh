#!/bin/sh
# Install what a fresh Debian 12 machine lacks to build and test lfht.
set -eu
# libck-dev and gnuplot-nox: make bench (ck_hs peer, plot); libclang-rt: fuzzing
PKGS="build-essential clang libclang-rt-14-dev liburcu-dev valgrind pkg-config perl libck-dev gnuplot-nox"
missing=""
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
fi
# The kernel side: headers, image, source, QEMU, busybox, sparse.
sh "$(dirname "$0")/qemu/deps.sh"
