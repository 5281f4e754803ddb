# Node.js: the napi-rs addon in bindings/node (npm ci, napi build), its
# `node --test` suites, the polite crawler example and its test, the
# benchmark against robots-parser, and the demo.

.PHONY: node-install node-build node-generated-check node-lint node-test \
	node-bench demo-node

NPM ?= npm
NODE ?= node
NODE_DIR := bindings/node
NODE_EXAMPLE := examples/node
# npm ci writes this file last: it stands for a complete install.
NODE_STAMP := $(NODE_DIR)/node_modules/.package-lock.json
# The examples' own install: a link to $(NODE_DIR) as `robotstxt-engine`.
NODE_EXAMPLE_STAMP := $(NODE_EXAMPLE)/node_modules/.package-lock.json

# @napi-rs/cli and robots-parser, exactly as package-lock.json pins them.
node-install: $(NODE_STAMP)

$(NODE_STAMP): $(NODE_DIR)/package.json $(NODE_DIR)/package-lock.json
	cd $(NODE_DIR) && $(NPM) ci --no-audit --no-fund

# The native addon (robotstxt.<platform>.node, not committed) and the
# generated index.js and index.d.ts (committed, never edited by hand).
node-build: node-install
	cd $(NODE_DIR) && $(NPM) run --silent build

# Fails when the committed index.js/index.d.ts differ from what the build
# generates, as header-check does for the C header.
node-generated-check: node-build
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git diff --exit-code -- $(NODE_DIR)/index.js $(NODE_DIR)/index.d.ts \
		|| { echo "$(NODE_DIR)/index.js or index.d.ts is stale: commit what 'make node-build' generated" >&2; exit 1; }; \
	fi
	@echo "node-generated-check: index.js and index.d.ts match bindings/node/src"

# The binding crate's own lints (rust-lint covers the root crate).
node-lint:
	$(CARGO) fmt -p robotstxt-node -- --check
	$(CARGO) clippy -p robotstxt-node --all-targets -- -D warnings

$(NODE_EXAMPLE_STAMP): $(NODE_EXAMPLE)/package.json $(NODE_EXAMPLE)/package-lock.json
	cd $(NODE_EXAMPLE) && $(NPM) ci --no-audit --no-fund --silent

# The binding crate's unit tests, its suites (typecheck, vectors, API,
# RobotsCache, Pacer.wait, the shared classes against a real Redis), then
# the polite crawler example against its local servers.
node-test: node-build node-generated-check node-lint $(NODE_EXAMPLE_STAMP)
	$(CARGO) test -p robotstxt-node --lib
	cd $(NODE_DIR) && $(NPM) test
	cd $(NODE_EXAMPLE) && $(NODE) --test polite-crawler.test.mjs

# Parse throughput and checks per second against robots-parser, on
# $(ROBOTSTXT_SHARED)/corpus and $(ROBOTSTXT_SHARED)/bench, best of
# $(ROUNDS) passes; with BENCH_MD (`make bench`) also as Markdown in
# $(BENCH_DIR)/node.md.
node-bench: node-build
	$(if $(BENCH_MD),@mkdir -p $(BENCH_DIR))
	cd $(NODE_DIR) && BENCH_PASSES=$(ROUNDS) $(NPM) run --silent bench \
		$(if $(BENCH_MD),-- --markdown $(abspath $(BENCH_DIR))/node.md)

# The practice shop (behaviour §9) through `import ... from 'robotstxt-engine'`.
demo-node: node-build $(NODE_EXAMPLE_STAMP)
	cd $(NODE_EXAMPLE) && $(NODE) shop.mjs

TEST_STEPS += node-test
DEMO_STEPS += demo-node
