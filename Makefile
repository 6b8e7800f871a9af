# lfht: RCU-protected lock-free resizable hash table (user-space library).
#   make            liblfht.a, liblfht.so, lfht.pc, lfht-compat.pc
#   make check      every test; ends with "N passed, N failed"
#   make install    PREFIX=/usr/local DESTDIR=
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
	install -m 644 include/lfht/rculfhash.h $(DESTDIR)$(INCDIR)/lfht/
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

# Build, run the README's example, then every test vector (memb flavor).
demo: all
	$(CC) $(WARN) -Iinclude examples/typical.c $(B)/liblfht.a -lurcu -pthread -o $(B)/typical
	@echo '--- examples/typical.c'
	$(B)/typical
	$(CC) $(WARN) -O2 -pthread -DTEST_FLAVOR_MEMB -Itests -Iinclude/compat -Iinclude -Icommon -Iuser \
		tests/run_vectors.c $(B)/liblfht.a -lurcu-memb -o $(B)/run_vectors
	@echo '--- tests/vectors (first and last cases)'
	$(B)/run_vectors tests/vectors/*.vec > $(B)/vectors.tap; \
		rc=$$?; head -5 $(B)/vectors.tap; echo ...; tail -4 $(B)/vectors.tap; exit $$rc

# Benchmarks (tools/bench/run.sh); never part of `make check`.
bench: all
	QUICK=$(QUICK) CC=$(CC) tools/bench/run.sh

clean:
	rm -rf build build-*

.PHONY: all install check demo bench clean
