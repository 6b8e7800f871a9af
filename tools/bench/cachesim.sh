#!/bin/bash
# tools/bench/cachesim.sh [KEYS]: simulated cache misses per lookup, lfht and
# liburcu, with callgrind's cache model (deterministic, unlike the hardware
# counters, which this machine's VM does not expose).  Uses the binaries
# that `make bench` built in build/bench.  Prints, per workload and mode,
#     CACHE <workload>_<mode> <keys> lfht D1 <n> LL <n> liburcu D1 <n> LL <n>
# data-read misses per lookup in the first level (32 KiB) and last level
# (8 MiB) caches, inside measured_loop() (the harness's loop, hash and
# match included; the fill before it is not counted).
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
K=${1:-1048576}
N=${CACHE_N:-200000}
for impl in lfht liburcu; do
	[ -x "$B/bench-$impl" ] || { echo "cachesim.sh: run make bench first ($B/bench-$impl)" >&2; exit 1; }
done
mkdir -p "$B/cg"
# impl args... -> "D1mr DLmr" inside measured_loop
misses() {
	local impl=$1 out ev; shift
	out=$B/cg/cache-$impl-$$.out
	valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 \
		--LL=8388608,16,64 --toggle-collect=measured_loop \
		--callgrind-out-file="$out" "$B/bench-$impl" -i "$impl" "$@" \
		>/dev/null 2>&1
	# events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
	ev=$(awk '/^events:/ {for (i = 2; i <= NF; i++) e[$i] = i - 1}
		/^(summary|totals):/ {print $(e["D1mr"] + 1), $(e["DLmr"] + 1); exit}' "$out")
	rm -f "$out"
	echo "$ev"
}
for m in presized auto; do
	for w in hit miss; do
		line="CACHE lookup_${w}_$m $K"
		for impl in lfht liburcu; do
			read -r d1 ll <<<"$(misses $impl -k "$K" -m $m -w ipo_$w -n "$N")"
			line="$line $impl $(awk -v a="$d1" -v c="$ll" -v n="$N" \
				'BEGIN {printf "D1 %.2f LL %.2f", a / n, c / n}')"
		done
		echo "$line"
	done
done
