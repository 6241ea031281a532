# BlurKit: `make demo` and `make test` do all set-up on a fresh Debian/Ubuntu machine.
#
#   make demo    build, then render the demo gallery (every seed demo, index.html) into ./demo-output
#   make screenshot  render demo-output/index.html in headless Chromium to demo-output/index.png
#   make test    build and run every test (release build: pixel loops are slow in debug); installs
#                Pillow, Playwright and schemathesis (pip) and Chromium and nginx (apt) for the tests
#                that read our files with another decoder and those of blurkit serve
#   make bench   release build, timings against the copy floor and Pillow/OpenCV/libvips if installed,
#                written to docs/benchmarks.md (one header line: the machine, the date, the commit)
#   make loadtest  blurkit serve against thumbor under wrk on loopback (LOADTEST_SECONDS a run, default 30),
#                written to docs/loadtest.md
#   make docs    the DocC site into docs-site/ (every public symbol documented, warnings as errors)
#   make reference  docs/reference/: every operation's parameters on every front end, from the registry
#   make wasm    blurkit.wasm, blurkit.mjs and the static page into demo-output/web (Embedded Swift, the toolchain alone),
#                and the same as an npm package in demo-output/web/package (npm pack there makes the tarball)
#   make peers   install the benchmark peers: Pillow, OpenCV, pyvips, thumbhash (pip), the vips command line (apt)
#   make sanitize  the tests under AddressSanitizer (with leak checks), then ThreadSanitizer
#   make fuzz    libFuzzer on every parser for FUZZ_SECONDS (default 60) or FUZZ_RUNS inputs (default 10M),
#                whichever ends first; findings in .build/fuzz/findings
#   make mutants  apply each small break of Tests/Mutants/mutants.txt, run the tests it names, and
#                print the breaks no test caught (not part of make test: a release build per break)
#   make lint    swift-format lint --strict over Package.swift, Sources and Tests (.swift-format)
#   make format  swift-format the same files in place
#   make deps    install the system libraries only

SWIFT ?= swift
# AVX2 for our own builds when the CPU has it (the package itself sets no unsafe flags).
CPU_FLAGS := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo "-Xcc -mavx2")
BUILD = $(SWIFT) build -c release $(CPU_FLAGS)

# pkg-config module → Debian package that provides it.
DEB_PACKAGES = pkg-config libpng-dev zlib1g-dev libjpeg-dev libwebp-dev libgif-dev libfreetype-dev libmicrohttpd-dev libgnutls28-dev liblcms2-dev libheif-dev fonts-dejavu-core fontconfig curl
PKG_MODULES = libpng zlib libjpeg libwebpmux libwebpdemux freetype2 libmicrohttpd gnutls lcms2 libheif

.PHONY: deps test-deps demo test bench peers sanitize fuzz clean screenshot lint format loadtest docs wasm mutants reference

deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	command -v curl >/dev/null 2>&1 || missing="$$missing curl"; \
	for m in $(PKG_MODULES); do pkg-config --exists $$m 2>/dev/null || missing="$$missing $$m"; done; \
	[ -f /usr/include/gif_lib.h ] || [ -f /usr/local/include/gif_lib.h ] || [ -f /opt/homebrew/include/gif_lib.h ] || missing="$$missing giflib"; \
	if [ -n "$$missing" ]; then \
		echo "missing:$$missing"; \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing: $(DEB_PACKAGES)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PACKAGES) >/dev/null || exit 1; \
		elif command -v apt-get >/dev/null 2>&1; then \
			echo "run: sudo apt-get install -y $(DEB_PACKAGES)"; exit 1; \
		else \
			echo "run: brew install pkg-config libpng jpeg-turbo webp giflib freetype fontconfig libmicrohttpd gnutls little-cms2 libheif"; exit 1; \
		fi; \
	fi
	@if ! ls /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf >/dev/null 2>&1 && ! fc-list 2>/dev/null | grep -q .; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-dejavu-core fontconfig >/dev/null || exit 1; \
		else echo "no fonts found: run sudo apt-get install -y fonts-dejavu-core fontconfig"; exit 1; fi; \
	fi
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "Swift 6 is needed: https://www.swift.org/install/"; exit 1; }

