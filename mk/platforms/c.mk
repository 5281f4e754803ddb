# --- C for Linux with musl, x64 and arm64: built by cargo-zigbuild, run
# here statically linked (arm64 under qemu-user) ---

MUSL_PLATFORMS := linux-x64-musl linux-arm64-musl
ZIG_TARGET_linux-x64-musl := x86_64-linux-musl
ZIG_TARGET_linux-arm64-musl := aarch64-linux-musl
# How this machine runs the platform's programs, and what readelf calls it.
RUN_linux-arm64-musl := qemu-aarch64-static
ELF_MACHINE_linux-x64-musl := X86-64
ELF_MACHINE_linux-arm64-musl := AArch64
ZIG_CC = $(PY_VENV)/bin/python -m ziglang cc -target $(ZIG_TARGET_$(1))

# Per platform $(1): one build without crt-static (musl's default), under
# which rustc would drop the shared library (the archive is the same
# either way); Rust's own unwinder, which the archive's panics need (a C
# toolchain's libgcc_eh is glibc's), merged into the shipped archive, so
# that a static link needs librobotstxt.a and libc alone; a static CLI.
# The linkers strip the .so and the CLI: this machine's strip reads x86-64
# files only, so another architecture's archive ships with its debug info.
define musl_c
C_LIBDIR_$(1) = $$(call CROSS_LIBDIR,$(1))
C_OUT_$(1) := build/c-$(1)
C_TAR_$(1) = $$(DIST)/c/robotstxt-$$(C_VERSION)-$(1).tar.gz
C_STAGE_$(1) = $$(DIST_OUT)/$(1)/robotstxt-$$(C_VERSION)-$(1)

$$(C_OUT_$(1))/.built: $$(call CROSS_STAMP_LIB,$(1))
	@rm -rf $$(C_OUT_$(1)) && mkdir -p $$(C_OUT_$(1))/merge
	cd $$(C_OUT_$(1))/merge && printf 'CREATE librobotstxt.a\nADDLIB %s\nADDLIB %s\nSAVE\nEND\n' \
		$$(abspath $$(C_LIBDIR_$(1)))/librobotstxt.a \
		$$(shell rustc --print sysroot)/lib/rustlib/$$(TRIPLE_$(1))/lib/self-contained/libunwind.a \
		| ar -M && ranlib librobotstxt.a
	$$(call ZIG_CC,$(1)) -static -s -O2 -std=c11 -Wall -Wextra -Werror -Iinclude \
		examples/robotstxt-check.c $$(C_OUT_$(1))/merge/librobotstxt.a -o $$(C_OUT_$(1))/robotstxt-check
	@touch $$@

# After dist-c, which starts dist/c afresh.
dist-c-$(1): $$(C_OUT_$(1))/.built | dist-c
	rm -rf $$(DIST_OUT)/$(1) && mkdir -p $$(DIST)/c
	$$(call c_install_tree,$$(C_STAGE_$(1)),$$$${pcfiledir}/../..,$$(C_OUT_$(1))/merge/librobotstxt.a,$$(C_LIBDIR_$(1))/librobotstxt.so,$$(C_OUT_$(1))/robotstxt-check,-lc)
	install -m 644 README.md LICENSE-MIT LICENSE-APACHE $$(C_STAGE_$(1))/
	$$(if $$(RUN_$(1)),,strip $$(DIST_C_STRIP_A) $$(C_STAGE_$(1))/lib/librobotstxt.a)
	$$(DIST_TAR) -C $$(DIST_OUT)/$(1) -cf - robotstxt-$$(C_VERSION)-$(1) | gzip -9n > $$(C_TAR_$(1))
	@echo "dist-c-$(1): wrote $$(C_TAR_$(1)) ($$$$(stat -c %s $$(C_TAR_$(1))) bytes)"

dist-test-c-$(1): dist-c-$(1) $$(C_OUT)/vectors.h
	bash tools/dist/test-c-musl.sh $$(C_TAR_$(1)) "$$(call ZIG_CC,$(1))" \
		"$$(ELF_MACHINE_$(1))" "$$(RUN_$(1))"

.PHONY: dist-c-$(1) dist-test-c-$(1)
endef
$(foreach p,$(MUSL_PLATFORMS),$(eval $(call musl_c,$(p))))

dist-all: $(addprefix dist-c-,$(MUSL_PLATFORMS))
dist-all-test: $(addprefix dist-test-c-,$(MUSL_PLATFORMS))
