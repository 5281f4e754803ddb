# The C ABI crate (bindings/c) built for each platform this machine is not:
# librobotstxt.a and the platform's shared library, in one target folder
# (target/cross) that the C tarballs and the Go module's libraries share.
# `make cross-lib-<platform>`; the platforms and triples: mk/platforms/table.mk.
#
# Linux and macOS link through zig (cargo-zigbuild, from the build venv):
# one linker for every architecture, and glibc 2.17 as the newest a Linux
# gnu library may need (Rust's own floor). Windows links with mingw-w64
# (apt, in cross-tools), which also writes the DLL's import library.

CROSS_TARGET_DIR := target/cross
# Where each platform's libraries land.
CROSS_LIBDIR = $(CROSS_TARGET_DIR)/$(TRIPLE_$(1))/release
CROSS_STAMP_LIB = build/cross/$(1)/.lib

# The shared library's file name, as rustc writes it.
CROSS_SO_linux-arm64-gnu := librobotstxt.so
CROSS_SO_linux-x64-musl := librobotstxt.so
CROSS_SO_linux-arm64-musl := librobotstxt.so
CROSS_SO_macos-x64 := librobotstxt.dylib
CROSS_SO_macos-arm64 := librobotstxt.dylib
CROSS_SO_windows-x64 := robotstxt.dll

# What a static link of librobotstxt.a needs from the system: `rustc
# --print native-static-libs` for the triple. musl's unwinder is merged
# into the shipped archive (mk/platforms/c.mk), so libc is all it needs.
CROSS_NATIVE_LIBS_linux-arm64-gnu := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
CROSS_NATIVE_LIBS_linux-x64-musl := -lc
CROSS_NATIVE_LIBS_linux-arm64-musl := -lc
CROSS_NATIVE_LIBS_macos-x64 := -lSystem -lc -lm
CROSS_NATIVE_LIBS_macos-arm64 := -lSystem -lc -lm
CROSS_NATIVE_LIBS_windows-x64 := -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp

# cargo-zigbuild's target: the triple, with the glibc version for gnu.
ZIGBUILD_TARGET_linux-arm64-gnu := aarch64-unknown-linux-gnu.2.17
# musl's default (crt-static) makes rustc drop the shared library; the
# archive is the same either way.
CROSS_RUSTFLAGS_linux-x64-musl := "-C","target-feature=-crt-static",
CROSS_RUSTFLAGS_linux-arm64-musl := "-C","target-feature=-crt-static",

# The libraries' sources: the engine's and the C ABI crate's.
CROSS_LIB_SOURCES := Cargo.toml Cargo.lock bindings/c/Cargo.toml bindings/c/build.rs \
	$(wildcard bindings/c/src/*.rs src/*.rs src/*/*.rs src/*/*/*.rs)

# The linked outputs are stripped by their linker: this machine's strip
# reads x86-64 ELF only.
define cross_lib
$(call CROSS_STAMP_LIB,$(1)): $(CROSS_LIB_SOURCES) | cross-tools
	$(if $(filter windows-%,$(1)), \
		$(CARGO) build, \
		PATH="$(abspath $(PY_VENV))/bin:$$$$PATH" \
		$(if $(MACOS_TARGET_$(1)),MACOSX_DEPLOYMENT_TARGET=$(MACOS_TARGET_$(1))) \
		$(CARGO) zigbuild) \
		--release -p robotstxt-c --target $(or $(ZIGBUILD_TARGET_$(1)),$(TRIPLE_$(1))) \
		--config 'build.target-dir="$(CROSS_TARGET_DIR)"' \
		--config 'target.$(TRIPLE_$(1)).rustflags=[$(CROSS_RUSTFLAGS_$(1))"-C","strip=symbols"]'
	@test -f $(call CROSS_LIBDIR,$(1))/librobotstxt.a && test -f $(call CROSS_LIBDIR,$(1))/$(CROSS_SO_$(1))
	@mkdir -p $$(@D) && touch $$@

cross-lib-$(1): $(call CROSS_STAMP_LIB,$(1))
.PHONY: cross-lib-$(1)
endef
$(foreach p,$(CROSS_PLATFORMS),$(eval $(call cross_lib,$(p))))

# llvm-objcopy and llvm-strip read every platform's objects (this machine's
# strip reads x86-64 ELF only): rustup's llvm-tools, at rustc's LLVM
# version. The C tarballs, the Go module and the Node packages strip with it.
LLVM_BIN = $(shell rustc --print sysroot)/lib/rustlib/$(shell rustc -vV | sed -n 's/^host: //p')/bin
llvm-tools:
	@test -x $(LLVM_BIN)/llvm-objcopy || rustup component add llvm-tools
.PHONY: llvm-tools
