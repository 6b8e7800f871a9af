# Sourced by run.sh and cachesim.sh (bash): one callgrind run with a time
# limit.
#
# cg_events EVENTS OPTS... -- BIN ARGS...
#   runs BIN under callgrind with OPTS for at most CG_LIMIT seconds (default
#   3600) and prints the listed events (space-separated names, e.g.
#   "Ir" or "D1mr DLmr") from the summary, in that order.  A run that fails
#   or overstays prints nothing, returns 1 and is listed in
#   $B/timeouts.txt, so callers report it as "timeout" instead of a number.
cg_events() {
	local ev=$1 out opts=() rc=0
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	mkdir -p "$B/cg"
	out=$B/cg/cg-$$-$RANDOM.out
	timeout "${CG_LIMIT:-3600}" valgrind --tool=callgrind \
		--callgrind-out-file="$out" "${opts[@]}" "$@" >/dev/null 2>&1 || rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$out" ]; then
		echo "TIMEOUT/FAIL rc=$rc callgrind: $*" | tee -a "$B/timeouts.txt" >&2
		rm -f "$out"
		return 1
	fi
	# "events: Ir Dr ..." names the columns of "summary:" (or "totals:"),
	# which leaves out trailing zeros: "+ 0" reads a missing one as 0.
	awk -v want="$ev" '/^events:/ {for (i = 2; i <= NF; i++) col[$i] = i}
		/^(summary|totals):/ {
			n = split(want, w, " ")
			for (i = 1; i <= n; i++)
				printf "%.0f%s", $(col[w[i]]) + 0, i < n ? " " : "\n"
			exit
		}' "$out"
	rm -f "$out"
}

# per N A [B]: (A - B) / N with one decimal, or "timeout" if A or B is empty.
per() {
	local n=$1 a=$2 b=${3-0}
	if [ -z "$a" ] || [ -z "$b" ]; then echo timeout; return; fi
	awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN {printf "%.1f\n", (a - b) / n}'
}
