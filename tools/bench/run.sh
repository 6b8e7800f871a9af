#!/bin/bash
# make bench [QUICK=1]: build the benchmark four times (lfht, liburcu, ck_hs,
# rwlock), run every configuration in rounds that alternate the tables
# (lfht, liburcu, ck_hs, rwlock, lfht, ...), and report per comparison the
# median over rounds of the per-round ratio lfht/peer:
#     RATIO <workload> <keys> <threads> lfht/<peer> <median-ratio>
# (throughput: lfht/peer; durations, stalls, bytes: peer/lfht; so higher is
# always better for lfht), then callgrind instruction counts per operation:
#     IPO <workload> lfht <n> liburcu <n>
# Outputs: build/bench/raw.csv (every run), results.csv (medians and
# ratios), results.png (throughput against keys and threads).
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
CC=${CC:-cc}
QUICK=${QUICK:-}
mkdir -p "$B/cg" "$B/plot"

for p in libck-dev gnuplot-nox valgrind; do
	dpkg -s "$p" >/dev/null 2>&1 || { sh tools/install-deps.sh; break; }
done

# One harness, four back-ends.  bench_lfht.c builds against liblfht through
# the compat include directory, and against liburcu-cds from the system.
W="-Wall -Wextra -Werror -O2 -g -pthread -Itools/bench"
H=tools/bench/harness.c
$CC $W -Iinclude/compat -Iinclude $H tools/bench/bench_lfht.c build/liblfht.a -lurcu -o $B/bench-lfht
$CC $W $H tools/bench/bench_lfht.c -lurcu-cds -lurcu -o $B/bench-liburcu
$CC $W $H tools/bench/bench_ck.c -lck -o $B/bench-ck_hs
$CC $W $H tools/bench/bench_rwlock.c -o $B/bench-rwlock

# BENCH_IMPLS: a subset, lfht first (e.g. "lfht liburcu" for a 2^24 run).
IMPLS=${BENCH_IMPLS:-lfht liburcu ck_hs rwlock}
NCPU=$(nproc)
THREADS="1 2"
[ "$NCPU" -gt 2 ] && THREADS="$THREADS $NCPU"
THREADS=${BENCH_THREADS:-$THREADS}
MODES=${BENCH_MODES:-auto presized}
# Configurations: "keys:threads:modes", run in alternating rounds.
if [ -n "$QUICK" ]; then
	# Under 3 minutes: the full matrix at small sizes, and the 2^20
	# lookups the targets name on one presized configuration.
	CONFIGS=""
	for t in $THREADS; do
		CONFIGS="$CONFIGS 1024:$t:auto 1024:$t:presized"
	done
	CONFIGS="$CONFIGS 65536:1:auto 65536:2:presized 262144:1:presized"
	ROUNDS=3; DUR=0.05; RESIZE_KEYS=262144; BENCH_LIMIT=${BENCH_LIMIT:-30}
	IPO_KEYS=16384; IPO_N=50000; IPO_MODES="presized"
else
	KEYS="1024 65536 1048576"; ROUNDS=${BENCH_ROUNDS:-5}; DUR=0.3
	RESIZE_KEYS=1048576
	IPO_KEYS=1048576; IPO_N=1000000; IPO_MODES="presized auto"
	# 2^24 keys: about 4 GB per table at the mixes' peak; only with room.
	avail=$(awk '/MemAvailable/ {print int($2 / 1048576)}' /proc/meminfo)
	[ "$avail" -ge 12 ] && KEYS="$KEYS 16777216"
	KEYS=${BENCH_KEYS:-$KEYS}	# e.g. BENCH_KEYS="1024 1048576"
	IPO_MODES=${BENCH_IPO_MODES:-$IPO_MODES}
	CONFIGS=""
	for k in $KEYS; do
		for t in $THREADS; do
			for m in $MODES; do CONFIGS="$CONFIGS $k:$t:$m"; done
		done
	done
fi

RAW=$B/raw.csv
echo "round,impl,workload,mode,keys,threads,value,unit" >"$RAW"
# A run that overstays LIMIT seconds is killed and its rows dropped (the
# round then counts for no ratio of that configuration); it is listed in
# timeouts.txt and on stderr, since a table that stalls is itself a result.
LIMIT=${BENCH_LIMIT:-120}
: >"$B/timeouts.txt"
runone() {	# round impl args...
	local r=$1 impl=$2 rc=0 out; shift 2
	out=$(timeout "$LIMIT" "$B/bench-$impl" -i "$impl" "$@") || rc=$?
	if [ $rc -ne 0 ]; then
		echo "TIMEOUT/FAIL rc=$rc round $r: $impl $*" | tee -a "$B/timeouts.txt" >&2
		return 0
	fi
	echo "$out" | sed "s/^/$r,/" >>"$RAW"
}
start=$(date +%s)
for c in $CONFIGS; do
	k=${c%%:*}; t=${c#*:}; t=${t%%:*}; m=${c##*:}
	rounds=$ROUNDS
	[ "$k" -ge 16777216 ] && rounds=3
	for r in $(seq "$rounds"); do
		for impl in $IMPLS; do
			runone "$r" "$impl" -k "$k" -t "$t" -m "$m" -d "$DUR"
		done
	done
	echo "$k keys, $t threads, $m: done after $(( $(date +%s) - start )) s" >&2
done
# BENCH_RESIZE=0 / BENCH_IPO=0: leave out the resize runs / the callgrind counts.
resize_rounds=$ROUNDS
[ "${BENCH_RESIZE:-1}" = 1 ] || resize_rounds=0
for r in $(seq "$resize_rounds"); do
	for impl in lfht liburcu; do
		runone "$r" "$impl" -k $RESIZE_KEYS -m resize -w resize
	done
done
echo "resize done after $(( $(date +%s) - start )) s" >&2

# Medians and paired ratios.  Lower is better for s, us and B/entry.
awk -F, -v impls="$IMPLS" -v out="$B/results.csv" '
function median(s,   a, n, i, j, x) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) {
		x = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR == 1 { next }
{
	cfg = $3 SUBSEP $4 SUBSEP $5 SUBSEP $6
	if (!(cfg in unit)) { order[++ncfg] = cfg }
	unit[cfg] = $8
	val[cfg, $2, $1] = $7
	vals[cfg, $2] = vals[cfg, $2] " " $7
	if ($1 > maxr) maxr = $1
}
END {
	ni = split(impls, im, " ")
	hdr = "workload,mode,keys,threads,unit"
	for (i = 1; i <= ni; i++) hdr = hdr "," im[i]
	for (i = 2; i <= ni; i++) hdr = hdr ",lfht/" im[i]
	print hdr > out
	for (c = 1; c <= ncfg; c++) {
		cfg = order[c]; split(cfg, f, SUBSEP)
		w = f[2] == "resize" ? f[1] : f[1] "_" f[2]
		lower = unit[cfg] != "ops/s"
		line = f[1] "," f[2] "," f[3] "," f[4] "," unit[cfg]
		for (i = 1; i <= ni; i++)
			line = line "," ((cfg, im[i]) in vals ? median(vals[cfg, im[i]]) : "")
		for (i = 2; i <= ni; i++) {
			rs = ""
			for (r = 1; r <= maxr; r++) {
				if (!((cfg, "lfht", r) in val) || !((cfg, im[i], r) in val)) continue
				a = val[cfg, "lfht", r]; b = val[cfg, im[i], r]
				if (a <= 0 || b <= 0) continue
				rs = rs " " (lower ? b / a : a / b)
			}
			if (rs == "") { line = line ","; continue }
			m = median(rs)
			line = line "," sprintf("%.3f", m)
			printf "RATIO %s %s %s lfht/%s %.3f\n", w, f[3], f[4], im[i], m
		}
		print line > out
	}
}' "$RAW"

# Instructions per operation, callgrind (deterministic).  Collection is
# switched on inside the library call only (--toggle-collect), so the count
# is the table's own work including the match callback; lookups are counted
# with and without the measured phase (the untimed drain also looks up).
# A count that fails or overstays CG_LIMIT seconds (default 3600) reads
# "timeout" and is listed in timeouts.txt (tools/bench/cg.sh).
. tools/bench/cg.sh
cg() {	# impl fn args... -> Ir inside fn, or nothing
	local impl=$1 fn=$2; shift 2
	cg_events Ir --toggle-collect="$fn" -- "$B/bench-$impl" -i "$impl" "$@" || true
}
[ "${BENCH_IPO:-1}" = 1 ] || IPO_MODES=""
: >"$B/ipo.csv.tmp"
for m in $IPO_MODES; do
	for w in hit miss insert delete; do
		# fn: the library call counted per key (insert, delete), or none.
		case $w in
		hit) name=lookup_hit fn= ;; miss) name=lookup_miss fn= ;;
		insert) name=insert fn=cds_lfht_add_unique ;;
		delete) name=delete fn=cds_lfht_del ;;
		esac
		line="IPO ${name}_$m"
		for impl in lfht liburcu; do
			a="-k $IPO_KEYS -m $m"
			if [ -n "$fn" ]; then
				n=$(cg $impl $fn $a -w ipo_$w)
				ipo=$(per "$IPO_KEYS" "$n")
				tot=$(cg $impl measured_loop $a -w ipo_$w)
				lipo=$(per "$IPO_KEYS" "$tot")
			else
				n1=$(cg $impl cds_lfht_lookup $a -w ipo_$w -n $IPO_N)
				n0=$(cg $impl cds_lfht_lookup $a -w ipo_$w -n 0)
				ipo=$(per "$IPO_N" "$n1" "$n0")
				tot=$(cg $impl measured_loop $a -w ipo_$w -n $IPO_N)
				lipo=$(per "$IPO_N" "$tot")
			fi
			line="$line $impl $ipo"
			echo "$name,$m,$IPO_KEYS,1,$impl,$ipo,$lipo" >>"$B/ipo.csv.tmp"
		done
		echo "$line"
	done
done
{ echo "workload,mode,keys,threads,impl,ipo_library_call,ipo_whole_loop"; cat "$B/ipo.csv.tmp"; } >"$B/ipo.csv"
rm -f "$B/ipo.csv.tmp"
echo "ipo done after $(( $(date +%s) - start )) s" >&2

# Plot: one panel per workload (pre-sized tables: the auto rows are
# dominated by liburcu's stuck growth, see README), ops/s against keys,
# one line per table and thread count.
rm -f "$B"/plot/*.dat
awk -F, -v dir="$B/plot" 'NR == 1 { for (i = 6; i <= NF; i++) im[i] = $i; next }
$5 == "ops/s" && $2 == "presized" {
	for (i = 6; i in im && im[i] !~ /\//; i++) if ($i != "")
		print $3, $i > (dir "/" $1 "_" im[i] "_" $4 ".dat")
}' "$B/results.csv"
gnuplot -e "dir='$B/plot'; out='$B/results.png'; threads='$THREADS'; impls='$IMPLS'" tools/bench/plot.gp
echo "wrote $B/raw.csv $B/results.csv $B/ipo.csv $B/results.png ($(( $(date +%s) - start )) s)" >&2
