# npurt: the two commands that matter are `make demo` and `make test`.
BUILD_DIR   ?= build
ASAN_DIR    ?= build-asan
TSAN_DIR    ?= build-tsan
FUZZ_DIR    ?= build-fuzz
ARM_DIR     ?= build-aarch64
FUZZ_SECONDS ?= 60
CONFIG_FUZZ_SECONDS ?= 30
JOBS        ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all setup build demo test check test-sanitize test-tsan test-arm fuzz install clean

all: build

setup:
	@bash scripts/setup.sh

$(BUILD_DIR)/build.ninja: | setup
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: setup $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job: OCR on an image (PaddleOCR det -> cls -> rec) through the C API
# from a board-style C++ program. Converts the three ONNX models fetched by
# scripts/setup.sh, prints the text lines and stage times, draws the boxes.
# int8 models by default (calibrated on rendered text and photos, npurt's
# default recipe); `make demo DEMO_PRECISION=float` runs the float models.
NPURT_DATA_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/npurt
DEMO_IMAGE     ?= /usr/share/doc/opencv-doc/examples/data/imageTextN.png
DEMO_PRECISION ?= int8
demo: build
	PRECISION=$(DEMO_PRECISION) sh examples/ppocr/convert_models.sh $(BUILD_DIR)/tools/npurt/npurt \
	  $(NPURT_DATA_DIR)/models/ppocr $(BUILD_DIR)/ppocr $(BUILD_DIR)/bench/quant_accuracy/make_ocr_sets
	$(BUILD_DIR)/examples/ppocr/rknn_ppocr_demo $(BUILD_DIR)/ppocr/det.rknn $(BUILD_DIR)/ppocr/cls.rknn \
	  $(BUILD_DIR)/ppocr/rec.rknn $(NPURT_DATA_DIR)/models/ppocr/ppocr_keys_v1.txt $(DEMO_IMAGE) \
	  -o $(BUILD_DIR)/ppocr/$(basename $(notdir $(DEMO_IMAGE))).ocr.png

# Every test: the Release suite, the same suite under ASan+UBSan, the threaded
# tests under ThreadSanitizer, the model-loader fuzzer for FUZZ_SECONDS and the YAML settings
# fuzzer for CONFIG_FUZZ_SECONDS (-close_fd_mask=2: the parser's warnings are silenced, not its crash reports).
test: check test-sanitize test-tsan test-arm fuzz

# ctest, then the line saying which CPU target it ran and how many tests it skipped for lack of an
# instruction set (tests/common/isa_report.cmake), when tests failed too.
ctest_and_report = ctest --output-on-failure -j $(JOBS) $(1); status=$$?; cat Testing/isa_report.txt; exit $$status

check: build
	cd $(BUILD_DIR) && $(call ctest_and_report)

test-sanitize: setup
	cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
	  "-DCMAKE_C_FLAGS_DEBUG=-O1 -g1" -DNPURT_SANITIZE=ON -DNPURT_BUILD_TOOLS=OFF
	cmake --build $(ASAN_DIR) -j $(JOBS)
	cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(call ctest_and_report)

# What runs on several threads: concurrent and duplicated contexts, async
# frames, core masks (the thread pool splitting ops), dynamic shape switches,
# memory calls racing runs, and the board-style threaded programs.
TSAN_TARGETS = npurt_api_tests npurt_unit_tests board_apps npurt_make_test_models npurt_isa_report
TSAN_TESTS   = ^api\.(Concurrency|Async|CoreMask|DynamicShape|RunTest|MemoryStress|ZeroCopy)|ThreadPool|^board_apps\.|^make_test_models$$|^isa_skips_report$$
test-tsan: setup
	cmake -S . -B $(TSAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPURT_TSAN=ON -DNPURT_BUILD_TOOLS=OFF
	cmake --build $(TSAN_DIR) -j $(JOBS) --target $(TSAN_TARGETS)
	cd $(TSAN_DIR) && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  $(call ctest_and_report,-R '$(TSAN_TESTS)')

# The runtime cross-built for 64-bit ARM boards (Debian's g++-aarch64-linux-gnu) and checked under
# qemu-aarch64: every operator test, the board-style C programs on the fixture models the build
# machine writes (tests/cross). What an ARM board runs: the reference and portable kernels and the int8
# NEON and dotprod kernels (qemu -cpu max has dotprod).
test-arm: build
	mkdir -p $(ARM_DIR)/models
	$(BUILD_DIR)/tests/npurt_make_test_models $(ARM_DIR)/models
	cmake -S . -B $(ARM_DIR) -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DNPURT_BUILD_COMPILER=OFF -DNPURT_ARM_TEST_MODEL_DIR=$(abspath $(ARM_DIR))/models
	cmake --build $(ARM_DIR) -j $(JOBS)
	cd $(ARM_DIR) && $(call ctest_and_report)

fuzz: setup
	cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
	  -DCMAKE_CXX_COMPILER=clang++ -DNPURT_BUILD_FUZZERS=ON
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target model_loader_fuzzer convert_config_fuzzer npurt_make_test_models
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds $(FUZZ_DIR)/config_corpus
	$(FUZZ_DIR)/tests/npurt_make_test_models $(FUZZ_DIR)/seeds
	$(FUZZ_DIR)/tests/fuzz/model_loader_fuzzer -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
	  -print_final_stats=1 $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds tests/fuzz/regressions
	$(FUZZ_DIR)/tools/npurt/convert_config_fuzzer -max_total_time=$(CONFIG_FUZZ_SECONDS) -rss_limit_mb=4096 \
	  -print_final_stats=1 -close_fd_mask=2 $(FUZZ_DIR)/config_corpus tests/fuzz/config_seeds

# ONNX conformance suite (libonnx-testdata): one line per failing model, one per suite.
.PHONY: conformance
conformance: build
	$(BUILD_DIR)/tests/conformance/npurt_conformance

install: build
	cmake --install $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR) $(FUZZ_DIR) $(ARM_DIR)

# Speed side by side (not part of `make test`): npurt, ONNX Runtime, PyTorch and OpenCV DNN on five models
# at 1 and 2 threads, int8 and float; writes docs/benchmarks.md and docs/benchmarks.svg (bench/speed/README.md).
.PHONY: bench
bench: build
	bash bench/speed/run.sh $(BUILD_DIR)
