#!/bin/sh
# Kernel style: scripts/checkpatch.pl --no-tree -f on every file lfht.ko
# and its KUnit suite are built from, and scripts/kernel-doc on the
# exported API, from Debian's linux-source.
cd "${LFHT_ROOT:?run from make check}" || exit 1
src=$(tools/qemu/kernel-src.sh) || { echo "1..1"; echo "not ok 1 - kernel source"; exit 1; }
files="common/*.c common/*.h kernel/lfht.h kernel/lfht_env.h kernel/lfht_kernel.h kernel/lfht_inline.h
	kernel/lfht_main.c kernel/lfht_debugfs.c kernel/lfht_bench.c
	include/lfht/lfht_api.h
	$(ls tests/kunit/*.c 2>/dev/null)"
n=0
for f in $files; do
	n=$((n + 1))
	out=$("$src/scripts/checkpatch.pl" --no-tree --quiet -f "$f" 2>&1)
	if [ -z "$out" ]; then
		echo "ok $n - checkpatch $f"
	else
		echo "not ok $n - checkpatch $f"
		echo "$out" | sed 's/^/# /'
	fi
done
# kernel-doc: every exported function documented, no kernel-doc warning
# (the exported vector data is described in kernel/lfht_kernel.h).
n=$((n + 1))
out=$("$src/scripts/kernel-doc" -none common/lfht.c common/lfht_resize.c common/lfht_vector.c \
	kernel/lfht_main.c kernel/lfht_inline.h 2>&1)
if [ -z "$out" ]; then
	echo "ok $n - kernel-doc on the exported API"
else
	echo "not ok $n - kernel-doc on the exported API"
	echo "$out" | sed 's/^/# /'
fi
n=$((n + 1))
undoc=""
for f in $(grep -ho 'LFHT_EXPORT([a-z_]*)\|EXPORT_SYMBOL_GPL([a-z_]*)' common/*.c kernel/*.c |
	sed 's/.*(\(.*\))/\1/' | sort -u |
	grep -vx 'lfht_vec_files\|lfht_vec_nr_files'); do
	grep -q "^ \* $f - " common/*.c kernel/*.c || undoc="$undoc $f"
done
if [ -z "$undoc" ]; then
	echo "ok $n - every exported function has a kernel-doc comment"
else
	echo "not ok $n - exported without kernel-doc:$undoc"
fi
echo "1..$n"
