#!/bin/sh
# The debugfs test (tests/kernel/run.sh) on the KCSAN debug kernel: every
# debugfs file, bad input, concurrent writers, the vectors, with KCSAN
# watching.  make check-full only.
cd "${LFHT_ROOT:?run from make check-full}" || exit 1
LFHT_KVARIANT=kcsan exec sh tests/kernel/run.sh
