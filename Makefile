# libpidfd: one non-recursive Makefile, plain GNU make, no configure step.
#
#   make                 library (shared and static), pidfd tool, shim, examples
#   make check           all tests: this kernel, LIBPIDFD_EMULATE=1, kernel
#                        personalities, Linux 5.10, 6.1, 6.12, 7.2 (user-mode-linux),
#                        real x86_64 and arm64 kernels (qemu-system, TCG)
#   make check-musl      the whole build with musl-gcc, all tests on this
#                        kernel natively and emulated (part of make check)
#   make stress          the kernel runs of make check 5 times beside two CPU
#                        hogs, with generous timeouts: finds ordering races
#   make install         honours prefix libdir includedir bindir mandir (or
#                        PREFIX LIBDIR INCLUDEDIR BINDIR MANDIR) and DESTDIR;
#                        STATIC=0 installs no libpidfd.a (still built: the
#                        tool, examples and tests link it)
#   make deb, make rpm   the Debian packages, the RPMs (libpidfd.spec)
#   make install-check   install into a scratch DESTDIR, build an example there
#                        with pkg-config alone, run it, check the file list
#
# O= names the build directory, so that variant builds (sanitizers, clang)
# live side by side: make O=build/clang CC=clang

# Every path below is relative to the source tree: make -f from elsewhere
# would look for sources in the wrong place, so it says so instead.
ifneq ($(realpath $(dir $(lastword $(MAKEFILE_LIST)))),$(realpath .))
$(error run make in the source tree, make -C $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST)))) (O=DIR puts the build elsewhere): the Makefile's paths are relative to it)
endif

# The one version: the soname's major, libpidfd.pc, pidfd --version and the
# header's LIBPIDFD_VERSION_* come from here (docs/releasing.md).
VERSION    := 0.3.0
SOVERSION  := 0

# Two blocks of the committed include/libpidfd.h are derived: the
# version numbers from VERSION above, the LIBPIDFD_KERNEL_* bits from
# include/internal/feature_list.h. The checked-in header is the one
# built and installed: make never writes it (a plain build leaves git status empty and runs no
# preprocessor to decide). After editing either source, run
# `make header-blocks` and commit the result; make check (tests/static.sh)
# fails while a block is out of date.
VERSION_BLOCK = printf '\#define LIBPIDFD_VERSION_%s %s\n' \
	MAJOR $(word 1,$(subst ., ,$(VERSION))) \
	MINOR $(word 2,$(subst ., ,$(VERSION))) \
	PATCH $(word 3,$(subst ., ,$(VERSION)))
# The public LIBPIDFD_KERNEL_* bits, from the library's one feature list.
KERNEL_BLOCK = CC="$(CC)" scripts/kernel-bits.sh
# The copies of the lists written for compilers and readers, generated
# the same way: the user's compile-time view of struct pidfd_info, the
# struct as the kernel's header has it in the tests that know only the
# kernel, the manual's table of LIBPIDFD_KERNEL_* bits and the docs' table
# of the features of each kernel the tests run on.
INFO_BLOCK = CC="$(CC)" scripts/info-layout.sh
MEMBERS = scripts/info-members.sh
KERNEL_TABLE = CC="$(CC)" scripts/kernel-table.sh
# The table of which kernel has which feature in docs/testing.md.
DOCS_TABLE = CC="$(CC)" scripts/kernel-docs-table.sh
# The fields of pidfd(1), from the tool's list of them.
FIELDS_MAN = CC="$(CC)" scripts/info-fields-man.sh
# $(call block,[--check]): each block, its source, the file it is in.
block = $(VERSION_BLOCK) | scripts/header-block.sh $(1) VERSION include/libpidfd.h && \
	$(KERNEL_BLOCK) | scripts/header-block.sh $(1) KERNEL include/libpidfd.h && \
	$(KERNEL_TABLE) | scripts/header-block.sh $(1) KERNEL man/libpidfd_features.3 && \
	$(DOCS_TABLE) | scripts/header-block.sh $(1) FEATURES docs/testing.md && \
	$(FIELDS_MAN) | scripts/header-block.sh $(1) FIELDS man/pidfd.1 && \
	$(INFO_BLOCK) | scripts/header-block.sh $(1) INFO tests/header-use.h && \
	$(MEMBERS) 0 64 | scripts/header-block.sh $(1) INFO_V0 tests/compat/kapi.c && \
	$(MEMBERS) 64 | scripts/header-block.sh $(1) INFO_NEWER tests/compat/kapi.c
