# Node's WebAssembly flavour: the binding crate (bindings/node) built for
# wasm32-wasip1 without threads (no SharedArrayBuffer, so it runs in pages
# that are not cross-origin isolated), as the package
# robotstxt-engine-wasm32-wasi (bindings/node/npm/wasm32-wasi): the module,
# and loaders for Node.js and for browsers, Web Workers and Deno that
# esbuild bundles with emnapi, so the package has no dependencies. The
# main package falls back to it where no native addon loads; browsers,
# bundlers and Deno get it through its conditional exports.
#
# node-wasm               the package, staged in build/node-wasm/package
# node-wasm-lint          clippy on the crate's WebAssembly-only code
# node-wasm-test          the Node suite against it (ROBOTSTXT_BACKEND=wasm)
# node-wasm-browser-test  the shared vectors in headless Chromium
# dist-node-wasm          its npm tarball, in dist/node-wasm
# dist-test-node-wasm     both tarballs installed as a user, then the
#                         suite and Chromium against the installed package

.PHONY: node-wasm node-wasm-lint node-wasm-test node-wasm-browser-test dist-node-wasm dist-test-node-wasm chromium

NODE_WASM_DIR := build/node-wasm
NODE_WASM_PKG := $(NODE_WASM_DIR)/package
NODE_WASM_STAMP := $(NODE_WASM_DIR)/.package
# robotstxt-engine and robotstxt-engine-wasm32-wasi as links, for NODE_PATH
# and for bundling the browser test's page.
NODE_WASM_MODULES := $(NODE_WASM_DIR)/node_modules
NODE_WASM_SRC := bindings/node/npm/wasm32-wasi
NODE_WASM_TARGET_STAMP := build/tools/wasm32-wasip1.stamp
# Its own cargo profile (target/wasm32-wasip1/node-wasm): opt-level 2 for
# the engine and the binding, "s" for the crates they use, keeps the module
# under 350 KB gzipped. Measured (gzip -9): 3 throughout 356 KB, 2
# throughout 348 KB, this 343 KB, "s" throughout 317 KB but a check some
# 1.5x slower; the first three check equally fast. binaryen's wasm-opt took
# 5% off the raw size and nothing off the gzipped.
NODE_WASM_CARGO := --config 'profile.node-wasm.inherits="release"' --config 'profile.node-wasm.opt-level=2' \
	--config 'profile.node-wasm.package."*".opt-level="s"' --config 'profile.node-wasm.strip="symbols"'
