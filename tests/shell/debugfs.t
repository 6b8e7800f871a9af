#!/bin/sh
# lfht.ko under QEMU: insmod, every debugfs file with good and bad input,
# the embedded vectors, rmmod (tests/kernel/run.sh prints the TAP).
cd "${LFHT_ROOT:?run from make check}" || exit 1
exec sh tests/kernel/run.sh
