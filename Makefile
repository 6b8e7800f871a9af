# lfht: RCU-protected lock-free resizable hash table (user-space library).
#   make            liblfht.a, liblfht.so, lfht.pc, lfht-compat.pc
#   make check      every test; ends with "N passed, N failed"
#   make check-full make check plus tests/shell-full (the KCSAN kernel)
#   make fuzz       each libFuzzer target for FUZZ_SECONDS (10)
#   make soak       soak every flavor, SOAK_SECONDS (60) per run
#   make install    PREFIX=/usr/local DESTDIR=
#   make kernel     lfht.ko against KDIR (default: the running kernel's
#                   headers, else the newest installed ones)
#   make kunit      lfht.ko + lfht_kunit.ko on the debug kernel under QEMU
#   make bench      benchmarks against liburcu, ck_hs, rwlock (QUICK=1: < 3 min)
CC      ?= cc
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
VERSION := 0.1.0
WARN    := -Wall -Wextra -Werror
CFLAGS  ?= -O2 -g
B       ?= build
LIB_CFLAGS = $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -pthread \
	     -Iinclude -Icommon -Iuser
LIB_SRCS := common/lfht.c common/lfht_resize.c common/lfht_vector.c \
	    user/lfht_user.c user/lfht_hash.c
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
HDRS     := $(wildcard include/lfht/*.h common/*.h user/*.h)

all: $(B)/liblfht.a $(B)/liblfht.so $(B)/lfht.pc $(B)/lfht-compat.pc

$(B)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(B)/liblfht.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(B)/liblfht.so: $(LIB_OBJS)
	$(CC) -shared -pthread -Wl,-soname,liblfht.so.0 -o $@ $^

PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|'

$(B)/%.pc: user/%.pc.in
	$(PC_SED) $< > $@

install: all
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR)/lfht/compat/urcu
	install -m 644 include/lfht/rculfhash.h include/lfht/lfht_api.h $(DESTDIR)$(INCDIR)/lfht/
	install -m 644 include/compat/urcu/rculfhash.h $(DESTDIR)$(INCDIR)/lfht/compat/urcu/
	install -m 644 include/compat/urcu-mb.h include/compat/urcu-signal.h $(DESTDIR)$(INCDIR)/lfht/compat/
	install -m 644 $(B)/liblfht.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/liblfht.so $(DESTDIR)$(LIBDIR)/liblfht.so.$(VERSION)
	ln -sf liblfht.so.$(VERSION) $(DESTDIR)$(LIBDIR)/liblfht.so.0
	ln -sf liblfht.so.0 $(DESTDIR)$(LIBDIR)/liblfht.so
	for pc in lfht lfht-compat; do \
		$(PC_SED) user/$$pc.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/$$pc.pc; done

check:
	tools/check.sh

# make check plus the slow tests of tests/shell-full/ (KUnit and debugfs on
# the KCSAN kernel, tools/qemu/kcsan.config); same "N passed, N failed".
check-full:
	LFHT_CHECK_FULL=1 tools/check.sh

# Build, run the README's example, then every test vector (memb flavor),
# then boot lfht.ko under QEMU and show a debugfs session.
demo: all
	$(CC) $(WARN) -Iinclude examples/typical.c $(B)/liblfht.a -lurcu -pthread -o $(B)/typical
	@echo '--- examples/typical.c'
	$(B)/typical
	$(CC) $(WARN) -O2 -pthread -DTEST_FLAVOR_MEMB -Itests -Iinclude/compat -Iinclude -Icommon -Iuser \
		tests/run_vectors.c $(B)/liblfht.a -lurcu-memb -o $(B)/run_vectors
	@echo '--- tests/vectors (first and last cases)'
	$(B)/run_vectors tests/vectors/*.vec > $(B)/vectors.tap; \
		rc=$$?; head -5 $(B)/vectors.tap; echo ...; tail -4 $(B)/vectors.tap; exit $$rc
	sh tools/demo-kernel.sh

# The kernel module.  Kbuild writes its objects next to the sources and its
# "clean" sweeps every *.o and *.a under M, so it builds a copy of the
# sources in $(B)/kbuild-<KDIR>, one per kernel tree; lfht.ko is copied up.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /lib/modules/*/build))))
KBUILD_SRCS = Kbuild common kernel include tests/vectors tools/embed-vectors.sh \
	      $(wildcard tests/kunit)
