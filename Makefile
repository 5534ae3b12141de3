# callgraph - Android method traces to call graphs and reports.
# Plain GNU make; libraries through pkg-config.  `make help` lists targets.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
DESTDIR ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
PKG_CONFIG ?= pkg-config
PKGS    := libgvc libcgraph zlib

CG_WARN := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes
CG_PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
CG_PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CG_CFLAGS = $(CG_WARN) -pthread $(CG_PKG_CFLAGS) -Isrc -I$(BUILD)/assets -MMD -MP $(CPPFLAGS) $(CFLAGS)
LDLIBS  += $(CG_PKG_LIBS) -lm -pthread

BUILD   ?= build
SRCS    := $(sort $(wildcard src/*/*.c src/*/*/*.c))
LIBSRCS := $(filter-out src/cli/main.c,$(SRCS))
LIBOBJS := $(LIBSRCS:src/%.c=$(BUILD)/src/%.o)
UNITSRC := $(sort $(wildcard tests/unit/*.c))
UNITOBJS:= $(UNITSRC:tests/unit/%.c=$(BUILD)/unit/%.o)

# Report scripts and styles: real files under src/render/report/assets/, embedded at build
# time as C string literals ($(BUILD)/assets/NAME.inc) by scripts/embed.c.
ASSETS  := $(sort $(wildcard src/render/report/assets/*.js src/render/report/assets/*.css))
ASSETINCS := $(ASSETS:src/render/report/assets/%=$(BUILD)/assets/%.inc)
EMBED   := $(BUILD)/embed

PROG     := $(BUILD)/callgraph
TRACEGEN := $(BUILD)/tracegen
UNIT     := $(BUILD)/unit_tests
FUZZREPLAY := $(BUILD)/fuzz_replay
MWUCHECK := $(BUILD)/mwu_check

.SECONDARY: $(ASSETINCS)
.PHONY: all test check unit golden golden-update asan valgrind fuzz bench demo \
        deps install uninstall clean help man-lint werror pkg-check

all: $(PROG) $(TRACEGEN) callgraph

callgraph: $(PROG)
	cp $(PROG) $@

# The libraries, found by pkg-config, or a message naming the package to
# install (before the compiler's bare "cgraph.h: No such file").
pkg-check:
	@command -v $(PKG_CONFIG) >/dev/null 2>&1 || { echo "callgraph: $(PKG_CONFIG) not found; install it (Debian: apt-get install pkg-config, or make deps)" >&2; exit 1; }
	@$(PKG_CONFIG) --exists libgvc libcgraph || { echo "callgraph: pkg-config cannot find Graphviz (libgvc, libcgraph); install it (Debian: apt-get install libgraphviz-dev, or make deps)" >&2; exit 1; }
	@$(PKG_CONFIG) --exists zlib || { echo "callgraph: pkg-config cannot find zlib; install it (Debian: apt-get install zlib1g-dev, or make deps)" >&2; exit 1; }

$(EMBED): scripts/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CG_WARN) $(CPPFLAGS) $(CFLAGS) -o $@ $<

$(BUILD)/assets/%.inc: src/render/report/assets/% $(EMBED)
	@mkdir -p $(dir $@)
	$(EMBED) $< $@

$(BUILD)/src/%.o: src/%.c | $(ASSETINCS) pkg-check
	@mkdir -p $(dir $@)
	$(CC) $(CG_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c | pkg-check
	@mkdir -p $(dir $@)
	$(CC) $(CG_CFLAGS) -c -o $@ $<

$(BUILD)/libcg.a: $(LIBOBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(PROG): $(BUILD)/src/cli/main.o $(BUILD)/libcg.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TRACEGEN): tests/gen/tracegen.c
	@mkdir -p $(dir $@)
	$(CC) $(CG_WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lz

$(UNIT): $(UNITOBJS) $(BUILD)/libcg.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(MWUCHECK): tests/stats/mwu_check.c $(BUILD)/libcg.a
	$(CC) $(CG_CFLAGS) $(LDFLAGS) -o $@ tests/stats/mwu_check.c $(BUILD)/libcg.a $(LDLIBS)

$(FUZZREPLAY): tests/fuzz/fuzz_target.c tests/fuzz/replay_main.c $(BUILD)/libcg.a
	$(CC) $(CG_CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz_target.c tests/fuzz/replay_main.c $(BUILD)/libcg.a $(LDLIBS)

# Set-up: install the Debian packages the build and tests need when missing.
deps:
	@sh scripts/deps.sh

# Build and run callgraph on a bundled sample.
demo: deps
	@$(MAKE) --no-print-directory all
	./callgraph -t 10 -g demo.svg samples/basic.trace
	./callgraph samples/basic.trace | head -40
	@echo "wrote demo.svg"

# Every test but fuzzing; closes with "N passed, N failed".
test check: deps
	@$(MAKE) --no-print-directory all $(UNIT) $(FUZZREPLAY) $(MWUCHECK)
	@sh tests/run.sh $(BUILD)

unit: $(UNIT)
	$(UNIT)

# Only the golden files of CLI output (tests/golden/).
golden: all
	@BUILD=$(abspath $(BUILD)) TOP=$(CURDIR) CG=$(abspath $(PROG)) LC_ALL=C sh tests/golden/run.sh

golden-update: all
	@sh tests/run.sh $(BUILD) --update

# Every C file (program, unit tests, fuzz replay, tracegen, embed) compiled
# with gcc and with clang under -Werror, each in a build directory of its own.
werror:
	@for cc in gcc clang; do \
	  command -v $$cc >/dev/null 2>&1 || { echo "werror: $$cc not found (make deps installs it)" >&2; exit 1; }; \
	  echo "werror: $$cc"; \
	  $(MAKE) --no-print-directory -s BUILD=build-werror-$$cc CC=$$cc CFLAGS="-O2 -g -Werror" \
	    build-werror-$$cc/callgraph build-werror-$$cc/tracegen build-werror-$$cc/unit_tests \
	    build-werror-$$cc/fuzz_replay build-werror-$$cc/mwu_check || exit 1; \
	done

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" build-asan/callgraph build-asan/tracegen \
	  build-asan/unit_tests build-asan/fuzz_replay build-asan/mwu_check
	@CG_SANITIZER=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  sh tests/run.sh build-asan

valgrind: deps all $(UNIT) $(FUZZREPLAY) $(MWUCHECK)
	@CG_VALGRIND=1 sh tests/run.sh $(BUILD)

fuzz:
	@sh tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60)

bench: all
	@sh scripts/bench.sh $(BUILD)
	@sh scripts/bench_limits.sh $(BUILD)

man-lint:
	mandoc -Tlint -Wwarning man/callgraph.1

install: $(PROG)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/callgraph
	install -m 644 man/callgraph.1 $(DESTDIR)$(MANDIR)/man1/callgraph.1
	install -m 644 completions/callgraph.bash $(DESTDIR)$(BASHCOMPDIR)/callgraph
	install -m 644 completions/_callgraph $(DESTDIR)$(ZSHCOMPDIR)/_callgraph

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/callgraph $(DESTDIR)$(MANDIR)/man1/callgraph.1 \
	  $(DESTDIR)$(BASHCOMPDIR)/callgraph $(DESTDIR)$(ZSHCOMPDIR)/_callgraph

clean:
	rm -rf build build-asan build-fuzz build-werror-gcc build-werror-clang callgraph demo.svg

help:
	@echo "targets: all test check unit golden asan valgrind werror fuzz bench demo deps install uninstall clean golden-update"

-include $(wildcard $(BUILD)/src/*/*.d $(BUILD)/src/*/*/*.d $(BUILD)/unit/*.d)
