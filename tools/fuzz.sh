#!/bin/sh
# tools/fuzz.sh [-t] SECONDS DIR TARGET...: run each libFuzzer target
# DIR/fuzz_TARGET for SECONDS on a scratch copy of its seed corpus
# (tests/fuzz/corpus/TARGET), failing on any crash, leak, timeout or
# mismatch.  -t: print one TAP line per target (for make check).
set -u
tap=0
[ "${1:-}" = -t ] && { tap=1; shift; }
secs=$1 dir=$2
shift 2
cd "$(dirname "$0")/.."
n=0 failed=0
[ "$tap" = 1 ] && echo "1..$#"
for t in "$@"; do
	n=$((n + 1))
	work=$dir/work-$t
	rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
	log=$work/fuzz.log
	# -timeout: one input taking 10 s is a hang; -rss_limit_mb: a leak or
	# a runaway allocation is a failure too.
	"$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
		"$work/corpus" "tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=$(ls "$work/artifacts" | wc -l)
	if [ "$rc" = 0 ] && [ "$crashes" = 0 ] && [ -n "$execs" ]; then
		msg="fuzz_$t: ${execs} executions in ${secs} s, no crash, leak or mismatch"
		[ "$tap" = 1 ] && echo "ok $n - $msg" || echo "$msg"
	else
		failed=$((failed + 1))
		msg="fuzz_$t: exit $rc, artifacts in $work/artifacts"
		[ "$tap" = 1 ] && echo "not ok $n - $msg" || echo "FAILED $msg"
		grep -E 'ERROR|SUMMARY|fuzz_ops:|==[0-9]+==' "$log" | head -20 | sed 's/^/# /' >&2
	fi
done
[ "$failed" = 0 ]
