#!/bin/sh
# The KUnit suite on the debug kernel under QEMU ("make kunit"), as flat
# TAP: one line per KUnit case (each vector case, each parameter), then
# the overall result, then the vector case count against the files'.
# LFHT_SKIP_KUNIT=1 skips it (it boots a kernel, and may build one first).
cd "${LFHT_ROOT:?run from make check}" || exit 1
if [ -n "${LFHT_SKIP_KUNIT:-}" ]; then
	echo "1..0 # SKIP LFHT_SKIP_KUNIT is set"
	exit 0
fi
# LFHT_KVARIANT=kasan|kcsan: the same on that debug kernel
# (tests/shell/kunit-kasan.t, tests/shell-full/kunit-kcsan.t).
out=build/kunit-t${LFHT_KVARIANT:+-$LFHT_KVARIANT}
mkdir -p "$out"
make -s kunit B="$out" >"$out/make.log" 2>&1
rc=$?
ktap=$out/kunit/ktap.txt
[ -f "$ktap" ] || : >"$ktap"
# Leaves of the KTAP tree: a result line with no results nested under it.
# Parameters (8 spaces) are named "CASE: PARAM" after their "# Subtest:".
awk -v rc="$rc" -v files="$(awk '{ sub(/#.*/, "") } $1 == "case" { n++ }
		END { print n + 0 }' tests/vectors/*.vec)" '
function emit(ok, name) {
	n++
	printf "%s %d - %s\n", ok ? "ok" : "not ok", n, name
	fails += !ok
}
/^        # Subtest: / { sub_name = $3; nested = 0; next }
/^        (not )?ok [0-9]+ / {
	ok = $1 == "ok"; d = $0
	sub(/^        (not )?ok [0-9]+ (- )?/, "", d)
	emit(ok, sub_name ": " d)
	nested = 1
	if (sub_name == "lfht_vector_case")
		vec++
	next
}
/^    (not )?ok [0-9]+ / {
	ok = $1 == "ok"; d = $0
	sub(/^    (not )?ok [0-9]+ (- )?/, "", d)
	if (!nested)
		emit(ok, d)
	else if (!ok && !fails)
		emit(0, d)	# a failure no parameter showed
	nested = 0
	next
}
END {
	emit(rc == 0, "make kunit (exit " rc "; check-log and kunit.py parse)")
	emit(vec == files && vec > 0, "vector cases in KUnit: " vec \
	     ", case lines in tests/vectors: " files)
	printf "1..%d\n", n
}' "$ktap"
# The suite's own diagnostics (counts of what each test exercised).
[ -f "$out/kunit/console.log" ] &&
	sed -n 's/^\[ *[0-9.]*\] *\(# lfht_.*\)/\1/p' "$out/kunit/console.log"
# KCSAN reports of the kernel's own code (see tools/qemu/check-log.sh).
[ -f "$out/kunit/run.log" ] &&
	grep '^check-log: accepted' "$out/kunit/run.log" | sed 's/^/# /'
[ "$rc" = 0 ] || sed 's/^/# /' "$out/make.log" | tail -40
exit 0
