# The platforms the packages are built for, and the tools that build for
# the ones this machine is not: Rust's standard library per target
# (rustup), and zig as the linker (ziglang, in the Python build venv with
# maturin). `make dist-all` builds every platform's packages beside the
# native ones; `make dist-all-test` checks each as far as it can be run
# or inspected here, and says which.
#
# So far: the Python wheels of the Linux (glibc and musl, x64 and arm64),
# macOS (x64 and arm64) and Windows (x64) platforms; the C tarballs of
# Linux with musl (x64 and arm64).

.PHONY: cross-tools dist-all dist-all-test dist-python-all dist-test-python-all

# platform: Rust target, wheel compatibility (maturin --compatibility;
# none for macOS, whose deployment target sets the tag).
PLATFORMS := linux-x64-gnu linux-arm64-gnu linux-x64-musl linux-arm64-musl macos-x64 macos-arm64 \
	windows-x64
TRIPLE_linux-x64-gnu := x86_64-unknown-linux-gnu
TRIPLE_linux-arm64-gnu := aarch64-unknown-linux-gnu
TRIPLE_linux-x64-musl := x86_64-unknown-linux-musl
TRIPLE_linux-arm64-musl := aarch64-unknown-linux-musl
TRIPLE_macos-x64 := x86_64-apple-darwin
TRIPLE_macos-arm64 := aarch64-apple-darwin
TRIPLE_windows-x64 := x86_64-pc-windows-gnu
WHEEL_COMPAT_linux-x64-gnu := manylinux2014
WHEEL_COMPAT_linux-arm64-gnu := manylinux2014
WHEEL_COMPAT_linux-x64-musl := musllinux_1_2
WHEEL_COMPAT_linux-arm64-musl := musllinux_1_2
# The oldest macOS each architecture's Rust supports.
MACOS_TARGET_macos-x64 := 10.12
MACOS_TARGET_macos-arm64 := 11.0
# The linker, where zig is not it: Windows' (mingw-w64 from apt), as
# maturin's zig route cannot export a dotted module's PyInit there.
NO_ZIG_windows-x64 := yes
# The native wheel (make python) is linux-x64-gnu's.
CROSS_PLATFORMS := $(filter-out linux-x64-gnu,$(PLATFORMS))

# Each target's standard library, once (rustup skips what it has).
CROSS_STAMP := build/tools/cross-targets.stamp
cross-tools: $(CROSS_STAMP) $(PY_VENV_STAMP)
$(CROSS_STAMP): mk/platforms.mk
	rustup target add $(foreach p,$(CROSS_PLATFORMS),$(TRIPLE_$(p)))
	@command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 && command -v qemu-aarch64-static >/dev/null 2>&1 \
		|| { apt-get update && apt-get install -y --no-install-recommends gcc-mingw-w64-x86-64 \
		qemu-user-static; }
	@mkdir -p $(@D) && touch $@

# One wheel per platform into dist/python, beside dist-python's native wheel
# and source distribution. maturin builds each target in its own folder
# of target/, and finds zig in its venv.
PY_CROSS_OUT = $(PY_OUT)/cross
define wheel_for
	@echo "== wheel for $(1): $(TRIPLE_$(1)) $(WHEEL_COMPAT_$(1))$(MACOS_TARGET_$(1)) =="
	PATH="$(abspath $(PY_VENV))/bin:$$PATH" \
		$(if $(MACOS_TARGET_$(1)),MACOSX_DEPLOYMENT_TARGET=$(MACOS_TARGET_$(1))) \
		$(PY_VENV)/bin/maturin build --release --quiet -m $(PY_DIR)/Cargo.toml \
		-i $(PY_VENV)/bin/python --out $(PY_CROSS_OUT)/$(1) --target $(TRIPLE_$(1)) \
		$(if $(NO_ZIG_$(1)),,--zig) $(if $(WHEEL_COMPAT_$(1)),--compatibility $(WHEEL_COMPAT_$(1)))
	cp $(PY_CROSS_OUT)/$(1)/*.whl $(DIST)/python/

endef

dist-python-all: dist-python cross-tools
	rm -rf $(PY_CROSS_OUT)
	$(foreach p,$(CROSS_PLATFORMS),$(call wheel_for,$(p)))
	@ls $(DIST)/python

# What each wheel is, read from its files: tags, machine, libc, symbol
# versions, minimum macOS (tools/dist/inspect-wheels.py).
dist-test-python-all: dist-python-all
	$(PYTHON) tools/dist/inspect-wheels.py $(DIST)/python

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
C_LIBDIR_$(1) := target/c-musl/$$(TRIPLE_$(1))/release
C_OUT_$(1) := build/c-$(1)
C_TAR_$(1) = $$(DIST)/c/robotstxt-$$(C_VERSION)-$(1).tar.gz
C_STAGE_$(1) = $$(DIST_OUT)/$(1)/robotstxt-$$(C_VERSION)-$(1)

$$(C_OUT_$(1))/.built: cross-tools $$(wildcard bindings/c/src/*.rs src/*.rs src/*/*.rs) include/robotstxt.h
	PATH="$$(abspath $$(PY_VENV))/bin:$$$$PATH" CARGO_TARGET_DIR=target/c-musl \
		$$(CARGO) zigbuild --release -p robotstxt-c --target $$(TRIPLE_$(1)) \
		--config 'target.$$(TRIPLE_$(1)).rustflags=["-C","target-feature=-crt-static","-C","strip=symbols"]'
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

dist-all: dist dist-python-all $(addprefix dist-c-,$(MUSL_PLATFORMS))
dist-all-test: dist-test-python-all $(addprefix dist-test-c-,$(MUSL_PLATFORMS))

TEST_STEPS += dist-all-test
