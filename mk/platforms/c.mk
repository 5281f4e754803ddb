# --- C tarballs for the other platforms: one template (c_platform), told
# each platform's conventions below; the libraries come from lib.mk. The
# tests unpack each tarball outside the tree, without Rust, and run what
# this machine can run (arm64 under qemu-user, Windows under wine); macOS
# programs are linked and inspected only. ---

C_PLATFORMS := $(CROSS_PLATFORMS)

# The C compiler for each platform's programs (the CLI here, the tests in
# tools/dist/test-c-platform.sh): zig, for the same glibc floor (2.17) and
# minimum macOS as the libraries; Windows' is mingw-w64's gcc, the DLL's
# own linker.
ZIG_TARGET_linux-arm64-gnu := aarch64-linux-gnu.2.17
ZIG_TARGET_linux-x64-musl := x86_64-linux-musl
ZIG_TARGET_linux-arm64-musl := aarch64-linux-musl
ZIG_TARGET_macos-x64 := x86_64-macos.$(MACOS_TARGET_macos-x64)
ZIG_TARGET_macos-arm64 := aarch64-macos.$(MACOS_TARGET_macos-arm64)
C_CC_windows-x64 := x86_64-w64-mingw32-gcc
C_CC = $(or $(C_CC_$(1)),$(abspath $(PY_VENV))/bin/python -m ziglang cc -target $(ZIG_TARGET_$(1)))
# What a user of the tarball would compile the tests with: the cross gcc
# of the distribution where there is one, else the same as the CLI's.
C_TEST_CC_linux-arm64-gnu := aarch64-linux-gnu-gcc
C_TEST_CC = $(or $(C_TEST_CC_$(1)),$(call C_CC,$(1)))
# The CLI stands alone: static on musl and Windows (no libgcc or
# winpthread DLL beside it); mingw's own printf, which knows %zu.
C_CLI_FLAGS_linux-x64-musl := -static
C_CLI_FLAGS_linux-arm64-musl := -static
C_CLI_FLAGS_windows-x64 := -static -D__USE_MINGW_ANSI_STDIO=1
# How this machine runs the platform's programs (x64 musl: as they are),
# or why it cannot.
RUN_linux-arm64-gnu := qemu-aarch64-static -L /usr/aarch64-linux-gnu
RUN_linux-arm64-musl := qemu-aarch64-static
RUN_windows-x64 := $(abspath tools/dist/wine/run)
NO_RUN_macos-x64 := no macOS here
NO_RUN_macos-arm64 := no macOS here
C_MACHINE = $(if $(findstring arm64,$(1)),arm64,x86-64)
C_LIBC = $(if $(filter %-musl,$(1)),musl,$(if $(filter linux-%,$(1)),gnu))

# Shipped stripped, as dist-c strips the native archive: debug info and
# the bitcode rustc embeds in the standard library's objects, which no C
# linker reads (Mach-O calls it __LLVM,__bitcode and __LLVM,__cmdline; a
# name a format lacks is ignored). This machine's strip reads x86-64 ELF
# only: llvm-objcopy reads every platform's objects (rustup's llvm-tools:
# the llvm-tools target and LLVM_BIN, mk/platforms/lib.mk).
C_STRIP_A = $(DIST_C_STRIP_A) --remove-section=__LLVM,__bitcode --remove-section=__LLVM,__cmdline

# Per platform $(1): its archive (musl's with Rust's own unwinder merged
# in, which the archive's panics need and a C toolchain's libgcc_eh, being
# glibc's, does not give; so a static link needs librobotstxt.a and libc
# alone), stripped; the CLI linked against it; the tarball; its test.
define c_platform
C_OUT_$(1) := build/c-$(1)
C_TAR_$(1) = $$(DIST)/c/robotstxt-$$(C_VERSION)-$(1).tar.gz
C_STAGE_$(1) = $$(DIST_OUT)/$(1)/robotstxt-$$(C_VERSION)-$(1)
# What c_install_tree (mk/c.mk) lays out.
C_A_$(1) = $$(C_OUT_$(1))/librobotstxt.a
C_SO_$(1) = $$(call CROSS_LIBDIR,$(1))/$$(CROSS_SO_$(1))
C_IMPLIB_$(1) = $$(call CROSS_LIBDIR,$(1))/librobotstxt.dll.a
C_CLI_$(1) = $$(C_OUT_$(1))/robotstxt-check$$(C_TREE_EXE_$$(call C_KIND,$(1)))

