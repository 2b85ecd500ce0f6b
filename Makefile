# libpidfd: one non-recursive Makefile, plain GNU make, no configure step.
#
#   make                 library (shared and static), pidfd tool, shim, examples
#   make check           all tests: this kernel, LIBPIDFD_EMULATE=1, Linux 6.1
#   make install         honours PREFIX LIBDIR INCLUDEDIR BINDIR MANDIR DESTDIR
#   make install-check   install into a scratch DESTDIR, build an example there
#                        with pkg-config alone, run it, check the file list
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

# Programs a user would copy: built as a user would (their own
# _GNU_SOURCE, the public header only), run by tests/test-examples.
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLES   := $(EXAMPLE_SRCS:examples/%.c=$(O)/examples/%)

TEST_HARNESS := tests/harness.c tests/util.c
TEST_SRCS  := $(sort $(wildcard tests/test-*.c))
TESTS      := $(TEST_SRCS:tests/%.c=$(O)/tests/%)

COMPAT_SRCS := $(sort $(wildcard compat/*.c))
COMPAT_SO  := $(O)/libpidfd-compat.so
COMPAT_TEST_SRCS := $(sort $(wildcard tests/compat/*.c))
COMPAT_TESTS := $(COMPAT_TEST_SRCS:tests/compat/%.c=$(O)/tests/compat/%)

.PHONY: all lib cli compat tests fuzzers fuzz check check-host check-emulated check-uml \
	bench bench-uml examples install install-check uninstall clean
.DEFAULT_GOAL := all

all: lib cli compat examples

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

# The paths are those of this make invocation: install writes its own.
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	     -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|'

$(O)/libpidfd.pc: libpidfd.pc.in Makefile
	$(PC_SED) $< > $@

# The LD_PRELOAD shim carries the library's objects inside it, every
# symbol but the interposed calls local (compat/libpidfd-compat.c says why).
compat: $(COMPAT_SO)

$(COMPAT_SO): $(COMPAT_SRCS) compat/libpidfd-compat.map $(LIB_OBJS) src/*.h \
		include/libpidfd.h
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) $(LIB_CFLAGS) -shared \
		-Wl,--version-script=compat/libpidfd-compat.map -Wl,-z,defs \
		-Wl,--wrap=syscall -o $@ $(COMPAT_SRCS) $(LIB_OBJS) -ldl \
		$(LDFLAGS)
	@! nm -u $(LIB_OBJS) | grep -E ' U (ioctl|waitid|pidfd_[a-z_]+|process_m[a-z]+)$$' \
		|| { echo "$@: the library calls what the shim interposes" >&2; \
		     rm -f $@; exit 1; }

cli: $(CLI)

$(CLI): $(CLI_SRCS) $(wildcard cli/*.h) include/libpidfd.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -o $@ $(CLI_SRCS) $(LIB_A) $(LDFLAGS)

examples: $(EXAMPLES)

$(O)/examples/%: examples/%.c include/libpidfd.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude $(CFLAGS_ALL) -o $@ $< $(LIB_A) $(LDFLAGS)

# Tests link the static library: they may reach the internal parsers and
# the emulation switch that the shared library hides.
tests: $(TESTS) $(COMPAT_TESTS)

# Programs of the compat tests know only the kernel: no libpidfd header, no
# library. tests/test-compat runs them with and without the shim.
$(O)/tests/compat/%: tests/compat/%.c
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE $(CFLAGS_ALL) -o $@ $< -lpthread $(LDFLAGS)

$(O)/tests/test-compat: $(COMPAT_TESTS) $(COMPAT_SO)
$(O)/tests/test-examples: $(EXAMPLES)
$(filter $(O)/tests/test-cli-%,$(TESTS)): $(CLI)

$(O)/tests/%: tests/%.c $(TEST_HARNESS) $(wildcard tests/*.h) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) -o $@ $< $(TEST_HARNESS) \
		$(LIB_A) -lpthread $(LDFLAGS)

# make bench: every bench/*.c is its own program, linked like the tests
# (static library, internals reachable), run one after the other on this
# kernel, each given the build directory. Not part of make check: speed
# is measured, never asserted.
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCHES    := $(BENCH_SRCS:bench/%.c=$(O)/bench/%)

$(O)/bench/%: bench/%.c $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) -o $@ $< $(LIB_A) \
		-lpthread $(LDFLAGS)

bench: all $(BENCHES)
	@set -e; for b in $(BENCHES); do echo "# $$b"; $$b $(O); done

# The emulation's table inside Linux 6.1 (user-mode-linux), where it runs.
bench-uml: all $(O)/bench/bench
	tests/uml.sh $(O)/bench/bench $(O)

# libFuzzer targets for the /proc parsers (tests/fuzz/fuzz.c, one program
# per parser), always built with clang. make check runs each for a few
# seconds (tests/fuzz.sh), make fuzz for FUZZ_SECONDS each.
FUZZ_CC      ?= clang
FUZZ_PARSERS := fdinfo status cgroup mountinfo int
FUZZERS      := $(FUZZ_PARSERS:%=$(O)/fuzz/fuzz-%)
FUZZ_SECONDS ?= 300

$(O)/fuzz/fuzz-%: tests/fuzz/fuzz.c src/parse.c src/*.h include/libpidfd.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS_ALL) -Isrc -DFUZZ_$* -std=gnu11 $(WARN) -g -O1 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ tests/fuzz/fuzz.c src/parse.c

fuzzers: $(FUZZERS)

fuzz: $(FUZZERS)
	tests/fuzz.sh $(O) $(FUZZ_SECONDS)

check: all tests fuzzers
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
	$(PC_SED) libpidfd.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libpidfd.pc
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/
	install -m 755 $(COMPAT_SO) $(DESTDIR)$(LIBDIR)/
	for s in 1 3 7; do \
		install -d $(DESTDIR)$(MANDIR)/man$$s && \
		install -m 644 man/*.$$s $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; \
	done

install-check: all
	MAKE="$(MAKE)" tests/install-check.sh $(O)

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/libpidfd.h \
	      $(DESTDIR)$(LIBDIR)/libpidfd.so* $(DESTDIR)$(LIBDIR)/libpidfd.a \
	      $(DESTDIR)$(PKGCONFIGDIR)/libpidfd.pc $(DESTDIR)$(BINDIR)/pidfd \
	      $(DESTDIR)$(LIBDIR)/libpidfd-compat.so \
	      $(patsubst man/%,$(DESTDIR)$(MANDIR)/man1/%,$(wildcard man/*.1)) \
	      $(patsubst man/%,$(DESTDIR)$(MANDIR)/man3/%,$(wildcard man/*.3)) \
	      $(patsubst man/%,$(DESTDIR)$(MANDIR)/man7/%,$(wildcard man/*.7))

clean:
	rm -rf $(O)
