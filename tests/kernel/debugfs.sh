#!/bin/sh
# Guest side of the debugfs test (run by tests/kernel/run.sh under QEMU, in
# busybox sh, cwd /lib/lfht holding lfht.ko, dwrite and expected_vectors).
# Loads the module, drives every file under /sys/kernel/debug/lfht/ with
# good and bad input, runs the embedded vectors, unloads.  Every output line
# the host keeps starts with "TAP: ".
D=/sys/kernel/debug/lfht
n=0
fails=0
W=./dwrite

tap() {	# ok|not-ok description [diagnostic]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "TAP: ok $n - $2"
	else
		fails=$((fails + 1))
		echo "TAP: not ok $n - $2"
		[ -n "${3:-}" ] && echo "$3" | sed 's/^/TAP: # /'
	fi
}

check() {	# description command...: ok when the command succeeds
	d=$1
	shift
	if "$@"; then tap ok "$d"; else tap not-ok "$d"; fi
}

expect() {	# description expected actual
	if [ "$2" = "$3" ]; then
		tap ok "$1"
	else
		tap not-ok "$1" "expected [$2], got [$3]"
	fi
}

wr() {	# FILE TEXT: one write, prints "ok N" or the errno name
	$W "$1" "$2"
}

good() {	# description FILE TEXT: the write takes every byte
	expect "$1" "ok ${#3}" "$(wr "$2" "$3")"
}

result() {	# TABLE: the outcome part of NAME/result
	sed 's/^[^:]*: //' "$D/$1/result"
}

logs() {
	dmesg | grep -c 'lfht: '
}

# Kernel messages stay off the console (they would split TAP lines); the
# whole log is printed at the end for the host to check.
dmesg -n 1

# -- load --------------------------------------------------------------------
check "insmod lfht.ko" insmod ./lfht.ko
check "control and vectors exist" test -f $D/control -a -f $D/vectors

# -- vectors: the same files as user space ----------------------------------
cat $D/vectors > /tmp/vectors.tap
want=$(cat expected_vectors)
got=$(grep -c '^ok ' /tmp/vectors.tap)
bad=$(grep -c '^not ok ' /tmp/vectors.tap)
grep -E '^(not )?ok ' /tmp/vectors.tap | while read -r line; do
	echo "TAP: # vector $line"
done
expect "vectors: every case passes in the kernel ($want in user space)" \
	"$want passed, 0 failed" "$got passed, $bad failed"

# -- control: new and destroy -------------------------------------------------
good "new t1" $D/control 'new t1'
check "t1 has control, result, entries, stats" \
	test -f $D/t1/control -a -f $D/t1/result -a -f $D/t1/entries -a -f $D/t1/stats
expect "new t1 again is EEXIST" EEXIST "$(wr $D/control 'new t1')"
expect "destroy of a missing table is ENOENT" ENOENT "$(wr $D/control 'destroy nosuch')"
for bad in 'new' 'new a/b' 'new control' 'new t2 init=3' 'new t2 min=4 init=2' \
	'new t2 init=4 max=2' 'new t2 bogus' 'new t2 init=' 'new t2 init=x' \
	'create t2' 'destroy' 'destroy t1 t1' 'new t2 init=99999999999999999999' \
	'new 01234567890123456789012345678901'; do
	expect "control: '$bad' is EINVAL" EINVAL "$(wr $D/control "$bad")"
done
check "no table made by bad input" test ! -e $D/t2
expect "control: zero-byte write is EINVAL" EINVAL "$($W -z $D/control)"
expect "control: 1 MiB write is E2BIG" E2BIG "$($W -n 1048576 $D/control)"
good "new t2 init=8 min=2 max=64 auto_resize accounting" $D/control 'new t2 init=8 min=2 max=64 auto_resize accounting'
expect "t2 starts with 8 buckets" "buckets 8" "$(grep '^buckets' $D/t2/stats)"
good "destroy t2" $D/control 'destroy t2'
check "t2 is gone" test ! -e $D/t2

