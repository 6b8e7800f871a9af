# /test.sh of the KUnit guest (tools/qemu/kunit-run.sh --script): lfht.ko
# first, for its exports; the suite runs while lfht_kunit.ko loads.
rc=0
echo "kunit-run: insmod lfht.ko lfht_kunit.ko"
insmod /lib/lfht/lfht.ko || exit 1
insmod /lib/lfht/lfht_kunit.ko || rc=1
rmmod lfht_kunit || rc=1
rmmod lfht || rc=1
exit $rc
