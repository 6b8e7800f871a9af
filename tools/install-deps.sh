#!/bin/sh
# Install what a fresh Debian 12 machine lacks to build, test and benchmark
# lfht.  Run it as root, or as a user with sudo: it asks sudo for itself.
set -eu
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then
	exec sudo sh "$0" "$@"
fi
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
