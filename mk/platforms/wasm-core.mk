# The core as WebAssembly: bindings/c (the C ABI) built for
# wasm32-unknown-unknown into one module that imports nothing, for every
# host that is not JavaScript's own (Pyodide here; a Go runtime such as
# wazero). Then the Pyodide wheel that carries it (dist/pyodide), its test
# inside Pyodide from npm, and its benchmark.
#
#   make wasm-core          build/wasm/robotstxt.wasm: sizes, imports and exports
#   make dist-pyodide       dist/pyodide/robotstxt_engine-<version>-py3-none-any.whl
#   make dist-test-pyodide  the shared vectors and the API tests inside Pyodide
#   make pyodide-bench      a check's cost in Pyodide next to the native wheel's
#   make pyodide-compare    the same calls through both wheels, answers compared

.PHONY: wasm-core wasm-tools pyodide-tools dist-pyodide dist-test-pyodide pyodide-bench pyodide-compare

WASM_TRIPLE := wasm32-unknown-unknown
WASM_OUT := build/wasm
WASM_CORE := $(WASM_OUT)/robotstxt.wasm
WASM_TOOLS_STAMP := build/tools/wasm-target.stamp
# A profile of its own (in the shared target/, folder wasm32-unknown-unknown/
# wasm-core), so that no other build's settings change under it: release
# with LTO at opt-level 3, symbols stripped. Level 3 against "s": some
# 75 KB more (about 20 KB gzipped), checks about twice as fast under Go's
# wazero, the same in Pyodide (whose cost is its bridge). Panics abort:
# the target has no unwinding, so a panic traps and the host sees a
# WebAssembly error. wasm-opt (npm binaryen) was tried: 612 KB, 240 KB
# gzipped at -O3 from the "s" build, for 20-30 s and 104 MB of tools; not
# worth it.
# (A number as is, a letter quoted: 3 or '"s"'.)
WASM_OPT_LEVEL ?= 3
WASM_PROFILE := wasm-core
WASM_CARGO_CONFIG := --config 'profile.$(WASM_PROFILE).inherits="release"' \
	--config 'profile.$(WASM_PROFILE).opt-level=$(WASM_OPT_LEVEL)' \
	--config 'profile.$(WASM_PROFILE).strip=true' \
	--config 'profile.$(WASM_PROFILE).panic="abort"'
WASM_BUILT := target/$(WASM_TRIPLE)/$(WASM_PROFILE)/robotstxt.wasm
WASM_INFO := $(PYTHON) bindings/python/pyodide/wasm_info.py

# Rust's standard library for the target, once.
wasm-tools: $(WASM_TOOLS_STAMP)
$(WASM_TOOLS_STAMP):
	rustup target add $(WASM_TRIPLE)
	@mkdir -p $(@D) && touch $@

# The sources are the engine's and the C ABI crate's (mk/platforms/lib.mk).
wasm-core: $(WASM_CORE)
$(WASM_CORE): $(CROSS_LIB_SOURCES) mk/platforms/wasm-core.mk | $(WASM_TOOLS_STAMP)
	$(CARGO) build -p robotstxt-c --lib --target $(WASM_TRIPLE) --profile $(WASM_PROFILE) $(WASM_CARGO_CONFIG)
	@mkdir -p $(@D)
	cp $(WASM_BUILT) $@
	$(WASM_INFO) $@ --no-imports
	@echo "wasm-core: $@ $$(stat -c %s $@) bytes, $$(gzip -9c $@ | wc -c) gzipped"

# --- Pyodide ---

PYODIDE_TOOLS := tools/dist/pyodide
PYODIDE_STAMP := $(PYODIDE_TOOLS)/node_modules/.installed
PYODIDE_DIST := $(DIST)/pyodide

# Pyodide from npm, as pinned by the folder's package-lock.json.
pyodide-tools: $(PYODIDE_STAMP)
$(PYODIDE_STAMP): $(PYODIDE_TOOLS)/package.json $(PYODIDE_TOOLS)/package-lock.json
	cd $(PYODIDE_TOOLS) && npm ci --no-audit --no-fund --silent
	@touch $@

# The wheel: the package's Python, the WebAssembly backend and the module
# (bindings/python/pyodide/build_wheel.py). After dist-sweep, which `make
# dist` starts with.
dist-pyodide: $(WASM_CORE) | dist-sweep
	rm -rf $(PYODIDE_DIST)
	$(PYTHON) bindings/python/pyodide/build_wheel.py --wasm $(WASM_CORE) --out $(PYODIDE_DIST)

# Installed into Pyodide as a user installs it, then the shared vectors
# and the API tests through it (tools/dist/pyodide/test.mjs).
dist-test-pyodide: dist-pyodide $(PYODIDE_STAMP)
	node $(PYODIDE_TOOLS)/test.mjs $(CURDIR) $(PYODIDE_DIST)

# A benchmark, not a test: the dist wheel in Pyodide beside the native
# wheel (make python) in the build venv, on the same script.
pyodide-bench: dist-pyodide $(PYODIDE_STAMP) python
	$(PY_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps --force-reinstall $(PY_WHEEL)
	node $(PYODIDE_TOOLS)/bench.mjs $(PYODIDE_DIST) --rounds $(ROUNDS) --native $(PY_VENV)/bin/python \
		$(if $(BENCH_MD),--markdown $(abspath $(BENCH_DIR))/pyodide.md)

dist-all: dist-pyodide
dist-all-test: dist-test-pyodide

# The same calls through both wheels (tools/dist/pyodide/probe.py): every
# answer, error and repr must be the native wheel's. Not in `make test`,
# which would build the native wheel twice.
pyodide-compare: dist-pyodide $(PYODIDE_STAMP) python
	$(PY_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps --force-reinstall $(PY_WHEEL)
	node $(PYODIDE_TOOLS)/compare.mjs $(PYODIDE_DIST) $(PY_VENV)/bin/python
