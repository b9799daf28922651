# mmbench -- GNU make only.
#
#   make            build build/mmbench and build/workloads/<name>.so
#   make run        install missing deps (root), build, run configs/quick.yaml
#   make check      all tests: cmocka unit tests (ASan+UBSan) and e2e scripts
#   make check-asan the whole suite against a sanitizer build
#   make check-arm64 an arm64 guest end to end (cross-built kernel, TCG boots, an A/B)
#   make bench      speed/memory targets (not part of check); BENCH_SAMPLES=100000000
#                   adds the fleet-sized store (bench/fleet-bench.sh)
#   make install PREFIX=/usr/local

PREFIX    ?= /usr/local
BUILD     ?= build
CC        ?= gcc
VERSION   := 0.1.0
GIT_SHA   := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
SAN       ?=
SAN_OPTS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SANFLAGS  := $(if $(SAN),$(SAN_OPTS))

WARN      := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS    ?= -O2 -g
CFLAGS    += -std=gnu11 $(WARN) $(SANFLAGS) -D_GNU_SOURCE
# The folders of harness/, db/ and plot/ are the layers of
# docs/ARCHITECTURE.md (tools/check-layout.py keeps includes going down);
# headers are included by bare name, so a file can move between folders
# without edits.
SUBSYS    := base machine run compare render session kernel reproduce fleet commands
HOST_INC  := -Iinclude $(SUBSYS:%=-Iharness/%) -Idb -Iplot -I$(BUILD)/gen
CPPFLAGS  += $(HOST_INC) \
	     -DMMB_VERSION='"$(VERSION)"' \
	     -DMMB_PLUGIN_DIR='"$(PREFIX)/lib/mmbench"' -DMMB_DATA_DIR='"$(PREFIX)/share/mmbench"'
LDLIBS    := -lyaml -lsqlite3 -ldl -lpthread -lm
# Every symbol bound at start (and the GOT read-only after): an iteration's
# child would otherwise resolve each libc call the harness had not made
# before the fork, and write the GOT page it lands in, in every child.
HOST_LDFLAGS := -Wl,-z,now -Wl,-z,relro
# Plugins see only the public ABI headers, never the host's.
PLUGIN_CPPFLAGS := -Iinclude
PLUGIN_CFLAGS  := -fPIC -fvisibility=hidden
PLUGIN_LDFLAGS := -shared -Wl,-z,defs