# -- control: fault, the allocation-failure hook -----------------------------
good "fault 1" $D/control 'fault 1'
expect "new with its first allocation failing is ENOMEM" ENOMEM "$(wr $D/control 'new f1 init=64')"
check "no table made by the failed new" test ! -e $D/f1
good "new f1 init=64, the hook spent" $D/control 'new f1 init=64'
i=0
while [ $i -lt 40 ]; do echo "add $i $i"; i=$((i + 1)); done > /tmp/fadds
$W -f $D/f1/control /tmp/fadds >/dev/null
# 64 to 1024 buckets allocates a table per order, 4; the 5th is not reached.
for k in 1 2 3 4; do
	good "fault $k" $D/control "fault $k"
	good "resize 1024 with its allocation $k failing" $D/f1/control 'resize 1024'
	expect "... leaves 64 buckets and 40 entries" "buckets 64 40" \
		"$(grep '^buckets' $D/f1/stats) $(wc -l < $D/f1/entries | tr -d ' ')"
done
good "fault 5" $D/control 'fault 5'
good "resize 1024, the 5th allocation never made" $D/f1/control 'resize 1024'
expect "... grows to 1024 buckets with 40 entries" "buckets 1024 40" \
	"$(grep '^buckets' $D/f1/stats) $(wc -l < $D/f1/entries | tr -d ' ')"
good "fault 0 disarms it" $D/control 'fault 0'
for bad in 'fault' 'fault x' 'fault -1' 'fault 1 2' 'fault 9223372036854775808'; do
	expect "control: '$bad' is EINVAL" EINVAL "$(wr $D/control "$bad")"
done
good "destroy f1" $D/control 'destroy f1'

# -- NAME/control: every command ---------------------------------------------
T=$D/t1/control
good "add 1 10" $T 'add 1 10'
expect "result after add" "added" "$(result t1)"
wr $T 'lookup 1' >/dev/null
expect "lookup 1 finds 10" "found 10" "$(result t1)"
wr $T 'add 1 11' >/dev/null
wr $T 'lookup 1' >/dev/null
r=$(result t1)
case $r in "found 10 11" | "found 11 10") tap ok "add allows duplicates: $r" ;;
*) tap not-ok "add allows duplicates" "got [$r]" ;; esac
expect "add_unique of a present key is EEXIST" EEXIST "$(wr $T 'add_unique 1 12')"
case $(result t1) in "exists 1"[01]" (error -17)") tap ok "result names the node present" ;;
*) tap not-ok "result names the node present" "got [$(result t1)]" ;; esac
good "add_unique 2 20" $T 'add_unique 2 20'
good "add_replace 2 21" $T 'add_replace 2 21'
expect "add_replace result" "replaced 20" "$(result t1)"
good "add_replace of an absent key adds" $T 'add_replace 3 30'
expect "add_replace result when absent" "added" "$(result t1)"
good "replace 2 22" $T 'replace 2 22'
expect "replace result" "replaced 21" "$(result t1)"
expect "replace of an absent key is ENOENT" ENOENT "$(wr $T 'replace 4 40')"
good "del 3" $T 'del 3'
expect "del result" "deleted 30" "$(result t1)"
expect "del again is ENOENT" ENOENT "$(wr $T 'del 3')"
wr $T 'lookup 3' >/dev/null
expect "lookup of a deleted key" "not found" "$(result t1)"
expect "entries: KEY VALUE lines" "1 10
1 11
2 22" "$(sort $D/t1/entries)"

# hash=H forces collisions
wr $T 'add 100 1000 hash=7' >/dev/null
wr $T 'add 101 1010 hash=7' >/dev/null
wr $T 'add 102 1020 hash=0x7' >/dev/null
wr $T 'lookup 101 hash=7' >/dev/null
expect "lookup with a forced hash" "found 1010" "$(result t1)"
wr $T 'lookup 101' >/dev/null
expect "lookup without the forced hash misses" "not found" "$(result t1)"
longest=$(sed -n 's/^longest_chain //p' $D/t1/stats)
check "three keys with one hash share a chain (longest_chain $longest)" test "$longest" -ge 3
good "del with a forced hash" $T 'del 102 hash=7'

# resize
good "resize 64" $T 'resize 64'
expect "resize result" "64 buckets" "$(result t1)"
expect "stats after resize" "buckets 64" "$(grep '^buckets' $D/t1/stats)"
good "resize 3 rounds up" $T 'resize 3'
expect "stats after resize 3" "buckets 4" "$(grep '^buckets' $D/t1/stats)"
expect "entries survive resizes" "1 10
1 11
100 1000
101 1010
2 22" "$(sort $D/t1/entries)"

# stats format
s=$D/t1/stats
check "stats: nodes before exact after" grep -qE '^nodes -?[0-9]+ 5 -?[0-9]+$' $s
check "stats: resizes GROWS SHRINKS" grep -qE '^resizes [0-9]+ [0-9]+$' $s
check "stats: chain histogram" \
	grep -qE '^chains 0:[0-9]+ 1:[0-9]+ 2:[0-9]+ 3:[0-9]+ 4-7:[0-9]+ 8-15:[0-9]+ 16-31:[0-9]+ 32\+:[0-9]+$' $s
check "stats: resize_pending" grep -qE '^resize_pending [01]$' $s
check "stats: chain_alert" grep -qE '^chain_alert [01]$' $s

# -- bad input leaves the table as it was ------------------------------------
before=$(sort $D/t1/entries)
logs0=$(logs)
for bad in 'frob 1' 'add' 'add 1' 'add x 1' 'add 1 y' 'add -1 2' 'add 1 2 3' \
	'add 18446744073709551616 1' 'add 1 18446744073709551616' 'del' 'del 1 2' \
	'lookup' 'add 1 2 hash=' 'add 1 2 hash=q' 'add 1 2 hash=1 hash=2' \
	'add 1 2 seed=3' 'resize' 'resize 0' 'resize x' 'clear 1' 'new t3' \
	'add 0x 1' 'ADD 1 2'; do
	expect "'$bad' is EINVAL" EINVAL "$(wr $T "$bad")"
done
expect "a bad line among good ones fails the whole write" EINVAL \
	"$(wr $T "$(printf 'add 50 500\nbogus\nadd 51 510\n')")"
expect "a NUL inside a write is EINVAL" EINVAL "$(printf 'add 1 2\000' > /tmp/nul; $W -f $T /tmp/nul)"
expect "zero-byte write is EINVAL" EINVAL "$($W -z $T)"
expect "1 MiB write is E2BIG" E2BIG "$($W -n 1048576 $T)"
printf '\n \n\t\n' > /tmp/blank
expect "blank lines only is EINVAL" EINVAL "$($W -f $T /tmp/blank)"
expect "bad input changed nothing" "$before" "$(sort $D/t1/entries)"
logs1=$(logs)
check "bad input is logged ($((logs1 - logs0)) lines)" test "$logs1" -gt "$logs0"

# several commands in one write
good "two lines in one write" $T "$(printf 'add 60 600\nadd 61 610')"
wr $T 'lookup 61' >/dev/null
expect "the second line ran" "found 610" "$(result t1)"
r=$(wr $T "$(printf 'add 62 620\nadd_unique 60 1\nadd 63 630\n')")
expect "a failing command stops the write after the lines before it" "ok 11" "$r"
wr $T 'lookup 63' >/dev/null
expect "the line after the failing one did not run" "not found" "$(result t1)"

good "clear" $T 'clear'
expect "clear result" "deleted 8" "$(result t1)"
expect "entries empty after clear" "" "$(cat $D/t1/entries)"

# -- auto_resize + accounting: growth from 1 bucket --------------------------
wr $D/control 'new big auto_resize accounting' >/dev/null
i=0
: > /tmp/adds
while [ $i -lt 2000 ]; do
	echo "add $i $((i * 2))" >> /tmp/adds
	i=$((i + 1))
done
expect "2000 adds in one write" "ok $(wc -c < /tmp/adds | tr -d ' ')" "$($W -f $D/big/control /tmp/adds)"
sleep 1
b=$(sed -n 's/^buckets //p' $D/big/stats)
check "auto_resize grew the table from 1 bucket (now $b)" test "$b" -ge 256
expect "accounting counts 2000 nodes" "nodes 2000 2000 2000" "$(grep '^nodes' $D/big/stats)"
expect "entries lists 2000 distinct keys" 2000 "$(cut -d' ' -f1 $D/big/entries | sort -u | wc -l | tr -d ' ')"
wr $D/big/control clear >/dev/null
sleep 1
b2=$(sed -n 's/^buckets //p' $D/big/stats)
check "auto_resize shrank the emptied table ($b -> $b2)" test "$b2" -lt "$b"

# -- several writers at once -------------------------------------------------
wr $D/control 'new conc auto_resize' >/dev/null
for p in 1 2 3 4; do
	i=0
	: > /tmp/w$p
	while [ $i -lt 100 ]; do
		echo "add_unique $((i % 50 + p * 1000)) $p" >> /tmp/w$p
		echo "add_unique $((i % 40)) $p" >> /tmp/w$p
		i=$((i + 1))
	done
done
for p in 1 2 3 4; do
	(
		# Each writer retries after EEXIST from where the kernel stopped.
		left=/tmp/w$p
		while [ -s $left ]; do
			r=$($W -f $D/conc/control $left)
			case $r in
			"ok "*) k=${r#ok }; tail -c +$((k + 1)) $left > $left.n ;;
			EEXIST) tail -n +2 $left > $left.n ;;
			*) echo "TAP: # writer $p: $r"; break ;;
			esac
			mv $left.n $left
		done
	) &
done
( j=0; while [ $j -lt 20 ]; do wr $D/conc/control "resize $((1 << (j % 7)))" >/dev/null; cat $D/conc/stats >/dev/null; j=$((j + 1)); done ) &
wait
keys=$(cut -d' ' -f1 $D/conc/entries | sort | uniq -c | awk '$1 != 1' | wc -l | tr -d ' ')
expect "concurrent add_unique: no key twice" 0 "$keys"
expect "concurrent add_unique: 240 keys" 240 "$(wc -l < $D/conc/entries | tr -d ' ')"
expect "stats count agrees" "240" "$(sed -n 's/^nodes -*[0-9]* \([0-9]*\) .*/\1/p' $D/conc/stats)"

# -- bench -------------------------------------------------------------------
# The kernel benchmark on a tiny table: every workload, both tables, 2
# threads; bad parameters are refused and leave the good ones in place.
good "bench: set small parameters" $D/bench 'keys=256 threads=2 ms=10 rounds=3'
for bad in 'keys=0' 'keys=99999999' 'threads=17' 'rounds=16' 'ms=x' 'speed=1' 'keys'; do
	expect "bench: '$bad' is EINVAL" EINVAL "$(wr $D/bench "$bad")"
done
if [ -e /sys/kernel/debug/kcsan ]; then
	# KCSAN reports rhashtable's bit-locked bucket words (its own design,
	# inlined into lfht.ko, so check-log.sh would count it as ours).
	tap ok "bench run # SKIP on the KCSAN kernel: rhashtable's bit locks"
else
	cat $D/bench > /tmp/bench.out
	expect "bench: one RATIO line per workload, with the parameters set" \
		"lookup_hit lookup_miss insert delete mix90 mix50" \
		"$(awk '$1 == "RATIO" && $3 == 256 && $4 == 2 && $5 == "lfht/rhashtable" { printf "%s%s", s, $2; s = " " }' /tmp/bench.out)"
	expect "bench: every round measured both tables (no 0 ops/s)" 0 \
		"$(grep -c ' 0 ops/s' /tmp/bench.out)"
	expect "bench: 3 rounds per workload" 18 \
		"$(grep -c '^# .* round [0-2]: lfht' /tmp/bench.out)"
fi

# -- destroy with entries, rmmod with tables ---------------------------------
wr $D/conc/control 'add 1 1' >/dev/null
good "destroy a table that has entries" $D/control 'destroy conc'
wr $D/control 'new left1' >/dev/null
wr $D/left1/control 'add 5 5' >/dev/null
check "rmmod with tables present" rmmod lfht
check "debugfs directory gone" test ! -e $D
check "insmod again" insmod ./lfht.ko
check "no table survives a reload" test ! -e $D/left1 -a ! -e $D/big
check "rmmod" rmmod lfht

echo "TAP: 1..$n"
echo LFHT-DMESG-BEGIN
dmesg
echo LFHT-DMESG-END
[ $fails -eq 0 ]
