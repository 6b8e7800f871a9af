#!/bin/sh
# Print the KTAP/TAP lines of a kernel console log, ready for
# `kunit.py parse`.
#
# Usage: tools/qemu/extract-tap.sh [--raw] LOG     (LOG "-" = stdin)
#
# - strips "\r" and the "[    1.234567] " printk prefixes;
# - keeps from the first "KTAP version N" / "TAP version N" line on;
# - keeps only lines that look like KTAP: version lines, plans (1..N),
#   results ("ok N", "not ok N"), "# " diagnostics and indented lines
#   by multiples of 4 spaces (test diagnostics such as "    Expected
#   x == y"); unindented kernel messages interleaved with the tests, call
#   traces (" <TASK>", " ? func"), "#PF:" lines, lockdep reports and an
#   unindented "ok N name" whose name is not the open suite's are dropped;
# - unless --raw: rewrites the top level.  KUnit in 6.1 prints
#   "KTAP version 1 / 1..0" for the (empty) built-in run at boot and then
#   one indented suite per insmod, with no top-level header of its own;
#   the output gets one "KTAP version 1" and "1..N", N = number of
#   top-level suites seen (started or finished), so kunit.py counts a suite
#   that started and never finished as a failure.
# Exit status 1 when the log holds no KTAP at all, or (without --raw) only
# the empty "1..0" header of the boot-time run.
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
	# KUnit indents by levels of 4 spaces (older kernels: tabs).  Kernel
	# call traces and lockdep reports use 1, 2 or 7 spaces: not KTAP.
	function ktap_indent(l) {
		if (l ~ /^\t*[^ \t]/) return 1
		match(l, /^ +/)
		return RLENGTH % 4 == 0 && substr(l, RLENGTH + 1, 1) != "\t"
	}
	!started {
		if ($0 ~ /^[ \t]*(KTAP|TAP) version [0-9]+[ \t]*$/)
			started = 1
		else
			next
	}
	/^[ \t]*$/ { next }
	!ktap_indent($0) { next }
	/^[ \t]*(KTAP|TAP) version [0-9]+[ \t]*$/ ||
	/^[ \t]*1\.\.[0-9]+/ ||
	/^[ \t]*(not )?ok [0-9]+/ ||
	/^[ \t]*# / ||
	/^[ \t]+[^ \t]/ {
		if (!raw && $0 ~ /^((KTAP|TAP) version [0-9]+[ \t]*|1\.\.[0-9]+.*)$/)
			next	# top-level header/plan: regenerated below
		if ($0 ~ /^(    |\t)# Subtest: /) {
			suites++
			suite = $0
			sub(/^[ \t]*# Subtest: /, "", suite)
		}
		if ($0 ~ /^(not )?ok [0-9]+/) {
			# A top-level result ends the open suite and carries its
			# name; any other unindented "ok N ..." is a stray message.
			name = $0
			sub(/^(not )?ok [0-9]+ (- )?/, "", name)
			sub(/ # .*$/, "", name)
			if (!raw && name != suite) next
			suite = ""
			results++
		}
		keep($0)
	}
	END {
		if (!started) exit 1
		if (!raw && n == 0) exit 1	# only the empty boot-time run
		if (!raw) {
			t = (results > suites) ? results : suites
			print "KTAP version 1"
			print "1.." t
		}
		for (i = 1; i <= n; i++) print body[i]
	}'
) || { echo "$0: no KTAP output in $log" >&2; exit 1; }
printf '%s\n' "$out"