$$(C_OUT_$(1))/.built: $$(call CROSS_STAMP_LIB,$(1)) examples/robotstxt-check.c examples/utf8.h \
		include/robotstxt.h | llvm-tools
	@rm -rf $$(C_OUT_$(1)) && mkdir -p $$(C_OUT_$(1))
	$(if $(filter musl,$(call C_LIBC,$(1))), \
		printf 'CREATE %s\nADDLIB %s\nADDLIB %s\nSAVE\nEND\n' $$(abspath $$(C_A_$(1))) \
			$$(abspath $$(call CROSS_LIBDIR,$(1)))/librobotstxt.a \
			$$(shell rustc --print sysroot)/lib/rustlib/$$(TRIPLE_$(1))/lib/self-contained/libunwind.a \
			| $$(LLVM_BIN)/llvm-ar -M, \
		cp $$(call CROSS_LIBDIR,$(1))/librobotstxt.a $$(C_A_$(1)))
	$$(LLVM_BIN)/llvm-objcopy $$(C_STRIP_A) $$(C_A_$(1))
	$$(call C_CC,$(1)) $$(C_CLI_FLAGS_$(1)) -s -O2 -std=c11 -Wall -Wextra -Werror -Iinclude \
		examples/robotstxt-check.c $$(C_A_$(1)) $$(CROSS_NATIVE_LIBS_$(1)) -o $$(C_CLI_$(1))
	@touch $$@

# After dist-c, which starts dist/c afresh.
dist-c-$(1): $$(C_OUT_$(1))/.built | dist-c
	rm -rf $$(DIST_OUT)/$(1) && mkdir -p $$(DIST)/c
	$$(call c_install_tree,$$(C_STAGE_$(1)),$$$${pcfiledir}/../..,$(1))
	install -m 644 README.md LICENSE-MIT LICENSE-APACHE $$(C_STAGE_$(1))/
	$$(DIST_TAR) -C $$(DIST_OUT)/$(1) -cf - robotstxt-$$(C_VERSION)-$(1) | gzip -9n > $$(C_TAR_$(1))
	@printf 'dist-c-$(1): lib/librobotstxt.a %s bytes, built %s\n' \
		"$$$$(stat -c %s $$(C_A_$(1)))" "$$$$(stat -c %s $$(call CROSS_LIBDIR,$(1))/librobotstxt.a)"
	@echo "dist-c-$(1): wrote $$(C_TAR_$(1)) ($$$$(stat -c %s $$(C_TAR_$(1))) bytes)"

dist-test-c-$(1): dist-c-$(1) $$(C_OUT)/vectors.h c-tools $(if $(filter windows-%,$(1)),wine-prefix)
	tools/dist/without-rust bash tools/dist/test-c-platform.sh $$(C_TAR_$(1)) --platform $(1) \
		--kind $(call C_KIND,$(1)) --machine $(call C_MACHINE,$(1)) --cc "$$(call C_TEST_CC,$(1))" \
		$(if $(call C_LIBC,$(1)),--libc $(call C_LIBC,$(1))) \
		$(if $(MACOS_TARGET_$(1)),--min-os $(MACOS_TARGET_$(1))) \
		$(if $(RUN_$(1)),--run "$(RUN_$(1))") $(if $(NO_RUN_$(1)),--no-run "$(NO_RUN_$(1))")

.PHONY: dist-c-$(1) dist-test-c-$(1)
endef
$(foreach p,$(C_PLATFORMS),$(eval $(call c_platform,$(p))))

dist-all: $(addprefix dist-c-,$(C_PLATFORMS))
$(foreach p,$(C_PLATFORMS),$(eval dist-platform-$(p): dist-c-$(p)))
dist-all-test: $(addprefix dist-test-c-,$(C_PLATFORMS))