SUBSYS_C  := $(wildcard $(SUBSYS:%=harness/%/*.c))
CMD_SRC   := $(sort $(wildcard harness/commands/*.c))
LIB_SRC   := $(sort $(filter-out $(CMD_SRC),$(SUBSYS_C)) $(wildcard db/*.c plot/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CMD_OBJ   := $(CMD_SRC:%.c=$(BUILD)/obj/%.o)
HDRS      := $(wildcard include/mmbench/*.h $(SUBSYS:%=harness/%/*.h) db/*.h plot/*.h)

WORKLOADS := $(notdir $(patsubst %/,%,$(sort $(dir $(wildcard workloads/*/*.c)))))
PLUGINS   := $(WORKLOADS:%=$(BUILD)/workloads/%.so)
TEST_PLUGIN_SRC := $(wildcard tests/plugins/*.c)
TEST_PLUGINS    := $(TEST_PLUGIN_SRC:tests/plugins/%.c=$(BUILD)/tests/plugins/%.so) \
		   $(BUILD)/tests/plugins/abi10.so
# programs the e2e scripts drive (tests/tools/*.c, linked with libmmbench.a)
TEST_TOOLS := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(wildcard tests/tools/*.c))
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)
E2E       := $(sort $(wildcard tests/e2e/*.sh))

.PHONY: all run check check-unit check-e2e check-asan check-kernel check-abhost check-arm64 guest-arm64 check-bisect bench install clean deps lint fuzz stats-vectors host-inc lint-layout layer-graph
.DELETE_ON_ERROR:
# Keep the sanitizer objects of the unit tests between runs.
.SECONDARY:

all: $(BUILD)/mmbench $(PLUGINS) $(BUILD)/sqlite/mmbsamples.so

# the host's include flags, for programs built beside the Makefile (bench/power.c)
host-inc:
	@echo $(HOST_INC)

# Quiet build unless V=1.
Q := $(if $(V),,@)
$(BUILD)/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The sha is compiled into version.o alone, rebuilt when HEAD moves: the
# stamp is rewritten only when it changes.
.PHONY: FORCE
$(BUILD)/gen/git-sha: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_SHA)' | cmp -s - $@ || echo '$(GIT_SHA)' > $@
VERSION_OBJ := $(foreach d,$(BUILD)/obj $(BUILD)/uobj build-fuzz/obj,$d/harness/base/version.o)
$(VERSION_OBJ): $(BUILD)/gen/git-sha
$(VERSION_OBJ): CPPFLAGS += -DMMB_GIT_SHA='"$(GIT_SHA)"'

# The output formats are the DEFINE_RENDERER lines of harness/render/*.c
# (tools/renderer-list.sh): render.c's table and the help synopses'
# @FORMATS@ are made from them, so a new format is its own file.  Remade
# on every make (a removed file changes it too), rewritten only on change.
$(BUILD)/gen/renderer-list.h: FORCE
	@mkdir -p $(dir $@)
	$(Q)./tools/renderer-list.sh header $@
RENDER_TABLE_OBJ := $(foreach d,$(BUILD)/obj $(BUILD)/uobj build-fuzz/obj,$d/harness/render/render.o)
$(RENDER_TABLE_OBJ): $(BUILD)/gen/renderer-list.h

$(BUILD)/libmmbench.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

HELP_TXT  := $(sort $(wildcard docs/help/*.txt))
$(BUILD)/gen/help_texts.c: $(HELP_TXT) tools/gen-help.sh $(BUILD)/gen/renderer-list.h
	@mkdir -p $(dir $@)
	$(Q)./tools/gen-help.sh $@ $(HELP_TXT)
$(BUILD)/gen/help_texts.o: $(BUILD)/gen/help_texts.c harness/base/help.h
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Man pages come from the same help texts (tools/gen-man.sh); a page is only
# rewritten when its text changed.
all: $(BUILD)/gen/man.stamp
$(BUILD)/gen/man.stamp: $(HELP_TXT) tools/gen-man.sh $(BUILD)/gen/renderer-list.h
	$(Q)./tools/gen-man.sh docs/man $(HELP_TXT)
	@mkdir -p $(dir $@) && touch $@

$(BUILD)/mmbench: $(CMD_OBJ) $(BUILD)/gen/help_texts.o $(BUILD)/libmmbench.a
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(HOST_LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/gen/help_texts.o $(BUILD)/libmmbench.a $(LDLIBS)

# Plugin sources built at usemem's -O, not at CFLAGS' level: the
# vm-scalability per-word loop, whose user time follows its machine code
# (walk.c says why).
PLUGIN_O1_SRC := workloads/vm-scalability/walk.c
plugin_o1_objs = $(patsubst %.c,$(BUILD)/o1/%.o,$(filter workloads/$(1)/%,$(PLUGIN_O1_SRC)))

# One folder per plugin; every .c in it goes into <folder>.so.
.SECONDEXPANSION:
$(BUILD)/workloads/%.so: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h) include/mmbench/workload.h \
		$$(call plugin_o1_objs,$$*)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(CC) $(PLUGIN_CPPFLAGS) $(CFLAGS) $(PLUGIN_CFLAGS) $(PLUGIN_LDFLAGS) -o $@ \
		$(filter-out $(PLUGIN_O1_SRC),$(filter %.c,$^)) $(filter %.o,$^) -lpthread -lm

$(BUILD)/o1/%.o: %.c $$(wildcard $$(dir $$*)*.h) include/mmbench/workload.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC -O1  $@")
	$(Q)$(CC) $(PLUGIN_CPPFLAGS) $(CFLAGS) -O1 $(PLUGIN_CFLAGS) -c -o $@ $<

$(BUILD)/tests/plugins/%.so: tests/plugins/%.c $(wildcard tests/plugins/*.h) include/mmbench/workload.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(CC) $(PLUGIN_CPPFLAGS) $(CFLAGS) $(PLUGIN_CFLAGS) $(PLUGIN_LDFLAGS) -o $@ $< -lpthread -lm

# A plugin of the previous minor: built against the frozen ABI 1.0 header only.
$(BUILD)/tests/plugins/abi10.so: tests/plugins/abi-1.0/abi10.c tests/plugins/abi-1.0/mmbench/workload.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  PLUGIN  $@ (ABI 1.0)")
	$(Q)$(CC) -Itests/plugins/abi-1.0 $(CFLAGS) $(PLUGIN_CFLAGS) $(PLUGIN_LDFLAGS) -o $@ $<

$(BUILD)/tests/%: tests/tools/%.c $(BUILD)/libmmbench.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TOOL    $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libmmbench.a $(LDLIBS)

# Unit tests always run with ASan+UBSan: they are in-process and cheap.
UNIT_FLAGS := -std=gnu11 $(WARN) -O1 -g -D_GNU_SOURCE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# the commands too (not main()): their option tables are tested there
UNIT_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/uobj/%.o) \
		$(filter-out %/mmbench.o,$(CMD_SRC:%.c=$(BUILD)/uobj/%.o)) $(BUILD)/gen/help_texts.o
$(BUILD)/uobj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (asan)")
	$(Q)$(CC) $(CPPFLAGS) $(UNIT_FLAGS) -c -o $@ $<
$(BUILD)/tests/unit/%: tests/unit/%.c $(UNIT_LIB_OBJ) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(CPPFLAGS) -Itests/unit $(UNIT_FLAGS) -o $@ $< $(UNIT_LIB_OBJ) -lcmocka $(LDLIBS)
# tests that compile a plugin's sources in, to check its shipped tables
$(BUILD)/tests/unit/test_vmsmap: $(wildcard workloads/vm-scalability/*.[ch])

# test_plugin_abi: the loader built as a later minor would be, with a field
# appended to mmb_param_def and mmb_metric_def (the header generated from
# today's), loading abi10.so and its shorter elements.
ABI_NEXT := $(BUILD)/gen/abi-next
$(ABI_NEXT)/mmbench/workload.h: include/mmbench/workload.h
	@mkdir -p $(dir $@)
	$(Q)awk '/^#define MMB_ABI_MINOR / { $$3 = $$3 + 1 } \
		/^struct mmb_(param|metric)_def \{/ { grow = 1 } \
		grow && /^};/ { print "\tint64_t abi_next;\t/* appended by the test build */"; grow = 0 } \
		{ print }' $< > $@
$(BUILD)/uobj-abi-next/plugin.o: harness/run/plugin.c $(ABI_NEXT)/mmbench/workload.h $(HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -I$(ABI_NEXT) $(CPPFLAGS) $(UNIT_FLAGS) -c -o $@ $<
$(BUILD)/tests/unit/test_plugin_abi: tests/unit/test_plugin_abi.c $(BUILD)/uobj-abi-next/plugin.o $(UNIT_LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@ (ABI next)")
	$(Q)$(CC) -I$(ABI_NEXT) $(CPPFLAGS) -Itests/unit $(UNIT_FLAGS) -o $@ $< \
		$(BUILD)/uobj-abi-next/plugin.o $(filter-out %/run/plugin.o,$(UNIT_LIB_OBJ)) -lcmocka $(LDLIBS)

# Dependencies first (they may be what the build needs), then the tests.
check:
	@./tools/install-deps.sh test
	@$(MAKE) --no-print-directory lint-layout
	@$(MAKE) --no-print-directory check-unit
	@$(MAKE) --no-print-directory check-e2e

check-unit: all $(TEST_PLUGINS) $(TEST_TOOLS) $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do \
		echo "== $$t"; MMBENCH_TEST_PLUGINS=$(BUILD)/tests/plugins MMBENCH_BUILD=$(BUILD) \
		MMBENCH_SRC=$(CURDIR) $$t; done

# tests/fixtures/stats-vectors.json is written by numpy/scipy (python3-scipy):
# regenerate it and fail if it differs from the committed file.
PYTHON3 ?= /usr/bin/python3
stats-vectors:
	@tmp=$$(mktemp) && $(PYTHON3) tools/gen-stats-vectors.py $$tmp && \
		{ diff -u tests/fixtures/stats-vectors.json $$tmp; rc=$$?; rm -f $$tmp; \
		  [ $$rc = 0 ] && echo "stats-vectors: tests/fixtures/stats-vectors.json is up to date"; exit $$rc; }

check-e2e: all $(TEST_PLUGINS) $(TEST_TOOLS)
	@MMBENCH_BUILD=$(BUILD) ./tests/run-e2e.sh $(E2E)

check-asan:
	$(MAKE) BUILD=build-asan SAN=1 check

# The arm64 guest's programs (vm run --arch arm64 on another host): mmbench
# and the plugins cross-built in $(BUILD)/aarch64 against Debian's arm64
# multiarch libraries (the initramfs copies them), and busybox from
# Debian's busybox-static:arm64 (apt-get download: no other binaries).
guest-arm64: $(BUILD)/aarch64/busybox
	$(Q)$(MAKE) --no-print-directory BUILD=$(BUILD)/aarch64 CC=aarch64-linux-gnu-gcc \
		$(BUILD)/aarch64/mmbench $(WORKLOADS:%=$(BUILD)/aarch64/workloads/%.so)
$(BUILD)/aarch64/busybox:
	@mkdir -p $(BUILD)/aarch64/deb
	$(Q)cd $(BUILD)/aarch64/deb && rm -f busybox-static_*_arm64.deb && apt-get download -q busybox-static:arm64
	$(Q)dpkg-deb -x $(BUILD)/aarch64/deb/busybox-static_*_arm64.deb $(BUILD)/aarch64/deb/root
	$(Q)cp $(BUILD)/aarch64/deb/root/bin/busybox $@

# make check-kernel for an arm64 guest: cross-build, boot under TCG, a
# short pageout A/B of tests/fixtures/kernel/arm64-no-batched-tlb
check-arm64:
	@./tools/install-deps.sh test kernel
	@$(MAKE) --no-print-directory all guest-arm64
	MMBENCH_BUILD=$(BUILD) ./tests/kernel/arm64.sh

check-kernel:
	@./tools/install-deps.sh test kernel
	@$(MAKE) --no-print-directory all
	MMBENCH_BUILD=$(BUILD) ./tests/kernel/run.sh

# ab --host end to end: a QEMU guest stands in for the machine and kexecs
# between two kernels of ours (tests/kernel/abhost.sh; after check-kernel,
# whose kernel repo and ccache it reuses)
check-abhost:
	@./tools/install-deps.sh test kernel
	@$(MAKE) --no-print-directory all $(BUILD)/tests/abhost-initramfs
	MMBENCH_BUILD=$(BUILD) ./tests/kernel/abhost.sh

# ab --new and bisect on real kernels (issue 30; long: many TCG boots)
check-bisect:
	@./tools/install-deps.sh test kernel
	@$(MAKE) --no-print-directory all
	MMBENCH_BUILD=$(BUILD) ./tests/kernel/bisect.sh

# the test plugins too: overhead.sh runs good_minimal, plan-variants.sh others
bench: all $(TEST_PLUGINS) $(BUILD)/bench/interference-cost $(BUILD)/bench/strtod-loop $(BUILD)/bench/fork-floor \
	$(BUILD)/bench/summary-floor $(BUILD)/bench/child-cpu
	MMBENCH_BUILD=$(BUILD) SENS=$(SENS) KSENS=$(KSENS) KAA=$(KAA) KVER=$(KVER) VMSDEF=$(VMSDEF) \
		KVAA=$(KVAA) KMEM=$(KMEM) VMNOISE=$(VMNOISE) PFT_ORIG=$(PFT_ORIG) \
		VMS_USEMEM=$(or $(VMS_USEMEM),$(USEMEM)) \
		BENCH_SAMPLES=$(BENCH_SAMPLES) ./bench/run.sh

$(BUILD)/bench/interference-cost: bench/interference-cost.c $(BUILD)/libmmbench.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libmmbench.a $(LDLIBS)

$(BUILD)/bench/strtod-loop: bench/strtod-loop.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/bench/summary-floor: bench/summary-floor.c $(BUILD)/libmmbench.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libmmbench.a $(LDLIBS)

$(BUILD)/bench/fork-floor: bench/fork-floor.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/bench/child-cpu: bench/child-cpu.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $<

# The samples view's mmb_samples() for the plain sqlite3 shell (docs/store.md).
# Never sanitized: the shell that loads it is not, and ASan must come first.
$(BUILD)/sqlite/mmbsamples.so: db/blockvt.c db/block.c db/block.h db/blockvt.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(filter-out $(SAN_OPTS),$(CFLAGS)) -DMMB_SQLITE_EXT -Idb -Iharness/base $(PLUGIN_CFLAGS) \
		$(PLUGIN_LDFLAGS) -o $@ db/blockvt.c db/block.c -lm

deps:
	@./tools/install-deps.sh run host

# make run WAIT_QUIET=10m: wait for a quiet machine first (tools/make-run.sh)
run: export WAIT_QUIET := $(WAIT_QUIET)
run:
	@./tools/install-deps.sh run
	@$(MAKE) --no-print-directory all
	@./tools/make-run.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/mmbench \
		$(DESTDIR)$(PREFIX)/share/mmbench/configs $(DESTDIR)$(PREFIX)/share/doc/mmbench \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/mmbench $(DESTDIR)$(PREFIX)/bin/mmbench
	install -m 644 $(PLUGINS) $(DESTDIR)$(PREFIX)/lib/mmbench/
	install -d $(DESTDIR)$(PREFIX)/lib/mmbench/sqlite
	install -m 644 $(BUILD)/sqlite/mmbsamples.so $(DESTDIR)$(PREFIX)/lib/mmbench/sqlite/
	cp -r configs/. $(DESTDIR)$(PREFIX)/share/mmbench/configs/
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/mmbench/
	install -d $(DESTDIR)$(PREFIX)/share/doc/mmbench/img
	install -m 644 docs/img/*.png $(DESTDIR)$(PREFIX)/share/doc/mmbench/img/
	if ls docs/man/*.1 >/dev/null 2>&1; then install -m 644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/; fi
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 644 tools/completion/mmbench.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/mmbench
	install -m 644 tools/completion/_mmbench $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_mmbench

clean:
	rm -rf build build-asan

# ---- make fuzz: libFuzzer targets (tests/fuzz/fuzz_<target>.c), clang,
# ASan+UBSan, built in build-fuzz/.  Each runs FUZZ_SECONDS on its seeds
# (tests/fuzz/corpus/<target>/, read only) plus build-fuzz/corpus/<target>/
# (what it learns); a crash leaves build-fuzz/crash-<target>-* and fails.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build-fuzz
FUZZ_FLAGS   := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -O1 -g -D_GNU_SOURCE \
		-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
		-fno-omit-frame-pointer
FUZZ_SRC     := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)
$(FUZZ_BUILD)/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (fuzz)")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -c -o $@ $<
$(FUZZ_BUILD)/libmmbench.a: $(FUZZ_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^
# fuzzers call the library's parsers through its headers (no .c is included)
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_BUILD)/libmmbench.a $(HDRS)
	@$(if $(Q),echo "  FUZZER  $@")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_BUILD)/libmmbench.a $(LDLIBS)
fuzz: $(FUZZ_BIN)
	@fail=; for b in $(FUZZ_BIN); do t=$${b#$(FUZZ_BUILD)/fuzz_}; \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t; \
		echo "== fuzz $$t ($(FUZZ_SECONDS)s, log $(FUZZ_BUILD)/fuzz-$$t.log)"; \
		$$b -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/crash-$$t- $(FUZZ_ARGS) \
			$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t > $(FUZZ_BUILD)/fuzz-$$t.log 2>&1 \
			|| fail="$$fail $$t"; \
		grep -E '^(stat::number_of_executed_units|SUMMARY|==[0-9]+==ERROR|Test unit written)' \
			$(FUZZ_BUILD)/fuzz-$$t.log; done; \
		[ -z "$$fail" ] || { echo "fuzz: crashes in:$$fail (see $(FUZZ_BUILD)/crash-*)"; exit 1; }

# ---- make lint: cppcheck, then clang-tidy with the checks in .clang-tidy
# (which also lists the accepted findings, each with its reason).  cppcheck:
# warning/portability/performance classes; suppressed, with why:
#  - missingIncludeSystem: system headers are not given to cppcheck;
#  - varFuncNullUB: argv-style helpers (kbuild.c git()) end with NULL, the
#    execl() convention; glibc's NULL is (void *)0, a pointer, not int 0;
#  - nullPointer:plot/plot-scaling.c: qsort(pts, 0, ...) with pts NULL when no
#    variant has the axis key; cannot happen (the key comes from a
#    variant), reported to plot's owner for an `if (npts)` guard.
LINT_SRC       := $(sort $(CMD_SRC) $(LIB_SRC) $(wildcard workloads/*/*.c))
LINT_CPPFLAGS  := -std=gnu11 -D_GNU_SOURCE $(HOST_INC) \
		  -DMMB_VERSION='"$(VERSION)"' -DMMB_GIT_SHA='"lint"' \
		  -DMMB_PLUGIN_DIR='"$(PREFIX)/lib/mmbench"' -DMMB_DATA_DIR='"$(PREFIX)/share/mmbench"'
CPPCHECK_FLAGS := --enable=warning,portability,performance --std=c11 --inline-suppr \
		  --error-exitcode=1 --quiet -D_GNU_SOURCE -DMMB_VERSION='"x"' -DMMB_GIT_SHA='"x"' \
		  $(HOST_INC) --suppress=missingIncludeSystem \
		  --suppress=varFuncNullUB --suppress=nullPointer:plot/plot-scaling.c \
		  --template='{file}:{line}: {severity}: {message} [{id}]'
CLANG_TIDY     ?= clang-tidy
LINT_JOBS      ?= 1
# the layer order, size limits and repeated code of docs/ARCHITECTURE.md
# (fast; also run by `make check`)
lint-layout:
	@echo "== layout (tools/check-layout.py)"
	@python3 tools/check-layout.py .

# docs/layers.md, the include graph between the layers
layer-graph:
	@python3 tools/check-layout.py --graph . > docs/layers.md

lint: lint-layout all
	@echo "== layer symbols (tools/check-layout.py --symbols: nm on the objects)"
	@python3 tools/check-layout.py --symbols $(BUILD) .
	@./tools/install-deps.sh lint
	@command -v cppcheck >/dev/null && command -v $(CLANG_TIDY) >/dev/null || \
		{ echo "lint needs cppcheck and clang-tidy (apt-get install cppcheck clang-tidy)"; exit 1; }
	@echo "== cppcheck"
	@cppcheck $(CPPCHECK_FLAGS) harness db plot workloads
	@echo "== clang-tidy ($(words $(LINT_SRC)) files)"
	@mkdir -p $(BUILD)
	@printf '%s\n' $(LINT_SRC) | xargs -P $(LINT_JOBS) -I{} \
		$(CLANG_TIDY) --quiet {} -- $(LINT_CPPFLAGS) > $(BUILD)/lint-tidy.log 2>/dev/null || true
	@sed -n 's/^# accept: \([^ ]*\) \([^ ]*\) --.*/\1 \2/p' .clang-tidy > $(BUILD)/lint-accept
	@awk -v root="$(CURDIR)/" 'FILENAME == ARGV[1] { acc[++nacc] = $$0; next } \
		/^[^ ]+:[0-9]+:[0-9]+: (warning|error): / { \
			f = $$0; sub(/:.*/, "", f); sub("^" root, "", f); \
			c = $$0; sub(/.*\[/, "", c); sub(/\]$$/, "", c); \
			ok = 0; n = split(c, cs, ","); \
			for (i = 1; i <= nacc; i++) { split(acc[i], a, " "); \
				for (j = 1; j <= n; j++) if (a[1] == f && index(cs[j], a[2]) == 1) ok = 1; } \
			if (!ok) { print; bad++ } else kept++ } \
		END { printf "clang-tidy: %d finding(s), %d accepted (see .clang-tidy)\n", bad + kept, kept + 0; \
			exit bad > 0 }' $(BUILD)/lint-accept $(BUILD)/lint-tidy.log
