# SPDX-License-Identifier: GPL-2.0-or-later
# rtjitter — real-time audio jitter tester.  `make` builds ./rtjitter.
#
# Sources are globbed: a new .c under src/, rtaudio/ or loads/ builds without touching this file; a new
# tests/unit/test_*.c becomes one more cmocka binary; a new tests/integration/*.sh one more script.
#
# Flags: the user's and the packager's CPPFLAGS, CFLAGS and LDFLAGS are honoured as given (dpkg-buildflags puts
# -D_FORTIFY_SOURCE in CPPFLAGS); rtjitter's own include paths, defines and warnings live in RTJ_* variables, so
# `make CFLAGS=-O0` still builds. -Werror is on for a git checkout (developers), for `make check` and for CI,
# and off for a build from a release tarball; WERROR=0 or WERROR=1 overrides.
#
# `make run` and `make check` first install the Debian packages they need (and say which and why), then build in
# a second make, so that pkg-config is asked only once the packages are there. They say one short line per step
# and build quietly (Q=@: no compiler command lines; the compiler's own messages, errors, come in full); apt's
# output goes to a log that is shown only when it fails. `make V=1 run` shows everything.

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
BUILD    ?= build
# BIN: the binary a build links (make check's hardened one is build-check/rtjitter); RTJ: the one tests run.
BIN      ?= rtjitter
# make install installs this binary (and the pages it writes): a test installs the one it was given
# (INSTALL_BIN=build-check/rtjitter), which no rule here rebuilds, instead of building ./rtjitter from nothing
INSTALL_BIN ?= rtjitter
INSTALL_RUN := $(if $(findstring /,$(INSTALL_BIN)),$(INSTALL_BIN),./$(INSTALL_BIN))
RTJ      ?= ./$(BIN)
DATADIR  ?= $(PREFIX)/share/rtjitter

CFLAGS   ?= -O2 -g
WERROR   ?= $(if $(wildcard .git),1,0)
# Parallel builds and tests: three jobs a CPU and one more (JOBS=1 for one at a time). Most tests wait on real time
# (a run of a few seconds, a server's cycles), using about a third of a CPU each (255 CPU seconds in 360 s of 4 lanes
# beside stress-ng); a clean clone's CI at six lanes on 2 CPUs used 1.5 of them through the plain tests (2085 s of
# tests in 352 s), so a seventh lane shortens that part without filling the CPUs.
JOBS     ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 3 + 1 )))

# What the binary links: libjack (the JACK backend), alsa-lib (the ALSA backend), jansson (reports), zlib (reads
# /proc/config.gz), libsndfile (the loopback's glitch WAVs and --record's WAV/FLAC of the whole capture),
# libpipewire (the culprits' PipeWire profiler source: which other client did not finish, read from the daemon),
# libtracefs and libtraceevent (the culprits' kernel trace read from its binary per-CPU rings, src/culprit/trace_raw.c).
PKGS     := jack jansson zlib alsa sndfile libpipewire-0.3 libtracefs libtraceevent
PKG_CFLAGS = $(eval PKG_CFLAGS := $(call pkgconf,--cflags,$(PKGS)))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $(call pkgconf,--libs,$(PKGS)))$(PKG_LIBS)
CMOCKA_LIBS = $(eval CMOCKA_LIBS := $(call pkgconf,--libs,cmocka))$(CMOCKA_LIBS)
# pkg-config, or one line naming what is missing and how to get it.
pkgconf  = $(or $(shell pkg-config $(1) $(2) 2>/dev/null),$(if $(shell pkg-config --exists $(2) && echo y),,\
           $(error pkg-config cannot find: $(2). Run 'make deps' (or install them by hand); see README)))

RTJ_CPPFLAGS = -Isrc -Irtaudio -Iloads -D_GNU_SOURCE -DRTJ_VERSION='"$(VERSION)"' $(PKG_CFLAGS)
RTJ_CFLAGS   = -std=gnu11 -pthread -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -MMD -MP
RTJ_LIBS     = $(PKG_LIBS) -lm -lpthread -ldl

