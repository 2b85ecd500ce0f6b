# libpidfd: one non-recursive Makefile, plain GNU make, no configure step.
#
#   make                 library (shared and static), pidfd tool, shim
#   make check           all tests: this kernel, LIBPIDFD_EMULATE=1, Linux 6.1
#   make install         honours PREFIX LIBDIR INCLUDEDIR BINDIR MANDIR DESTDIR
#
# O= names the build directory, so that variant builds (sanitizers, clang)
# live side by side: make O=build/clang CC=clang

VERSION    := 0.1.0
SOVERSION  := 0

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

O          ?= build
CC         ?= cc
CFLAGS     ?= -O2 -g
WARN       := -Wall -Wextra -Werror
CPPFLAGS_ALL := -D_GNU_SOURCE -Iinclude -DLIBPIDFD_VERSION_STRING=\"$(VERSION)\" $(CPPFLAGS)
CFLAGS_ALL := -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS)
LIB_CFLAGS := -fPIC -fvisibility=hidden

LIB_SRCS   := $(sort $(wildcard src/*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(O)/%.o)
LIB_SO     := $(O)/libpidfd.so.$(VERSION)
LIB_A      := $(O)/libpidfd.a

CLI_SRCS   := $(sort $(wildcard cli/*.c))
CLI        := $(O)/pidfd

TEST_HARNESS := tests/harness.c tests/util.c
TEST_SRCS  := $(sort $(wildcard tests/test-*.c))
TESTS      := $(TEST_SRCS:tests/%.c=$(O)/tests/%)

.PHONY: all lib cli tests check check-host check-emulated check-uml \
	install uninstall clean
.DEFAULT_GOAL := all

all: lib cli

lib: $(LIB_SO) $(O)/libpidfd.so.$(SOVERSION) $(O)/libpidfd.so $(LIB_A) \
	$(O)/libpidfd.pc

$(O)/src/%.o: src/%.c src/*.h include/libpidfd.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(LIB_CFLAGS) -c -o $@ $<

$(LIB_SO): $(LIB_OBJS) src/libpidfd.map
	$(CC) $(CFLAGS_ALL) -shared -Wl,-soname,libpidfd.so.$(SOVERSION) \
		-Wl,--version-script=src/libpidfd.map -Wl,-z,defs \
		-o $@ $(LIB_OBJS) $(LDFLAGS)

$(O)/libpidfd.so.$(SOVERSION): $(LIB_SO)
	ln -sf $(notdir $<) $@
$(O)/libpidfd.so: $(O)/libpidfd.so.$(SOVERSION)
	ln -sf $(notdir $<) $@

$(LIB_A): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/libpidfd.pc: libpidfd.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    $< > $@

cli: $(CLI)

$(CLI): $(CLI_SRCS) $(wildcard cli/*.h) include/libpidfd.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -o $@ $(CLI_SRCS) $(LIB_A) $(LDFLAGS)

# Tests link the static library: they may reach the internal parsers and
# the emulation switch that the shared library hides.
tests: $(TESTS)

$(O)/tests/%: tests/%.c $(TEST_HARNESS) $(wildcard tests/*.h) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) -o $@ $< $(TEST_HARNESS) \
		$(LIB_A) -lpthread $(LDFLAGS)

check: all tests
	tests/check.sh $(O)

check-host: all tests
	tests/run.sh $(O) native
check-emulated: all tests
	tests/run.sh $(O) emulated
check-uml: all tests
	tests/uml.sh tests/run.sh $(O) uml

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/libpidfd.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libpidfd.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpidfd.so.$(SOVERSION)
	ln -sf libpidfd.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libpidfd.so
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 644 $(O)/libpidfd.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/libpidfd.h \
	      $(DESTDIR)$(LIBDIR)/libpidfd.so* $(DESTDIR)$(LIBDIR)/libpidfd.a \
	      $(DESTDIR)$(PKGCONFIGDIR)/libpidfd.pc $(DESTDIR)$(BINDIR)/pidfd

clean:
	rm -rf $(O)
