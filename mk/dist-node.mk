# Node as a user installs it, in napi-rs's layout. dist-node writes two npm
# tarballs to dist/node: robotstxt-engine (the loader, types, README and
# licences) and robotstxt-engine-linux-x64-gnu (the stripped addon of the
# release build), which the first names in optionalDependencies at the same
# version, so npm fetches only the platform's own binary. dist-test-node
# installs both in a temporary project without Rust (tools/dist/test-node.sh).

.PHONY: dist-node dist-test-node

DIST_NODE := dist/node
DIST_NODE_STAGE := build/dist/node
# The only target built and tested here; napi build names the addon by it.
DIST_NODE_TARGET := linux-x64-gnu
# Deferred (=): NODE_DIR comes from mk/node.mk, included after this file.
DIST_NODE_PLATFORM_SRC = $(NODE_DIR)/npm/$(DIST_NODE_TARGET)
DIST_NODE_ADDON = $(NODE_DIR)/robotstxt.$(DIST_NODE_TARGET).node
# Deferred: node runs only when a step needs the version.
DIST_NODE_VERSION = $(shell $(NODE) -p "require('./$(NODE_DIR)/package.json').version")
DIST_NODE_MAIN = $(DIST_NODE)/robotstxt-engine-$(DIST_NODE_VERSION).tgz
DIST_NODE_PLATFORM = $(DIST_NODE)/robotstxt-engine-$(DIST_NODE_TARGET)-$(DIST_NODE_VERSION).tgz

# The staged main package is bindings/node's without its build scripts and
# dev tools, plus the optional dependency (napi-rs adds it at publish time
# too, so an in-repo `npm ci` never looks for an unpublished package).
# strip --strip-unneeded: the release build has no debug info left to strip
# (cargo drops it), so the local symbol table is what goes; the dynamic
# symbols Node needs stay.
dist-node: node-build
	@test -f $(DIST_NODE_ADDON) || { echo "dist-node: no $(DIST_NODE_ADDON):" \
		"packages are built on $(DIST_NODE_TARGET) only" >&2; exit 1; }
	@v=$$($(NODE) -p "require('./$(DIST_NODE_PLATFORM_SRC)/package.json').version"); \
		test "$$v" = "$(DIST_NODE_VERSION)" || { echo "dist-node: $(DIST_NODE_PLATFORM_SRC)/package.json" \
		"says $$v, $(NODE_DIR)/package.json $(DIST_NODE_VERSION)" >&2; exit 1; }
	@for f in LICENSE-MIT LICENSE-APACHE; do test -f $$f \
		|| { echo "dist-node: $$f is missing at the repository root" >&2; exit 1; }; done
	rm -rf $(DIST_NODE_STAGE) $(DIST_NODE)
	mkdir -p $(DIST_NODE_STAGE)/main $(DIST_NODE_STAGE)/$(DIST_NODE_TARGET) $(DIST_NODE)
	cp -R $(addprefix $(NODE_DIR)/,package.json index.js index.d.ts lib README.md) \
		LICENSE-MIT LICENSE-APACHE $(DIST_NODE_STAGE)/main/
	cd $(DIST_NODE_STAGE)/main && $(NPM) pkg delete scripts devDependencies \
		&& $(NPM) pkg set optionalDependencies.robotstxt-engine-$(DIST_NODE_TARGET)=$(DIST_NODE_VERSION)
	cp $(DIST_NODE_PLATFORM_SRC)/package.json $(DIST_NODE_PLATFORM_SRC)/README.md \
		LICENSE-MIT LICENSE-APACHE $(DIST_NODE_STAGE)/$(DIST_NODE_TARGET)/
	strip --strip-unneeded -o $(DIST_NODE_STAGE)/$(DIST_NODE_TARGET)/$(notdir $(DIST_NODE_ADDON)) \
		$(DIST_NODE_ADDON)
	cd $(DIST_NODE_STAGE)/main && $(NPM) pack --silent --pack-destination $(abspath $(DIST_NODE)) >/dev/null
	cd $(DIST_NODE_STAGE)/$(DIST_NODE_TARGET) && $(NPM) pack --silent \
		--pack-destination $(abspath $(DIST_NODE)) >/dev/null
	@test -f $(DIST_NODE_MAIN) && test -f $(DIST_NODE_PLATFORM)
	@echo "dist-node: $(notdir $(DIST_NODE_ADDON)) is $$(stat -c %s \
		$(DIST_NODE_STAGE)/$(DIST_NODE_TARGET)/$(notdir $(DIST_NODE_ADDON))) bytes stripped" \
		"($$(stat -c %s $(DIST_NODE_ADDON)) built)"
	@echo "dist-node: wrote $(DIST_NODE_MAIN) ($$(stat -c %s $(DIST_NODE_MAIN)) bytes)" \
		"and $(DIST_NODE_PLATFORM) ($$(stat -c %s $(DIST_NODE_PLATFORM)) bytes)"

dist-test-node: dist-node
	tools/dist/without-rust bash tools/dist/test-node.sh $(DIST_NODE_MAIN) $(DIST_NODE_PLATFORM)
