# SPDX-License-Identifier: MIT
# Thin wrapper around CMake. `make demo` and `make test` work on a fresh
# Debian 12 machine: both install what is missing first, in groups
# (scripts/install-deps.sh): `make`, `make demo` and `make install` only
# what the program needs to build, `make test` and `make check` also what
# the tests run, `make deb` what the package needs. `make help` lists the
# targets.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
# make install: under PREFIX, inside DESTDIR when given (as cmake does);
# MINISTAT_LINK=1 adds bin/ministat -> gfxstat (off: it would shadow
# Debian's ministat).
PREFIX ?= /usr/local
MINISTAT_LINK ?= 0
# make deb builds the package in a scratch copy of the tree, here.
# Outside the tree and at one fixed path per user: the compiler cache then
# knows a package build from the last one, wherever the tree is cloned
# (dpkg's flags carry the build path). Two package builds at once by one
# user would share it: run one at a time.
DEB_BUILD ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/gfxstat-deb

# ccache (in the deps script's build group) in front of every compiler: the
# four builds CI makes (the tree's, the package's, ASan's, the fuzzers')
# each compile what the last run compiled, unchanged. CCACHE_BASEDIR and
# CCACHE_NOHASHDIR let a clone at another path hit what this tree cached
# (debug info then names the directory of the build that filled the cache).
# The sloppiness lets ccache cache what is compiled with a precompiled
# header (CMakeLists.txt: the heavy third-party headers are precompiled).
# Expanded when a recipe runs, after deps: a first `make` finds it too.
CCACHE = $(shell command -v ccache 2>/dev/null)
LAUNCHER = $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE) -DCMAKE_C_COMPILER_LAUNCHER=$(CCACHE))
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
export CCACHE_SLOPPINESS := pch_defines,time_macros,include_file_mtime,include_file_ctime

