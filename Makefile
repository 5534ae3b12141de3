# callgraph - Android method traces to call graphs and reports.
# Plain GNU make; libraries through pkg-config.  `make help` lists targets.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
PKG_CONFIG ?= pkg-config
PKGS    := libgvc libcgraph zlib

CG_WARN := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
CG_PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
CG_PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CG_CFLAGS = $(CG_WARN) $(CG_PKG_CFLAGS) -Isrc -I$(BUILD)/assets -MMD -MP $(CFLAGS)
LDLIBS  += $(CG_PKG_LIBS) -lm

BUILD   ?= build
SRCS    := $(sort $(wildcard src/*.c))
LIBSRCS := $(filter-out src/main.c,$(SRCS))
LIBOBJS := $(LIBSRCS:src/%.c=$(BUILD)/src/%.o)
UNITSRC := $(sort $(wildcard tests/unit/*.c))
UNITOBJS:= $(UNITSRC:tests/unit/%.c=$(BUILD)/unit/%.o)

# Report scripts and styles: real files under src/assets/, embedded at build
# time as C string literals ($(BUILD)/assets/NAME.inc) by scripts/embed.c.
ASSETS  := $(sort $(wildcard src/assets/*.js src/assets/*.css))
ASSETINCS := $(ASSETS:src/assets/%=$(BUILD)/assets/%.inc)
EMBED   := $(BUILD)/embed

PROG     := $(BUILD)/callgraph
TRACEGEN := $(BUILD)/tracegen
UNIT     := $(BUILD)/unit_tests
FUZZREPLAY := $(BUILD)/fuzz_replay

.SECONDARY: $(ASSETINCS)
.PHONY: all test check unit golden golden-update asan valgrind fuzz bench demo \
        deps install uninstall clean help man-lint

all: $(PROG) $(TRACEGEN) callgraph

callgraph: $(PROG)
	cp $(PROG) $@

$(EMBED): scripts/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CG_WARN) -O2 -o $@ $<

$(BUILD)/assets/%.inc: src/assets/% $(EMBED)
	@mkdir -p $(dir $@)
	$(EMBED) $< $@

$(BUILD)/src/%.o: src/%.c | $(ASSETINCS)
	@mkdir -p $(dir $@)
	$(CC) $(CG_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CG_CFLAGS) -c -o $@ $<

$(BUILD)/libcg.a: $(LIBOBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(PROG): $(BUILD)/src/main.o $(BUILD)/libcg.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TRACEGEN): tests/gen/tracegen.c
	@mkdir -p $(dir $@)
	$(CC) $(CG_WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< -lz

$(UNIT): $(UNITOBJS) $(BUILD)/libcg.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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
	@$(MAKE) --no-print-directory all $(UNIT) $(FUZZREPLAY)
	@sh tests/run.sh $(BUILD)

unit: $(UNIT)
	$(UNIT)

# Only the golden files of CLI output (tests/golden/).
golden: all
	@BUILD=$(abspath $(BUILD)) TOP=$(CURDIR) CG=$(abspath $(PROG)) LC_ALL=C sh tests/golden/run.sh

golden-update: all
	@sh tests/run.sh $(BUILD) --update

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" all build-asan/unit_tests build-asan/fuzz_replay
	@CG_SANITIZER=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  sh tests/run.sh build-asan

valgrind: deps all $(UNIT) $(FUZZREPLAY)
	@CG_VALGRIND=1 sh tests/run.sh $(BUILD)

fuzz:
	@sh tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60)

bench: all
	@sh scripts/bench.sh $(BUILD)

man-lint:
	mandoc -Tlint -Wwarning man/callgraph.1

install: $(PROG)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/callgraph
	install -m 644 man/callgraph.1 $(DESTDIR)$(MANDIR)/man1/callgraph.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/callgraph $(DESTDIR)$(MANDIR)/man1/callgraph.1

clean:
	rm -rf build build-asan build-fuzz callgraph demo.svg

help:
	@echo "targets: all test check unit golden asan valgrind fuzz bench demo deps install uninstall clean golden-update"

-include $(wildcard $(BUILD)/src/*.d $(BUILD)/unit/*.d)
