# The platforms the packages are built for, and the tools that build for
# the ones this machine is not: Rust's standard library per target
# (rustup), and zig as the linker (ziglang, in the Python build venv with
# maturin). `make dist-all` builds every platform's packages beside the
# native ones; `make dist-all-test` checks each as far as it can be run
# or inspected here, and says which.
#
# So far: the Python wheels of the Linux (glibc and musl, x64 and arm64),
# macOS (x64 and arm64) and Windows (x64) platforms.

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
	@command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || { apt-get update \
		&& apt-get install -y --no-install-recommends gcc-mingw-w64-x86-64; }
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

dist-all: dist-python-all
dist-all-test: dist-test-python-all

TEST_STEPS += dist-all-test
