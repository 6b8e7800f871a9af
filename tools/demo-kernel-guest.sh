#!/bin/sh
# Guest side of "make demo" (tools/demo-kernel.sh): a person's session with
# lfht.ko's debugfs files, each command echoed before its output.
dmesg -n 1
cd /lib/lfht
run() {
	echo "$ $*"
	sh -c "$*" 2>&1 | sed 's/^sh: write error:/write error:/'
}
echo LFHT-DEMO-BEGIN
run insmod lfht.ko
run cd /sys/kernel/debug/lfht
cd /sys/kernel/debug/lfht
run ls
run "echo 'new users init=4 auto_resize accounting' > control"
run ls users
run "echo 'add 42 4200' > users/control"
run "printf 'add 7 700\nadd 7 701\nadd_unique 9 900\n' > users/control"
run "echo 'lookup 7' > users/control"
run cat users/result
run "echo 'add_unique 9 1' > users/control"
run cat users/result
run "echo 'add_replace 9 901' > users/control"
run cat users/result
run "echo 'add 5 50 hash=42' > users/control"
run "echo 'add 6 60 hash=42' > users/control"
run cat users/entries
run cat users/stats
run "echo 'resize 64' > users/control"
run cat users/result
run "echo 'del 7' > users/control"
run cat users/result
run cat users/stats
run "echo 'frob 1' > users/control"
run "dmesg | tail -n 1 | sed 's/^\[[ 0-9.]*\] //'"
run "head -n 3 vectors; tail -n 2 vectors"
run "echo 'destroy users' > control"
run rmmod lfht
echo LFHT-DEMO-END
