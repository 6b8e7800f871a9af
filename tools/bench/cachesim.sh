#!/bin/bash
# tools/bench/cachesim.sh [KEYS]: simulated cache misses per lookup, lfht and
# liburcu, with callgrind's cache model (deterministic, unlike the hardware
# counters, which this machine's VM does not expose).  Uses the binaries
# that `make bench` built in build/bench.  Prints, per workload and mode,
#     CACHE <workload>_<mode> <keys> lfht D1 <n> LL <n> liburcu D1 <n> LL <n>
# data-read misses per lookup in the first level (32 KiB) and last level
# (8 MiB) caches, inside measured_loop() (the harness's loop, hash and
# match included; the fill before it is not counted).  A run that fails or
# overstays CG_LIMIT seconds (default 3600) reads "timeout".
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
K=${1:-1048576}
N=${CACHE_N:-200000}
for impl in lfht liburcu; do
	[ -x "$B/bench-$impl" ] || { echo "cachesim.sh: run make bench first ($B/bench-$impl)" >&2; exit 1; }
done
. tools/bench/cg.sh
# impl args... -> "D1mr DLmr" inside measured_loop, or nothing
misses() {
	local impl=$1; shift
	cg_events "D1mr DLmr" --cache-sim=yes --D1=32768,8,64 \
		--LL=8388608,16,64 --toggle-collect=measured_loop \
		-- "$B/bench-$impl" -i "$impl" "$@" || true
}
for m in presized auto; do
	for w in hit miss; do
		line="CACHE lookup_${w}_$m $K"
		for impl in lfht liburcu; do
			read -r d1 ll <<<"$(misses $impl -k "$K" -m $m -w ipo_$w -n "$N")" || :
			if [ -z "${ll:-}" ]; then
				line="$line $impl D1 timeout LL timeout"
				continue
			fi
			line="$line $impl $(awk -v a="$d1" -v c="$ll" -v n="$N" \
				'BEGIN {printf "D1 %.2f LL %.2f", a / n, c / n}')"
		done
		echo "$line"
	done
done
