# Convenience front end over CMake. The two commands of the README:
#   make play   - install what is missing, build, open the title screen (MAP=F: play F at once)
#   make test   - install what is missing, build, run every test
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build play test asan test-asan clean install tmx

all: build

deps:
	@scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The game alone: the patrol command and the libraries it links, not the test suites.
play: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS) --target patrol
	$(BUILD)/patrol play $(MAP)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer, in their own build.
test-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPATROL_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build build-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j $(JOBS)

# Then, as root, ldconfig: the loader's cache learns the new libpatrol_*.so.0.2 in the libdir
# (/usr/local/lib by default), so games linked to them run with no LD_LIBRARY_PATH.
install: build
	cmake --install $(BUILD)
	@if [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

clean:
	rm -rf $(BUILD) build-asan

# Regenerate the Tiled version of the demo after editing maps/demo.map (check_tmx compares them).
tmx:
	python3 scripts/map2tmx.py maps/demo.map maps/demo.tmx