LIB_SRC  := $(filter-out src/cli/main.c,$(wildcard src/*/*.c rtaudio/*.c rtaudio/*/*.c loads/*.c))
LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
MAIN_OBJ := $(BUILD)/src/cli/main.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
HELPER_SRC := $(wildcard tests/helpers/*.c)
HELPER_BIN := $(patsubst tests/helpers/%.c,$(BUILD)/tests/helpers/%,$(HELPER_SRC))
ALL_OBJ  := $(LIB_OBJ) $(MAIN_OBJ)

.PHONY: all deps deps-run deps-check run check check-clang check-quick goldens test-bins compile sanitize bench install uninstall clean fuzz

all: $(BIN)

# ---- Debian packages -------------------------------------------------------------------------------------------
# To build and run: a compiler, pkg-config, the libraries linked above (libsndfile1-dev: the loopback's WAV and
# FLAC recordings), libpipewire-0.3-dev (the culprits' PipeWire profiler source: under PipeWire, the client that
# did not finish, from the daemon's profiler), libtracefs-dev and libtraceevent-dev (the kernel trace's binary rings,
# read as root), and jackd2 (the private server rtjitter starts when none is running). --no-install-recommends keeps
# it at what is listed (jackd2 recommends qjackctl).
RUN_PKGS   := build-essential pkg-config libjack-jackd2-dev jackd2 libjansson-dev zlib1g-dev libasound2-dev \
              libsndfile1-dev libpipewire-0.3-dev libtracefs-dev libtraceevent-dev
# The tests add: cmocka (unit tests); pipewire + pipewire-jack (PipeWire's JACK, on a private PipeWire);
# rt-tests (cyclictest, hackbench: reference tools); stress-ng (busy-machine runs, bench); libasound2-plugins
# (ALSA's jack PCM); chromium + python3 (the HTML test renders each page and parses its SVG); valgrind
# (bench: instructions per cycle); strace (the write load's fsyncs); time (bench); util-linux (unshare, for
# the full-disk test's private tmpfs); procps (ps, pgrep in the leak checks); man-db (the man page test: man
# --warnings, lexgrog); python3-yaml (tests/integration/packaging.sh reads the LAVA test definition in data/lava/);
# python3-jsonschema (packaging.sh validates the KCIDB output against the v5 schema); python3-pil (tests/helpers/png.py
# reads the screenshots back); clang (build_flavours: the tree compiles with clang too; make fuzz); linux-perf
# (perf record: the scheduler trace the culprits are judged against, tests/helpers/perf_waits.py); jitterdebugger (import_tools.sh imports its results; the noise bench);
# wireplumber + dbus (PipeWire's session manager on a private session bus: pipewire_wireplumber.sh); libmagic1
# (lava_run.sh's unpacked lava-dispatcher imports python3-magic, which loads it: a fresh Debian 12 root lacks it);
# tzdata and openssh-client (lava-run reads /usr/share/zoneinfo/tzdata.zi, and validates an ssh device only with ssh
# in PATH: a fresh root lacks both, and lava_run failed there).
CHECK_PKGS := $(RUN_PKGS) libcmocka-dev pipewire pipewire-jack rt-tests stress-ng libasound2-plugins chromium \
              python3 valgrind strace time util-linux procps man-db python3-yaml python3-jsonschema python3-pil clang \
              linux-perf jitterdebugger wireplumber dbus libmagic1 tzdata \
              openssh-client
# RTJ_EXTRA_PKGS: what one target alone adds.

# Q: the prefix of the build's command lines (@ when run or check build: quiet); V=1 shows them all the same.
Q ?=
ifeq ($(V),1)
Q :=
endif
# what run and check build with: quiet unless V=1
QUIET_Q   = $(if $(filter 1,$(V)),,@)
QUIET_OUT = $(if $(filter 1,$(V)),,>/dev/null)
# $(call install_pkgs,PACKAGES,WHY,STEP): STEP is the progress line's "[1/3]".
define install_pkgs
	@missing=""; n=0; for p in $(1) $(RTJ_EXTRA_PKGS); do n=$$((n + 1)); \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] && { [ -z "$(3)" ] || echo "rtjitter: $(3) packages: the $$n needed are installed"; exit 0; }; \
	command -v apt-get >/dev/null 2>&1 || { echo "rtjitter: missing packages:$$missing (no apt-get: install them by hand)" >&2; exit 1; }; \
	[ -z "$(RTJ_NO_INSTALL)" ] || { echo "rtjitter: missing packages:$$missing" >&2; exit 1; }; \
	SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	echo "rtjitter: $(if $(3),$(3) )$(2) needs these Debian packages, not yet installed:$$missing"; \
	case " $$missing " in *" jackd2 "*) \
	  echo "rtjitter: preseeding jackd2's question 'enable realtime process priority?' as yes: it writes"; \
	  echo "          /etc/security/limits.d/audio.conf (rtprio 95, memlock unlimited for the audio group);"; \
	  echo "          members of audio get it at their next login"; \
	  echo "jackd2 jackd/tweak_rt_limits boolean true" | $$SUDO debconf-set-selections 2>/dev/null || true;; esac; \
	export DEBIAN_FRONTEND=noninteractive; \
	if [ -z "$(3)" ] || [ "$(V)" = 1 ]; then \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -q --no-install-recommends $$missing; exit $$?; fi; \
	echo "rtjitter: $(3) installing them with apt-get (and what they depend on)..."; \
	aptlog=$$(mktemp "$${TMPDIR:-/tmp}/rtjitter-apt.XXXXXX") || exit 1; t0=$$(date +%s); \
	if $$SUDO apt-get update -qq >"$$aptlog" 2>&1 && \
	   $$SUDO apt-get install -y -q --no-install-recommends $$missing >>"$$aptlog" 2>&1; then \
	  echo "rtjitter: $(3) packages: $$(grep -c '^Setting up ' "$$aptlog") installed in $$(( $$(date +%s) - t0 )) s"; \
	  rm -f "$$aptlog"; \
	else rc=$$?; cat "$$aptlog" >&2; echo "rtjitter: apt-get failed (its output is above)" >&2; rm -f "$$aptlog"; exit $$rc; fi
endef

deps: deps-check
deps-run:
	$(call install_pkgs,$(RUN_PKGS),running rtjitter,$(STEP))
deps-check:
	$(call install_pkgs,$(CHECK_PKGS),'make check',$(STEP))

# ---- Build -----------------------------------------------------------------------------------------------------
# The flags a build directory was built with are in $(BUILD)/flags, rewritten when they change: every object and
# binary depends on it, so objects of other flags are never linked together (a hardened build after a plain one)
# and `make install PREFIX=/usr` after a plain `make` builds again for /usr (PREFIX is compiled in). The packages'
# own flags (pkg-config) are left out: they change only with the packages.
# The installed data directory (DATADIR, from PREFIX) is compiled into the two objects that name it, with a record of
# its own ($(BUILD)/datadir): `make install PREFIX=/usr` after a plain make compiles those two again, not the tree.
FLAGS_NOW := $(CC) | $(CPPFLAGS) | $(CFLAGS) | $(LDFLAGS) $(LDLIBS) | WERROR=$(WERROR) $(VERSION)
DATADIR_OBJ := $(BUILD)/src/verdict/profile.o $(BUILD)/src/cli/manpage.o
$(DATADIR_OBJ): RTJ_CPPFLAGS += -DRTJ_DATADIR='"$(DATADIR)"'
$(DATADIR_OBJ): $(BUILD)/datadir
# (a dry run, make -n, leaves the records as they are)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
ifneq ($(FLAGS_NOW),$(file <$(BUILD)/flags))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD)/flags,$(FLAGS_NOW))
endif
ifneq ($(DATADIR),$(file <$(BUILD)/datadir))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD)/datadir,$(DATADIR))
endif
endif

$(BIN): $(MAIN_OBJ) $(BUILD)/librtj.a $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RTJ_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(BUILD)/librtj.a $(RTJ_LIBS) $(LDLIBS)

$(BUILD)/librtj.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RTJ_CPPFLAGS) $(CPPFLAGS) $(RTJ_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librtj.a $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RTJ_CPPFLAGS) -Itests $(CPPFLAGS) $(RTJ_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/librtj.a \
	  $(RTJ_LIBS) $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests/helpers/%: tests/helpers/%.c $(BUILD)/librtj.a $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RTJ_CPPFLAGS) -Itests $(CPPFLAGS) $(RTJ_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/librtj.a \
	  $(RTJ_LIBS) $(LDLIBS)

-include $(ALL_OBJ:.o=.d) $(UNIT_BIN:=.d) $(HELPER_BIN:=.d)

test-bins: $(BIN) $(UNIT_BIN) $(HELPER_BIN)

# Every object of the tree, linked into nothing (tests/integration/build_flavours.sh: clang).
compile: $(ALL_OBJ)

# ---- The README's two commands ---------------------------------------------------------------------------------
# The main job: a short test against the running JACK server, or a private dummy one.
# Three steps, a line each: the packages, the build (quiet; the compiler's errors in full), the run.
run:
	@$(MAKE) --no-print-directory deps-run STEP=[1/3]
	@echo "rtjitter: [2/3] building ./rtjitter$(if $(filter 1,$(V)),, (quietly: the compiler's errors would show in full))..."
	@$(MAKE) --no-print-directory -j$(JOBS) Q=$(QUIET_Q) rtjitter $(QUIET_OUT) || \
	  { echo "rtjitter: the build failed: the compiler's messages are above" >&2; exit 1; }
	@echo "rtjitter: [3/3] $(RTJ) run --duration $${DURATION:-10}"
	@$(RTJ) run --duration $${DURATION:-10}

# The tests run on a binary built as Debian builds a package (dpkg-buildflags with hardening=+all: stack protector,
# relro, bindnow; PIE is gcc's default), FORTIFY raised from Debian's 2 to Ubuntu's 3 (its checks are FORTIFY 2's
# and more: one build is warning-free under both), without Debian's -g (debug information changes no warning and
# no code, and cost 12 of the build's 69 s in a clean clone), in build-check/ so it never mixes with a plain build;
# the user's own CPPFLAGS/CFLAGS/LDFLAGS, when given, come after. They run JOBS at a time, in classes
# (tests/run-tests.sh); check-quick is the developers' tier: the unit tests and the fast integration tests.
HARDEN   = DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get
user_flag = $(if $(filter command line environment,$(origin $(1))),$($(1)))
CHECK_MAKE = $(MAKE) --no-print-directory -j$(JOBS) BUILD=build-check BIN=build-check/rtjitter WERROR=1 \
  CPPFLAGS="$$($(HARDEN) CPPFLAGS | sed 's/-D_FORTIFY_SOURCE=[0-9]*/-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3/') $(call user_flag,CPPFLAGS)" CFLAGS="$$($(HARDEN) CFLAGS | sed -e 's/^-g //' -e 's/ -g / /' -e 's/ -g$$//') $(call user_flag,CFLAGS)" \
  LDFLAGS="$$($(HARDEN) LDFLAGS) $(call user_flag,LDFLAGS)" test-bins
# make check: three steps, a line each, then a line per test (a failed test's whole output; every test's in
# build-check/test-log).
check:
	@$(MAKE) --no-print-directory deps-check STEP=[1/3]
	@echo "rtjitter: [2/3] building the hardened binary, the unit tests and their helpers (quietly)..."
	@$(CHECK_MAKE) Q=$(QUIET_Q) $(QUIET_OUT) || { echo "rtjitter: the build failed: the compiler's messages are above" >&2; exit 1; }
	@echo "rtjitter: [3/3] the tests, $(JOBS) at a time (each one's output: build-check/test-log)"
	@BUILD=build-check RTJ=build-check/rtjitter JOBS=$(JOBS) BRIEF=1 tests/run-tests.sh

# The tree compiled with clang too (-Werror): build_flavours with its clang part, which make check leaves out.
check-clang: deps-check
	@$(CHECK_MAKE) Q=$(QUIET_Q) $(QUIET_OUT)
	@BUILD=build-check RTJ=build-check/rtjitter RTJ_TEST_CLANG=1 TESTS='^build_flavours$$' tests/run-tests.sh

check-quick: deps-check
	@$(CHECK_MAKE)
	@BUILD=build-check RTJ=build-check/rtjitter JOBS=$(JOBS) QUICK=1 tests/run-tests.sh

# After a deliberate change of an output: tests/fixtures/golden made again by this binary (tests/helpers/golden.sh);
# commit them with the change, `git diff` shows what it changed.
goldens: $(BIN)
	@RTJ=$(RTJ) tests/helpers/golden.sh --regen

# The tests again, built with AddressSanitizer and UndefinedBehaviorSanitizer, into their own build dir.
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize: deps-check
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-san BIN=rtjitter-san WERROR=1 CFLAGS="-O1 -g $(SAN_FLAGS)" \
	  LDFLAGS="$(SAN_FLAGS)" test-bins
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  BUILD=build-san RTJ=./rtjitter-san RTJ_SANITIZE=1 JOBS=$(JOBS) tests/run-tests.sh

bench:
	@$(MAKE) --no-print-directory deps-check
	@$(MAKE) --no-print-directory -j$(JOBS) test-bins
	@BUILD=$(BUILD) RTJ=$(RTJ) tests/bench.sh

# libFuzzer over the report reader and every renderer (tests/fuzz/fuzz_report.c), then over the cyclictest
# importer (tests/fuzz/fuzz_import.c: what it accepts must read back and render), FUZZ_SECS seconds each (default 60).
# The library is built with clang into build-fuzz/ and the fuzz target linked against it (-gline-tables-only:
# clang 14 crashes on loads/burn.c with full -g under these sanitizers). A crash input lands in
# tests/fuzz-regressions/ and `make check` replays it from then on: commit it with the fix.
FUZZ_SECS ?= 60
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
fuzz:
	@$(MAKE) --no-print-directory deps-check RTJ_EXTRA_PKGS=clang
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang CFLAGS="-O1 -gline-tables-only -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
	  build-fuzz/librtj.a
	@mkdir -p build-fuzz/corpus tests/fuzz-regressions
	clang $(RTJ_CPPFLAGS) -std=gnu11 -O1 -gline-tables-only -fsanitize=fuzzer $(FUZZ_SAN) -o build-fuzz/fuzz_report \
	  tests/fuzz/fuzz_report.c build-fuzz/librtj.a $(RTJ_LIBS)
	clang $(RTJ_CPPFLAGS) -std=gnu11 -O1 -gline-tables-only -fsanitize=fuzzer $(FUZZ_SAN) -o build-fuzz/fuzz_import \
	  tests/fuzz/fuzz_import.c build-fuzz/librtj.a $(RTJ_LIBS)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build-fuzz/fuzz_report -max_total_time=$(FUZZ_SECS) \
	  -timeout=10 -max_len=65536 -dict=tests/fuzz/report.dict -artifact_prefix=tests/fuzz-regressions/ \
	  build-fuzz/corpus tests/fuzz/corpus
	@mkdir -p build-fuzz/corpus-import
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build-fuzz/fuzz_import -max_total_time=$(FUZZ_SECS) \
	  -timeout=10 -max_len=65536 -rss_limit_mb=512 -dict=tests/fuzz/import.dict \
	  -artifact_prefix=tests/fuzz-regressions/import- build-fuzz/corpus-import tests/fuzz/corpus-import

# The man page and the bash completion are generated from the binary's own option tables (rtjitter --man,
# rtjitter --bash-completion), so they cannot drift from what the parser accepts; rtjitter-report(5) from the table of
# the report's keys (rtjitter --man-report, src/report/schema*.c); `make doc` builds the three. Their prose is
# doc/*.md (markup) and doc/*.roff, built into the binary (src/cli/manpage_doc.c includes them), as the verdict
# profiles are (src/verdict/profile_builtin.c includes data/profiles/*.json): those objects follow the files.
# PREFIX is compiled in (the installed data directory, into two objects): give make and make install the same PREFIX.
.PHONY: doc
doc: data/rtjitter.1 data/rtjitter-report.5 data/rtjitter.bash-completion
data/rtjitter.1: $(INSTALL_BIN)
	$(INSTALL_RUN) --man >$@.tmp && mv $@.tmp $@
data/rtjitter-report.5: $(INSTALL_BIN)
	$(INSTALL_RUN) --man-report >$@.tmp && mv $@.tmp $@
data/rtjitter.bash-completion: $(INSTALL_BIN)
	$(INSTALL_RUN) --bash-completion >$@.tmp && mv $@.tmp $@
$(BUILD)/src/verdict/profile_builtin.o: $(wildcard data/profiles/*.json)
$(BUILD)/src/cli/manpage_doc.o: $(wildcard doc/*.md doc/*.roff)

# The packaging examples (data/autopkgtest, data/lava) go to $(DATADIR)/examples, which uninstall removes with the
# rest of $(DATADIR).
install: $(INSTALL_BIN) data/rtjitter.1 data/rtjitter-report.5 data/rtjitter.bash-completion
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/doc/rtjitter
	install -m 0755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/rtjitter
	install -m 0644 data/profiles/*.json data/profiles/README.md $(DESTDIR)$(DATADIR)/profiles/
	install -m 0644 data/rtjitter.1 $(DESTDIR)$(PREFIX)/share/man/man1/rtjitter.1
	install -m 0644 data/rtjitter-report.5 $(DESTDIR)$(PREFIX)/share/man/man5/rtjitter-report.5
	install -m 0644 data/rtjitter.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/rtjitter
	install -m 0644 LICENSE README.md $(DESTDIR)$(PREFIX)/share/doc/rtjitter/
	install -d $(DESTDIR)$(DATADIR)/examples/autopkgtest/debian/tests $(DESTDIR)$(DATADIR)/examples/lava
	install -m 0644 data/autopkgtest/debian/tests/control $(DESTDIR)$(DATADIR)/examples/autopkgtest/debian/tests/
	install -m 0755 data/autopkgtest/debian/tests/headless data/autopkgtest/debian/tests/realtime \
	  data/autopkgtest/debian/tests/rtjitter-run $(DESTDIR)$(DATADIR)/examples/autopkgtest/debian/tests/
	install -m 0644 data/lava/rtjitter.yaml data/lava/job-qemu.yaml data/lava/job-ssh.yaml \
	  $(DESTDIR)$(DATADIR)/examples/lava/
	install -m 0755 data/lava/rtjitter-lava.sh $(DESTDIR)$(DATADIR)/examples/lava/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/rtjitter $(DESTDIR)$(PREFIX)/share/man/man1/rtjitter.1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5/rtjitter-report.5 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/rtjitter
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/share/doc/rtjitter

clean:
	rm -rf build build-check build-san build-fuzz rtjitter rtjitter-san
