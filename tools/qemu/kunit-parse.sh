#!/bin/sh
# Extract the KTAP of a console log and check it with the kernel's
# tools/testing/kunit/kunit.py parse.
#
# Usage: tools/qemu/kunit-parse.sh LOG
#
# Prints kunit.py's report, then a closing line
#   "kunit: P passed, F failed, S skipped"   (F counts crashes too, and
#                                             is >= 1 whenever we fail)
# Exit status 0 only when kunit.py found tests, at least one passed and
# none failed, crashed or had parse errors.  kunit.py's exit code alone is
# not trusted: its summary line ("Testing complete. Ran N tests: passed: P,
# failed: F, crashed: C, skipped: S, errors: E", zero counts omitted) is
# read as well.
# Env: LFHT_KUNIT_PY  path to kunit.py (default: from the cached debug
#      kernel tree if built, else from tools/qemu/kernel-src.sh)
#      LFHT_KTAP_OUT  also save the extracted KTAP to this file
set -eu

[ $# -eq 1 ] || { echo "usage: $0 LOG" >&2; exit 2; }
log=$1
here=$(cd "$(dirname "$0")" && pwd)

kunit_py=${LFHT_KUNIT_PY:-}
if [ -z "$kunit_py" ]; then
	if "$here/build-kernel.sh" --is-built; then
		src=$("$here/build-kernel.sh" --print-dir)
	else
		src=$("$here/kernel-src.sh")
	fi
	kunit_py=$src/tools/testing/kunit/kunit.py
fi
[ -f "$kunit_py" ] || { echo "$0: no kunit.py at $kunit_py" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lfht-kunit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
tmp=$(cd "$tmp" && pwd) # kunit.py chdirs to its tree: paths must be absolute

if ! "$here/extract-tap.sh" "$log" >"$tmp/ktap"; then
	echo "kunit-parse: no KTAP output in $log" >&2
	echo "kunit: 0 passed, 0 failed, 0 skipped"
	exit 1
fi
[ -z "${LFHT_KTAP_OUT:-}" ] || cp "$tmp/ktap" "$LFHT_KTAP_OUT"

set +e
python3 "$kunit_py" parse "$tmp/ktap" >"$tmp/out" 2>&1
rc=$?
set -e
# No colours when stdout is not a tty, but strip ANSI codes anyway.
sed 's/\x1b\[[0-9;]*m//g' "$tmp/out" >"$tmp/plain"
cat "$tmp/plain"

summary=$(grep 'Testing complete\.' "$tmp/plain" | tail -n 1 || true)
count() {
	# "passed: 3" -> 3; absent -> 0
	echo "$summary" | sed -n "s/.*[ ,]$1: \([0-9][0-9]*\).*/\1/p" | grep . || echo 0
}
total=$(echo "$summary" | sed -n 's/.*Ran \([0-9][0-9]*\) tests.*/\1/p')
passed=$(count passed)
failed=$(count failed)
crashed=$(count crashed)
skipped=$(count skipped)
errors=$(count errors)

bad=""
[ -n "$summary" ] || bad="$bad no-summary-line"
[ "${total:-0}" -gt 0 ] || bad="$bad no-tests"
[ "$passed" -gt 0 ] || bad="$bad none-passed"
[ "$failed" -eq 0 ] || bad="$bad failed=$failed"
[ "$crashed" -eq 0 ] || bad="$bad crashed=$crashed"
[ "$errors" -eq 0 ] || bad="$bad errors=$errors"
[ "$rc" -eq 0 ] || bad="$bad kunit.py-exit=$rc"

# Crashes count as failures in the closing line, and a run rejected for
# another reason (parse errors, nothing passed) shows at least 1 failure.
nfail=$((failed + crashed))
[ -z "$bad" ] || [ "$nfail" -gt 0 ] || nfail=1
echo "kunit: $passed passed, $nfail failed, $skipped skipped"
if [ -n "$bad" ]; then
	echo "kunit-parse: FAIL:$bad" >&2
	exit 1
fi
