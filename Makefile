# rtjitter — real-time audio jitter tester.  `make` builds ./rtjitter.
# Sources are globbed: a new file in src/, rtaudio/ or loads/ builds without touching this file;
# a new tests/unit/test_*.c becomes one more cmocka binary; a new tests/integration/*.sh one more script.

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
PKGS     := jack alsa sndfile jansson zlib
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -pthread -D_GNU_SOURCE -DRTJ_VERSION='"$(VERSION)"' \
            -Isrc -Irtaudio -Iloads $(PKG_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lm -lpthread -ldl $(EXTRA_LDLIBS)
BUILD    ?= build

LIB_SRC  := $(filter-out src/main.c,$(wildcard src/*.c rtaudio/*.c loads/*.c))
LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
MAIN_OBJ := $(BUILD)/src/main.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
HELPER_SRC := $(wildcard tests/helpers/*.c)
HELPER_BIN := $(patsubst tests/helpers/%.c,$(BUILD)/tests/helpers/%,$(HELPER_SRC))
RTJ      ?= ./rtjitter

.PHONY: all deps run check unit integration sanitize bench install uninstall clean fuzz

all: rtjitter

deps:
	@scripts/install-deps.sh

rtjitter: $(MAIN_OBJ) $(BUILD)/librtj.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/librtj.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c $(wildcard src/*.h rtaudio/*.h loads/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librtj.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(BUILD)/librtj.a $(LDLIBS) $(shell pkg-config --libs cmocka 2>/dev/null)

$(BUILD)/tests/helpers/%: tests/helpers/%.c $(BUILD)/librtj.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(BUILD)/librtj.a $(LDLIBS)

# The main job: a short test against the running JACK server, or a private dummy one.
run: deps rtjitter
	$(RTJ) run --duration $${DURATION:-10}

check: deps rtjitter $(UNIT_BIN) $(HELPER_BIN)
	@BUILD=$(BUILD) RTJ=$(RTJ) tests/run-tests.sh

# The tests again, built with AddressSanitizer and UndefinedBehaviorSanitizer, into their own build dir.
sanitize: deps
	$(MAKE) BUILD=build-san RTJ=./rtjitter-san \
	  EXTRA_CFLAGS="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  EXTRA_LDLIBS="-fsanitize=address,undefined" rtjitter-san-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  BUILD=build-san RTJ=./rtjitter-san RTJ_SANITIZE=1 tests/run-tests.sh

rtjitter-san-build: $(MAIN_OBJ) $(BUILD)/librtj.a $(UNIT_BIN) $(HELPER_BIN)
	$(CC) $(CFLAGS) $(LDFLAGS) -o rtjitter-san $(MAIN_OBJ) $(BUILD)/librtj.a $(LDLIBS)

bench: deps rtjitter $(HELPER_BIN)
	@BUILD=$(BUILD) RTJ=$(RTJ) tests/bench.sh

# libFuzzer over the report reader and every renderer (fuzz/fuzz_report.c), FUZZ_SECS seconds (default 60).
# Needs clang (installed here when missing). Only the sources the reader and renderers use are built with it.
# A crash input lands in tests/fuzz-regressions/ and `make check` replays it from then on: commit it with the fix.
FUZZ_SECS ?= 60
FUZZ_SRC  := fuzz/fuzz_report.c src/report_read.c src/compare.c src/html.c src/report_text.c src/report.c \
             src/stats.c src/phase.c
fuzz: $(FUZZ_SRC)
	@command -v clang >/dev/null 2>&1 || RTJ_EXTRA_PKGS=clang scripts/install-deps.sh
	@mkdir -p build-fuzz/corpus tests/fuzz-regressions
	clang $(CFLAGS) -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	  -o build-fuzz/fuzz_report $(FUZZ_SRC) $(LDLIBS)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build-fuzz/fuzz_report -max_total_time=$(FUZZ_SECS) \
	  -timeout=10 -max_len=65536 -dict=fuzz/report.dict -artifact_prefix=tests/fuzz-regressions/ \
	  build-fuzz/corpus fuzz/corpus

install: rtjitter
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/rtjitter $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 rtjitter $(DESTDIR)$(PREFIX)/bin/rtjitter
	cp -r data/. $(DESTDIR)$(PREFIX)/share/rtjitter/
	if [ -f data/rtjitter.1 ]; then install -m 0644 data/rtjitter.1 $(DESTDIR)$(PREFIX)/share/man/man1/; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/rtjitter $(DESTDIR)$(PREFIX)/share/man/man1/rtjitter.1
	rm -rf $(DESTDIR)$(PREFIX)/share/rtjitter

clean:
	rm -rf build build-san build-fuzz rtjitter rtjitter-san
