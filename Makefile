# Thin wrapper around CMake. `make demo` and `make test` work on a fresh
# Debian 12 machine: both install what is missing first.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)

.PHONY: all deps build demo test asan-test fuzz bench clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Until the workload drivers exist the demo is the analysis of shipped data:
# gem_syslatency runs from an intel-gfx thread, first nine against the rest.
demo: build
	./$(BUILD)/gfxstat ministat examples/bdw-syslatency-mean-a.txt examples/bdw-syslatency-mean-b.txt
	./$(BUILD)/gfxstat summary examples/bdw-syslatency-mean-a.txt examples/bdw-syslatency-mean-b.txt

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole test suite under AddressSanitizer and UBSan (CI runs it).
asan-test: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DGFXSTAT_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)

# Coverage-guided fuzzing of the number parser and column reader (clang).
fuzz: deps
	@CXX=clang++ cmake -S . -B build-fuzz -DGFXSTAT_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_column_reader
	@mkdir -p build-fuzz/corpus
	# New inputs go to build-fuzz/corpus; tests/fuzz/corpus is the seed, read only.
	./build-fuzz/tests/fuzz/fuzz_column_reader -max_total_time=$${FUZZ_SECONDS:-60} \
	    -max_len=4096 build-fuzz/corpus tests/fuzz/corpus

bench: build
	./bench/ministat_speed.sh
	./bench/results_load.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