.PHONY: header-blocks header-blocks-check
header-blocks:
	$(call block)
# Exit non-zero, writing nothing, when a block is out of date.
header-blocks-check:
	@$(call block,--check)

# Installation directories: GNU's lowercase names, each defaulting to its
# uppercase alias where that is given (the lowercase wins where both are).
# Relative to $(prefix) where they are, the .pc says ${prefix}.
prefix       := $(or $(prefix),$(PREFIX),/usr/local)
exec_prefix  := $(or $(exec_prefix),$(prefix))
bindir       := $(or $(bindir),$(BINDIR),$(exec_prefix)/bin)
libdir       := $(or $(libdir),$(LIBDIR),$(exec_prefix)/lib)
includedir   := $(or $(includedir),$(INCLUDEDIR),$(prefix)/include)
datarootdir  := $(or $(datarootdir),$(prefix)/share)
datadir      := $(or $(datadir),$(datarootdir))
mandir       := $(or $(mandir),$(MANDIR),$(datarootdir)/man)
pkgconfigdir := $(or $(pkgconfigdir),$(PKGCONFIGDIR),$(libdir)/pkgconfig)
# The shim is a preload module, not a library to link against: it has no
# soname and lives in a directory of its own.
pkglibdir    := $(or $(pkglibdir),$(libdir)/libpidfd)
# Where bash-completion looks, under our prefix (its .pc file says where);
# without that file, the directory it would name.
BASHCOMP_PC  = $(shell pkg-config --define-variable=prefix=$(prefix) \
	--define-variable=datadir=$(datadir) \
	--variable=completionsdir bash-completion 2>/dev/null)
bashcompdir  := $(or $(bashcompdir),$(BASHCOMPDIR),$(BASHCOMP_PC),$(datadir)/bash-completion/completions)
PREFIX       := $(prefix)
LIBDIR       := $(libdir)
INCLUDEDIR   := $(includedir)
BINDIR       := $(bindir)
MANDIR       := $(mandir)
PKGCONFIGDIR := $(pkgconfigdir)

O          ?= build
CC         ?= cc
CFLAGS     ?= -O2 -g
# -Werror only when asked (CI sets WERROR=1): a new compiler's new warning
# must not break a user's or a distribution's build.
WARN       := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
# The library, the shim and the tool (src/, lib/, compat/, cli/) build
# with these too, at zero warnings; tests, examples and bench with WARN.
STRICT_WARN := -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wcast-qual -Wundef
# 64-bit file offsets and inode numbers on 32-bit targets, as the
# distributions build: without them readdir() and stat() fail with
# EOVERFLOW on a file system of 64-bit inode numbers (9p, XFS). The
# public header has no off_t or ino_t, so the ABI does not change.
CPPFLAGS_ALL := -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iinclude -DLIBPIDFD_VERSION_STRING=\"$(VERSION)\" $(CPPFLAGS)
CFLAGS_ALL := -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS)
LIB_CFLAGS := -fPIC -fvisibility=hidden

