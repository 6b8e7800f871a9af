#!/bin/sh
# Print the KTAP/TAP lines of a kernel console log, ready for
# `kunit.py parse`.
#
# Usage: tools/qemu/extract-tap.sh [--raw] LOG     (LOG "-" = stdin)
#
# - strips "\r" and the "[    1.234567] " printk prefixes;
# - keeps from the first "KTAP version N" / "TAP version N" line on;
# - keeps only lines that look like KTAP: version lines, plans (1..N),
#   results ("ok N", "not ok N"), "#" diagnostics and indented lines
#   (test diagnostics such as "    Expected x == y"); unindented kernel
#   messages interleaved with the tests are dropped;
# - unless --raw: rewrites the top level.  KUnit in 6.1 prints
#   "KTAP version 1 / 1..0" for the (empty) built-in run at boot and then
#   one indented suite per insmod, with no top-level header of its own;
#   the output gets one "KTAP version 1" and "1..N", N = number of
#   top-level suites seen (started or finished), so kunit.py counts a suite
#   that started and never finished as a failure.
# Exit status 1 when the log holds no KTAP at all.
set -eu

raw=0
if [ "${1:-}" = --raw ]; then
	raw=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--raw] LOG" >&2; exit 2; }
log=$1
[ "$log" = - ] || [ -r "$log" ] || { echo "$0: cannot read $log" >&2; exit 2; }

out=$(
	cat -- "$log" | tr -d '\r' |
	sed -E 's/^\[ *[0-9]+\.[0-9]+\]( \[ *[CT][0-9]+\])? ?//' |
	awk -v raw="$raw" '
	function keep(l) { body[++n] = l }
	!started {
		if ($0 ~ /^[ \t]*(KTAP|TAP) version [0-9]+[ \t]*$/)
			started = 1
		else
			next
	}
	/^[ \t]*$/ { next }
	/^[ \t]*(KTAP|TAP) version [0-9]+[ \t]*$/ ||
	/^[ \t]*1\.\.[0-9]+/ ||
	/^[ \t]*(not )?ok [0-9]+/ ||
	/^[ \t]*#/ ||
	/^[ \t]+[^ \t]/ {
		if (!raw && $0 ~ /^((KTAP|TAP) version [0-9]+[ \t]*|1\.\.[0-9]+.*)$/)
			next	# top-level header/plan: regenerated below
		if ($0 ~ /^(not )?ok [0-9]+/) results++
		if ($0 ~ /^(    |\t)# Subtest:/) suites++
		keep($0)
	}
	END {
		if (!started) exit 1
		if (!raw) {
			t = (results > suites) ? results : suites
			print "KTAP version 1"
			print "1.." t
		}
		for (i = 1; i <= n; i++) print body[i]
	}'
) || { echo "$0: no KTAP output in $log" >&2; exit 1; }
printf '%s\n' "$out"