NODE_WASM_GZIP_MAX := 350000
NODE_WASM_VERSION = $(shell $(NODE) -p "require('./$(NODE_WASM_SRC)/package.json').version")
DIST_NODE_WASM := dist/node-wasm
DIST_NODE_WASM_TGZ = $(DIST_NODE_WASM)/robotstxt-engine-wasm32-wasi-$(NODE_WASM_VERSION).tgz
# The suite's limits on this build (__test__/limits.mjs).
NODE_WASM_LIMITS := wasm-memory
NODE_WASM_SOURCES := mk/platforms/wasm-node.mk Cargo.toml Cargo.lock bindings/node/Cargo.toml bindings/node/build.rs \
	$(wildcard bindings/node/src/*.rs src/*.rs src/*/*.rs src/*/*/*.rs redis/*.lua) \
	$(wildcard $(NODE_WASM_SRC)/*.json $(NODE_WASM_SRC)/*.md $(NODE_WASM_SRC)/*.mjs $(NODE_WASM_SRC)/src/*)
ESBUILD = $(abspath bindings/node/node_modules/.bin/esbuild)

$(NODE_WASM_TARGET_STAMP):
	rustup target add wasm32-wasip1
	@mkdir -p $(@D) && touch $@

# napi build writes its own loaders and an index.js for this one flavour
# into its output folder, never into bindings/node; only the module is
# taken from there.
node-wasm: $(NODE_WASM_STAMP)
$(NODE_WASM_STAMP): $(NODE_WASM_SOURCES) $(NODE_STAMP) | $(NODE_WASM_TARGET_STAMP)
	cd bindings/node && node_modules/.bin/napi build --platform --profile node-wasm --target wasm32-wasip1 \
		--output-dir $(abspath $(NODE_WASM_DIR))/napi -- $(NODE_WASM_CARGO)
	rm -rf $(NODE_WASM_PKG) && mkdir -p $(NODE_WASM_PKG)
	cp $(NODE_WASM_DIR)/napi/robotstxt.wasm32-wasip1.wasm $(NODE_WASM_SRC)/package.json \
		$(NODE_WASM_SRC)/README.md LICENSE-MIT LICENSE-APACHE $(NODE_WASM_PKG)/
	cd bindings/node && $(ESBUILD) npm/wasm32-wasi/src/node.cjs --bundle --minify --platform=node --format=cjs \
		--target=node20 --outfile=$(abspath $(NODE_WASM_PKG))/robotstxt.wasi.cjs --log-level=warning \
		--metafile=$(abspath $(NODE_WASM_DIR))/node.meta.json
	cd bindings/node && $(ESBUILD) npm/wasm32-wasi/src/browser.mjs --bundle --minify --platform=browser --format=esm \
		--target=es2022 --outfile=$(abspath $(NODE_WASM_PKG))/robotstxt.wasi-browser.js --log-level=warning \
		--metafile=$(abspath $(NODE_WASM_DIR))/browser.meta.json
	cd bindings/node && $(NODE) npm/wasm32-wasi/licenses.mjs $(abspath $(NODE_WASM_DIR))/browser.meta.json \
		$(abspath $(NODE_WASM_PKG))/THIRD-PARTY-LICENSES.md
	@raw=$$(stat -c %s $(NODE_WASM_PKG)/robotstxt.wasm32-wasip1.wasm); \
		gz=$$(gzip -9 -c $(NODE_WASM_PKG)/robotstxt.wasm32-wasip1.wasm | wc -c); \
		echo "node-wasm: robotstxt.wasm32-wasip1.wasm is $$raw bytes, $$gz gzipped (gzip -9; at most $(NODE_WASM_GZIP_MAX));" \
		"loaders $$(stat -c %s $(NODE_WASM_PKG)/robotstxt.wasi.cjs) (Node) and" \
		"$$(stat -c %s $(NODE_WASM_PKG)/robotstxt.wasi-browser.js) (browsers) bytes"; \
		test $$gz -le $(NODE_WASM_GZIP_MAX) || { echo "node-wasm: the module is over its size budget" >&2; exit 1; }
	mkdir -p $(NODE_WASM_MODULES)
	ln -sfn $(abspath $(NODE_WASM_PKG)) $(NODE_WASM_MODULES)/robotstxt-engine-wasm32-wasi
	ln -sfn $(abspath bindings/node) $(NODE_WASM_MODULES)/robotstxt-engine
	@touch $@

# node-lint checks the native build; the code under cfg(target_family =
# "wasm") only this sees. napi-build's script wants emnapi's library folder,
# which napi build passes it.
node-wasm-lint: $(NODE_STAMP) | $(NODE_WASM_TARGET_STAMP)
	EMNAPI_LINK_DIR=$(abspath bindings/node/node_modules/emnapi/lib/wasm32-wasip1) $(CARGO) clippy -p robotstxt-node \
		--lib --target wasm32-wasip1 --profile node-wasm $(NODE_WASM_CARGO) -- -D warnings

# The whole suite with the WebAssembly build forced (the generated loader
# finds the package through NODE_PATH), the Redis tests too.
node-wasm-test: $(NODE_WASM_STAMP) node-build $(REDIS_SERVER)
	cd bindings/node && ROBOTSTXT_BACKEND=wasm NAPI_RS_FORCE_WASI=error \
		ROBOTSTXT_TEST_LIMITS=$(NODE_WASM_LIMITS) NODE_PATH=$(abspath $(NODE_WASM_MODULES)) \
		$(NODE) --test __test__/*.test.mjs

# Debian's chromium, for puppeteer-core (which downloads no browser).
CHROMIUM_STAMP := build/tools/chromium.stamp
chromium: $(CHROMIUM_STAMP)
$(CHROMIUM_STAMP):
	@dpkg-query -W -f='$${Status}' chromium 2>/dev/null | grep -q 'ok installed' \
		|| { apt-get update && apt-get install -y --no-install-recommends chromium; }
	@mkdir -p $(@D) && touch $@

node-wasm-browser-test: $(NODE_WASM_STAMP) $(CHROMIUM_STAMP)
	$(NODE) tools/dist/browser/run.mjs $(NODE_WASM_DIR) tests/vectors

dist-node-wasm: $(NODE_WASM_STAMP)
	rm -rf $(DIST_NODE_WASM) && mkdir -p $(DIST_NODE_WASM)
	cd $(NODE_WASM_PKG) && $(NPM) pack --silent --pack-destination $(abspath $(DIST_NODE_WASM)) >/dev/null
	@test -f $(DIST_NODE_WASM_TGZ)
	@echo "dist-node-wasm: wrote $(DIST_NODE_WASM_TGZ) ($$(stat -c %s $(DIST_NODE_WASM_TGZ)) bytes)"

dist-test-node-wasm: dist-node dist-node-wasm node-wasm-lint $(CHROMIUM_STAMP) $(REDIS_SERVER)
	tools/dist/without-rust bash tools/dist/test-node-wasm.sh $(DIST_NODE_MAIN) $(DIST_NODE_WASM_TGZ)

# node-bench sets the WebAssembly build beside the native one.
node-bench: $(NODE_WASM_STAMP)
bench-build: $(NODE_WASM_STAMP)

dist-all: dist-node-wasm
dist-all-test: dist-test-node-wasm