KB = $(B)/kbuild-$(subst /,_,$(KDIR))

kbuild:
	rm -rf $(KB) && mkdir -p $(KB)
	cp -R --parents $(KBUILD_SRCS) $(KB)/
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(KB) $(if $(C),C=$(C)) modules

kernel: kbuild
	cp $(KB)/lfht.ko lfht.ko

kernel-clean:
	rm -rf $(B)/kbuild-* lfht.ko

# The KUnit suite on the debug kernel of tools/qemu (built once, cached),
# from its own copy of the sources ("make kbuild" with that KDIR).
KTREE    = $(shell tools/qemu/build-kernel.sh --print-dir)
KUNIT_B  = $(abspath $(B))/kunit
KUNIT_SRC = $(abspath $(B))/kbuild-$(subst /,_,$(KTREE))

kunit:
	tools/qemu/deps.sh
	tools/qemu/build-kernel.sh >/dev/null
	rm -rf $(KUNIT_B) && mkdir -p $(KUNIT_B)
	$(MAKE) -s kbuild KDIR=$(KTREE) >$(KUNIT_B)/build.log 2>&1 && \
		! grep -q 'warning:' $(KUNIT_B)/build.log || \
		{ cat $(KUNIT_B)/build.log; exit 1; }
	@echo "kunit: running lfht_kunit.ko (log: $(KUNIT_B)/run.log)"
	@rc=0; LFHT_KTAP_OUT=$(KUNIT_B)/ktap.txt tools/qemu/kunit-run.sh \
		--log $(KUNIT_B)/console.log --script tests/kunit/guest.sh \
		$(KUNIT_SRC)/lfht.ko $(KUNIT_SRC)/lfht_kunit.ko \
		>$(KUNIT_B)/run.log 2>&1 || rc=$$?; \
	sed -n 's/^\[ *[0-9.]*\] *\(# lfht_.*\)/\1/p' $(KUNIT_B)/console.log; \
	grep -E '^run\.sh: guest|\[(FAILED|CRASHED)\]' $(KUNIT_B)/run.log; \
	sed -n '/^--- check-log/,/^--- kunit.py parse/p' $(KUNIT_B)/run.log | \
		sed '$$d'; \
	grep -E 'Testing complete|^kunit: ' $(KUNIT_B)/run.log; \
	[ $$rc = 0 ] || echo "kunit: FAILED (exit $$rc)"; exit $$rc

# libFuzzer targets (clang): tests/fuzz/fuzz_NAME.c with the library sources
# built in, seed corpus tests/fuzz/corpus/NAME/.  A new target is one line:
#   FUZZ_TARGETS += NAME   (and FUZZ_SRCS_NAME := extra sources, if any)
FUZZ_TARGETS := ops vectors cmd
FUZZ_SRCS_cmd := common/lfht_cmd.c
FUZZ_SECONDS ?= 10
FUZZ_CC      ?= clang
FUZZ_B       := $(B)/fuzz
# The mb flavor: its grace periods need no membarrier() IPIs, slow in a VM.
FUZZ_FLAVOR  := mb
FUZZ_CFLAGS  := $(WARN) -g -O1 -pthread -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -DTEST_FLAVOR_MB \
		-Itests -Iinclude/compat -Iinclude -Icommon -Iuser

.SECONDEXPANSION:
$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_SRCS) $(HDRS) $$(FUZZ_SRCS_$$*)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(LIB_SRCS) $(FUZZ_SRCS_$*) -lurcu-$(FUZZ_FLAVOR) -o $@

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)

# Each target for FUZZ_SECONDS; fails on any crash, leak or mismatch.
fuzz: fuzz-build
	tools/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_B) $(FUZZ_TARGETS)

fuzz-targets:
	@echo $(FUZZ_TARGETS)

# Bounded soak: every flavor, SOAK_SECONDS per run (tools/soak.sh).
SOAK_SECONDS ?= 60
soak:
	tools/soak.sh $(SOAK_SECONDS)

# Benchmarks (tools/bench/run.sh); never part of `make check`.
bench: all
	QUICK=$(QUICK) CC=$(CC) tools/bench/run.sh

clean:
	rm -rf build build-*

.PHONY: all install check check-full demo bench clean kbuild kernel kernel-clean kunit \
	fuzz fuzz-build fuzz-targets soak
