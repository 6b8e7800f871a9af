#!/bin/sh
# Install what `make bench` needs beyond the build: Concurrency Kit (ck_hs,
# ck_epoch), gnuplot for the plot, valgrind for instruction counts.
set -eu
PKGS="libck-dev gnuplot-nox valgrind"
missing=""
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
fi
