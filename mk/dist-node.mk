# Node as a user installs it, in napi-rs's layout. dist-node writes two npm
# tarballs to dist/node: robotstxt-engine (the loader, types, README and
# licences) and robotstxt-engine-linux-x64-gnu (the stripped addon of the
# release build). The first names every native platform's package in
# optionalDependencies at the same version, so npm fetches only the
# machine's own binary; dist-all adds the other platforms' packages
# (mk/platforms/node.mk). dist-test-node installs the two in a temporary
# project without Rust (tools/dist/test-node.sh).

.PHONY: dist-node dist-test-node

DIST_NODE := dist/node
DIST_NODE_STAGE := build/dist/node
# The target built and tested here; napi build names the addon by it.
DIST_NODE_TARGET := linux-x64-gnu
# Every native platform package (bindings/node/npm/<target>): the main
# package names them all; dist-all (mk/platforms/node.mk) builds the others.
DIST_NODE_TARGETS := $(DIST_NODE_TARGET) linux-arm64-gnu linux-x64-musl linux-arm64-musl \
	darwin-x64 darwin-arm64 win32-x64-msvc
# Deferred (=): NODE_DIR comes from mk/node.mk, included after this file.
DIST_NODE_ADDON = $(NODE_DIR)/robotstxt.$(DIST_NODE_TARGET).node
# Deferred: node runs only when a step needs the version.
DIST_NODE_VERSION = $(shell $(NODE) -p "require('./$(NODE_DIR)/package.json').version")
DIST_NODE_MAIN = $(DIST_NODE)/robotstxt-engine-$(DIST_NODE_VERSION).tgz
dist_node_tgz = $(DIST_NODE)/robotstxt-engine-$(1)-$(DIST_NODE_VERSION).tgz
DIST_NODE_PLATFORM = $(call dist_node_tgz,$(DIST_NODE_TARGET))
# A platform package may be this many bytes as npm downloads it (1.5 MiB;
# npm's "package size", the tarball, as a wheel is measured by its file).
# Unpacked it is about twice that, mostly the addon: printed beside it.
DIST_NODE_MAX := 1572864

# dist_node_platform TARGET ADDON: stages bindings/node/npm/TARGET with
# the licences and the stripped ADDON, and packs it into dist/node; the
# package's version must be the main package's.
define dist_node_platform
	@v=$$($(NODE) -p "require('./$(NODE_DIR)/npm/$(1)/package.json').version"); \
		test "$$v" = "$(DIST_NODE_VERSION)" || { echo "dist-node: $(NODE_DIR)/npm/$(1)/package.json" \
		"says $$v, $(NODE_DIR)/package.json $(DIST_NODE_VERSION)" >&2; exit 1; }
	rm -rf $(DIST_NODE_STAGE)/$(1) && mkdir -p $(DIST_NODE_STAGE)/$(1)
	cp $(NODE_DIR)/npm/$(1)/package.json $(NODE_DIR)/npm/$(1)/README.md LICENSE-MIT LICENSE-APACHE \
		$(DIST_NODE_STAGE)/$(1)/
	cp $(2) $(DIST_NODE_STAGE)/$(1)/robotstxt.$(1).node
	cd $(DIST_NODE_STAGE)/$(1) && $(NPM) pack --silent --pack-destination $(abspath $(DIST_NODE)) >/dev/null
	@test -f $(call dist_node_tgz,$(1))
	@size=$$(du -cb $(DIST_NODE_STAGE)/$(1)/* | tail -n 1 | cut -f1); \
		packed=$$(stat -c %s $(call dist_node_tgz,$(1))); \
		echo "dist-node: wrote $(call dist_node_tgz,$(1)) ($$packed bytes;" \
		"$$size unpacked, robotstxt.$(1).node $$(stat -c %s $(DIST_NODE_STAGE)/$(1)/robotstxt.$(1).node))"; \
		test "$$packed" -le $(DIST_NODE_MAX) || { echo "dist-node: robotstxt-engine-$(1) is $$packed bytes" \
		"packed, over $(DIST_NODE_MAX)" >&2; exit 1; }
endef

# The staged main package is bindings/node's without its build scripts and
# dev tools, plus the optional dependencies (napi-rs adds them at publish
# time too, so an in-repo `npm ci` never looks for unpublished packages).
# strip --strip-unneeded: the release build has no debug info left to strip
# (cargo drops it), so the local symbol table is what goes; the dynamic
# symbols Node needs stay.
dist-node: node-build
	@test -f $(DIST_NODE_ADDON) || { echo "dist-node: no $(DIST_NODE_ADDON):" \
		"packages are built on $(DIST_NODE_TARGET) only" >&2; exit 1; }
	@for f in LICENSE-MIT LICENSE-APACHE; do test -f $$f \
		|| { echo "dist-node: $$f is missing at the repository root" >&2; exit 1; }; done
	rm -rf $(DIST_NODE_STAGE)/main $(DIST_NODE_STAGE)/build $(DIST_NODE_MAIN) $(DIST_NODE_PLATFORM)
	mkdir -p $(DIST_NODE_STAGE)/main $(DIST_NODE)
	cp -R $(addprefix $(NODE_DIR)/,package.json index.js index.d.ts lib README.md) \
		LICENSE-MIT LICENSE-APACHE $(DIST_NODE_STAGE)/main/
	cd $(DIST_NODE_STAGE)/main && $(NPM) pkg delete scripts devDependencies \
		&& $(NPM) pkg set $(foreach t,$(DIST_NODE_TARGETS),optionalDependencies.robotstxt-engine-$(t)=$(DIST_NODE_VERSION)) \
			optionalDependencies.robotstxt-engine-wasm32-wasi=$(DIST_NODE_VERSION)
	cd $(DIST_NODE_STAGE)/main && $(NPM) pack --silent --pack-destination $(abspath $(DIST_NODE)) >/dev/null
	@test -f $(DIST_NODE_MAIN)
	@echo "dist-node: wrote $(DIST_NODE_MAIN) ($$(stat -c %s $(DIST_NODE_MAIN)) bytes)"
	@mkdir -p $(DIST_NODE_STAGE)/build
	strip --strip-unneeded -o $(DIST_NODE_STAGE)/build/$(notdir $(DIST_NODE_ADDON)) $(DIST_NODE_ADDON)
	@echo "dist-node: $(notdir $(DIST_NODE_ADDON)) is $$(stat -c %s \
		$(DIST_NODE_STAGE)/build/$(notdir $(DIST_NODE_ADDON))) bytes stripped ($$(stat -c %s $(DIST_NODE_ADDON)) built)"
	$(call dist_node_platform,$(DIST_NODE_TARGET),$(DIST_NODE_STAGE)/build/$(notdir $(DIST_NODE_ADDON)))

dist-test-node: dist-node
	tools/dist/without-rust bash tools/dist/test-node.sh $(DIST_NODE_MAIN) $(DIST_NODE_PLATFORM)
