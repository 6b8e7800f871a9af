#!/bin/bash
# make check: build with gcc and clang, run every user-space test as TAP
# under prove (vectors, API tests, stress tests, for every RCU flavor; the
# sanitizer build; valgrind), and end with "N passed, N failed".
# LFHT_CHECK_FULL=1 (make check-full): also tests/shell-full/*.t, the slow
# ones (the KCSAN kernel's KUnit and debugfs runs).
set -u
cd "$(dirname "$0")/.."
export LFHT_ROOT="$PWD"
ROOT=$PWD
OUT=$ROOT/build/check
T=$OUT/t
rm -rf "$OUT"
mkdir -p "$T"
FLAVORS="memb qsbr mb signal bp"
WARN="-Wall -Wextra -Werror"
INC="-Itests -Iinclude/compat -Iinclude -Icommon -Iuser"
VECTORS=$(ls "$ROOT"/tests/vectors/*.vec)
STRESS_SECONDS=${STRESS_SECONDS:-2}
fail_build=0

log() { printf '%s\n' "$*" >&2; }

# Library builds: gcc, clang, and gcc with AddressSanitizer + UBSan.
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
for cfg in gcc:build/gcc: clang:build/clang: "gcc:build/asan:$SAN"; do
	cc=${cfg%%:*}; rest=${cfg#*:}; dir=${rest%%:*}; extra=${rest#*:}
	if ! make -s B="$dir" CC="$cc" CFLAGS="-O2 -g $extra" all >"$OUT/make-${dir##*/}.log" 2>&1; then
		log "library build failed: $cc $extra"; cat "$OUT/make-${dir##*/}.log" >&2
		fail_build=1
	fi
done

# One test program per source and flavor; sources built with both compilers.
build_test() {	# name src flavor cc libdir extra
	local name=$1 src=$2 fl=$3 cc=$4 lib=$5 extra=$6
	local F; F=$(echo "$fl" | tr a-z A-Z)
	$cc $WARN -O2 -g -pthread $extra -DTEST_FLAVOR_$F $INC "$src" \
		"$lib/liblfht.a" -lurcu-$fl -o "$OUT/$name" 2>"$OUT/$name.log" && return 0
	log "test build failed: $name"; cat "$OUT/$name.log" >&2
	fail_build=1
	return 1
}

add_t() {	# name command...
	local name=$1; shift
	printf '#!/bin/sh\nexec %s\n' "$*" >"$T/$name.t"
}

TESTSRC="tests/run_vectors.c $(ls tests/unit/*.c tests/user/*.c tests/stress/*.c 2>/dev/null)"
for fl in $FLAVORS; do
	for src in $TESTSRC; do
		base=$(basename "$src" .c)
		build_test "$base-$fl-clang" "$src" "$fl" clang build/clang "" || true
		build_test "$base-$fl" "$src" "$fl" gcc build/gcc "" || continue
		build_test "$base-$fl-asan" "$src" "$fl" gcc build/asan "$SAN" || true
		case $base in
		run_vectors) args=$VECTORS; qargs=$VECTORS ;;
		stress*) args="-s $STRESS_SECONDS"; qargs="-q" ;;
		*) args=""; qargs="" ;;
		esac
		add_t "$base-$fl" "$OUT/$base-$fl" $args
		# The clang build runs too (stress tests: gcc builds only, for time).
		case $base in stress*) ;; *)
			[ -x "$OUT/$base-$fl-clang" ] &&
				add_t "$base-$fl-clang" "$OUT/$base-$fl-clang" $args ;;
		esac
		[ -x "$OUT/$base-$fl-asan" ] &&
			add_t "$base-$fl-asan" "$OUT/$base-$fl-asan" $args
		[ "$fl" = memb ] && add_t "$base-$fl-valgrind" \
			valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect \
			"$OUT/$base-$fl" $qargs
	done
done
for t in tests/shell/*.t; do
	[ -e "$t" ] && cp "$t" "$T/"
done
if [ "${LFHT_CHECK_FULL:-0}" = 1 ]; then
	for t in tests/shell-full/*.t; do
		[ -e "$t" ] && cp "$t" "$T/"
	done
fi

# Fuzzing (issue 5): each libFuzzer target for FUZZ_SECONDS, one TAP line each.
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
if make -s fuzz-build >"$OUT/make-fuzz.log" 2>&1; then
	for f in $(make -s --no-print-directory fuzz-targets); do
		add_t "fuzz-$f" "$ROOT/tools/fuzz.sh" -t "$FUZZ_SECONDS" \
			"$ROOT/build/fuzz" "$f"
	done
else
	log "fuzz build failed"; cat "$OUT/make-fuzz.log" >&2
	fail_build=1
fi

prove -v -e sh "$T"/*.t >"$OUT/prove.log" 2>&1
prove_rc=$?
passed=$(grep -cE '^ok ' "$OUT/prove.log")
failed=$(grep -cE '^not ok ' "$OUT/prove.log")
tail -n 25 "$OUT/prove.log"
# Each failure with the TAP comments under it (the report), at most 40 lines.
awk '/^not ok / { print; n = 40; next }
	/^#/ && n > 0 { print; n--; next } { n = 0 }' "$OUT/prove.log" | head -400
vectors=$(grep -cE '^(not )?ok .* memb [a-z_]+\.vec: ' "$OUT/prove.log")
vectors=$((vectors / 4))	# gcc, clang, asan and valgrind runs of memb
echo "vector cases: $vectors per flavor, $(echo $FLAVORS | wc -w) flavors"
[ "$fail_build" = 0 ] || { echo "build failures (see above)"; failed=$((failed + 1)); }
[ "$prove_rc" = 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$prove_rc" = 0 ]