demo: deps
	$(BUILD) --product blurkit
	@.build/release/blurkit demo demo-output --photo Tests/Fixtures/chelsea.png --quiet
	@echo "Demo images are in $(CURDIR)/demo-output:"; ls -1 demo-output | sed 's/^/  /'
	@echo "Open $(CURDIR)/demo-output/index.html for the gallery (make screenshot renders it in headless Chromium)."

screenshot:
	@[ -f demo-output/index.html ] || $(MAKE) demo
	Scripts/screenshot-gallery.sh demo-output/index.html demo-output/index.png

# The service's tests beyond Swift's: the OpenAPI document (schemathesis), the playground in
# headless Chromium (Playwright), two replicas behind nginx, placeholder shards, the example server package.
SERVICE_TESTS = test_blurhash test_schemathesis test_playground test_nginx test_proxy_cache test_shards test_example test_attacks test_offpath test_registry_attacks

test: deps test-deps
	@Scripts/step.sh swift-test $(SWIFT) test -c release $(CPU_FLAGS)
	@Scripts/step.sh reference python3 Scripts/reference.py .build/release/blurkit docs/reference --check
	@Scripts/step.sh wasm $(MAKE) --no-print-directory wasm
	@for f in Sources/BlurServe/Resources/playground.js Web/blurkit.mjs Scripts/dts.mjs Scripts/package.mjs Tests/Web/test_wasm.mjs Web/loader.mjs Tests/Web/test_loader.mjs Scripts/elements.mjs Web/elements/*.mjs Tests/Web/test_thumbhash.mjs Tests/Web/test_snippets.mjs Tests/Web/test_added.mjs; do node --check $$f || exit 1; done
	@Scripts/step.sh test_wasm node Tests/Web/test_wasm.mjs .build/release/blurkit $(WASM_OUT)
	@Scripts/step.sh test_loader node Tests/Web/test_loader.mjs .build/release/blurkit $(WASM_OUT)
	@Scripts/step.sh test_added node Tests/Web/test_added.mjs $(WASM_OUT)
	@Scripts/step.sh test_thumbhash node Tests/Web/test_thumbhash.mjs $(WASM_OUT)
	@Scripts/step.sh test_snippets node Tests/Web/test_snippets.mjs .build/release/blurkit
	@tsc --noEmit --strict --target es2022 --lib es2022,dom $(WASM_OUT)/elements/index.d.ts $(WASM_OUT)/elements/thumbhash.d.ts && echo "the elements' declarations type-check"
	@d=$$(mktemp -d) && cp Tests/Web/example.mts $(WASM_OUT)/blurkit.d.mts $$d/ && \
		tsc --noEmit --strict --target es2022 --module node16 --moduleResolution node16 --lib es2022 $$d/example.mts; \
		status=$$?; rm -rf $$d; [ $$status = 0 ] && echo "blurkit.d.ts: Tests/Web/example.mts type-checks" || exit 1
	@for t in test_page test_scroll test_glass test_elements; do BLURKIT=$(CURDIR)/.build/release/blurkit Scripts/step.sh $$t python3 Tests/Web/$$t.py $(WASM_OUT) || exit 1; done
	@Scripts/step.sh test_npm python3 Tests/Web/test_npm.py $(WASM_OUT)
	@Scripts/step.sh example-server $(SWIFT) build -c release $(CPU_FLAGS) --package-path Examples/Server
	# The CLI as a package depending on BlurKit builds it, with no flags: the same bytes as with them.
	@Scripts/step.sh portable-build $(SWIFT) build -c release --product blurkit --scratch-path .build/portable
	@Scripts/step.sh same-bytes python3 Tests/InstructionSets/test_same_bytes.py .build/release/blurkit .build/portable/release/blurkit
	@for t in $(SERVICE_TESTS); do BLURKIT=$(CURDIR)/.build/release/blurkit BLURKIT_WEB=$(CURDIR)/$(WASM_OUT) Scripts/step.sh $$t python3 Tests/Service/$$t.py || exit 1; done
	@BLURKIT=$(CURDIR)/.build/release/blurkit Scripts/step.sh test_photos python3 Tests/Photos/test_photos.py
	@Scripts/step.sh architecture python3 Tests/Docs/test_architecture.py
	@Scripts/step.sh parameter-literals python3 Tests/Docs/test_parameter_literals.py .build/release/blurkit

# Pillow: the decoder and encoder that are not ours, for the tests that hold our files to them
# (with its own lcms2 and AVIF reader); Playwright and schemathesis (pip), Chromium and nginx (apt)
# for the service's tests; libheif's heif-enc and heif-convert (apt) for the HEIF fixtures.
test-deps:
	@python3 -c "import PIL, numpy; from PIL import features; assert features.check('avif')" 2>/dev/null || { \
		echo "installing Pillow (11.3 or later reads AVIF) and numpy for the tests (pip)"; \
		python3 -m pip install --quiet --upgrade "pillow>=11.3" numpy || { echo "run: python3 -m pip install 'pillow>=11.3' numpy"; exit 1; }; }
	@python3 -c "import playwright, schemathesis" 2>/dev/null || { echo "installing Playwright and schemathesis for the service tests (pip)"; \
		python3 -m pip install --quiet playwright schemathesis || { echo "run: python3 -m pip install playwright schemathesis"; exit 1; }; }
	@python3 -c "import blurhash; blurhash.encode" 2>/dev/null || { echo "installing blurhash-python (Wolt's encoder) for the BlurHash test (pip)"; \
		python3 -m pip install --quiet blurhash-python || { echo "run: python3 -m pip install blurhash-python"; exit 1; }; }
	@missing=""; command -v chromium >/dev/null 2>&1 || missing="chromium"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v tsc >/dev/null 2>&1 || missing="$$missing node-typescript"; \
	command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	command -v heif-enc >/dev/null 2>&1 || missing="$$missing libheif-examples"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing for the service tests: $$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
		else echo "run: sudo apt-get install -y --no-install-recommends $$missing"; exit 1; fi; \
	fi

mutants: deps test-deps
	python3 Scripts/mutants.py

bench: deps
	$(BUILD) --product blurkit
	$(BUILD) --product BlurBench
	@python3 -c "import numpy" 2>/dev/null || echo "(numpy missing: peers are skipped; run make peers)"
	.build/release/BlurBench --markdown docs/benchmarks.md
	$(MAKE) wasm
	@{ echo; echo "The WebAssembly module in headless Chromium (Tests/Web/test_page.py; targets: the header ≤ 8 ms, blurkit.wasm ≤ 200 KB, 204,800 bytes):"; \
	   echo; BLURKIT=$(CURDIR)/.build/release/blurkit python3 Tests/Web/test_page.py $(WASM_OUT) | grep '^in chromium'; } >> docs/benchmarks.md
	@{ echo; echo "Liquid Glass in headless Chromium (Tests/Web/test_glass.py; targets: the card and the capsule together ≤ 16 ms, glass.html's p95 frame ≤ 16.7 ms):"; \
	   echo; BLURKIT=$(CURDIR)/.build/release/blurkit python3 Tests/Web/test_glass.py $(WASM_OUT) | grep '^in chromium'; } >> docs/benchmarks.md
	@{ echo; echo "The scrolling page in headless Chromium (Tests/Web/test_scroll.py: 9 px every animation frame; target: p95 frame ≤ 16.7 ms):"; \
	   echo; BLURKIT=$(CURDIR)/.build/release/blurkit python3 Tests/Web/test_scroll.py $(WASM_OUT) | grep '^in chromium'; } >> docs/benchmarks.md
	@{ echo; echo "The web components in headless Chromium (Benchmarks/elements_frames.py: components.html, 9 px every animation frame, 120 frames; target: p95 frame ≤ 16.7 ms; then <variable-blur-view>'s layer curve):"; \
	   echo; BLURKIT=$(CURDIR)/.build/release/blurkit python3 Benchmarks/elements_frames.py $(WASM_OUT) | grep '^in chromium'; \
	   echo; echo "The modules' bytes: blurkit.wasm $$(wc -c < $(WASM_OUT)/blurkit.wasm) ($$(gzip -9c $(WASM_OUT)/blurkit.wasm | wc -c) gzipped), blurkit-core.wasm $$(wc -c < $(WASM_OUT)/blurkit-core.wasm) ($$(gzip -9c $(WASM_OUT)/blurkit-core.wasm | wc -c) gzipped; target ≤ 204,800 for a page that only blurs), elements/thumbhash.mjs $$(wc -c < $(WASM_OUT)/elements/thumbhash.mjs) (target ≤ 4,096)."; } >> docs/benchmarks.md

# docs/reference/, made from the registry (`blurkit --describe`); make test fails when it differs.
reference:
	$(BUILD) --product blurkit
	python3 Scripts/reference.py .build/release/blurkit docs/reference

# blurkit.wasm (Embedded Swift: BlurCore's own sources and Web/Exports.swift), blurkit.mjs and the
# static page into $(WASM_OUT), with the toolchain alone (its swiftc, clang and wasm-ld); the npm
# package in $(WASM_OUT)/package.
WASM_OUT ?= demo-output/web
wasm:
	bash Scripts/wasm.sh $(WASM_OUT)

# The DocC site, offline, into docs-site/ (symbol graphs, the undocumented-symbol check, docc with
# warnings as errors, static hosting), then opened in headless Chromium.
docs: deps test-deps
	bash Scripts/docs.sh
	python3 Tests/Service/test_docs.py

# blurkit serve and thumbor (PyPI, in its own venv) under wrk (Debian) on loopback; not part of make test.
loadtest: deps test-deps
	$(BUILD) --product blurkit
	@command -v wrk >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk >/dev/null || exit 1; \
		else echo "run: sudo apt-get install -y wrk"; exit 1; fi; }
	@[ -x .build/thumbor-venv/bin/thumbor ] || { echo "installing thumbor into .build/thumbor-venv (pip)"; \
		python3 -m venv .build/thumbor-venv && .build/thumbor-venv/bin/pip install --quiet thumbor || \
		{ echo "run: python3 -m venv .build/thumbor-venv && .build/thumbor-venv/bin/pip install thumbor"; exit 1; }; }
	python3 Scripts/loadtest.py

sanitize: deps test-deps
	BLURKIT_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp $(SWIFT) test -c release $(CPU_FLAGS) \
		--sanitize=address --scratch-path .build/asan
	BLURKIT_SANITIZER=thread $(SWIFT) test -c release $(CPU_FLAGS) --sanitize=thread --scratch-path .build/tsan

FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 10000000
FUZZ_TARGETS ?= png jpeg netpbm gif webp apng heif icc any pixels scene path thumbhash arguments request

fuzz: deps
	# Optimised with ASan: 10-100x the inputs a second of a debug build; bounds checks and traps stay.
	$(BUILD) -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DBLURKIT_FUZZ \
		--product BlurFuzz --scratch-path .build/fuzz
	@mkdir -p .build/fuzz/findings
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p .build/fuzz/corpus/$$t; cp -n Tests/Fuzz/corpus/$$t/* .build/fuzz/corpus/$$t/ 2>/dev/null || true; \
		printf '%-8s ' $$t; \
		if BLURKIT_FUZZ_TARGET=$$t SWIFT_BACKTRACE=enable=no .build/fuzz/release/BlurFuzz .build/fuzz/corpus/$$t Tests/Fuzz/regressions \
			-max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=.build/fuzz/findings/$$t- > .build/fuzz/$$t.log 2>&1; then \
			grep -h "stat::number_of_executed_units" .build/fuzz/$$t.log | sed 's/.*: *//; s/$$/ executions, no finding/'; \
		else echo "FINDING: see .build/fuzz/$$t.log and .build/fuzz/findings/"; exit 1; fi; \
	done

FORMAT_PATHS = Package.swift Sources Tests Web Examples/Server/Package.swift Examples/Server/Sources

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

peers:
	python3 -m pip install --quiet numpy pillow opencv-python-headless pyvips pyvips-binary thumbhash
	@command -v vips >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvips-tools hyperfine >/dev/null; \
		else echo "for the file-to-file table: sudo apt-get install -y libvips-tools"; fi; }

clean:
	rm -rf .build demo-output
