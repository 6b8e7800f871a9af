#!/bin/sh
# The debugfs test (tests/kernel/run.sh) on the KASAN debug kernel instead
# of Debian's: every debugfs file, bad input, concurrency, the vectors.
cd "${LFHT_ROOT:?run from make check}" || exit 1
LFHT_KVARIANT=kasan exec sh tests/kernel/run.sh