# Ninja when it is installed (the build group has it), for a build tree
# made now; a tree configured before keeps the generator it was made with
# (cmake refuses to change it).
NINJA = $(shell command -v ninja 2>/dev/null)
GENERATOR = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(NINJA),-G Ninja))
# Optimised, with line tables and function names (-g1): a backtrace or a
# sanitizer names file:line, and a build from scratch takes a quarter less
# time than with full debug information (bench/README.md, "Build"), whose
# variables and types most of the compile time went to. DEBUG_INFO=-g for
# gdb's locals; the Debian package keeps its full -g in gfxstat-dbgsym.
DEBUG_INFO ?= -g1
CONFIGURE = cmake -S . -B $(BUILD) $(call GENERATOR,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $(DEBUG_INFO) -DNDEBUG" $(LAUNCHER)

# What `make check` leaves out, and why (ctest labels in tests/CMakeLists.txt):
#   whole_system  a booted qemu VM, real Mesa under Xvfb, a LAVA job
#   slow          the results writers' race and crash-safety rounds,
#                 calibration by simulation, linear-growth checks on large
#                 inputs, the page in Chromium, a real `git bisect run`
# `make test` runs them all; `make asan-test`, `make fuzz` and `make deb-test`
# are CI's other phases (.ci/run).
CHECK_EXCLUDE = whole_system|slow

.PHONY: all help deps test-deps package-deps build tests-build install deb deb-test demo test check \
        asan-test stress-test fuzz bench calibration ab-calibration clean

all: build

help:
	@echo "make             build build/gfxstat and build/ministat (installs the build group first)"
	@echo "make demo        build, then compare timer wake-up latency unladen and loaded with gfxstat ab"
	@echo "make install     build, then install a stripped gfxstat under PREFIX (default /usr/local)"
	@echo "make check       the edit loop: build the tests, run the unit tests and the fast CLI tests"
	@echo "                 (leaves out the tests labelled $(CHECK_EXCLUDE): VM, real Mesa, LAVA job,"
	@echo "                 Chromium, calibration, stress, large-input scaling, a real git bisect run; make test runs them)"
	@echo "make test        build everything, run every test (the README's test command)"
	@echo "make tests-build build the program and every test program, run nothing"
	@echo "make asan-test   unit tests and a chosen set of CLI tests under AddressSanitizer and UBSan"
	@echo "make fuzz        build the libFuzzer targets (clang), fuzz each for FUZZ_SECONDS/6"
	@echo "make deb         the Debian package (with its -dbgsym package) in build/deb"
	@echo "make deb-test    the package, lintian-checked and tried from a scratch root"
	@echo "make bench       the speed and memory benchmarks of bench/ (long)"
	@echo "make calibration, make ab-calibration   regenerate docs/calibration.md, docs/ab-calibration.md"
	@echo "make stress-test the results-writer race for STRESS_SECONDS (default 120)"

deps:
	@./scripts/install-deps.sh build

test-deps:
	@./scripts/install-deps.sh build test

package-deps:
	@./scripts/install-deps.sh build package

# The program only: gfxstat, the ministat link, the man pages. The tests,
# fuzzers, benchmarks and table generators are built by the targets that
# run them.
build: deps
	@$(CONFIGURE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The program and every program the test suite runs.
tests-build: test-deps
	@$(CONFIGURE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target all gfxstat_tests

install: deps
	@$(CONFIGURE) -DCMAKE_INSTALL_PREFIX=$(PREFIX) \
	    -DGFXSTAT_INSTALL_MINISTAT_LINK=$(if $(filter 1,$(MINISTAT_LINK)),ON,OFF) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --strip

# The .deb (debian/), built from a copy of the tree's files (tracked ones
# and new ones git does not ignore, as they are now) in $(DEB_BUILD), so
# that the tree stays clean; the packages (gfxstat and its debug symbols,
# gfxstat-dbgsym, as Debian builds them) are then copied into build/deb.
# With ccache, Debian's way (its compiler links first in PATH); the cache
# is named, because debhelper gives the build a HOME of its own.
deb: package-deps
	@rm -rf $(DEB_BUILD) && mkdir -p $(DEB_BUILD)/gfxstat
	@git ls-files -z --cached --others --exclude-standard | \
	    tar --null --ignore-failed-read -T - -cf - | tar -xf - -C $(DEB_BUILD)/gfxstat
	cd $(DEB_BUILD)/gfxstat && \
	    if [ -d /usr/lib/ccache ] && command -v ccache >/dev/null; then \
	        export PATH="/usr/lib/ccache:$$PATH" CCACHE_DIR="$$(ccache -k cache_dir)"; fi && \
	    DEB_BUILD_OPTIONS="parallel=$(JOBS) $${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b
	@mkdir -p $(BUILD)/deb && rm -f $(BUILD)/deb/gfxstat_* $(BUILD)/deb/gfxstat-dbgsym_* && \
	    cp $(DEB_BUILD)/gfxstat_*.deb $(DEB_BUILD)/gfxstat_*.changes $(DEB_BUILD)/gfxstat_*.buildinfo $(BUILD)/deb/ && \
	    cp $(DEB_BUILD)/gfxstat-dbgsym_*.*deb $(BUILD)/deb/
	@echo "the package: $$(ls $(BUILD)/deb/gfxstat_*.deb)"

# The package as CI checks it: built, lintian-clean (no errors), unpacked
# into a scratch root and tried there (scripts/deb-smoke-test.sh).
deb-test: deb
	./scripts/deb-smoke-test.sh $(BUILD)/deb

# The seed's experiment on the CPU: timer wake-up latency on an idle
# machine against the same with every core busy, interleaved in blocks by
# `gfxstat ab` until its stop rule settles the verdict, every run recorded;
# then what the results file holds. ab prints compare's report itself;
# gfxstat report draws it into an HTML page, whose path is printed last.
demo: build
	@sh scripts/demo.sh ./$(BUILD)/gfxstat $(BUILD) $(JOBS)

# Every test: unit, CLI, differential against ministat, whole-system.
test: tests-build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The edit loop: what `make test` runs but for the labels of CHECK_EXCLUDE
# (see above; `make help`).
check: tests-build
	@echo "make check: leaving out the tests labelled $(CHECK_EXCLUDE) (make test runs them)"
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE '$(CHECK_EXCLUDE)'

# The results-writer race of `make test`, for STRESS_SECONDS (default 120).
stress-test: build
	python3 tests/stress/results_writers_test.py --gfxstat $(BUILD)/gfxstat --seconds $${STRESS_SECONDS:-120}

# Under AddressSanitizer and UBSan (CI runs it): the unit tests (label
# unit) and the CLI tests labelled asan, those that feed gfxstat the most
# varied and hostile input: files, formats, options and text from data
# (tests/CMakeLists.txt says why each). The rest drive the same code with
# ordinary inputs, or spend their time in programs that are not gfxstat
# (qemu, llvmpipe, Chromium), and each ASan process costs ~0.3 s to start.
# -O1, as the sanitizers' own docs advise: at -O0 the suite runs about twice
# as long and finds nothing more. -g1: line tables, all a sanitizer's report
# needs for file:line, at less compile time.
asan-test: test-deps
	@cmake -S . -B $(ASAN_BUILD) $(call GENERATOR,$(ASAN_BUILD)) -DCMAKE_BUILD_TYPE=Debug \
	    -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DGFXSTAT_SANITIZE=ON $(LAUNCHER) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS) --target all gfxstat_tests
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -L '^(unit|asan)$$'

# Coverage-guided fuzzing (clang) of the number parser and column reader,
# results files (and their rendering: text from data must reach the output
# escaped), run's output parsers, the campaign's plan and journal, and
# LAVA's logs and exports (import --from lava: YAML, the results block);
# and gfxstat bisect's steps file; FUZZ_SECONDS (default 60) is split between the six.
# Without precompiled headers: a clang precompiled header records the paths
# of the tree it was made in, so that ccache could not reuse a fuzz build
# from one clone in another (GCC's can).
fuzz: test-deps
	@CXX=clang++ cmake -S . -B build-fuzz $(call GENERATOR,build-fuzz) -DGFXSTAT_FUZZ=ON -DBUILD_TESTING=OFF \
	    -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON $(LAUNCHER) >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_column_reader fuzz_results_reader fuzz_output_parsers fuzz_campaign_files fuzz_lava \
	    fuzz_bisect_log fuzz_frame_images
	@mkdir -p build-fuzz/corpus build-fuzz/corpus-results build-fuzz/corpus-outputs build-fuzz/corpus-campaign \
	    build-fuzz/corpus-lava build-fuzz/corpus-bisect build-fuzz/corpus-images
	# New inputs go to build-fuzz/corpus and build-fuzz/corpus-results;
	# tests/fuzz/corpus and tests/fuzz/results_corpus are the seeds, read only.
	./build-fuzz/tests/fuzz/fuzz_column_reader -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=4096 build-fuzz/corpus tests/fuzz/corpus
	./build-fuzz/tests/fuzz/fuzz_results_reader \
	    -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=4096 build-fuzz/corpus-results tests/fuzz/results_corpus
	./build-fuzz/tests/fuzz/fuzz_output_parsers \
	    -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=4096 build-fuzz/corpus-outputs tests/data/run_outputs \
	    tests/data/import/ezbench tests/data/import/gbench tests/data/import/gotest tests/fixtures/frames \
	    tests/fuzz/suite_corpus
	./build-fuzz/tests/fuzz/fuzz_campaign_files \
	    -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=4096 build-fuzz/corpus-campaign tests/fuzz/campaign_corpus
	./build-fuzz/tests/fuzz/fuzz_lava \
	    -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=8192 build-fuzz/corpus-lava tests/fuzz/lava_corpus
	./build-fuzz/tests/fuzz/fuzz_bisect_log \
	    -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=4096 build-fuzz/corpus-bisect tests/fuzz/bisect_corpus
	./build-fuzz/tests/fuzz/fuzz_frame_images \
	    -max_total_time=$$(( $${FUZZ_SECONDS:-60} / 6 + 1 )) \
	    -max_len=8192 build-fuzz/corpus-images tests/fuzz/image_corpus

# The benchmarks build what they measure by name (gfxstat_gpu_usage_bench,
# gfxstat_ab_efficiency, ...); ministat and hyperfine are in the test group.
bench: test-deps build
	./bench/ministat_speed.sh
	./bench/results_load.sh
	./bench/compare_speed.sh
	./bench/run_overhead.sh
	./bench/run_loop_scaling.sh
	./bench/campaign_overhead.sh
	./bench/show_wide.sh
	./bench/run_lines_memory.sh
	./bench/regex_long_line.sh
	./bench/ab_efficiency.sh
	./bench/bisect_efficiency.sh
	./bench/gpu_usage_sampler.sh
	./bench/suite_table.sh
	./bench/store_scale.sh

# The calibration table (docs/calibration.md): how often each verdict and
# diagnostic sentence of `gfxstat compare` is wrong, per family and n, by
# seeded simulation; CALIBRATION_REPS replicates a cell (default 2000, some
# minutes on two cores). Its section on suites measured once a side and
# tested as pairs draws SUITE_CALIBRATION_REPS suites a cell (default
# 40000, about a minute on two cores); its last, one new boot against
# stored history, CALIBRATION_REPS histories a cell. Written through a temporary file so
# that an interrupted run leaves the committed page alone.
calibration: test-deps
	@$(CONFIGURE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target gfxstat_calibration
	./$(BUILD)/tests/calibration/gfxstat_calibration --reps $${CALIBRATION_REPS:-2000} \
	    --suite-reps $${SUITE_CALIBRATION_REPS:-40000} --threads $(JOBS) \
	    --markdown --label "gfxstat $$(git describe --always --dirty 2>/dev/null || echo unknown)" \
	    > docs/calibration.md.tmp
	mv docs/calibration.md.tmp docs/calibration.md

# The stop rule of `gfxstat ab` (docs/ab-calibration.md): A/A false
# regression and false "changed" rates, power and runs used, per family and
# --max-runs, by seeded simulation; AB_CALIBRATION_REPS replicates a cell
# (default 2000, some minutes on two cores). Through a temporary file, as
# `calibration`.
ab-calibration: test-deps
	@$(CONFIGURE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target gfxstat_ab_calibration
	./$(BUILD)/tests/calibration/gfxstat_ab_calibration --reps $${AB_CALIBRATION_REPS:-2000} --threads $(JOBS) \
	    --markdown --label "gfxstat $$(git describe --always --dirty 2>/dev/null || echo unknown)" \
	    > docs/ab-calibration.md.tmp
	./$(BUILD)/tests/calibration/gfxstat_ab_calibration --stop group --reps $${AB_CALIBRATION_REPS:-2000} \
	    --threads $(JOBS) --markdown --label "gfxstat $$(git describe --always --dirty 2>/dev/null || echo unknown)" \
	    >> docs/ab-calibration.md.tmp
	mv docs/ab-calibration.md.tmp docs/ab-calibration.md

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