# lib/: code shared by the library, the tool, the tests and the fuzzers,
# part of no ABI (as util-linux's lib/), built as a convenience archive
# that is never installed. The library takes what it uses of it (the
# /proc parsers), hidden; the tool links it beside libpidfd.so.
UTIL_SRCS  := $(sort $(wildcard lib/*.c))
UTIL_OBJS  := $(UTIL_SRCS:%.c=$(O)/%.o)
UTIL_A     := $(O)/libpidfd-util.a
# What libpidfd.a carries of lib/ (the shared library takes it from
# $(UTIL_A)); its recipe fails if the library needs more.
LIB_UTIL_OBJS := $(O)/lib/parse.o
LIB_SRCS   := $(sort $(wildcard src/*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(O)/%.o)
LIB_SO     := $(O)/libpidfd.so.$(VERSION)
LIB_A      := $(O)/libpidfd.a

CLI_SRCS   := $(sort $(wildcard cli/*.c))
comma      := ,
CLI        := $(O)/pidfd
CLI_INSTALLED := $(O)/install/pidfd

# Programs a user would copy: built as a user would (their own
# _GNU_SOURCE, the public header only), run by tests/test-examples.
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLES   := $(EXAMPLE_SRCS:examples/%.c=$(O)/examples/%)

TEST_HARNESS := tests/harness.c tests/util.c tests/personality.c
TEST_SRCS  := $(sort $(wildcard tests/test-*.c))
TESTS      := $(TEST_SRCS:tests/%.c=$(O)/tests/%)

COMPAT_SRCS := $(sort $(wildcard compat/*.c))
COMPAT_SO  := $(O)/libpidfd-compat.so
COMPAT_TEST_SRCS := $(sort $(wildcard tests/compat/*.c))
COMPAT_TESTS := $(COMPAT_TEST_SRCS:tests/compat/%.c=$(O)/tests/compat/%) \
	$(O)/tests/compat/kapi-time64
# tests/adopters.sh's count of an adopter's PIDFD_GET_INFO calls.
ADOPTERS_COUNT := $(O)/tests/adopters/count-info.so

.PHONY: all lib cli compat tests fuzzers fuzz check check-host check-emulated check-uml \
	check-musl stress \
	static \
	bench bench-uml examples install install-check uninstall clean
.DEFAULT_GOAL := all

all: lib cli compat examples

lib: $(LIB_SO) $(O)/libpidfd.so.$(SOVERSION) $(O)/libpidfd.so $(LIB_A) \
	$(O)/libpidfd.pc

$(O)/src/%.o: src/%.c src/*.h lib/*.h include/libpidfd.h include/internal/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(STRICT_WARN) $(LIB_CFLAGS) -c -o $@ $<

$(O)/lib/%.o: lib/%.c lib/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(STRICT_WARN) $(LIB_CFLAGS) -c -o $@ $<

$(UTIL_A): $(UTIL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJS) $(UTIL_A) src/libpidfd.map
	$(CC) $(CFLAGS_ALL) -shared -Wl,-soname,libpidfd.so.$(SOVERSION) \
		-Wl,--version-script=src/libpidfd.map -Wl,-z,defs \
		-o $@ $(LIB_OBJS) $(UTIL_A) $(LDFLAGS)

$(O)/libpidfd.so.$(SOVERSION): $(LIB_SO)
	ln -sf $(notdir $<) $@
$(O)/libpidfd.so: $(O)/libpidfd.so.$(SOVERSION)
	ln -sf $(notdir $<) $@

$(LIB_A): $(LIB_OBJS) $(LIB_UTIL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^
	@nm -g --defined-only $@ | awk 'NF == 3 { print $$3 }' | sort -u > $@.def
	@nm -u $@ | awk '/^ +U lpfd_/ { print $$2 }' | sort -u | comm -23 - $@.def \
		| sed 's|^|$@: lacks (add its lib/ object to LIB_UTIL_OBJS): |' \
		| { ! grep . >&2 || { rm -f $@ $@.def; exit 1; }; }
	@rm -f $@.def

# The paths are those of this make invocation: install writes its own.
pc_relative = $(patsubst $(prefix)/%,$${prefix}/%,$(1))
PC_SED = sed -e 's|@PREFIX@|$(prefix)|' \
	     -e 's|@LIBDIR@|$(call pc_relative,$(libdir))|' \
	     -e 's|@INCLUDEDIR@|$(call pc_relative,$(includedir))|' \
	     -e 's|@VERSION@|$(VERSION)|'

$(O)/libpidfd.pc: libpidfd.pc.in Makefile
	@mkdir -p $(dir $@)
	$(PC_SED) $< > $@

# The LD_PRELOAD shim carries the library's objects inside it, every
# symbol but the interposed calls local (compat/libpidfd-compat.c says why).
compat: $(COMPAT_SO)

$(COMPAT_SO): $(COMPAT_SRCS) compat/libpidfd-compat.map $(LIB_OBJS) $(UTIL_A) \
		src/*.h include/libpidfd.h
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) $(STRICT_WARN) $(LIB_CFLAGS) -shared \
		-Wl,--version-script=compat/libpidfd-compat.map -Wl,-z,defs \
		-Wl,--wrap=syscall -o $@ $(COMPAT_SRCS) $(LIB_OBJS) $(UTIL_A) -ldl \
		$(LDFLAGS)
	@! nm -u $(LIB_OBJS) | grep -E ' U (ioctl|waitid|pidfd_[a-z_]+|process_m[a-z]+)$$' \
		|| { echo "$@: the library calls what the shim interposes" >&2; \
		     rm -f $@; exit 1; }

cli: $(CLI) $(CLI_INSTALLED)

# The tool is a program of the public header and libpidfd.so (libpidfd.a
# where LDFLAGS has -static): <libpidfd.h>, the lists of include/internal/
# and lib/, no src/ header (what it reads of /proc comes through
# libpidfd_proc_open()). Linked twice, as libtool does: $(CLI), run from
# the build directory (the README's first command, the tests, the guests),
# finds the library beside it (a run path of $$ORIGIN); the one installed,
# $(CLI_INSTALLED), has no run path and finds it where the system's
# loader looks. tests/install-check.sh builds it with pkg-config against
# an installed library.
CLI_LIBDEP = $(if $(filter -static,$(LDFLAGS)),$(LIB_A),$(O)/libpidfd.so)
CLI_LINK = $(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(STRICT_WARN) -o $@ \
	$(CLI_SRCS) $(UTIL_A) -L$(O) -lpidfd
$(CLI) $(CLI_INSTALLED): $(CLI_SRCS) $(wildcard cli/*.h) lib/*.h \
		include/internal/*.h include/libpidfd.h $(UTIL_A) $(CLI_LIBDEP)
	@mkdir -p $(dir $@)
	$(CLI_LINK) $(if $(filter $(CLI),$@),-Wl$(comma)-rpath$(comma)'$$ORIGIN') \
		$(LDFLAGS)

examples: $(EXAMPLES)

$(O)/examples/%: examples/%.c $(wildcard examples/*.h) include/libpidfd.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude $(CPPFLAGS) $(CFLAGS_ALL) -o $@ $< $(LIB_A) $(LDFLAGS)

# Tests link the static library: they may reach the internal parsers and
# the emulation switch that the shared library hides.
tests: $(TESTS) $(COMPAT_TESTS) $(ADOPTERS_COUNT)

# Programs of the compat tests know only the kernel: no libpidfd header, no
# library (lib/names.c names the errors they print, as with any C library).
# tests/test-compat runs them with and without the shim.
$(O)/tests/compat/%: tests/compat/%.c lib/names.c lib/names.h
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE $(CPPFLAGS) $(CFLAGS_ALL) -o $@ $< lib/names.c \
		-lpthread $(LDFLAGS)

# kapi again with a 64-bit time_t: where time_t is 32 bits by default
# (i386, armhf), glibc then routes ioctl() to __ioctl_time64.
$(O)/tests/compat/kapi-time64: tests/compat/kapi.c lib/names.c lib/names.h
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 \
		$(CPPFLAGS) $(CFLAGS_ALL) -o $@ $< lib/names.c -lpthread $(LDFLAGS)

$(O)/tests/test-compat: $(COMPAT_TESTS) $(COMPAT_SO)
$(O)/tests/test-fault-sweep-shim: $(COMPAT_SO)
# dlopen() is in libc from glibc 2.34; before, in libdl.
$(O)/tests/test-fault-sweep-shim: LDFLAGS += -ldl

$(ADOPTERS_COUNT): tests/adopters/count-info.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -fPIC -shared -o $@ $< -ldl $(LDFLAGS)
$(O)/tests/test-examples: $(EXAMPLES)
# The stack bound leaves out the dynamic linker's first resolution of a
# symbol (on an AMX machine its register save alone is 11 KiB): bound at
# start, the measured calls are the library's own.
$(O)/tests/test-stack: LDFLAGS += -Wl,-z,now
$(filter $(O)/tests/test-cli-%,$(TESTS)): $(CLI)

$(O)/tests/%: tests/%.c $(TEST_HARNESS) $(wildcard tests/*.h) $(LIB_A) $(UTIL_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) -o $@ $< $(TEST_HARNESS) \
		$(LIB_A) $(UTIL_A) -lpthread $(LDFLAGS)

# make bench: the main table (bench/table/, one file per thing measured)
# and every bench/*.c, each its own program, linked like the tests (static
# library, internals reachable), run one after the other on this kernel,
# each given the build directory. Not part of make check: speed is
# measured, never asserted.
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCHES    := $(O)/bench/bench $(BENCH_SRCS:bench/%.c=$(O)/bench/%)
TABLE_SRCS := $(sort $(wildcard bench/table/*.c))

$(O)/bench/bench: $(TABLE_SRCS) bench/table/bench.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) -o $@ $(TABLE_SRCS) $(LIB_A) \
		-lpthread $(LDFLAGS)

$(O)/bench/%: bench/%.c $(wildcard bench/*.h) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Isrc $(CFLAGS_ALL) -o $@ $< $(LIB_A) \
		-lpthread $(LDFLAGS)

bench: all $(BENCHES)
	@set -e; for b in $(BENCHES); do echo "# $$b"; $$b $(O); done

# The emulation's table inside Linux 6.1 (user-mode-linux), where it runs,
# and pidfd info --all against ps there (11 rounds: a guest run is slow).
bench-uml: all $(O)/bench/bench $(O)/bench/info-all
	tests/uml.sh $(O)/bench/bench $(O)
	tests/uml.sh $(O)/bench/info-all $(O) 11

# libFuzzer targets for the /proc parsers (tests/fuzz/fuzz.c, one program
# per parser), always built with clang. make check runs each for a few
# seconds (tests/fuzz.sh), make fuzz for FUZZ_SECONDS each.
FUZZ_CC      ?= clang
FUZZ_PARSERS := fdinfo status cgroup mountinfo int stat cmdline
FUZZERS      := $(FUZZ_PARSERS:%=$(O)/fuzz/fuzz-%)
FUZZ_SECONDS ?= 300

$(O)/fuzz/fuzz-%: tests/fuzz/fuzz.c lib/*.c lib/*.h src/*.h include/libpidfd.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS_ALL) -Isrc -DFUZZ_$* -std=gnu11 $(WARN) -g -O1 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ tests/fuzz/fuzz.c lib/*.c

fuzzers: $(FUZZERS)

fuzz: $(FUZZERS)
	tests/fuzz.sh $(O) $(FUZZ_SECONDS)

# MAKE= in the recipe hands the jobserver to the makes check.sh runs.
check: all tests fuzzers
	MAKE="$(MAKE)" tests/check.sh $(O)

# Everything that links statically (no shared library, shim or compat
# tests): what tests/qemu.sh cross-builds for another architecture, with
# CC, AR and LDFLAGS=-static given.
STATIC_TESTS := $(filter-out $(O)/tests/test-compat \
	$(O)/tests/test-fault-sweep-shim,$(TESTS))
static: $(LIB_A) $(CLI) $(EXAMPLES) $(STATIC_TESTS)

check-host: all tests
	tests/run.sh $(O) native
check-emulated: all tests
	tests/run.sh $(O) emulated
check-uml: all tests
	tests/uml.sh tests/run.sh $(O) uml
# CPython's pidfd cases, plain and with the shim, native and emulated
# (tests/adopters-python.sh; sid's Python, which .ci/fetch-debs caches),
# on the host and inside each user-mode-linux kernel of ADOPTERS_UML (5.10
# and 6.1): not part of make check, whose time they do not fit
# (docs/testing.md).
ADOPTERS_UML ?= bullseye bookworm
.PHONY: check-adopters
check-adopters: all
	r=0 t=$$(date +%s); tests/adopters-python.sh $(O) || r=1; \
	echo "# took $$(($$(date +%s) - t)) s"; \
	for s in $(ADOPTERS_UML); do \
		t=$$(date +%s); k=$$(tests/uml-kernel.sh $$s) || { r=1; continue; }; \
		UML=$$s tests/uml.sh tests/adopters-python.sh $(O) \
			uml-$${k%% *} || r=1; \
		echo "# took $$(($$(date +%s) - t)) s, the guest's boot included"; \
	done; exit $$r

# musl: everything built with musl-gcc into $(O)/musl (tests/musl.sh), the
# suite run natively and emulated.
check-musl:
	r=0; for mode in native emulated; do \
		MAKE="$(MAKE)" tests/musl.sh $(O) $$mode || r=1; \
	done; exit $$r

# One real kernel under qemu-system (tests/vm.sh, TCG, two CPUs), as make
# check boots it: check-qemu-trixie-backports (x86_64, the newest),
# check-qemu-bullseye (x86_64, 5.10), check-qemu-trixie-arm64 (6.12) and
# check-qemu-trixie-backports-arm64 (7.3), whose kernels .ci/run fetches.
QEMU_X86_GUESTS   := trixie-backports bullseye
QEMU_ARM64_GUESTS := trixie-arm64 trixie-backports-arm64
.PHONY: $(QEMU_X86_GUESTS:%=check-qemu-%) $(QEMU_ARM64_GUESTS:%=check-qemu-%)
$(QEMU_X86_GUESTS:%=check-qemu-%): all tests
	CHECK_QEMU_ONLY=1 CHECK_VM_GUESTS=$(@:check-qemu-%=%) \
		CHECK_ARM64_GUESTS= tests/check.sh $(O)
$(QEMU_ARM64_GUESTS:%=check-qemu-%): all
	CHECK_QEMU_ONLY=1 CHECK_VM_GUESTS= MAKE="$(MAKE)" \
		CHECK_ARM64_GUESTS=$(@:check-qemu-%=%) tests/check.sh $(O)

stress: all tests
	tests/stress.sh $(O) $(STRESS_ROUNDS)

install: all
	install -d $(DESTDIR)$(libdir) $(DESTDIR)$(includedir) \
		$(DESTDIR)$(bindir) $(DESTDIR)$(pkgconfigdir) \
		$(DESTDIR)$(pkglibdir)
	install -m 644 include/libpidfd.h $(DESTDIR)$(includedir)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(libdir)/
	ln -sf libpidfd.so.$(VERSION) $(DESTDIR)$(libdir)/libpidfd.so.$(SOVERSION)
	ln -sf libpidfd.so.$(SOVERSION) $(DESTDIR)$(libdir)/libpidfd.so
	$(if $(filter 0,$(STATIC)),,install -m 644 $(LIB_A) $(DESTDIR)$(libdir)/)
	$(PC_SED) libpidfd.pc.in > $(DESTDIR)$(pkgconfigdir)/libpidfd.pc
	install -m 755 $(CLI_INSTALLED) $(DESTDIR)$(bindir)/
	install -m 755 $(COMPAT_SO) $(DESTDIR)$(pkglibdir)/
	install -d $(DESTDIR)$(bashcompdir)
	install -m 644 cli/pidfd.bash-completion $(DESTDIR)$(bashcompdir)/pidfd
	for p in man/*.[137]; do \
		d=$(DESTDIR)$(mandir)/man$${p##*.}; \
		install -d $$d || exit 1; \
		if [ -L $$p ]; then ln -sf $$(readlink $$p) $$d/$${p##*/}; \
		else install -m 644 $$p $$d/ || exit 1; fi; \
	done

# The ABI of the last release, kept in abi/ (docs/releasing.md): make
# abi-check fails on a change to it without a new soname or version node;
# make abi-dump records this build's at a release.
ABI_DUMP := abi/libpidfd.so.$(SOVERSION).abi
.PHONY: abi-check abi-dump

abi-check: lib
	scripts/abi-check.sh $(ABI_DUMP) $(O)/libpidfd.so.$(SOVERSION) include

abi-dump: lib
	@mkdir -p abi
	abidw --headers-dir include --no-corpus-path --no-comp-dir-path \
		--short-locs $(LIB_SO) > $(ABI_DUMP)

# The Debian packages (debian/), built from a copy of the tree in
# $(O)/deb and linted (scripts/make-deb.sh).
.PHONY: deb
deb:
	scripts/make-deb.sh $(O)

# The RPMs of libpidfd.spec, built with rpmbuild -bb from a tarball of the
# tree in $(O)/rpm and linted with rpmlint (scripts/make-rpm.sh).
.PHONY: rpm
rpm:
	scripts/make-rpm.sh $(O)

install-check: all
	MAKE="$(MAKE)" tests/install-check.sh $(O)

uninstall:
	rm -f $(DESTDIR)$(includedir)/libpidfd.h \
	      $(DESTDIR)$(libdir)/libpidfd.so* $(DESTDIR)$(libdir)/libpidfd.a \
	      $(DESTDIR)$(pkgconfigdir)/libpidfd.pc $(DESTDIR)$(bindir)/pidfd \
	      $(DESTDIR)$(pkglibdir)/libpidfd-compat.so $(DESTDIR)$(bashcompdir)/pidfd \
	      $(patsubst man/%,$(DESTDIR)$(mandir)/man1/%,$(wildcard man/*.1)) \
	      $(patsubst man/%,$(DESTDIR)$(mandir)/man3/%,$(wildcard man/*.3)) \
	      $(patsubst man/%,$(DESTDIR)$(mandir)/man7/%,$(wildcard man/*.7))
	-rmdir $(DESTDIR)$(pkglibdir)

clean:
	rm -rf $(O)
