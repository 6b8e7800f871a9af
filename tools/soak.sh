#!/bin/bash
# tools/soak.sh SECONDS: the bounded soak (make soak SOAK_SECONDS=N).
# For every RCU flavor, tests/unit/stress_soak.c (mixed operations, resizes
# both ways, exact contents at the end) and tests/unit/stress_lin.c (the
# linearizability checker), each for SECONDS; then both again on the memb
# flavor under AddressSanitizer + UBSan (leaks: LeakSanitizer).  About
# 12 x SECONDS in all.  Exit status 0 iff every run passed.
set -u
cd "$(dirname "$0")/.."
secs=${1:-60}
OUT=build/soak
WARN="-Wall -Wextra -Werror"
INC="-Itests -Iinclude/compat -Iinclude -Icommon -Iuser"
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
mkdir -p "$OUT"
make -s B=build/gcc CC=gcc all >"$OUT/make-gcc.log" 2>&1 &&
make -s B=build/asan CC=gcc CFLAGS="-O2 -g $SAN" all >"$OUT/make-asan.log" 2>&1 ||
	{ cat "$OUT"/make-*.log; exit 1; }
runs=0 failed=0
run() {	# name flavor libdir extra
	local name=$1 fl=$2 lib=$3 extra=$4 F bin
	F=$(echo "$fl" | tr a-z A-Z)
	bin=$OUT/$name-$fl${extra:+-asan}
	runs=$((runs + 1))
	if ! gcc $WARN -O2 -g -pthread $extra -DTEST_FLAVOR_$F $INC \
		"tests/unit/$name.c" "$lib/liblfht.a" -lurcu-$fl -o "$bin" \
		2>"$bin.build.log"; then
		echo "not ok $runs - $name $fl${extra:+ asan}: build failed"
		cat "$bin.build.log"
		failed=$((failed + 1))
		return
	fi
	if "$bin" -s "$secs" >"$bin.log" 2>&1 && ! grep -q '^not ok' "$bin.log"; then
		echo "ok $runs - $name $fl${extra:+ asan}, $secs s"
	else
		echo "not ok $runs - $name $fl${extra:+ asan}, $secs s (log: $bin.log)"
		failed=$((failed + 1))
	fi
	grep -E '^# (flags|seed)|histories checked' "$bin.log" | sed 's/^/    /'
}
for fl in memb qsbr mb signal bp; do
	run stress_soak "$fl" build/gcc ""
	run stress_lin "$fl" build/gcc ""
done
run stress_soak memb build/asan "$SAN"
run stress_lin memb build/asan "$SAN"
echo "1..$runs"
echo "soak: $runs runs, $failed failed"
[ "$failed" = 0 ]
