#!/bin/sh
# The KUnit suite again on the KCSAN debug kernel (tools/qemu/kcsan.config):
# any KCSAN report in the console log fails it.  make check-full only.
cd "${LFHT_ROOT:?run from make check-full}" || exit 1
LFHT_KVARIANT=kcsan exec sh tests/shell/kunit.t
