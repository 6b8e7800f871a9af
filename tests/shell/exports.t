#!/bin/sh
# liblfht.so exports only the public API and never links liburcu-cds.
cd "${LFHT_ROOT:?run from make check}" || exit 1
so=build/gcc/liblfht.so
[ -f "$so" ] || { echo "1..1"; echo "not ok 1 - $so missing"; exit 1; }
echo 1..3
bad=$(nm -D --defined-only "$so" | awk '{print $3}' |
	grep -vE '^(_?cds_lfht_[a-z_]+|lfht_nr_buckets|lfht_hash|lfht_hash_key_random)$')
[ -z "$bad" ] && echo "ok 1 - only public symbols exported" ||
	echo "not ok 1 - extra exported symbols: $bad"
n=$(nm -D --defined-only "$so" | grep -c ' cds_lfht_')
[ "$n" -ge 15 ] && echo "ok 2 - $n cds_lfht_ symbols exported" ||
	echo "not ok 2 - only $n cds_lfht_ symbols exported"
if objdump -p "$so" | grep NEEDED | grep -q urcu-cds; then
	echo "not ok 3 - liblfht.so needs liburcu-cds"
else
	echo "ok 3 - liblfht.so does not need liburcu-cds"
fi
