# tl — GPU profiler trace toolkit.  One plain GNU Makefile.
#
# Knobs (set on the command line or in config.mak):
#   PREFIX=/usr/local   install prefix
#   DESTDIR=            staging root for packagers
#   BINDIR, MANDIR, SHAREDIR  derived from PREFIX
#   SAN=1               build with -fsanitize=address,undefined into build/san
#                       (programs in build/san/bin; bin/ is left alone)
#   DEVELOPER=0         drop -Werror (default is on: warnings are errors)
#   ISAL=0              inflate gzip with zlib even where ISA-L is installed
#   CC, CFLAGS, LDFLAGS the usual
#   T=PATTERN           make check T='t1*' runs only the matching tests
#   FUZZ_S=60           make fuzz: seconds per libFuzzer harness (tests/fuzz/)
#   FUZZ_T=PATTERN      make fuzz: only the matching harnesses (fuzz-cat)
#   FUZZ_RUNS=N         make fuzz: N inputs a harness from libFuzzer's seed 1
#                       and the committed seeds, the same every time (CI)
#   FUZZ=1              (used by make fuzz) clang + libFuzzer build in build/fuzz
#
# Targets: all (default), check, bench, fuzz, report TRACE=path,
# report-ranks DIR=path, install, clean.
-include config.mak

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/tl
INSTALL  ?= install
DEVELOPER ?= 1

CC      ?= cc
OPT     ?= -O2 -g
WARN     = -Wall -Wextra
ifeq ($(DEVELOPER),1)
WARN    += -Werror
endif
CFLAGS  ?=
ALL_CFLAGS = -std=c11 $(WARN) $(OPT) -D_GNU_SOURCE -Icommon \
	-DTL_SHAREDIR='"$(SHAREDIR)"' $(PKG_CFLAGS) $(CFLAGS)
# -lstdc++: __cxa_demangle (common/display.c) from the C++ runtime, linked
# statically: the demangler is 50 kB of each program, where loading the
# shared runtime cost every program 2-3 ms of CPU at start-up (eight
# programs a trace in tl-report, a job of 64 ranks 500 of them) for a
# function only report.md, report.html and tl-diff -p call
LIBS     = $(PKG_LIBS) -lpthread -lm -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic

ifeq ($(SAN),1)
BUILD    = build/san
OUTBIN   = build/san/bin
# no recovery: a UBSan report ends the program, so a test cannot pass
# over one (tests/run.sh sets the exit codes and report files)
ALL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined
else ifeq ($(FUZZ),1)
# make fuzz: libtl instrumented for libFuzzer; the harnesses get its main()
BUILD    = build/fuzz
OUTBIN   = build/fuzz/bin
CC       = $(FUZZ_CC)
WARN     = -Wall -Wextra
ALL_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_MAIN = -fsanitize=fuzzer
else
BUILD    = build/opt
OUTBIN   = bin
endif

FUZZ_CC ?= clang-14
FUZZ_S  ?= 60
FUZZ_T  ?= fuzz-*

APT_LINE = apt-get install -y zlib1g-dev libarchive-dev pkg-config libstdc++-12-dev \
	libprotobuf-c-dev protobuf-c-compiler

# Check dependencies only when something is to be built; as root, install
# what is missing first (scripts/deps.sh), otherwise name the command.
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
have_deps = $(shell pkg-config --exists libarchive zlib libprotobuf-c 2>/dev/null && \
	command -v protoc-c >/dev/null && \
	test -f "$$($(CC) -print-file-name=libstdc++.a)" && echo yes)
ifneq ($(have_deps),yes)
DEPS_LOG := $(shell sh scripts/deps.sh >&2)
ifneq ($(have_deps),yes)
$(error missing build dependencies; run as root: $(APT_LINE))
endif
endif
PKG_CFLAGS := $(shell pkg-config --cflags libarchive zlib libprotobuf-c)
PKG_LIBS   := $(shell pkg-config --libs zlib libprotobuf-c)
# libarchive (tl-cat's zip and tar members, tl-xlsx's zip writer) from its
# static library where there is one: the shared one brings libxml2, ICU and
# the C++ runtime, whose loading cost tl-cat 6-10 ms of CPU at every start
# (tl-report starts it twice a trace, a 64-rank job 128 times).  Its zip and
# tar readers need none of those (tl-xlsx's writer still loads libxml2); the
# compressors stay shared (Debian 12 has no -dev link for libacl, libzstd
# and liblz4: named by soname).
ARCHIVE_A := $(wildcard $(shell pkg-config --variable=libdir libarchive)/libarchive.a)
ifneq ($(ARCHIVE_A),)
PKG_LIBS   += -Wl,-Bstatic -larchive -Wl,-Bdynamic -lnettle -l:libacl.so.1 -llzma \
	-l:libzstd.so.1 -l:liblz4.so.1 -lbz2 -lz -lxml2
else
PKG_LIBS   += $(shell pkg-config --libs libarchive)
endif
# ISA-L's igzip inflates gzip about 6x faster than zlib (common/cat_inflate.c);
# used where libisal-dev is installed, unless ISAL=0.  zlib stays the fallback.
ifneq ($(ISAL),0)
ifneq ($(wildcard /usr/include/isa-l/igzip_lib.h),)
PKG_CFLAGS += -DHAVE_ISAL
PKG_LIBS   += -lisal
endif
endif
endif

