#!/bin/sh
# tools/bench/table.sh [PEER] [results.csv]: the README's results table, one
# markdown row per workload and mode, one column per keys and threads, of
# the median ratios lfht/PEER (default liburcu) that `make bench` wrote.
set -eu
peer=${1:-liburcu}
csv=${2:-build/bench/results.csv}
awk -F, -v peer="$peer" '
NR == 1 {
	for (i = 1; i <= NF; i++) if ($i == "lfht/" peer) col = i
	if (!col) { print "table.sh: no column lfht/" peer > "/dev/stderr"; exit 1 }
	next
}
$2 == "resize" { next }
{
	row = $1 "_" $2
	c = $3 SUBSEP $4
	if (!(row in seen)) { seen[row] = 1; rows[++nr] = row }
	if (!(c in cseen)) { cseen[c] = 1; cols[++nc] = c; ck[nc] = $3; ct[nc] = $4 }
	v[row, c] = $col
}
function pow2(k,   n) { for (n = 0; k > 1; k /= 2) n++; return "2^" n }
END {
	line = "| workload |"; sep = "|---|"
	for (j = 1; j <= nc; j++) { line = line " " pow2(ck[j]) " " ct[j] "t |"; sep = sep "---|" }
	print line; print sep
	for (i = 1; i <= nr; i++) {
		line = "| " rows[i] " |"
		for (j = 1; j <= nc; j++) line = line " " v[rows[i], cols[j]] " |"
		print line
	}
}' "$csv"