PROGRAMS  = $(patsubst cmd/%.c,%,$(wildcard cmd/tl-*.c))
BINS      = $(addprefix $(OUTBIN)/,$(PROGRAMS))
LIB_SRC   = $(wildcard common/*.c)
# proto/*.proto (XSpace, HLO) compiled by protoc-c into $(BUILD)/gen
PROTO     = $(wildcard proto/*.proto)
PROTO_C   = $(patsubst proto/%.proto,$(BUILD)/gen/%.pb-c.c,$(PROTO))
PROTO_H   = $(PROTO_C:.c=.h)
LIB_OBJ   = $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC)) $(PROTO_C:.c=.o)
LIB       = $(BUILD)/libtl.a
UNIT_SRC  = $(wildcard tests/unit/*.c)
UNITS     = $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))
# libFuzzer harnesses: with FUZZ=1 fuzzers, otherwise linked with
# tests/fuzz/replay.c to replay the committed inputs in make check
FUZZ_SRC  = $(wildcard tests/fuzz/fuzz-*.c)
FUZZERS   = $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FUZZ_MAIN ?= $(BUILD)/tests/fuzz/replay.o
SCRIPTS   = $(wildcard scripts/tl-*)
MAN1      = $(wildcard man/*.1)
MAN5      = $(wildcard man/*.5)

all: $(BINS) $(UNITS) $(FUZZERS)

$(BUILD)/%.o: %.c $(wildcard common/*.h) Makefile | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/gen -c -o $@ $<

$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: proto/%.proto
	@mkdir -p $(dir $@)
	protoc-c --c_out=$(BUILD)/gen --proto_path=proto $<

# generated code: its own warnings are protoc-c's, not errors here
$(BUILD)/gen/%.pb-c.o: $(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h
	$(CC) $(filter-out -Werror,$(ALL_CFLAGS)) -I$(BUILD)/gen -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(OUTBIN)/%: $(BUILD)/cmd/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(LIBS)

$(BUILD)/unit/%: $(BUILD)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(LIBS)

# Objects that embed SHAREDIR are rebuilt when it changes, so that
# "make; make install PREFIX=/opt/tl" installs programs that look in
# /opt/tl/share/tl: the stamp file holds the value of the last build.
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
SHAREDIR_STAMP := $(shell mkdir -p $(BUILD) && echo '$(SHAREDIR)' | \
	cmp -s - $(BUILD)/sharedir 2>/dev/null || echo '$(SHAREDIR)' >$(BUILD)/sharedir)
endif
$(BUILD)/common/share.o: $(BUILD)/sharedir

$(BUILD)/tests/fuzz/%.o: $(wildcard tests/fuzz/*.h)
$(BUILD)/tests/fuzz/%.o: ALL_CFLAGS += -DFUZZ_SHARE='"$(CURDIR)/share/tl"'

$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(LIB) $(filter %.o,$(FUZZ_MAIN))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(FUZZ_MAIN) $(LIB) $(LIBS)

check: all
	@TL_BIN=$(CURDIR)/$(OUTBIN) TL_UNIT=$(CURDIR)/$(BUILD)/unit \
	 TL_SAN=$(SAN) sh tests/run.sh $(T)

bench: all
	sh scripts/bench.sh
	sh scripts/bench-ranks.sh

# make report TRACE=path: the report folder goes next to the trace, as
# TraceLens does; without TRACE, the shipped sample's goes to build/.
report: all
	PATH=$(CURDIR)/bin:$$PATH sh scripts/tl-report \
		$(if $(TRACE),$(TRACE),-o build/sample_perf_report_csvs share/tl/sample/trace.json)

# make fuzz FUZZ_S=N: every harness of tests/fuzz/ for N seconds (clang-14
# and libFuzzer from libclang-rt-14-dev, installed by scripts/deps.sh as root)
fuzz:
	@sh scripts/deps.sh clang-14 libclang-rt-14-dev
	$(MAKE) FUZZ=1 fuzzers
	nice -n 19 sh tests/fuzz/run.sh $(if $(FUZZ_RUNS),-r $(FUZZ_RUNS),-t $(FUZZ_S)) '$(FUZZ_T)'

fuzzers: $(FUZZERS)

# make report-ranks DIR=folder: the job report of a folder of rank traces
# (tl-ranks --trace-dir: the rank from each file name), into OUT
# (build/job_report by default).
report-ranks: all
	@test -n "$(DIR)" || { echo "make report-ranks DIR=folder-of-rank-traces [OUT=folder]" >&2; exit 2; }
	PATH=$(CURDIR)/bin:$$PATH sh scripts/tl-ranks -o $(or $(OUT),build/job_report) --trace-dir $(DIR)

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(SHAREDIR)
	$(INSTALL) -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	$(if $(SCRIPTS),$(INSTALL) -m 755 $(SCRIPTS) $(DESTDIR)$(BINDIR))
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5
	$(INSTALL) -d $(DESTDIR)$(SHAREDIR)/arch $(DESTDIR)$(SHAREDIR)/sample
	$(INSTALL) -m 644 share/tl/*.tsv $(DESTDIR)$(SHAREDIR)
	$(INSTALL) -m 644 share/tl/aten-schemas.txt share/tl/replay.py.in $(DESTDIR)$(SHAREDIR)
	$(INSTALL) -m 644 share/tl/arch/*.tsv $(DESTDIR)$(SHAREDIR)/arch
	$(INSTALL) -m 644 share/tl/sample/trace.json $(DESTDIR)$(SHAREDIR)/sample

clean:
	rm -rf build bin tests/trash

.PHONY: all check bench fuzz fuzzers report report-ranks install clean
.SECONDARY:
